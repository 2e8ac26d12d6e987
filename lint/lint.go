package lint

import (
	"cmp"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/plan"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/selector"
	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/validate"
)

// DefaultMaxFindings is the most findings reported for one file when Options.MaxFindings
// is 0.
const DefaultMaxFindings = 1000

// Options are the settings of a run.
type Options struct {
	// NodeSelector is the extension's own nodeSelector, which applies to every instance
	// type (R7). Nil means the extension has none.
	NodeSelector map[string]string
	// StrictSubset applies the literal subset rule: every key and value of an instance
	// type's nodeSelector must also be in NodeSelector.
	StrictSubset bool
	// Catalog are the instance types the cluster already has, as kubectl get
	// instancetypes -o yaml prints them. Workloads are checked against them; they are not
	// checked themselves (but problems reading them are reported), and an instance type of
	// the inputs with the same name replaces one of them, as kubectl apply would.
	Catalog []Input
	// Nodes are the cluster's nodes, as kubectl get nodes -o yaml prints them. With
	// nodes, every instance type of the inputs, and every workload with resources of its
	// own or an instance type from Catalog, must fit some schedulable node whose labels
	// match its effective selector and whose taints its pods tolerate (see package fit and
	// Tolerations); the report says how many nodes each instance type and placement fits.
	Nodes []Input
	// Computes are the workspace's compute targets: compute files (az ml compute create
	// --file), or what az ml compute list -o json (or -o yaml) prints. With them, and with
	// the compute files among the inputs, a workload on a compute known not to be
	// Kubernetes is skipped, with why; one on a Kubernetes compute is checked; one on a
	// compute of unknown type is checked, and its Placement says the type is not known.
	// With Computes, a compute name they lack is a finding.
	Computes []Input
	// Tolerations are tolerations the fit check adds (the command's --tolerate) to those
	// of Azure ML's pods (fit.Workload): of a workload's, with its compute target; of an
	// instance type's, with none.
	Tolerations []cluster.Toleration
	// Exclude are patterns (path.Match) of paths to leave out of directory walks; a
	// pattern matches a path when it matches the path, or any trailing part of it that
	// starts at a path element ("templates", "charts/*", "*.json"). The path is that of
	// the file or directory relative to the directory walked, or to ExcludeDir.
	Exclude []string
	// ExcludeDir, when set, is the directory the patterns of Exclude are relative to
	// (relative itself to the working directory, unless absolute): a path a walk of the
	// file system meets is matched by its path relative to ExcludeDir, so that a pattern
	// names the same files whatever directory is walked, from wherever. A config file's
	// patterns are relative to its directory (Config.Dir). It does not apply to the
	// walks of an fs.FS, whose paths are matched as they are.
	ExcludeDir string
	// MaxFindings is the most findings reported for one file (those of its first lines);
	// one more says how many were left out. 0 means DefaultMaxFindings; below 0, no limit.
	MaxFindings int
	// NoPlacements leaves Report.Placements empty, for a caller that wants the findings
	// only: placements are kept in memory to the end of the run, one per workload.
	NoPlacements bool
	// Ignore suppresses the findings of rules, everywhere or in some files (see Ignore);
	// suppression comments in the files suppress findings too. Suppressed findings are in
	// Report.Suppressed, not in Report.Findings.
	Ignore []Ignore
	// ConfigFindings are the problems of the config file the options come from
	// (Config.Findings), reported among the run's findings.
	ConfigFindings []Finding
}

// Run checks the inputs as the instancetype command does and returns everything it found:
// every document is read as kubectl reads it; instance types are checked by the rules of
// package validate, their names across all the inputs; each deployment and job is resolved
// once against the catalog and checked. It fails only when an input cannot be read at all
// (one made with a nil reader or fs.FS, an empty path, a path that does not exist, a file that cannot be opened, a directory that cannot be
// listed), a directory named as an input holds no manifest, or nothing in it is checked or
// found (every file skipped or empty, as in a .github directory); every other problem, down to
// an unreadable file or directory met in a walk, is a finding.
//
// Each file is read and parsed once: what the check of a workload needs once the catalog is
// formed is kept as a compact record, not its document. Only past about 55,000 workloads in
// one run (see maxPending) are the files holding the rest read a second time, so that memory
// stays bounded. Files are read in parallel, at most one document's parse tree at a time
// each, in memory bounded whatever the number of files; the report does not depend on the
// order they finish in.
func Run(inputs []Input, opts Options) (*Report, error) {
	r, err := start(inputs, opts)
	if err != nil {
		return nil, err
	}
	r.readInputs()
	r.formCatalog()
	r.checkNames()
	r.checkWorkloads()
	rep := r.finish()
	if err := r.nothingChecked(rep); err != nil {
		return nil, err
	}
	return rep, nil
}

// under reports whether the path p, as a walk names it, is in the directory d, as named.
func under(p, d string) bool {
	if d == "." {
		return !filepath.IsAbs(p)
	}
	d = strings.TrimRight(d, "/"+string(filepath.Separator))
	return p == d || strings.HasPrefix(p, d+"/") || strings.HasPrefix(p, d+string(filepath.Separator))
}

// nothingChecked returns the error of a directory named as an input in which no document
// was checked and nothing was found, every file of it skipped or empty (a .github directory
// holds GitHub workflows only): the user meant another directory, as when it holds no
// manifest at all. The error says why the files were skipped.
func (r *run) nothingChecked(rep *Report) error {
	type dirCount struct{ files, documents, found, notLiteral int }
	var dirs []string
	count := map[string]*dirCount{}
	dirOf := map[string]string{}
	for _, f := range r.files {
		d := f.src.dir
		if d == "" {
			continue
		}
		c := count[d]
		if c == nil {
			c = &dirCount{}
			count[d] = c
			dirs = append(dirs, d)
		}
		c.files++
		c.documents += f.documents
		c.notLiteral += f.notLiteral
		dirOf[f.name] = d
	}
	for _, f := range rep.Findings {
		if d, ok := dirOf[f.File]; ok {
			count[d].found++
		}
	}
	for _, s := range rep.Suppressed {
		if d, ok := dirOf[s.File]; ok {
			count[d].found++
		}
	}
	// A problem met walking a directory (a subdirectory that cannot be listed) is in no
	// file read: it counts for each named directory its path is under.
	for _, f := range r.walked {
		for _, d := range dirs {
			if under(f.File, d) {
				count[d].found++
			}
		}
	}
	for _, d := range dirs {
		c := count[d]
		if c.documents > 0 || c.found > 0 {
			continue
		}
		var reasons []string
		for _, s := range rep.Skipped {
			if dirOf[s.File] == d && !slices.Contains(reasons, s.Reason) && len(reasons) < 2 {
				reasons = append(reasons, s.Reason)
			}
		}
		what := "its file holds no document"
		if c.files > 1 {
			what = "its " + strconv.Itoa(c.files) + " files hold no document"
		}
		switch {
		case len(reasons) > 0:
			what += " the tool checks, only what it skips: " + strings.Join(reasons, "; ")
		case c.notLiteral > 0:
			values := strconv.Itoa(c.notLiteral) + " values not literal, which are"
			if c.notLiteral == 1 {
				values = "1 value not literal, which is"
			}
			what += " the tool checks: the azure-ai-ml calls of its Python files have " + values + " not checked"
		}
		return &usageError{d + ": nothing checked in this directory: " + what}
	}
	return nil
}

// run is one Run, phase by phase.
type run struct {
	opts      Options
	vopts     resolve.Options
	limit     int // the most findings of a file
	srcs      []inputFile
	walked    []Finding // problems met walking the inputs
	walkSkips []Skip    // files the walks did not read
	// cluster and nodes are what Options.Catalog and Options.Nodes hold, nil without.
	cluster *catalogInputs
	nodes   *nodeInputs
	index   *fit.Index // of the nodes, nil without
	// planner plans the instance types of the inputs on the nodes (rule stranded), made
	// on first use by typePlanner.
	plannerOnce sync.Once
	planner     *plan.Planner
	computes    computeSet
	// computeFindings are those of reading Options.Computes.
	computeFindings []Finding
	files           []*fileResult
	// kept are the instance types of the inputs kept for the catalog while the files are
	// read; inputTypes their names.
	kept       *keptTypes
	inputTypes map[string]bool
	// later are the findings about a file found once every file is read: of its names
	// and its workloads.
	later map[*fileResult][]Finding
	// placementsCut is set once a workload is left out of Report.Placements, past
	// MaxPlacements.
	placementsCut bool
	// pendingBytes is about the memory the workloads kept take (see maxPending).
	pendingBytes atomic.Int64
	// retained is the text of the documents kept for the positions of their instance
	// types (see maxRetained).
	retained atomic.Int64
	supp     suppressor
	report   *Report
}

// start checks the options, lists the files of the inputs, and reads the cluster's
// instance types and nodes.
func start(inputs []Input, opts Options) (*run, error) {
	for _, set := range [][]Input{inputs, opts.Catalog, opts.Nodes, opts.Computes} {
		for _, in := range set {
			if err := in.check(); err != nil {
				return nil, err
			}
		}
	}
	for _, pat := range opts.Exclude {
		if err := ValidExclude(pat); err != nil {
			return nil, &usageError{"bad --exclude pattern " + strconv.Quote(pat) + ": " + err.Error()}
		}
	}
	// Directories that patterns are relative to are made absolute once, from the working
	// directory of the run's start.
	var cwd string
	absDir := func(dir string) (string, error) {
		if filepath.IsAbs(dir) {
			return filepath.Clean(dir), nil
		}
		if cwd == "" {
			var err error
			if cwd, err = os.Getwd(); err != nil {
				return "", err
			}
		}
		return filepath.Join(cwd, dir), nil
	}
	ex := excluder{patterns: opts.Exclude}
	if opts.ExcludeDir != "" {
		var err error
		if ex.dir, err = absDir(opts.ExcludeDir); err != nil {
			return nil, err
		}
	}
	var ignores []Ignore
	for _, ig := range opts.Ignore {
		parsed, err := ParseIgnore(ig.Rule + "=" + ig.Glob)
		if err != nil {
			return nil, &usageError{"bad ignore of " + strconv.Quote(ig.Rule) + ": " + err.Error()}
		}
		parsed.Source = ig.Source
		if ig.Dir != "" && ig.Glob != "" {
			if parsed.Dir, err = absDir(ig.Dir); err != nil {
				return nil, err
			}
		}
		ignores = append(ignores, parsed)
	}
	r := &run{
		opts:   opts,
		vopts:  resolve.Options{NodeSelector: opts.NodeSelector, StrictSubset: opts.StrictSubset},
		limit:  cmp.Or(opts.MaxFindings, DefaultMaxFindings),
		later:  map[*fileResult][]Finding{},
		supp:   suppressor{ignores: ignores, cwd: cwd},
		report: &Report{origins: map[string]*typeDef{}},
	}
	var err error
	if r.srcs, r.walked, r.walkSkips, err = expand(inputs, ex); err != nil {
		return nil, err
	}
	if len(opts.Catalog) > 0 {
		srcs, problems, skipped, err := expand(opts.Catalog, ex)
		if err != nil {
			return nil, err
		}
		r.cluster = r.readCatalog(srcs)
		r.cluster.findings = append(r.cluster.findings, problems...)
		r.cluster.skipped = append(r.cluster.skipped, skipped...)
	}
	if len(opts.Computes) > 0 {
		srcs, problems, skipped, err := expand(opts.Computes, ex)
		if err != nil {
			return nil, err
		}
		r.computes.given = true
		r.computeFindings = append(readComputes(srcs, &r.computes), problems...)
		r.walkSkips = append(r.walkSkips, skipped...)
	}
	if len(opts.Nodes) > 0 {
		srcs, problems, skipped, err := expand(opts.Nodes, ex)
		if err != nil {
			return nil, err
		}
		r.nodes = readNodes(srcs)
		r.nodes.findings = append(r.nodes.findings, problems...)
		r.walkSkips = append(r.walkSkips, skipped...)
		if r.nodes.index.Len() > 0 || !unreadable(r.nodes.findings) {
			r.index = r.nodes.index
			r.report.Nodes = r.index.Len()
			r.report.ClusterNodes = r.nodes.nodes
			r.report.fits = map[string]fit.Result{}
		}
		// Else no node could be read at all: that is the finding, not every instance type
		// fitting none.
	}
	return r, nil
}

// readInputs reads and checks every file of the inputs, in parallel, each once: what can be
// checked of a file alone (decoding, each instance type by itself), and the documents
// holding workloads, kept for checkWorkloads.
func (r *run) readInputs() {
	r.files = make([]*fileResult, len(r.srcs))
	room := maxInstanceTypes
	if r.cluster != nil {
		room -= len(r.cluster.types)
	}
	r.kept = newKeptTypes(len(r.srcs), max(0, room))
	inParallel(r.srcs, func(i int, data []byte, err error) {
		r.files[i] = r.checkFile(i, r.srcs[i], data, err)
	})
	for i, f := range r.files {
		f.types = r.kept.files[i]
		if t := r.kept.dropped[i]; t != nil {
			r.addLater(f, tooMany(f.name, t.namePos()))
		}
	}
	r.kept = nil
	r.report.Files = len(r.srcs)
	for _, f := range r.files {
		for _, c := range f.computes {
			r.computes.add(c)
		}
	}
	r.computeFindings = append(r.computeFindings, r.computes.conflicts...)
}

// formCatalog forms the catalog: the built-in default, the cluster's instance types, then
// those of the inputs, the last definition of a name in effect; and, with nodes, the fit of
// each of its instance types.
func (r *run) formCatalog() {
	var types []*instancetype.InstanceType
	if r.cluster != nil {
		for _, t := range r.cluster.types {
			types = append(types, t.it)
			r.report.origins[t.it.Name] = t
		}
	}
	r.inputTypes = map[string]bool{}
	for _, f := range r.files {
		for _, t := range f.types {
			types = append(types, t.it)
			r.report.origins[t.it.Name] = t
			r.inputTypes[t.it.Name] = true
		}
	}
	r.report.Catalog = resolve.NewCatalog(types...)
	r.report.NamesChecked = len(types) > 0
	r.vopts.NamesUnchecked = !r.report.NamesChecked
	if r.index != nil {
		for it := range r.report.Catalog.All() {
			if sel, err := selector.Merge(r.opts.NodeSelector, it.Spec.NodeSelector); err == nil {
				d := fit.DemandOf(sel, it.Spec.Resources.Requests, it.Spec.Resources.Limits)
				d.Tolerations = r.typeTolerations()
				r.report.fits[it.Name] = r.index.Check(d)
			}
		}
	}
}

// checkNames reports the names of instance types defined more than once among the inputs,
// at each definition not in effect.
func (r *run) checkNames() {
	var defs []validate.Source
	var places []*typeDef
	var owners []*fileResult
	names := map[string]int{}
	for _, f := range r.files {
		for _, t := range f.types {
			names[t.it.Name]++
		}
	}
	for _, f := range r.files {
		for _, t := range f.types {
			origin := ""
			if names[t.it.Name] > 1 {
				// Only a name given twice is placed, so that the others' files are not
				// parsed for positions.
				origin = t.file + ":" + strconv.Itoa(t.namePos().Line)
			}
			defs = append(defs, validate.Source{InstanceType: t.it, Path: t.path, Origin: origin})
			places = append(places, t)
			owners = append(owners, f)
		}
	}
	for i, errs := range validate.UniqueNames(defs) {
		for _, e := range errs {
			r.addLater(owners[i], Finding{File: places[i].file, Position: places[i].namePos(), Err: e})
		}
	}
}

// checkWorkloads resolves and checks each workload of the inputs once, against the catalog,
// in the documents kept when the files were read.
func (r *run) checkWorkloads() {
	w := workloadCheck{catalog: r.report.Catalog, opts: r.vopts, index: r.index, inputTypes: r.inputTypes, keep: !r.opts.NoPlacements,
		computes: &r.computes, tolerations: r.opts.Tolerations}
	checkOne := func(f *fileResult, p *pending) {
		c := r.computes.lookup(&p.w)
		if c.def != nil && !c.def.c.Kubernetes() {
			f.skipped = append(f.skipped, Skip{File: f.name, Line: p.line, Reason: skipReason(p, c.def)})
			if r.limit >= 0 && len(f.skipped) > 2*r.limit+64 {
				var n int
				f.skipped, n = cappedSkips(f.skipped, r.limit)
				f.moreSkips += n
			}
			if p.path == nil {
				f.documents-- // the document is its workload: it is skipped, not checked
			}
			return
		}
		pl, fs := w.check(p, c)
		if p.py != nil {
			fs = p.py.unseen(fs)
		}
		switch {
		case !w.keep:
		case len(r.report.Placements) < maxPlacements:
			r.report.Placements = append(r.report.Placements, pl)
		case !r.placementsCut:
			r.placementsCut = true
			fs = append(fs, placementsCut(f.name, p.line))
		}
		r.addLater(f, fs...)
		r.report.Workloads++
	}
	for _, f := range r.files {
		for i := range f.workloads {
			checkOne(f, &f.workloads[i])
		}
		f.workloads = nil
		if !f.again {
			continue
		}
		data, err := f.data, error(nil)
		if data == nil {
			data, err = f.src.read(nil)
		}
		if err != nil {
			// The file is gone or changed since it was read: say so rather than miss its
			// workloads.
			r.addLater(f, fileProblemAt(f.name, 1, UnreadableFile, "cannot read again: "+pathError(err)))
			continue
		}
		scanFile(f.name, data, asInput, func(d *document) {
			for _, item := range d.workloads() {
				p := keepWorkload(d, item)
				checkOne(f, &p)
			}
		})
		f.data = nil
	}
}

// finish puts the findings together, each file's capped, then all sorted. The findings of
// reading the cluster's instance types and nodes, and of the walks, are merged with those of
// the file they are about, which may be an input too, so that each file has one cap and one
// count.
func (r *run) finish() *Report {
	rep := r.report
	others := map[string][]Finding{}
	var otherFiles []string
	addOthers := func(fs []Finding) {
		for _, f := range fs {
			if _, ok := others[f.File]; !ok {
				otherFiles = append(otherFiles, f.File)
			}
			others[f.File] = append(others[f.File], f)
		}
	}
	if r.cluster != nil {
		addOthers(r.cluster.findings)
		rep.Skipped = append(rep.Skipped, r.cluster.skipped...)
	}
	if r.nodes != nil {
		addOthers(r.nodes.findings)
	}
	addOthers(r.computeFindings)
	addOthers(r.walked)
	addOthers(r.opts.ConfigFindings)
	rep.Skipped = append(rep.Skipped, r.walkSkips...)
	// A file a walk met but could not read (a dangling symlink) is one of the files, so
	// that the summary's counts agree with its findings.
	read := map[string]bool{}
	for _, s := range r.srcs {
		read[s.name] = true
	}
	for _, f := range r.walked {
		if !read[f.File] {
			read[f.File] = true
			rep.Files++
		}
	}
	var suppressed []Suppressed
	moreSuppressed := 0
	for _, f := range r.files {
		rep.Documents += f.documents
		rep.NotLiteral += f.notLiteral
		skipped, more := cappedSkips(f.skipped, r.limit)
		rep.Skipped = append(rep.Skipped, withMoreSkips(f.name, skipped, f.moreSkips+more)...)
		later := r.later[f]
		if fs, ok := others[f.name]; ok {
			// A finding of reading the file twice is one, kept or suppressed.
			read := make([]Finding, 0, len(f.suppressed))
			for _, s := range f.suppressed {
				read = append(read, s.Finding)
			}
			later = append(later, withoutRepeats(fs, f.findings, later, read)...)
			delete(others, f.name)
		}
		// Every finding of the file has met its comments: those that suppressed nothing
		// are known.
		later = r.supp.filter(later, f.comments, &f.suppressed)
		about := append(f.commentProblems, unused(f.name, f.comments)...)
		later = append(later, r.supp.filter(about, nil, &f.suppressed)...)
		suppressed = append(suppressed, f.suppressed...)
		moreSuppressed += f.moreSuppressed
		rep.Findings = append(rep.Findings, capped(f.name, f.findings, f.more+f.moreLater, later, r.limit)...)
		rep.Notes = append(rep.Notes, f.notes...)
	}
	sortByPlace(rep.Notes)
	for _, file := range otherFiles {
		if fs, ok := others[file]; ok {
			fs = r.supp.filter(fs, nil, &suppressed)
			rep.Findings = append(rep.Findings, capped(file, nil, 0, fs, r.limit)...)
			delete(others, file)
		}
	}
	rep.SuppressedCount = len(suppressed) + moreSuppressed
	rep.Suppressed = sortSuppressed(suppressed, r.limit)
	sortFindings(rep.Findings)
	slices.SortStableFunc(rep.Skipped, func(a, b Skip) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return rep
}

// maxNotes is the most notes a file reports.
const maxNotes = 100

// namespaceNote is the note of an InstanceType, at p, that gives metadata.namespace ns: an
// InstanceType is cluster-scoped, and the API server drops the namespace of a
// cluster-scoped object it creates (kubectl apply sends it as written).
func namespaceNote(ns string, p *field.Path) *field.Error {
	return field.Invalid(p.Child("metadata", "namespace"), clip.String(ns),
		"ignored: "+clip.Quote(ns)+": an InstanceType is cluster-scoped, so the API server drops its namespace, and the instance type "+
			"serves every namespace; leave metadata.namespace out")
}

// unreadable reports a problem among fs that kept a file from being read: one that is not
// YAML or JSON, that is over the reader's limits, or that cannot be opened.
func unreadable(fs []Finding) bool {
	for _, f := range fs {
		switch f.Type {
		case SyntaxError, InputLimit, UnreadableFile:
			return true
		}
	}
	return false
}

// typeTolerations are the tolerations of an instance type's pods, which no compute is
// known for: Azure ML's for workloads, and Options.Tolerations.
func (r *run) typeTolerations() []cluster.Toleration {
	return append(fit.Workload("", "", ""), r.opts.Tolerations...)
}

// typePlanner is the planner of the nodes for rule stranded, with the overhead of an
// online deployment's pods, made once, when the first instance type needs it.
func (r *run) typePlanner() *plan.Planner {
	r.plannerOnce.Do(func() {
		r.planner = plan.New(r.nodes.nodes, plan.Options{NodeSelector: r.opts.NodeSelector, Tolerations: r.opts.Tolerations, Overhead: plan.DefaultOverhead(plan.Deployment)})
	})
	return r.planner
}

// usageError is an error in the options.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// capped merges the findings of reading a file (sorted, the first limit of them, with more
// left out) and the others about it (those of its workloads, of its names, of reading it as
// the cluster's instance types or nodes), and keeps the first limit by line, adding one
// finding that counts the rest. The count is placed at the last finding kept, and
// sortFindings keeps it after every other finding of the file.
func capped(file string, read []Finding, more int, later []Finding, limit int) []Finding {
	sortByPlace(later)
	all := append(read, later...)
	sortByPlace(all)
	if limit < 0 || len(all)+more <= limit {
		return all
	}
	left := len(all) + more - limit
	all = all[:limit]
	count := fileProblemAt(file, 1, TooManyFindings,
		strconv.Itoa(left)+" more findings in this file are not shown; fix these first, or raise the limit")
	if limit > 0 {
		count.Position = all[limit-1].Position
	}
	return append(all, count)
}

// sortFindings orders findings by file, line and column, keeping the order of findings at
// the same place, except that the count of a file's findings left out (TooManyFindings)
// comes after all the others of its file, wherever it is placed.
func sortFindings(fs []Finding) {
	slices.SortStableFunc(fs, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File),
			cmp.Compare(countRank(a), countRank(b)),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
}

func countRank(f Finding) int {
	if f.Type == TooManyFindings {
		return 1
	}
	return 0
}

// withoutRepeats returns the findings of fs that are not among those of the other lists:
// a file given both as an input and as the cluster's instance types or nodes is read twice,
// and a problem of reading it (a syntax error) is one finding.
func withoutRepeats(fs []Finding, others ...[]Finding) []Finding {
	type key struct {
		pos              Position
		field, typ, body string
	}
	keyOf := func(f Finding) key { return key{f.Position, f.Err.Field, f.TypeName(), f.Message()} }
	seen := map[key]bool{}
	for _, l := range others {
		for _, f := range l {
			seen[keyOf(f)] = true
		}
	}
	var out []Finding
	for _, f := range fs {
		if !seen[keyOf(f)] {
			out = append(out, f)
		}
	}
	return out
}

// typeDef is an instance type of the inputs or of the cluster, with its place.
type typeDef struct {
	it   *instancetype.InstanceType
	file string
	path *field.Path
	// doc is its document, until where its metadata.name is (pos) is asked for: only
	// the catalog's listing and the findings about a name given twice ask, so that a run
	// without them parses no document for positions.
	doc *source.Document
	pos Position
	// cluster reports an instance type of Options.Catalog.
	cluster bool
	// seq is its place among the instance types of its file kept (see keptTypes).
	seq int
}

// namePos is where the instance type's metadata.name is.
func (t *typeDef) namePos() Position {
	if t.doc != nil {
		t.pos, t.doc = t.doc.PositionOf(t.path.Child("metadata", "name").String()), nil
	}
	return t.pos
}

// maxRetained bounds the text of the documents typeDefs keep for their positions: past it,
// the positions of a document's instance types are found as it is read, and it is not
// kept.
var maxRetained int64 = 256 << 20

// defines returns the typeDefs of the named instance types of the document d.
func (r *run) defines(d *document) []*typeDef {
	var out []*typeDef
	for _, it := range d.instanceTypes() {
		if it.Object.Name != "" {
			out = append(out, &typeDef{it: compact(it.Object), file: d.file, path: it.Path, doc: d.src})
		}
	}
	if len(out) > 0 && r.retained.Add(int64(len(d.src.Text()))) > maxRetained {
		for _, t := range out {
			t.namePos()
		}
	}
	return out
}

// fileResult is what reading one file found.
type fileResult struct {
	src       inputFile
	name      string
	findings  []Finding // sorted, at most the limit
	more      int       // findings left out of findings
	skipped   []Skip
	types     []*typeDef
	computes  []computeDef
	workloads []pending // for checkWorkloads
	notes     []Finding // Report.Notes of the file, at most maxNotes
	// again reports a file whose workloads were not kept, the run's budget for them being
	// spent: checkWorkloads reads it again. data holds its contents when its source cannot
	// be read twice.
	again     bool
	data      []byte
	documents int
	// moreSkips, moreLater and moreSuppressed count the skipped documents, the findings
	// found once every file is read, and the suppressed findings let go past twice the
	// limit of a file's (see addLater).
	moreSkips, moreLater, moreSuppressed int
	// comments are the file's suppression comments; commentProblems the findings about
	// them known once the file is read; suppressed the findings they and the Ignores
	// suppressed.
	comments        *comments
	commentProblems []Finding
	suppressed      []Suppressed
	// notLiteral counts the values of a Python file's azure-ai-ml calls not read.
	notLiteral int
}

// checkFile reads one file and checks what can be checked of it alone: decoding, and each
// instance type by itself. It keeps what the check of its workloads needs (see pending),
// within the run's budget for them (maxPending); past it, the file is read again to check
// them (fileResult.again).
func (r *run) checkFile(i int, s inputFile, data []byte, err error) *fileResult {
	res := &fileResult{src: s, name: s.name}
	if err != nil {
		res.findings = r.supp.filter([]Finding{fileProblemAt(s.name, 1, UnreadableFile, "cannot read: "+pathError(err))}, nil, &res.suppressed)
		return res
	}
	if s.nodes != nil {
		res.skipped = []Skip{{File: s.name, Line: 1, Reason: nodesSkipped(len(s.nodes))}}
		return res
	}
	if s.chart != "" {
		res.skipped = []Skip{{File: s.name, Line: 1, Reason: "a template of the Helm chart in " + s.chart +
			" (under its templates/, beside its Chart.yaml): not a manifest until rendered (helm template)"}}
		return res
	}
	if isNotebook, ok := pythonFile(s.name); ok {
		r.checkPython(res, data, isNotebook)
		res.skipped, res.moreSkips = cappedSkips(res.skipped, r.limit)
		return res
	}
	keep := func(fs []Finding) { r.keep(res, fs) }
	nodeDocs := 0
	f := scanFile(s.name, data, asInput, func(d *document) {
		res.addComments(d.src.Comments)
		// Nodes among the inputs are skipped, their problems with them.
		errs := d.errs
		if nodes := d.nodes(); len(nodes) > 0 {
			errs = withoutNodes(d)
			if len(d.instanceTypes()) == 0 {
				nodeDocs++
			}
			res.skipped = append(res.skipped, Skip{File: s.name, Line: d.src.Line, Reason: nodesSkipped(len(nodes))})
		}
		for _, c := range d.computes() {
			res.computes = append(res.computes, defineCompute(d, c))
		}
		for _, it := range d.instanceTypes() {
			if ns := it.Object.Namespace; ns != "" && len(res.notes) < maxNotes {
				for _, f := range d.locate(field.ErrorList{namespaceNote(ns, it.Path)}) {
					f.Type = Note
					res.notes = append(res.notes, f)
				}
			}
			own := validate.InstanceType(it.Object, it.Path, r.vopts)
			if r.index != nil {
				own = append(own, typeFit(r.index, it, r.opts.NodeSelector, r.typeTolerations())...)
				if len(own) == 0 { // how well it packs, once it is valid and fits
					own = typeStranded(r.typePlanner(), it)
				}
			}
			errs = append(errs, own...)
		}
		for _, t := range r.defines(d) {
			r.kept.add(i, t)
		}
		keep(d.locate(errs))
		src := d.src
		src.Value = nil // decoded: only its text is kept, for positions
		if len(d.workloads()) == 0 || res.again {
			return
		}
		if r.pendingBytes.Add(int64(len(d.workloads())*pendingCost+len(src.Text()))) > maxPending {
			res.again, res.workloads = true, nil
			if s.once {
				res.data = data
			}
			return
		}
		kept := d.forPositions()
		for _, w := range d.workloads() {
			res.workloads = append(res.workloads, keepWorkload(kept, w))
		}
	})
	res.addComments(f.comments)
	keep(f.findings)
	res.documents = f.checked - nodeDocs
	res.skipped = append(res.skipped, f.skipped...)
	res.skipped, res.moreSkips = cappedSkips(res.skipped, r.limit)
	return res
}

// withoutNodes returns the errors of decoding d but those found in its nodes.
func withoutNodes(d *document) field.ErrorList {
	inNodes := map[*field.Error]bool{}
	for _, n := range d.nodes() {
		for _, e := range n.Errors {
			inNodes[e] = true
		}
	}
	var errs field.ErrorList
	for _, e := range d.errs {
		if !inNodes[e] {
			errs = append(errs, e)
		}
	}
	return errs
}

// cappedSkips sorts the skipped documents of a file in line order and keeps the first
// limit, returning how many it let go, so that a file of many documents of other kinds (a
// rendered chart) does not make the report grow without bound (withMoreSkips counts the
// rest in the report). Reasons are shared between the documents that have the same one.
func cappedSkips(skips []Skip, limit int) ([]Skip, int) {
	slices.SortStableFunc(skips, func(a, b Skip) int { return a.Line - b.Line })
	rest := 0
	if limit >= 0 && len(skips) > limit {
		rest = len(skips) - limit
		skips = append([]Skip(nil), skips[:limit]...)
	}
	reasons := map[string]string{}
	for i := range skips {
		if r, ok := reasons[skips[i].Reason]; ok {
			skips[i].Reason = r
		} else {
			reasons[skips[i].Reason] = skips[i].Reason
		}
	}
	return slices.Clip(skips), rest
}

// withMoreSkips adds to the skipped documents of file kept one that counts the more let go.
func withMoreSkips(file string, skips []Skip, more int) []Skip {
	if more == 0 {
		return skips
	}
	line := 1
	if len(skips) > 0 {
		line = skips[len(skips)-1].Line
	}
	return append(skips, Skip{File: file, Line: line, Reason: strconv.Itoa(more) + " more documents of this file skipped"})
}

// keep adds findings found while reading the file res, but those suppressed, within the
// limit of a file's findings, and counts the others.
func (r *run) keep(res *fileResult, fs []Finding) {
	fs = r.supp.filter(fs, res.comments, &res.suppressed)
	r.trimSuppressed(res)
	sortByPlace(fs)
	room := len(fs)
	if r.limit >= 0 {
		room = max(0, min(room, r.limit-len(res.findings)))
	}
	res.findings = append(res.findings, fs[:room]...)
	res.more += len(fs) - room
}

// addLater adds findings about the file f found once every file is read (of its names and
// workloads), in memory bounded whatever their number: suppressed ones are set aside as
// they come (see trimSuppressed), and once the rest are more than twice the limit of a
// file's findings, only the first limit by place are kept, and the others counted: the
// report keeps the first limit of all a file's findings, which are among those.
func (r *run) addLater(f *fileResult, fs ...Finding) {
	later := append(r.later[f], r.supp.filter(fs, f.comments, &f.suppressed)...)
	if r.limit >= 0 && len(later) > 2*r.limit+64 {
		sortByPlace(later)
		f.moreLater += len(later) - r.limit
		later = append([]Finding(nil), later[:r.limit]...)
	}
	r.later[f] = later
	r.trimSuppressed(f)
}

// trimSuppressed keeps the first limit suppressed findings of f by place, counting the
// others, once they are more than twice the limit: the report lists the first limit of a
// file's, and counts them all.
func (r *run) trimSuppressed(f *fileResult) {
	if r.limit < 0 || len(f.suppressed) <= 2*r.limit+64 {
		return
	}
	slices.SortStableFunc(f.suppressed, func(a, b Suppressed) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	f.moreSuppressed += len(f.suppressed) - r.limit
	f.suppressed = append([]Suppressed(nil), f.suppressed[:r.limit]...)
}

// catalogInputs are the instance types of Options.Catalog.
type catalogInputs struct {
	types    []*typeDef
	findings []Finding
	skipped  []Skip
}

// readCatalog reads the cluster's instance types. Problems reading them are findings; the
// instance types are not checked.
func (r *run) readCatalog(srcs []inputFile) *catalogInputs {
	c := &catalogInputs{}
	for _, s := range srcs {
		if s.nodes != nil {
			continue // nodes: no instance type
		}
		data, err := s.read(nil)
		if err != nil {
			c.findings = append(c.findings, fileProblemAt(s.name, 1, UnreadableFile, "cannot read: "+pathError(err)))
			continue
		}
		dropped := false
		f := scanFile(s.name, data, asCluster, func(d *document) {
			for _, t := range r.defines(d) {
				t.cluster = true
				switch {
				case len(c.types) < maxInstanceTypes:
					c.types = append(c.types, t)
				case !dropped:
					dropped = true
					c.findings = append(c.findings, tooMany(s.name, t.namePos()))
				}
			}
			d.src.Value = nil
		})
		c.findings = append(c.findings, f.findings...)
	}
	return c
}

// inParallel reads each of srcs and calls work with what it read, on as many goroutines
// as there are processors, in memory bounded whatever their number: a budget of
// source.MaxDocument bytes of text converted at once is shared by all. Before a file is
// read, its share is taken for its size (readCost: all of it for a file of unknown size,
// a pipe or a device), so that workers cannot read many large files at once; once read,
// the share is what converting its largest document whole can take (a long list is
// converted a run of items at a time).
func inParallel(srcs []inputFile, work func(i int, data []byte, err error)) {
	workers := min(runtime.GOMAXPROCS(0), len(srcs))
	if workers <= 1 {
		for i, s := range srcs {
			data, err := s.read(nil)
			work(i, data, err)
		}
		return
	}
	budget := newBudget(source.MaxDocument)
	var wg sync.WaitGroup
	var next atomic.Int64 // the next source to read: taken, not handed over, so no worker waits for another
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(srcs) {
					return
				}
				held := 0 // taken once the source's size is known, before it is read
				data, err := srcs[i].read(func(size int64) {
					held = readCost(size)
					budget.take(held)
				})
				if need := min(len(data), source.MaxDocument); need < held {
					budget.give(held - need)
					held = need
				} else if need > held {
					// Give back before taking more: a worker waits holding nothing, so
					// that two cannot wait on each other.
					budget.give(held)
					budget.take(need)
					held = need
				}
				work(i, data, err)
				data = nil
				budget.give(held)
			}
		}()
	}
	wg.Wait()
}

// maxPending bounds the memory a run takes for the workloads it keeps until the catalog is
// formed (about pendingCost bytes each, and their document's text): about 33,000 workloads. The files that hold more
// are read a second time once it is formed, so that memory stays bounded whatever the
// number of workloads, and most runs read every file once.
var maxPending int64 = 32 << 20 // a variable for tests

const pendingCost = 1000

// readCost is the share of the budget taken before reading a file of the given size: its
// bytes, or the whole budget for a larger file or one of unknown size.
func readCost(size int64) int {
	if size < 0 || size >= int64(source.MaxDocument) {
		return source.MaxDocument
	}
	return int(size) + 1
}

// budget is a counting semaphore of bytes of text converted.
type budget struct {
	mu    sync.Mutex
	cond  *sync.Cond
	left  int
	total int
}

func newBudget(n int) *budget {
	b := &budget{left: n, total: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

func (b *budget) take(n int) {
	b.mu.Lock()
	for b.left < n && b.left != b.total {
		b.cond.Wait()
	}
	b.left -= n
	b.mu.Unlock()
}

func (b *budget) give(n int) {
	b.mu.Lock()
	b.left += n
	b.mu.Unlock()
	b.cond.Broadcast()
}
