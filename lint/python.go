package lint

import (
	"bytes"
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/azureml"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/notebook"
	"github.com/amlarc-go/instancetypes/internal/python"
	"github.com/amlarc-go/instancetypes/pysdk"
	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// pythonFile reports whether a file of this name is a Python script (.py) or a Jupyter
// notebook (.ipynb), in any case, and which.
func pythonFile(name string) (isNotebook, ok bool) {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || strings.ContainsAny(name[dot:], `/\`) {
		return false, false
	}
	switch ext := name[dot:]; {
	case strings.EqualFold(ext, ".py"):
		return false, true
	case strings.EqualFold(ext, ".ipynb"):
		return true, true
	}
	return false, false
}

// azureMLMark is what a file that uses azure-ai-ml holds: one that does not is not a
// workload file, and whether it parses is none of the tool's business.
var azureMLMark = []byte("azure.ai.ml")

// azureMark is what any import from azure.ai.ml is written with, in whatever form (from
// azure.ai import ml, import azure.ai.ml as ml): a file without it creates no workload.
var azureMark = []byte("azure")

// checkPython reads a Python script or a notebook (pysdk): its azure-ai-ml calls are
// workloads, kept for checkWorkloads as those of the YAML are. A file that creates none
// (a script that imports nothing from azure.ai.ml) is not a workload file: it is no
// finding and no skip, and no document is checked in it.
func (r *run) checkPython(res *fileResult, data []byte, isNotebook bool) {
	if !bytes.Contains(data, azureMark) {
		// Nothing can come from azure.ai.ml: a walk of a repository reads its Python
		// files without parsing those of no concern.
		return
	}
	var got *pysdk.Result
	var err error
	if isNotebook {
		got, err = pysdk.ReadNotebook(data)
	} else {
		got, err = pysdk.ReadScript(data)
	}
	uses := bytes.Contains(data, azureMLMark)
	if err != nil {
		if !uses {
			return
		}
		pos, what := Position{Line: 1, Column: 1}, "not a Jupyter notebook: "
		var se *python.SyntaxError
		if errors.As(err, &se) {
			pos, what = Position{Line: se.Pos.Line, Column: se.Pos.Col + 1}, "Python syntax error: "
			err = errors.New(se.Msg)
		}
		res.findings = r.supp.filter([]Finding{fileProblem(res.name, pos, SyntaxError, what+err.Error())}, nil, &res.suppressed)
		return
	}
	if uses && len(got.CellErrors) > 0 {
		starts := cellStarts(data)
		for _, ce := range got.CellErrors {
			msg := ce.Err.Error()
			var se *python.SyntaxError
			if errors.As(ce.Err, &se) {
				msg = "line " + strconv.Itoa(se.Pos.Line) + ": " + se.Msg
			}
			res.skipped = append(res.skipped, Skip{File: res.name, Line: max(starts[ce.Cell], 1), Reason: "cell " + strconv.Itoa(ce.Cell) +
				" is not Python 3.11 the tool reads (" + msg + "): its calls are not read, and no name of the notebook is followed"})
		}
	}
	if len(got.Workloads) == 0 && len(got.Skipped) == 0 && len(got.NotLiteral) == 0 {
		return
	}
	code := codeOf(data, isNotebook)
	res.addComments(code.comments(data, got.Comments))
	for _, s := range got.Skipped {
		res.skipped = append(res.skipped, Skip{File: res.name, Line: s.Pos.Line, Reason: s.Reason})
	}
	res.notLiteral = len(got.NotLiteral)
	// The columns of all the positions, converted in one pass over each line.
	var positions []pysdk.Position
	for i := range got.Workloads {
		if it := &got.Workloads[i]; (!it.Standalone || deploymentResources(it)) && checkable(it) {
			positions = append(positions, it.Pos)
			for _, pos := range it.At {
				positions = append(positions, pos)
			}
		}
	}
	chars := code.allChars(positions)
	seen := map[seenKey]bool{}
	var alone []Finding
	for i := range got.Workloads {
		it := &got.Workloads[i]
		if it.Standalone && !deploymentResources(it) || !checkable(it) {
			continue
		}
		it.Pos = chars[it.Pos]
		at := make(map[string]pysdk.Position, len(it.At))
		for k, pos := range it.At {
			at[k] = chars[pos]
		}
		it.At = at
		res.documents++
		if it.Standalone {
			// Its own values alone: the deployment that takes it is not known.
			d := &pyDoc{file: res.name, at: it.At, call: it.Pos, seen: seen}
			alone = append(alone, d.unseen(d.locate(validate.DeploymentResources(it.Workload.Resources, nil)))...)
			continue
		}
		res.workloads = append(res.workloads, keepPython(res.name, it, seen))
	}
	if len(alone) > 0 {
		r.keep(res, alone)
	}
}

// deploymentResources reports a ResourceRequirementsSettings that no deployment call takes
// (a part pysdk reads alone): only a Kubernetes online deployment takes one, so the rules
// of its own values (R8) apply to it whichever deployment that is.
func deploymentResources(it *pysdk.Item) bool {
	return it.Standalone && it.Workload.Kind == workload.OnlineDeployment && it.Workload.Resources != nil
}

// cellStarts are the lines of the notebook data where the sources of its cells start,
// by cell number.
func cellStarts(data []byte) map[int]int {
	starts := map[int]int{}
	if nb, err := notebook.Parse(data); err == nil {
		for _, c := range nb.Cells {
			starts[c.Number] = c.FileLine(1)
		}
	}
	return starts
}

// checkable reports whether the rules can be checked on the item: every value they read
// is known. A value not read (its name aside, which no rule reads) leaves the whole
// workload unchecked: its instance type, compute, resources or model decide what the
// rules find, and a rule checked without it could report what is not there.
func checkable(it *pysdk.Item) bool {
	for _, u := range it.Unknown {
		if u.Path != "name" {
			return false
		}
	}
	return true
}

// pythonKinds are the document kinds of the azure-ai-ml classes, as their YAML says them.
var pythonKinds = map[string]azureml.Kind{
	"command":                    azureml.KindJob,
	"KubernetesOnlineDeployment": azureml.KindDeployment,
	"BatchDeployment":            azureml.KindBatchDeployment,
	"ModelBatchDeployment":       azureml.KindBatchDeployment,
}

// keepPython keeps what the check of the workload it of the file needs; seen is the
// file's (see pyDoc.unseen).
func keepPython(file string, it *pysdk.Item, seen map[seenKey]bool) pending {
	p := pending{file: file, line: it.Pos.Line, kind: pythonKinds[it.Class], w: *it.Workload,
		py: &pyDoc{file: file, at: it.At, call: it.Pos, seen: seen}}
	p.w.Resources = nil
	if r := it.Workload.Resources; r != nil {
		p.hasRes = true
		if r.Requests != nil {
			p.sections |= hasRequests
			for name, a := range r.Requests {
				p.res = append(p.res, resourceAmount{name: name, a: a})
			}
		}
		if r.Limits != nil {
			p.sections |= hasLimits
			for name, a := range r.Limits {
				p.res = append(p.res, resourceAmount{name: name, a: a, limit: true})
			}
		}
	}
	return p
}

// pyDoc places the findings of one workload of a Python file at the values pysdk read.
type pyDoc struct {
	file string
	at   map[string]pysdk.Position
	call pysdk.Position
	// seen are the findings of the file's workloads reported so far (see unseen),
	// shared by its pyDocs.
	seen map[seenKey]bool
}

// seenKey is a finding of a Python file, but for its workload.
type seenKey struct {
	line, column      int
	field, rule, text string
}

// unseen returns the findings of fs not reported already for another workload of the
// file: a value that several workloads reach through one name (resources=resources in
// two deployments) is one mistake at one place, reported once. fs is modified.
func (d *pyDoc) unseen(fs []Finding) []Finding {
	kept := fs[:0]
	for _, f := range fs {
		k := seenKey{f.Line, f.Column, f.Err.Field, f.Rule(), f.Message()}
		if !d.seen[k] {
			d.seen[k] = true
			kept = append(kept, f)
		}
	}
	return kept
}

// locate returns the findings of errs, each at its value: the value at its path, else the
// nearest value above it, else the first value below it, else the call.
func (d *pyDoc) locate(errs field.ErrorList) []Finding {
	out := make([]Finding, 0, len(errs))
	for _, e := range errs {
		p := d.place(e.Field)
		f := Finding{File: d.file, Position: Position{Line: p.Line, Column: p.Column}, Cell: p.Cell, CellLine: p.CellLine, Err: e}
		if len(e.Field) > maxFieldLen {
			c := *e
			c.Field = clip.To(e.Field, maxFieldLen)
			f.Err = &c
		}
		out = append(out, f)
	}
	return out
}

// pathUnder reports whether the path p is k or below it.
func pathUnder(p, k string) bool {
	return p == k || k == "" || strings.HasPrefix(p, k) && (p[len(k)] == '.' || p[len(k)] == '[')
}

// place is where the value at path p is written (see locate).
func (d *pyDoc) place(p string) pysdk.Position {
	if pos, ok := d.at[p]; ok {
		return pos
	}
	best, found := "", false
	for k := range d.at {
		if pathUnder(p, k) && (!found || len(k) > len(best)) {
			best, found = k, true
		}
	}
	if found {
		return d.at[best]
	}
	var first pysdk.Position
	for k, pos := range d.at {
		if pathUnder(k, p) && (first.Line == 0 || pos.Line < first.Line || pos.Line == first.Line && pos.Column < first.Column) {
			first = pos
		}
	}
	if first.Line > 0 {
		return first
	}
	return d.call
}

// codeLine is a line of a file's Python code and its line in the file.
type codeLine struct {
	text string
	file int
}

// pyCode are the lines of a file's Python code in order: a script's, or a notebook's code
// cells'.
type pyCode struct {
	lines    []codeLine
	start    map[int]int            // a notebook cell's first index in lines
	cells    map[int]*notebook.Cell // a notebook's code cells, by number
	notebook bool
}

// codeOf returns the lines of Python code of data.
func codeOf(data []byte, isNotebook bool) *pyCode {
	c := &pyCode{start: map[int]int{}, notebook: isNotebook}
	if !isNotebook {
		for i, l := range strings.Split(string(data), "\n") {
			c.lines = append(c.lines, codeLine{l, i + 1})
		}
		return c
	}
	nb, err := notebook.Parse(data)
	if err != nil {
		return c
	}
	c.cells = map[int]*notebook.Cell{}
	for i := range nb.Cells {
		cell := &nb.Cells[i]
		src, ok := cell.Python()
		if !ok {
			continue
		}
		c.start[cell.Number] = len(c.lines)
		c.cells[cell.Number] = cell
		for i, l := range strings.Split(src, "\n") {
			c.lines = append(c.lines, codeLine{l, cell.FileLine(i + 1)})
		}
	}
	return c
}

// index is the index in lines of the line of p, -1 when there is none.
func (c *pyCode) index(p pysdk.Position) int {
	i := p.Line - 1
	if c.notebook {
		s, ok := c.start[p.Cell]
		if !ok {
			return -1
		}
		i = s + p.CellLine - 1
	}
	if i < 0 || i >= len(c.lines) {
		return -1
	}
	return i
}

// chars returns p with its column in characters of the raw file, as findings count
// them, rather than the bytes of the source line pysdk counts: for a notebook, the column
// of the .ipynb line where the character is written inside its JSON string (0 when it is
// not on that line). It takes time in proportion to the column; allChars converts many.
func (c *pyCode) chars(p pysdk.Position) pysdk.Position {
	return c.allChars([]pysdk.Position{p})[p]
}

// allChars returns chars of each of the positions, walking each line once for all the
// positions on it (a file of many workloads on one long line stays linear).
func (c *pyCode) allChars(positions []pysdk.Position) map[pysdk.Position]pysdk.Position {
	sorted := slices.Clone(positions)
	slices.SortFunc(sorted, func(a, b pysdk.Position) int {
		return cmp.Or(cmp.Compare(a.Cell, b.Cell), cmp.Compare(a.CellLine, b.CellLine), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	out := make(map[pysdk.Position]pysdk.Position, len(sorted))
	var cols *notebook.Columns  // the notebook line of the last position
	line, at, runes := -1, 0, 0 // the script line of the last position, its bytes and characters counted
	for i, p := range sorted {
		if _, ok := out[p]; ok {
			continue
		}
		q := p
		switch {
		case c.notebook:
			cell := c.cells[p.Cell]
			if cell == nil {
				break
			}
			if i == 0 || sorted[i-1].Cell != p.Cell || sorted[i-1].CellLine != p.CellLine {
				cols = cell.Columns(p.CellLine)
			}
			q.Column = cols.At(p.Column)
		case p.Column > 1:
			j := c.index(p)
			if j < 0 {
				break
			}
			if j != line {
				line, at, runes = j, 0, 0
			}
			l := c.lines[j].text
			to := min(p.Column-1, len(l))
			runes += utf8.RuneCountInString(l[at:to])
			at = to
			q.Column = runes + 1
		}
		out[p] = q
	}
	return out
}

// comments are the suppression comments among the comments of the code, with what they
// apply to, as in YAML: a comment after code applies to its line; one alone on its line,
// below code, to the next line that is not a comment line (a blank line is a line); one
// alone above all the code of the file (of every code cell of a notebook) to the whole
// file.
func (c *pyCode) comments(data []byte, cs []pysdk.Comment) []source.Comment {
	lines := c.lines
	last := bytes.Count(data, []byte("\n")) + 1
	isCode := func(l string) bool {
		t := strings.TrimSpace(l)
		return t != "" && t[0] != '#'
	}
	firstCode := len(lines)
	for i, l := range lines {
		if isCode(l.text) {
			firstCode = i
			break
		}
	}
	// next[i] is the first line after i that is not a comment line, len(lines) for none:
	// found once, from the end, for files of many comments.
	var next []int
	if len(cs) > 0 {
		next = make([]int, len(lines))
		after := len(lines)
		for i := len(lines) - 1; i >= 0; i-- {
			next[i] = after
			if !strings.HasPrefix(strings.TrimSpace(lines[i].text), "#") {
				after = i
			}
		}
	}
	var out []source.Comment
	for _, cm := range cs {
		text, ok := ignoreText(cm.Text)
		if !ok {
			continue
		}
		i := c.index(cm.Pos)
		if i < 0 {
			continue
		}
		pos := c.chars(cm.Pos)
		sc := source.Comment{Position: Position{Line: pos.Line, Column: pos.Column}, Text: text}
		l := lines[i].text
		col := min(max(cm.Pos.Column-1, 0), len(l))
		switch {
		case strings.TrimSpace(l[:col]) != "":
			sc.Scope, sc.From, sc.To = source.ScopeLine, cm.Pos.Line, cm.Pos.Line
		case i <= firstCode:
			sc.Scope, sc.From, sc.To = source.ScopeDocument, 1, last
		default:
			sc.Scope = source.ScopeNextLine
			if j := next[i]; j < len(lines) { // else it applies to nothing, and is reported so
				sc.From, sc.To = lines[j].file, lines[j].file
			}
		}
		out = append(out, sc)
	}
	return out
}

// ignoreText is the text of a suppression comment after its marker (text runs from its
// '#'), and whether it is one.
func ignoreText(text string) (string, bool) {
	t := strings.TrimLeft(strings.TrimPrefix(text, "#"), " \t")
	rest, ok := strings.CutPrefix(t, IgnoreMarker)
	if !ok || rest != "" && !strings.ContainsRune(" \t,\r", rune(rest[0])) {
		return "", false
	}
	return strings.TrimRight(rest, "\r"), true
}
