package lint

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/azureml"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/textdist"
	"github.com/amlarc-go/instancetypes/workload"
)

// computeDef is a compute target the inputs or Options.Computes describe, with its place.
type computeDef struct {
	c    azureml.Compute
	file string
	line int
	// typePath and typePos are where its type is: the path in its document, and the
	// position.
	typePath *field.Path
	typePos  Position
}

// defineCompute is the computeDef of the compute target item of d.
func defineCompute(d *document, item azureml.ComputeItem) computeDef {
	at := item.Path.Child("type")
	if item.Path == nil {
		at = field.NewPath("type")
	}
	return computeDef{c: item.Compute, file: d.file, line: d.line(item.Path), typePath: at, typePos: d.src.PositionOf(at.String())}
}

// computeSet is what a run knows of the workspace's compute targets: those of
// Options.Computes and of the compute files among the inputs, by name (compared as Azure
// compares resource names, ignoring case; of two of one name the last given is kept).
type computeSet struct {
	byName map[string]computeDef
	given  bool // Options.Computes was given: a name it lacks is a finding
	// conflicts are the findings of a compute given again with another type: at each
	// definition replaced.
	conflicts []Finding
	// names and index: the names sorted, and the index that finds the ones close to a
	// name missing, built on the first miss (once the set is complete).
	indexOnce sync.Once
	names     []string
	index     *textdist.Index
}

// add defines a compute target; one of the name of an earlier one replaces it, and when
// their types differ, that is a finding at the earlier one's type, as it is for the names
// of instance types and nodes given twice.
func (s *computeSet) add(d computeDef) {
	if d.c.Name == "" {
		return
	}
	if s.byName == nil {
		s.byName = map[string]computeDef{}
	}
	key := strings.ToLower(d.c.Name)
	if prev, ok := s.byName[key]; ok && prev.c.Type != d.c.Type {
		e := field.Invalid(prev.typePath, clip.String(prev.c.Type), "compute "+clip.Quote(d.c.Name)+" is given again with type "+
			clip.Quote(d.c.Type)+", at "+d.file+":"+strconv.Itoa(d.typePos.Line)+", which is the one used: one compute has one type; "+
			"remove the one that is wrong")
		e.Origin = rules.ComputeConflict
		s.conflicts = append(s.conflicts, Finding{File: prev.file, Position: prev.typePos, Err: e})
	}
	s.byName[key] = d
}

// readComputes reads Options.Computes: compute files, or what az ml compute list -o json
// or -o yaml prints, each document read as compute targets (azureml.RecogniseCompute: a
// compute file of a name and a type alone is one, whatever it would be taken for among
// manifests). Problems reading them are findings; a file that holds no compute target is
// one too, as it is surely not what was meant.
func readComputes(srcs []inputFile, set *computeSet) []Finding {
	var findings []Finding
	for _, s := range srcs {
		data, err := s.read(nil)
		if err != nil {
			findings = append(findings, fileProblemAt(s.name, 1, UnreadableFile, "cannot read: "+pathError(err)))
			continue
		}
		n := 0
		f := scanFile(s.name, data, asComputes, func(d *document) {
			findings = append(findings, d.locate(d.errs)...)
			for _, c := range d.computes() {
				set.add(defineCompute(d, c))
				n++
			}
		})
		findings = append(findings, f.findings...)
		if n == 0 && !unreadable(f.findings) {
			findings = append(findings, fileProblemAt(s.name, 1, UnreadableFile,
				"holds no Azure ML compute target: --computes takes compute files, or what az ml compute list -o json (or -o yaml) prints"))
		}
	}
	return findings
}

// computeOf is what a run knows of a workload's compute target.
type computeOf struct {
	name     string      // the compute's name, "" when the workload names none (or an expression)
	def      *computeDef // its definition, when its type is known
	missing  bool        // Options.Computes was given and lacks it
	rg, ws   string
	notKnown bool // the workload names a compute whose type is not known
	// shown is the compute as written when it names none: an Azure ML expression, bound
	// when the job is submitted (${{parent.inputs.compute}}), or a placeholder not filled
	// in (<compute>, $COMPUTE), which placeholder says.
	shown       string
	placeholder rules.PlaceholderKind
}

// lookup tells what the run knows of the compute that w names.
func (s *computeSet) lookup(w *workload.Workload) computeOf {
	ref := azureml.ParseCompute(w.Compute)
	if ref.Expression {
		return computeOf{notKnown: true, shown: w.Compute}
	}
	if k := rules.PlaceholderOf(w.Compute); k != rules.NoPlaceholder && ref.Name != "" {
		return computeOf{notKnown: true, shown: w.Compute, placeholder: k}
	}
	if ref.Name == "" {
		return computeOf{}
	}
	c := computeOf{name: ref.Name, rg: ref.ResourceGroup, ws: ref.Workspace}
	if d, ok := s.byName[strings.ToLower(ref.Name)]; ok {
		c.name = d.c.Name
		c.rg, c.ws = cmp.Or(d.c.ResourceGroup, c.rg), cmp.Or(d.c.Workspace, c.ws)
		if d.c.KnownType() {
			c.def = &d
		} else {
			c.notKnown = true // a type Azure ML does not know, which decoding reported
		}
		return c
	}
	c.notKnown, c.missing = true, s.given
	return c
}

// tolerations are the tolerations of a workload on the compute c: Azure ML's for its
// workload pods (fit.Workload), then the caller's.
func (c computeOf) tolerations(extra []cluster.Toleration) []cluster.Toleration {
	return append(fit.Workload(c.rg, c.ws, c.name), extra...)
}

// notFound is the finding of a compute name that Options.Computes lacks, at path, with
// the names nearest it.
func (s *computeSet) notFound(name string, path *field.Path) *field.Error {
	s.indexOnce.Do(func() {
		for _, d := range s.byName {
			s.names = append(s.names, d.c.Name)
		}
		slices.Sort(s.names)
		s.index = textdist.NewIndex(s.names)
	})
	names := s.names
	detail := "not among the compute targets given (--computes)"
	if near := nearestNames(name, s.index); len(near) > 0 {
		detail += "; did you mean " + quoteList(near, " or ") + "?"
	} else if len(names) > 0 {
		detail += "; they are " + quoteList(names[:min(len(names), 10)], " and ")
		if len(names) > 10 {
			detail += " and " + strconv.Itoa(len(names)-10) + " more"
		}
	}
	e := field.NotFound(path, clip.String(name))
	e.Detail = detail
	e.Origin = rules.ComputeNotFound
	return e
}

// placeholderError is the finding of a compute, at path, that is a placeholder of kind k
// not filled in.
func placeholderError(value string, k rules.PlaceholderKind, path *field.Path) *field.Error {
	return field.Invalid(path, clip.String(value), "not filled in: "+k.Describe()+
		"; write the name of the Kubernetes compute target the workload runs on, azureml:NAME (az ml compute list lists them)").WithOrigin(rules.Placeholder)
}

// nearestNames returns the names of x within a small edit distance of name (or equal to
// it but for ASCII case), nearest first, at most three: a walk of the index, not a
// comparison with each name.
func nearestNames(name string, x *textdist.Index) []string {
	var out []string
	for _, h := range x.Nearest(name, min(3, max(1, len(name)/3)), 3) {
		out = append(out, x.Name(h.Index))
	}
	return out
}

// quoteList renders names quoted, as "a", "b" and "c" (with last as the last separator).
func quoteList(names []string, last string) string {
	var b strings.Builder
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			b.WriteString(last)
		default:
			b.WriteString(", ")
		}
		b.WriteString(clip.Quote(n))
	}
	return b.String()
}

// skipReason says why a workload on a compute target known not to be Kubernetes is not
// checked.
func skipReason(p *pending, d *computeDef) string {
	typ := article(d.c.Type)
	if strings.HasPrefix(d.c.Type, "***") {
		typ = "of a type azure-ai-ml does not support"
	}
	return workloadWords(p) + " runs on compute " + clip.Quote(d.c.Name) + ", " + typ + " (" + d.file + ":" + strconv.Itoa(d.line) +
		"), not a Kubernetes compute: no instance type applies"
}

// workloadWords names a workload for a message: "a command job", "pipeline step
// jobs.train".
func workloadWords(p *pending) string {
	if p.path != nil {
		if p.kind == azureml.KindPipelineJob {
			return "pipeline step " + p.path.String()
		}
		return p.path.String()
	}
	switch p.kind {
	case azureml.KindJob:
		return "a command job"
	case azureml.KindSweepJob:
		return "a sweep job"
	case azureml.KindAutoMLJob:
		return "an AutoML job"
	case azureml.KindBatchDeployment:
		return "a batch deployment"
	}
	return article(string(p.kind))
}

// article returns s after "a" or "an".
func article(s string) string {
	if s != "" && strings.ContainsRune("aeioAEIO", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}
