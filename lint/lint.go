package lint

import (
	"cmp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/selector"
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
	// own or an instance type from Catalog, must fit some schedulable, untainted node whose
	// labels match its effective selector (see package fit); the report says how many nodes
	// each instance type and placement fits.
	Nodes []Input
	// Exclude are patterns (path.Match) of paths to leave out of directory walks; a
	// pattern matches a path when it matches the path, or any trailing part of it that
	// starts at a path element ("templates", "charts/*", "*.json").
	Exclude []string
	// MaxFindings is the most findings reported for one file (those of its first lines);
	// one more says how many were left out. 0 means DefaultMaxFindings; below 0, no limit.
	MaxFindings int
	// NoPlacements leaves Report.Placements empty, for a caller that wants the findings
	// only: placements are kept in memory to the end of the run, one per workload.
	NoPlacements bool
}

// Run checks the inputs as the instancetype command does and returns everything it found:
// every document is read as kubectl reads it; instance types are checked by the rules of
// package validate, their names across all the inputs; each deployment and job is resolved
// once against the catalog and checked. It fails only when an input cannot be read at all
// (a path that does not exist) or a directory named as an input holds no manifest; every
// other problem, down to an unreadable file met in a walk, is a finding.
//
// Files are read in parallel, at most one document's parse tree at a time each, in memory
// bounded whatever the number of files; the report does not depend on the order they
// finish in.
func Run(inputs []Input, opts Options) (*Report, error) {
	for _, pat := range opts.Exclude {
		if err := ValidExclude(pat); err != nil {
			return nil, &usageError{"bad --exclude pattern " + strconv.Quote(pat) + ": " + err.Error()}
		}
	}
	srcs, walkProblems, err := expand(inputs, opts.Exclude)
	if err != nil {
		return nil, err
	}
	var cluster *catalogInputs
	if len(opts.Catalog) > 0 {
		csrcs, cproblems, err := expand(opts.Catalog, opts.Exclude)
		if err != nil {
			return nil, err
		}
		cluster = readCatalog(csrcs)
		cluster.findings = append(cluster.findings, cproblems...)
	}

	var nodes *nodeInputs
	if len(opts.Nodes) > 0 {
		nsrcs, nproblems, err := expand(opts.Nodes, opts.Exclude)
		if err != nil {
			return nil, err
		}
		nodes = readNodes(nsrcs)
		nodes.findings = append(nodes.findings, nproblems...)
	}

	limit := opts.MaxFindings
	if limit == 0 {
		limit = DefaultMaxFindings
	}
	vopts := validate.Options{NodeSelector: opts.NodeSelector, StrictSubset: opts.StrictSubset}
	var index *fit.Index
	if nodes != nil {
		index = nodes.index
	}
	results := checkAll(srcs, func(s source, data []byte, err error) *fileResult { return check(s, data, err, vopts, index, limit) })

	r := &Report{Files: len(srcs), origins: map[string]Origin{}}
	if nodes != nil {
		r.Nodes = index.Len()
		r.fits = map[string]fit.Result{}
	}
	// The catalog: the cluster's, then the inputs', the last definition of a name in
	// effect.
	var types []*instancetype.InstanceType
	var defs []validate.Source
	var defPlaces []*typeDef
	if cluster != nil {
		for _, t := range cluster.types {
			types = append(types, t.it)
			r.origins[t.it.Name] = Origin{File: t.file, Line: t.line, Cluster: true}
		}
	}
	for _, res := range results {
		for i := range res.types {
			t := &res.types[i]
			types = append(types, t.it)
			defs = append(defs, validate.Source{InstanceType: t.it, Path: t.path, Origin: t.file + ":" + strconv.Itoa(t.line)})
			defPlaces = append(defPlaces, t)
			r.origins[t.it.Name] = Origin{File: t.file, Line: t.line}
		}
	}
	r.Catalog = resolve.NewCatalog(types...)
	r.NamesChecked = len(types) > 0
	vopts.NamesUnchecked = !r.NamesChecked
	inputTypes := map[string]bool{}
	for _, t := range defs {
		inputTypes[t.InstanceType.Name] = true
	}
	if index != nil {
		for it := range r.Catalog.All() {
			if sel, err := selector.Merge(opts.NodeSelector, it.Spec.NodeSelector); err == nil {
				r.fits[it.Name] = index.Check(fit.DemandOf(sel, it.Spec.Resources.Requests, it.Spec.Resources.Limits))
			}
		}
	}

	// Names unique across the inputs.
	extra := map[*fileResult][]Finding{}
	var extraMu sync.Mutex
	owner := map[*typeDef]*fileResult{}
	for _, res := range results {
		for i := range res.types {
			owner[&res.types[i]] = res
		}
	}
	for i, errs := range validate.UniqueNames(defs) {
		t := defPlaces[i]
		for _, e := range errs {
			extra[owner[t]] = append(extra[owner[t]], Finding{File: t.file, Position: t.namePos, Err: e})
		}
	}

	// Workloads, each resolved once, in a second reading of the files that hold any, so
	// that no workload's document is kept while the catalog is formed.
	var again []int
	for i, res := range results {
		if res.workloads > 0 {
			again = append(again, i)
			r.Workloads += res.workloads
		}
	}
	placed := make([][]Placement, len(results))
	w := workloadCheck{catalog: r.Catalog, opts: vopts, index: index, inputTypes: inputTypes, keep: !opts.NoPlacements}
	inParallel(len(again), func(k int) []byte {
		res := results[again[k]]
		if res.data != nil {
			return res.data
		}
		data, err := srcs[again[k]].read()
		if err != nil {
			// The file changed since it was read: say so rather than miss its workloads.
			extraMu.Lock()
			extra[res] = append(extra[res], manifest.FileProblem(res.name, 1, manifest.UnreadableFile, "cannot read again: "+pathError(err)))
			extraMu.Unlock()
			return nil
		}
		return data
	}, func(k int, data []byte) {
		res := results[again[k]]
		ps, fs := w.check(res.name, data)
		placed[again[k]] = ps
		extraMu.Lock()
		extra[res] = append(extra[res], fs...)
		extraMu.Unlock()
		res.data = nil
	})
	for _, ps := range placed {
		r.Placements = append(r.Placements, ps...)
	}

	// Findings, per file capped, then all sorted. The findings of reading the cluster's
	// instance types and nodes, and of the walks, are merged with those of the file they
	// are about, which may be an input too, so that each file has one cap and one count.
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
	if cluster != nil {
		addOthers(cluster.findings)
		r.Skipped = append(r.Skipped, cluster.skipped...)
	}
	if nodes != nil {
		addOthers(nodes.findings)
	}
	addOthers(walkProblems)
	for _, res := range results {
		r.Documents += res.documents
		r.Skipped = append(r.Skipped, res.skipped...)
		later := extra[res]
		if fs, ok := others[res.name]; ok {
			later = append(later, withoutRepeats(fs, res.findings, later)...)
			delete(others, res.name)
		}
		r.Findings = append(r.Findings, capped(res.name, res.findings, res.more, later, limit)...)
	}
	for _, file := range otherFiles {
		if fs, ok := others[file]; ok {
			r.Findings = append(r.Findings, capped(file, nil, 0, fs, limit)...)
			delete(others, file)
		}
	}
	sortFindings(r.Findings)
	slices.SortStableFunc(r.Skipped, func(a, b Skip) int {
		if a.File != b.File {
			return compare(a.File, b.File)
		}
		return a.Line - b.Line
	})
	return r, nil
}

func compare(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
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
	manifest.SortFindings(later)
	all := append(read, later...)
	manifest.SortFindings(all)
	if limit < 0 || len(all)+more <= limit {
		return all
	}
	left := len(all) + more - limit
	all = all[:limit]
	count := manifest.FileProblem(file, 1, manifest.TooManyFindings,
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
	if f.Type == manifest.TooManyFindings {
		return 1
	}
	return 0
}

// withoutRepeats returns the findings of fs that are not among those of the other lists:
// a file given both as an input and as the cluster's instance types or nodes is read twice,
// and a problem of reading it (a syntax error) is one finding.
func withoutRepeats(fs []Finding, others ...[]Finding) []Finding {
	type key struct {
		pos              manifest.Position
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

// typeDef is an instance type of the inputs, with its place.
type typeDef struct {
	it      *instancetype.InstanceType
	file    string
	line    int // of its metadata.name
	namePos manifest.Position
	path    *field.Path
}

// workloadCheck resolves and checks the workloads of the inputs.
type workloadCheck struct {
	catalog    *resolve.Catalog
	opts       validate.Options
	index      *fit.Index
	inputTypes map[string]bool
	keep       bool // keep the placements
}

// check resolves every workload of one file and returns the placements (when kept) and
// the findings. Problems of decoding were reported by the first reading.
func (c workloadCheck) check(name string, data []byte) ([]Placement, []Finding) {
	var ps []Placement
	var fs []Finding
	manifest.Scan(name, data, func(d *manifest.Document) {
		for _, w := range d.Workloads {
			p, errs := validate.Resolve(c.catalog, w.Object, w.Path, c.opts)
			var kept field.ErrorList
			for _, e := range errs {
				if !d.Refused(e.Field) {
					kept = append(kept, e)
				}
			}
			fits := -1
			if c.index != nil && p.Found {
				own := w.Object.Resources != nil && w.Object.Kind == resolve.Deployment
				res := c.index.Check(fit.DemandOf(p.NodeSelector(), p.Requests(), p.Limits()))
				fits = res.Fits
				if len(kept) == 0 && (own || !c.inputTypes[p.InstanceType]) {
					// The instance type's own fit is reported at it, when it is an input.
					kept = append(kept, workloadFit(res, w, own)...)
				}
			}
			found := d.Locate(kept)
			if w.Note != "" {
				for _, f := range found {
					f.Err.Detail += " (" + w.Note + ")"
				}
			}
			fs = append(fs, found...)
			if c.keep {
				ps = append(ps, Placement{
					File: d.File, Line: w.Line, DocumentKind: w.Kind, Path: w.Path,
					Workload: w.Object, Placement: p,
					Resolved: p.Found && len(kept) == 0 && !decodeProblemsIn(d, w.Path),
					Fits:     fits,
				})
			}
		}
	})
	return ps, fs
}

// underAny reports whether the field path f is at or below the path of one of the nodes
// (all of them for a node that is the whole document).
func underAny(f string, nodes []manifest.Item[fit.Node]) bool {
	for _, n := range nodes {
		if n.Path == nil || under(f, n.Path.String()) {
			return true
		}
	}
	return false
}

// under reports whether the field path f is prefix or below it.
func under(f, prefix string) bool {
	return f == prefix || strings.HasPrefix(f, prefix+".") || strings.HasPrefix(f, prefix+"[")
}

// decodeProblemsIn reports whether decoding d found a problem in the object at p (nil for
// the whole document).
func decodeProblemsIn(d *manifest.Document, p *field.Path) bool {
	if p == nil {
		return len(d.Errors) > 0
	}
	for _, e := range d.Errors {
		if under(e.Field, p.String()) {
			return true
		}
	}
	return false
}

// fileResult is what checking one file found.
type fileResult struct {
	name      string
	findings  []Finding // sorted, at most the limit
	more      int       // findings left out of findings
	skipped   []Skip
	types     []typeDef
	workloads int    // the number of workloads, checked in a second reading
	data      []byte // the contents, for that reading, of an input that cannot be read twice
	documents int
}

// check reads one file and checks what can be checked of it alone: decoding, and each
// instance type by itself.
func check(s source, data []byte, err error, opts validate.Options, index *fit.Index, limit int) *fileResult {
	res := &fileResult{name: s.name}
	if err != nil {
		res.findings = []Finding{manifest.FileProblem(s.name, 1, manifest.UnreadableFile, "cannot read: "+pathError(err))}
		return res
	}
	keep := func(fs []Finding) {
		manifest.SortFindings(fs)
		room := len(fs)
		if limit >= 0 {
			room = max(0, min(room, limit-len(res.findings)))
		}
		res.findings = append(res.findings, fs[:room]...)
		res.more += len(fs) - room
	}
	nodeDocs := 0
	f := manifest.Scan(s.name, data, func(d *manifest.Document) {
		var fs []Finding
		// Nodes among the inputs are skipped, their problems with them.
		errs := d.Errors
		if len(d.Nodes) > 0 {
			errs = nil
			for _, e := range d.Errors {
				if !underAny(e.Field, d.Nodes) {
					errs = append(errs, e)
				}
			}
			if len(d.InstanceTypes) == 0 {
				nodeDocs++
			}
		}
		fs = append(fs, d.Locate(errs)...)
		for _, it := range d.InstanceTypes {
			var kept field.ErrorList
			for _, e := range validate.InstanceType(it.Object, it.Path, opts) {
				if !d.Refused(e.Field) {
					kept = append(kept, e)
				}
			}
			if index != nil {
				kept = append(kept, typeFit(index, it, opts.NodeSelector)...)
			}
			fs = append(fs, d.Locate(kept)...)
			if it.Object.Name != "" {
				pos := d.Position(it.Path.Child("metadata", "name").String())
				res.types = append(res.types, typeDef{it: it.Object, file: s.name, line: pos.Line, namePos: pos, path: it.Path})
			}
		}
		res.workloads += len(d.Workloads)
		if len(d.Nodes) > 0 {
			res.skipped = append(res.skipped, Skip{File: s.name, Line: d.Line, Reason: nodesSkipped(len(d.Nodes))})
		}
		keep(fs)
	})
	keep(f.Errors)
	res.documents = f.Checked - nodeDocs
	if res.workloads > 0 && s.once {
		res.data = data
	}
	for _, sk := range f.Skipped {
		res.skipped = append(res.skipped, Skip{File: s.name, Line: sk.Line, Reason: sk.Reason})
	}
	res.skipped = cappedSkips(res.skipped, limit)
	return res
}

// cappedSkips keeps the first limit skipped documents of a file, in line order, and one
// more that counts the rest, so that a file of many documents of other kinds (a rendered
// chart) does not make the report grow without bound. Reasons are shared between the
// documents that have the same one.
func cappedSkips(skips []Skip, limit int) []Skip {
	slices.SortStableFunc(skips, func(a, b Skip) int { return a.Line - b.Line })
	if limit >= 0 && len(skips) > limit {
		rest := len(skips) - limit
		skips = append(skips[:limit:limit], Skip{File: skips[0].File, Line: skips[limit-1].Line,
			Reason: strconv.Itoa(rest) + " more documents of this file skipped"})
	}
	reasons := map[string]string{}
	for i := range skips {
		if r, ok := reasons[skips[i].Reason]; ok {
			skips[i].Reason = r
		} else {
			reasons[skips[i].Reason] = skips[i].Reason
		}
	}
	return slices.Clip(skips)
}

// catalogInputs are the instance types of Options.Catalog.
type catalogInputs struct {
	types    []typeDef
	findings []Finding
	skipped  []Skip
}

// readCatalog reads the cluster's instance types. Problems reading them are findings; the
// instance types are not checked.
func readCatalog(srcs []source) *catalogInputs {
	c := &catalogInputs{}
	for _, s := range srcs {
		data, err := s.read()
		if err != nil {
			c.findings = append(c.findings, manifest.FileProblem(s.name, 1, manifest.UnreadableFile, "cannot read: "+pathError(err)))
			continue
		}
		f := manifest.Scan(s.name, data, func(d *manifest.Document) {
			for _, it := range d.InstanceTypes {
				if it.Object.Name != "" {
					pos := d.Position(it.Path.Child("metadata", "name").String())
					c.types = append(c.types, typeDef{it: it.Object, file: s.name, line: pos.Line, namePos: pos, path: it.Path})
				}
			}
		})
		c.findings = append(c.findings, f.Errors...)
	}
	return c
}

// checkAll runs check on every source, in parallel, and returns the results in the order
// of the sources.
func checkAll(srcs []source, check func(source, []byte, error) *fileResult) []*fileResult {
	out := make([]*fileResult, len(srcs))
	var errs []error = make([]error, len(srcs))
	inParallel(len(srcs), func(i int) []byte {
		data, err := srcs[i].read()
		errs[i] = err
		return data
	}, func(i int, data []byte) {
		out[i] = check(srcs[i], data, errs[i])
	})
	return out
}

// inParallel calls read then work for each i below n, on as many goroutines as there are
// processors, so that files are read at once but parse trees stay bounded: work runs for a
// file only once the parse nodes its largest document can have (manifest.NodeBound) fit
// in a budget of manifest.MaxNodes shared by all.
func inParallel(n int, read func(i int) []byte, work func(i int, data []byte)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			work(i, read(i))
		}
		return
	}
	budget := newBudget(manifest.MaxNodes)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				data := read(i)
				w := min(manifest.NodeBound(data), manifest.MaxNodes)
				budget.take(w)
				work(i, data)
				budget.give(w)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// budget is a counting semaphore of parse nodes.
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
