package lint

import (
	"cmp"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/azureml"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// pending is a workload kept from the reading of its file until the catalog is formed: what
// its check needs, in a few hundred bytes, and its document, of which only the text is
// kept (Value let go), for the positions of its findings. Its resources are kept as a
// list of amounts rather than the maps a Workload holds.
type pending struct {
	file      string
	line      int
	kind      azureml.Kind
	path      *field.Path
	note      string
	w         workload.Workload // Resources nil: see res
	res       []resourceAmount
	sections  uint8 // which of requests and limits the resources section has (hasRequests, hasLimits)
	hasRes    bool  // a resources section
	decodeErr bool  // decoding found a problem in it: its placement is not resolved
	doc       *document
	py        *pyDoc // instead of doc, for a workload of a Python file
}

// locate returns the findings of errs, errors of the workload, at their places in its
// file.
func (p *pending) locate(errs field.ErrorList) []Finding {
	if p.py != nil {
		return p.py.locate(errs)
	}
	return p.doc.locate(errs)
}

const (
	hasRequests = 1 << iota
	hasLimits
)

// resourceAmount is one amount of a workload's requests or limits.
type resourceAmount struct {
	name  instancetype.ResourceName
	a     instancetype.Amount
	limit bool
}

// keepWorkload keeps what the check of the workload w of d needs.
func keepWorkload(d *document, w azureml.Item) pending {
	p := pending{file: d.file, line: d.line(w.Path), kind: w.Kind, path: w.Path, note: w.Note, w: *w.Workload, decodeErr: len(w.Errors) > 0, doc: d}
	p.w.Resources = nil
	if r := w.Workload.Resources; r != nil {
		p.hasRes = true
		for _, list := range [...]struct {
			l     instancetype.ResourceList
			name  string
			bit   uint8
			limit bool
		}{{r.Requests, "requests", hasRequests, false}, {r.Limits, "limits", hasLimits, true}} {
			if list.l == nil {
				continue
			}
			p.sections |= list.bit
			for name, a := range list.l {
				p.res = append(p.res, resourceAmount{name: name, a: a, limit: list.limit})
			}
		}
	}
	return p
}

// workload returns the workload again, its resources section in maps.
func (p *pending) workload() *workload.Workload {
	w := p.w
	if !p.hasRes {
		return &w
	}
	r := &instancetype.ResourceRequirements{}
	if p.sections&hasRequests != 0 {
		r.Requests = instancetype.ResourceList{}
	}
	if p.sections&hasLimits != 0 {
		r.Limits = instancetype.ResourceList{}
	}
	for _, e := range p.res {
		if e.limit {
			r.Limits[e.name] = e.a
		} else {
			r.Requests[e.name] = e.a
		}
	}
	w.Resources = r
	return &w
}

// workloadCheck resolves and checks the workloads of the inputs.
type workloadCheck struct {
	catalog    *resolve.Catalog
	opts       resolve.Options
	index      *fit.Index
	inputTypes map[string]bool
	keep       bool // keep the placements
	computes   *computeSet
	// tolerations are Options.Tolerations, added to those of each workload's compute.
	tolerations []cluster.Toleration
}

// check resolves the workload p, on the compute cp, and returns its placement (when kept)
// and its findings. Problems of decoding were reported when its file was read.
func (c workloadCheck) check(p *pending, cp computeOf) (Placement, []Finding) {
	w := p.workload()
	pl, errs := validate.Resolve(c.catalog, w, p.path, c.opts)
	if cp.missing && w.ComputePath != nil {
		errs = append(errs, c.computes.notFound(cp.name, w.ComputePath))
	}
	if cp.placeholder != rules.NoPlaceholder && w.ComputePath != nil {
		errs = append(errs, placeholderError(cp.shown, cp.placeholder, w.ComputePath))
	}
	found := foldPlaceholders(p.locate(errs))
	var fits *fit.Result
	if c.index != nil && pl.Found {
		own := w.Resources != nil && w.Kind == workload.OnlineDeployment
		d := fit.DemandOf(pl.NodeSelector(), pl.Requests(), pl.Limits())
		d.Tolerations = cp.tolerations(c.tolerations)
		res := c.index.Check(d)
		fits = &res
		if len(found) == 0 && (own || !c.inputTypes[pl.InstanceType]) {
			// The instance type's own fit is reported at it, when it is an input.
			errs := workloadFit(res, p.path, w, own)
			if keys := scopeTaints(c.index, d, res, cp.rg, cp.ws); len(keys) > 0 {
				addHint(errs, scopeHint(keys, cp.name))
			} else {
				addHint(errs, tolerateHint(res))
			}
			found = p.locate(errs)
		}
	}
	if p.note != "" {
		for _, f := range found {
			f.Err.Detail += " (" + p.note + ")"
		}
	}
	var placement Placement
	if c.keep {
		placement = Placement{
			File: p.file, Line: p.line, DocumentKind: p.kind, Path: p.path,
			Workload: w, Placement: pl, Compute: cmp.Or(cp.name, cp.shown),
			Resolved: pl.Found && len(found) == 0 && !p.decodeErr && (fits == nil || fits.Fits > 0),
			Fit:      fits,
		}
		if cp.def != nil {
			placement.ComputeType = cp.def.c.Type
		}
	}
	return placement, found
}

// maxFolded is the most other placeholders the finding of a workload's first lists.
const maxFolded = 5

// foldPlaceholders returns fs with its findings of placeholders not filled in made one:
// the first by place, which lists the others (a template or an unexpanded heredoc is one
// mistake, however many values it leaves unfilled). fs is modified.
func foldPlaceholders(fs []Finding) []Finding {
	first, n := -1, 0
	for i, f := range fs {
		if f.Rule() != rules.Placeholder {
			continue
		}
		n++
		if first < 0 || f.Line < fs[first].Line || f.Line == fs[first].Line && f.Column < fs[first].Column {
			first = i
		}
	}
	if n < 2 {
		return fs
	}
	var others []Finding
	kept := fs[:0]
	head := fs[first]
	for i, f := range fs {
		switch {
		case i == first:
		case f.Rule() == rules.Placeholder:
			others = append(others, f)
			continue
		}
		kept = append(kept, f)
	}
	sortByPlace(others)
	var b strings.Builder
	b.WriteString("; also not filled in: ")
	for i, f := range others[:min(len(others), maxFolded)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(clip.String(f.Err.Field) + " (line " + strconv.Itoa(f.Line) + ")")
	}
	if len(others) > maxFolded {
		b.WriteString(" and " + strconv.Itoa(len(others)-maxFolded) + " more")
	}
	c := *head.Err // the error may be shared with the document's list: change a copy
	c.Detail += b.String()
	for i := range kept {
		if kept[i].Err == head.Err {
			kept[i].Err = &c
		}
	}
	return kept
}

// scopeHint says why the nodes tainted for a workspace or resource group (keys, see
// scopeTaints) exclude a workload on the compute named compute ("" for none known): its
// workspace or resource group is not known, so its pods tolerate no value of those taints;
// --computes from az ml compute list names them (a compute named without an ARM id has
// them from there), or --tolerate tolerates them.
func scopeHint(keys []string, compute string) string {
	var unknown []string
	for _, k := range keys {
		if k == fit.TaintWorkspace {
			unknown = append(unknown, "workspace")
		} else {
			unknown = append(unknown, "resource group")
		}
	}
	what, verb := strings.Join(unknown, " and "), " is"
	if len(unknown) > 1 {
		verb = " are"
	}
	if compute == "" {
		return "; its " + what + verb + " not known, so its pods tolerate no value of the " + taintWords(keys) + ": add " + tolerateFlags(keys)
	}
	return "; the " + what + " of compute " + clip.Quote(compute) + verb + " not known (it is named without an ARM id), so its pods tolerate no value of the " +
		taintWords(keys) + ": give --computes what az ml compute list -o json prints (each compute's id names its workspace and resource group), or add " +
		tolerateFlags(keys)
}
