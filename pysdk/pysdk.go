package pysdk

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/azureml"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/notebook"
	"github.com/amlarc-go/instancetypes/internal/python"
	"github.com/amlarc-go/instancetypes/workload"
)

// Position is where a value is written in the raw file. Line is 1-based and Column is the
// 1-based byte column in its source line. For a notebook, Line is the line of the .ipynb
// file where the JSON string holding the source line starts, Cell the cell's number
// (1-based among all cells) and CellLine the line within the cell; both are 0 for a
// script.
type Position struct {
	Line, Column   int
	Cell, CellLine int
}

// Item is one workload a file creates, or one part of a workload (its resources) that
// no recognised workload call takes.
type Item struct {
	// Class is the name of the azure-ai-ml class or function called: command,
	// KubernetesOnlineDeployment, BatchDeployment, ModelBatchDeployment, or, for a
	// standalone part, JobResourceConfiguration or ResourceRequirementsSettings.
	Class string
	// Pos is where the call starts.
	Pos Position
	// Workload is the workload as read: what is unknown is left unset, and named in
	// Unknown.
	Workload *workload.Workload
	// At says where each value read is written, by the path validation knows it by (as
	// for the YAML): name, compute, instance_type or resources.instance_type,
	// resources.requests[cpu], resources.limits[nvidia.com/gpu] (written gpu=),
	// model.type.
	At map[string]Position
	// Unknown are the values of the call that are not literal: the rules that read
	// them must not be checked. A workload whose instance type, compute or resources
	// are unknown is not placed.
	Unknown []NotLiteral
	// Standalone reports a part (resources) that no recognised workload call takes:
	// its instance type and compute are unknown, and only the checks of its own values
	// apply.
	Standalone bool
}

// NotLiteral is a value that is not read, and why.
type NotLiteral struct {
	// Pos is where the value (the expression given) is written.
	Pos Position
	// Class is the class or function whose argument it is.
	Class string
	// Path is the argument, as the path validation knows it (instance_type,
	// resources.limits[cpu], compute); "**" for keyword arguments unpacked from a
	// mapping, "*" for positional arguments that are not read, "" for the whole call.
	Path string
	// Why says what the value is: "an f-string", "a name bound 2 times", ...
	Why string
}

// Skipped is a workload that is not checked, and why: a managed online deployment, a
// serverless or local job, a batch deployment without compute.
type Skipped struct {
	Pos    Position
	Class  string
	Reason string
}

// Result is what reading a file found.
type Result struct {
	Workloads []Item
	Skipped   []Skipped
	// NotLiteral are all the values not read, those in Workloads' Unknown included.
	NotLiteral []NotLiteral
	// CellErrors are the code cells of a notebook that are not Python 3.11 that this
	// package parses. When there is any, no name is followed: a cell that does not parse
	// may bind it.
	CellErrors []CellError
	// Comments are the comments of the file (of a notebook: of its code cells read), in
	// order, at their positions, for suppression comments (# instancetype:ignore R9).
	Comments []Comment
}

// Comment is one comment: Text runs from the '#' to the end of its line.
type Comment struct {
	Pos  Position
	Text string
}

// CellError is a code cell that does not parse.
type CellError struct {
	Cell int // 1-based among all cells
	Err  error
}

// ReadScript reads a Python file. It returns nil and a *python.SyntaxError (from the
// internal parser; its Error gives line and column) when the file is not Python 3.11.
func ReadScript(src []byte) (*Result, error) {
	m, err := python.Parse(src)
	if err != nil {
		return nil, err
	}
	r := newReader([]unit{{mod: m}})
	return r.read(), nil
}

// ReadNotebook reads a Jupyter notebook (nbformat 4): all its code cells, one namespace,
// as when they are run in order. Cells run by a cell magic (%%bash) are not read;
// IPython's line magics and shell escapes are read as notebook.Cell.Python gives them
// (statements that bind nothing, or assign a value not literal). It returns nil and an error
// when the data is not a notebook; a code cell that does not parse is in CellErrors.
func ReadNotebook(data []byte) (*Result, error) {
	nb, err := notebook.Parse(data)
	if err != nil {
		return nil, err
	}
	var units []unit
	var cellErrs []CellError
	for i := range nb.Cells {
		c := &nb.Cells[i]
		src, ok := c.Python()
		if !ok {
			continue
		}
		m, err := python.Parse([]byte(src))
		if err != nil {
			cellErrs = append(cellErrs, CellError{Cell: c.Number, Err: err})
			continue
		}
		units = append(units, unit{mod: m, cell: c})
	}
	r := newReader(units)
	r.noFollow = len(cellErrs) > 0
	res := r.read()
	res.CellErrors = cellErrs
	return res, nil
}

// unit is one parsed module: a script, or one code cell of a notebook.
type unit struct {
	mod  *python.Module
	cell *notebook.Cell
}

// binding is one place a name is bound.
type binding struct {
	value    python.Expr // the value of a plain assignment, nil for any other binding
	unit     int
	imported string // for an import, the qualified name bound
	pos      python.Pos
}

// reader reads the workloads of the units.
type reader struct {
	units    []unit
	binds    map[string][]binding
	stars    []string // the modules of star imports from azure.ai.ml
	noFollow bool
	// consumed are the calls read as a part of a workload.
	consumed map[*python.Call]bool
	// assigned maps a call that is the value of a plain assignment to the names it is
	// bound to.
	assigned map[*python.Call][]string
	// changed maps a name to the places where what is read of the object it is bound
	// to may change: an attribute read or an index assigned, augmented or deleted
	// (job.resources = ..., not job.instance_count = ...), or job.set_resources(...)
	// called.
	changed map[string][]python.Pos
	res     *Result
}

func newReader(units []unit) *reader {
	r := &reader{units: units, binds: map[string][]binding{}, consumed: map[*python.Call]bool{},
		assigned: map[*python.Call][]string{}, changed: map[string][]python.Pos{}, res: &Result{}}
	for i, u := range units {
		r.collect(i, u.mod)
		for _, c := range u.mod.Comments {
			r.res.Comments = append(r.res.Comments, Comment{Pos: r.pos(i, c.Pos), Text: c.Text})
		}
	}
	return r
}

// pos turns a position in unit u into a Position of the raw file.
func (r *reader) pos(u int, p python.Pos) Position {
	c := r.units[u].cell
	if c == nil {
		return Position{Line: p.Line, Column: p.Col + 1}
	}
	return Position{Line: c.FileLine(p.Line), Column: p.Col + 1, Cell: c.Number, CellLine: p.Line}
}

func (r *reader) bind(name string, b binding) { r.binds[name] = append(r.binds[name], b) }

// collect records the bindings of unit u.
func (r *reader) collect(u int, m *python.Module) {
	// Only the names in the targets count; bindOther binds every name under a target.
	var bindOther func(e python.Expr)
	bindOther = func(e python.Expr) {
		switch e := e.(type) {
		case *python.Name:
			r.bind(e.ID, binding{unit: u, pos: e.Pos})
		case *python.Tuple:
			for _, x := range e.Elts {
				bindOther(x)
			}
		case *python.List:
			for _, x := range e.Elts {
				bindOther(x)
			}
		case *python.Starred:
			bindOther(e.Value)
		case *python.Attribute, *python.Subscript:
			// A change of the object a name is bound to: the name is not followed, and
			// the calls bound to it are not read.
			if n := rootName(e); n != nil {
				r.bind(n.ID, binding{unit: u, pos: n.Pos})
				if changesWhatIsRead(e) {
					r.changed[n.ID] = append(r.changed[n.ID], n.Pos)
				}
			}
		}
	}
	python.Walk(m, func(n python.Node) bool {
		switch n := n.(type) {
		case *python.Assign:
			for _, t := range n.Targets {
				if name, ok := t.(*python.Name); ok {
					r.bind(name.ID, binding{value: n.Value, unit: u, pos: name.Pos})
					if c, ok := n.Value.(*python.Call); ok {
						r.assigned[c] = append(r.assigned[c], name.ID)
					}
					continue
				}
				bindOther(t)
			}
		case *python.AnnAssign:
			if name, ok := n.Target.(*python.Name); ok && n.Value != nil {
				r.bind(name.ID, binding{value: n.Value, unit: u, pos: name.Pos})
				if c, ok := n.Value.(*python.Call); ok {
					r.assigned[c] = append(r.assigned[c], name.ID)
				}
			} else if !ok {
				bindOther(n.Target)
			}
		case *python.AugAssign:
			if name, ok := n.Target.(*python.Name); ok {
				r.bind(name.ID, binding{unit: u, pos: name.Pos})
			} else {
				bindOther(n.Target)
			}
		case *python.NamedExpr:
			r.bind(n.Target.ID, binding{unit: u, pos: n.Target.Pos})
		case *python.For:
			bindOther(n.Target)
		case *python.Comp:
			for _, g := range n.Generators {
				bindOther(g.Target)
			}
		case *python.With:
			for _, it := range n.Items {
				bindOther(it.Vars)
			}
		case *python.Delete:
			for _, t := range n.Targets {
				bindOther(t)
			}
		case *python.ExceptHandler:
			if n.Name != "" {
				r.bind(n.Name, binding{unit: u, pos: n.Pos})
			}
		case *python.FunctionDef:
			r.bind(n.Name, binding{unit: u, pos: n.Pos})
		case *python.ClassDef:
			r.bind(n.Name, binding{unit: u, pos: n.Pos})
		case *python.Arg:
			r.bind(n.Name, binding{unit: u, pos: n.Pos})
		case *python.MatchCase:
			for _, name := range n.Names {
				r.bind(name.ID, binding{unit: u, pos: name.Pos})
			}
		case *python.Import:
			for _, a := range n.Names {
				if a.AsName != "" {
					r.bind(a.AsName, binding{unit: u, pos: a.Pos, imported: a.Name})
				} else {
					first, _, _ := strings.Cut(a.Name, ".")
					r.bind(first, binding{unit: u, pos: a.Pos, imported: first})
				}
			}
		case *python.ImportFrom:
			mod := strings.Repeat(".", n.Level) + n.Module
			for _, a := range n.Names {
				if a.Name == "*" {
					if isAzureML(mod) {
						r.stars = append(r.stars, mod)
					}
					continue
				}
				name := a.Name
				if a.AsName != "" {
					name = a.AsName
				}
				r.bind(name, binding{unit: u, pos: a.Pos, imported: mod + "." + a.Name})
			}
		case *python.Call:
			// job.set_resources(...) changes the job bound to job.
			if at, ok := n.Func.(*python.Attribute); ok && at.Attr == "set_resources" {
				if name := rootName(at.Value); name != nil {
					r.bind(name.ID, binding{unit: u, pos: name.Pos})
					r.changed[name.ID] = append(r.changed[name.ID], name.Pos)
				}
			}
		}
		return true
	})
}

// readAttributes are the attributes of the objects this package reads whose change
// changes what it reads.
var readAttributes = map[string]bool{
	"instance_type": true, "resources": true, "compute": true, "model": true, "type": true,
	"requests": true, "limits": true, "cpu": true, "memory": true, "gpu": true,
}

// changesWhatIsRead reports whether assigning the target e (an attribute or subscript
// chain from a name) may change what is read of the name's object: an index anywhere, or
// a first attribute among readAttributes (job.resources.instance_type, requests.cpu);
// not job.instance_count or job.display_name.
func changesWhatIsRead(e python.Expr) bool {
	first := ""
	for {
		switch x := e.(type) {
		case *python.Attribute:
			first = x.Attr
			e = x.Value
		case *python.Subscript:
			return true
		default:
			return first == "" || readAttributes[first]
		}
	}
}

// rootName returns the name an attribute or subscript chain starts from (job in
// job.resources.instance_type), or nil.
func rootName(e python.Expr) *python.Name {
	for {
		switch x := e.(type) {
		case *python.Name:
			return x
		case *python.Attribute:
			e = x.Value
		case *python.Subscript:
			e = x.Value
		default:
			return nil
		}
	}
}

func isAzureML(mod string) bool {
	return mod == "azure.ai.ml" || strings.HasPrefix(mod, "azure.ai.ml.")
}

// qualify returns the qualified name an expression (a name or an attribute chain) stands
// for through the file's imports, "" when it is not one.
func (r *reader) qualify(e python.Expr) string {
	switch e := e.(type) {
	case *python.Name:
		bs := r.binds[e.ID]
		if len(bs) == 0 {
			if len(r.stars) > 0 {
				return r.stars[0] + "." + e.ID
			}
			return ""
		}
		q := bs[0].imported
		for _, b := range bs[1:] {
			if b.imported != q {
				return ""
			}
		}
		return q
	case *python.Attribute:
		if q := r.qualify(e.Value); q != "" {
			return q + "." + e.Attr
		}
	}
	return ""
}

// The classes and functions of azure-ai-ml this package reads.
const (
	classCommand      = "command"
	classK8sOnline    = "KubernetesOnlineDeployment"
	classManaged      = "ManagedOnlineDeployment"
	classBatch        = "BatchDeployment"
	classModelBatch   = "ModelBatchDeployment"
	classRequirements = "ResourceRequirementsSettings"
	classSettings     = "ResourceSettings"
	classJobResources = "JobResourceConfiguration"
	classModel        = "Model"
)

// class returns the azure-ai-ml class or function a call calls, "" when it is none of
// those read.
func (r *reader) class(c *python.Call) string {
	q := r.qualify(c.Func)
	if !isAzureML(q) {
		return ""
	}
	last := q[strings.LastIndexByte(q, '.')+1:]
	switch last {
	case classCommand, classK8sOnline, classManaged, classBatch, classModelBatch,
		classRequirements, classSettings, classJobResources, classModel:
		return last
	}
	return ""
}

// maxFollow bounds the chain of names followed (a = b, b = c, ...), and so cycles.
const maxFollow = 32

// resolve follows e, in unit u, through names bound once to a value. It returns the
// expression reached and its unit, or why it stops at a name.
func (r *reader) resolve(e python.Expr, u int) (python.Expr, int, string) {
	for range maxFollow {
		n, ok := e.(*python.Name)
		if !ok {
			return e, u, ""
		}
		bs := r.binds[n.ID]
		switch {
		case r.noFollow:
			return e, u, "a name (not followed: a cell of the notebook does not parse)"
		case len(bs) == 0:
			return e, u, "a name bound nowhere in the file"
		case len(bs) > 1:
			return e, u, "a name bound " + times(len(bs))
		case bs[0].value == nil:
			return e, u, "a name not bound by an assignment (a parameter, an import, a loop or with target...)"
		}
		e, u = bs[0].value, bs[0].unit
	}
	return e, u, "a chain of names too long to follow"
}

// times says n times in words.
func times(n int) string {
	if n == 1 {
		return "once"
	}
	return strconv.Itoa(n) + " times"
}

// describe says what a value that is not read is.
func describe(e python.Expr) string {
	switch e := e.(type) {
	case *python.JoinedStr:
		return "an f-string"
	case *python.Subscript:
		return "a subscript"
	case *python.Attribute:
		return "an attribute"
	case *python.Call:
		return "a call"
	case *python.BinOp, *python.UnaryOp, *python.BoolOp:
		return "an expression"
	case *python.IfExp:
		return "a conditional expression"
	case *python.NamedExpr:
		return "an assignment expression"
	case *python.Constant:
		switch e.Kind {
		case python.Bytes:
			return "a bytes literal"
		case python.Imag:
			return "an imaginary number"
		case python.Ellipsis:
			return "..."
		}
	}
	return "not a literal"
}

// scalar is a literal value read: its text as azure-ai-ml sends it, and where it is.
type scalar struct {
	text string
	set  bool // false for None: not given
	at   Position
}

// literal reads e in unit u as azure-ai-ml's str(value): a string, a number, True or
// False; None is not given. ok is false, with why, for anything else.
func (r *reader) literal(e python.Expr, u int) (s scalar, why string, ok bool) {
	e, u, why = r.resolve(e, u)
	if why != "" {
		return s, why, false
	}
	c, isConst := e.(*python.Constant)
	if !isConst {
		return s, describe(e), false
	}
	at := r.pos(u, c.Pos)
	switch c.Kind {
	case python.Str:
		return scalar{text: c.Value, set: true, at: at}, "", true
	case python.Int, python.Float:
		t, ok := pyNumber(c.Value, c.Kind == python.Int)
		if !ok {
			return s, "a number out of range", false
		}
		return scalar{text: t, set: true, at: at}, "", true
	case python.True:
		return scalar{text: "True", set: true, at: at}, "", true
	case python.False:
		return scalar{text: "False", set: true, at: at}, "", true
	case python.None:
		return scalar{at: at}, "", true
	}
	return s, describe(c), false
}

// item is a workload being read.
type item struct {
	r     *reader
	it    *Item
	class string
	u     int
}

func (x *item) unknown(e python.Expr, u int, path, why string) {
	x.it.Unknown = append(x.it.Unknown, NotLiteral{Pos: x.r.pos(u, e.Position()), Class: x.class, Path: path, Why: why})
}

// wholeUnknown reports an item unknown as a whole.
func (x *item) wholeUnknown() bool {
	for _, u := range x.it.Unknown {
		if u.Path == "" {
			return true
		}
	}
	return false
}

// str reads the literal e at path; it returns "" and false, the value noted unknown,
// when it is not one.
func (x *item) str(e python.Expr, u int, path string) (string, bool) {
	s, why, ok := x.r.literal(e, u)
	if !ok {
		x.unknown(e, u, path, why)
		return "", false
	}
	if s.set {
		x.it.At[path] = s.at
	}
	return s.text, true
}

// keywords calls f for each keyword argument of c, in unit u; an unpacked mapping
// (**kwargs) and, unless positional is set, positional arguments are noted unknown.
func (x *item) keywords(c *python.Call, u int, positional []string, prefix string, f func(name string, v python.Expr)) {
	for i, a := range c.Args {
		if i < len(positional) {
			if _, star := a.(*python.Starred); !star {
				f(positional[i], a)
				continue
			}
		}
		x.unknown(a, u, prefix+"*", "a positional argument not read")
		break
	}
	for _, k := range c.Keywords {
		if k.Name == "" {
			x.unknown(k.Value, u, prefix+"**", "keyword arguments unpacked from a mapping")
			continue
		}
		f(k.Name, k.Value)
	}
}

// call resolves e to a call of a recognised class; ok is false, the value noted
// unknown at path, when it is not one. A value of None is no call and no finding.
func (x *item) call(e python.Expr, u int, path string, want ...string) (*python.Call, int, bool) {
	v, vu, why := x.r.resolve(e, u)
	if why != "" {
		x.unknown(e, u, path, why)
		return nil, 0, false
	}
	if c, ok := v.(*python.Constant); ok && c.Kind == python.None {
		return nil, 0, true
	}
	c, ok := v.(*python.Call)
	if ok {
		for _, w := range want {
			if x.r.class(c) == w {
				x.r.consumed[c] = true
				return c, vu, true
			}
		}
	}
	x.unknown(e, u, path, describe(v))
	return nil, 0, false
}

// read reads every recognised call of every unit.
func (r *reader) read() *Result {
	var parts []struct {
		c *python.Call
		u int
	}
	for u := range r.units {
		python.Walk(r.units[u].mod, func(n python.Node) bool {
			c, ok := n.(*python.Call)
			if !ok {
				return true
			}
			switch cls := r.class(c); cls {
			case classCommand, classBatch, classModelBatch, classK8sOnline:
				r.workload(c, u, cls)
			case classManaged:
				r.res.Skipped = append(r.res.Skipped, Skipped{Pos: r.pos(u, c.Pos), Class: cls,
					Reason: "a managed online deployment: it runs on Azure VMs, not on Kubernetes"})
			case classRequirements, classJobResources:
				parts = append(parts, struct {
					c *python.Call
					u int
				}{c, u})
			}
			return true
		})
	}
	// The parts no workload takes, in source order. A ResourceSettings alone is not
	// read: whether it is requests or limits is not known.
	for _, p := range parts {
		if r.consumed[p.c] {
			continue
		}
		r.standalone(p.c, p.u)
	}
	for _, w := range r.res.Workloads {
		r.res.NotLiteral = append(r.res.NotLiteral, w.Unknown...)
	}
	return r.res
}

// newItem starts an item for the call c of class cls in unit u. A call bound to a name
// whose object is changed anywhere (job.resources = ...) is unknown as a whole; one bound
// to a name bound again (job = command(...) in two cells) is not: each call creates its
// own object.
func (r *reader) newItem(c *python.Call, u int, cls string, kind workload.Kind) *item {
	x := &item{r: r, class: cls, u: u, it: &Item{Class: cls, Pos: r.pos(u, c.Pos),
		Workload: &workload.Workload{Kind: kind}, At: map[string]Position{}}}
	for _, name := range r.assigned[c] {
		if n := len(r.changed[name]); n > 0 {
			x.unknown(c, u, "", "bound to "+name+", whose object is changed "+times(n)+" (an attribute or index assigned, or set_resources called)")
		}
	}
	return x
}

// workload reads the call c of a workload class cls, in unit u.
func (r *reader) workload(c *python.Call, u int, cls string) {
	kind := workload.ComputeJob
	if cls == classK8sOnline {
		kind = workload.OnlineDeployment
	}
	x := r.newItem(c, u, cls, kind)
	w := x.it.Workload
	var displayName, name string
	computeGiven, computeKnown := false, true
	var instanceType *python.Expr
	var resources python.Expr
	x.keywords(c, u, nil, "", func(k string, v python.Expr) {
		switch k {
		case "name":
			name, _ = x.str(v, u, "name")
		case "display_name":
			if cls == classCommand {
				displayName, _ = x.str(v, u, "name")
			}
		case "compute":
			if cls != classK8sOnline {
				computeGiven = true
				w.Compute, computeKnown = x.str(v, u, "compute")
				if w.Compute == "" {
					computeGiven = false
				}
			}
		case "instance_type":
			if cls == classCommand || cls == classK8sOnline {
				instanceType = &v
			}
		case "resources":
			resources = v
		case "model":
			if cls == classK8sOnline {
				w.MLflow = x.mlflow(v, u)
			}
		}
	})
	if name == "" {
		name = displayName
	}
	w.Name = name
	if w.Compute != "" {
		w.ComputePath = field.NewPath("compute")
	}
	if cls == classK8sOnline {
		if instanceType != nil {
			w.InstanceType, _ = x.str(*instanceType, u, "instance_type")
		}
		if resources != nil {
			if rc, ru, ok := x.call(resources, u, "resources", classRequirements); ok && rc != nil {
				w.Resources = x.requirements(rc, ru, "resources")
			}
		}
	} else {
		path := "resources.instance_type"
		if resources != nil {
			x.jobResources(resources, u, w)
		}
		// command(instance_type=...) sets the job's resources.instance_type, over what
		// resources= gave (azure-ai-ml's command builder calls set_resources after).
		if instanceType != nil {
			if s, ok := x.str(*instanceType, u, path); ok && s != "" {
				w.InstanceType = s
			}
		}
	}
	// Serverless, local and compute-less jobs are skipped, as in YAML; not one whose
	// object is changed (its compute may be set after).
	if cls != classK8sOnline && computeKnown && !x.wholeUnknown() {
		reason := ""
		ref := azureml.ParseCompute(w.Compute)
		switch {
		case cls == classCommand && !computeGiven:
			// As a pipeline's step, it runs on the pipeline's default compute, which is
			// not read: not checked either way.
			reason = "a job that names no compute: serverless (its instance_type an Azure VM size), or a pipeline's step on the pipeline's default compute"
		case cls != classCommand && ref.Name == "" && !ref.Expression:
			reason = "a batch deployment that names no compute target"
		case ref.Local:
			reason = "a job that runs locally (compute: local)"
		case ref.Serverless:
			reason = "a serverless job (compute: " + strconv.Quote(w.Compute) + "): its instance_type is an Azure VM size, not an InstanceType"
		}
		if reason != "" {
			r.res.Skipped = append(r.res.Skipped, Skipped{Pos: x.it.Pos, Class: cls, Reason: reason})
			r.res.NotLiteral = append(r.res.NotLiteral, x.it.Unknown...)
			return
		}
	}
	r.res.Workloads = append(r.res.Workloads, *x.it)
}

// jobResources reads the resources= of a job or batch deployment: a
// JobResourceConfiguration or a dict display with string keys.
func (x *item) jobResources(e python.Expr, u int, w *workload.Workload) {
	v, vu, why := x.r.resolve(e, u)
	if why != "" {
		x.unknown(e, u, "resources", why)
		return
	}
	if d, ok := v.(*python.Dict); ok {
		for i, k := range d.Keys {
			kc, ok := k.(*python.Constant)
			if !ok || kc.Kind != python.Str {
				x.unknown(d.Values[i], vu, "resources", "a dict with a key that is not a string")
				continue
			}
			if kc.Value == "instance_type" {
				w.InstanceType, _ = x.str(d.Values[i], vu, "resources.instance_type")
			}
		}
		return
	}
	c, cu, ok := x.call(e, u, "resources", classJobResources)
	if !ok || c == nil {
		return
	}
	x.keywords(c, cu, nil, "resources.", func(k string, v python.Expr) {
		if k == "instance_type" {
			w.InstanceType, _ = x.str(v, cu, "resources.instance_type")
		}
	})
}

// requirements reads a ResourceRequirementsSettings(requests, limits) call at path.
func (x *item) requirements(c *python.Call, u int, path string) *instancetype.ResourceRequirements {
	res := &instancetype.ResourceRequirements{}
	x.keywords(c, u, []string{"requests", "limits"}, path+".", func(k string, v python.Expr) {
		p := path + "." + k
		var l *instancetype.ResourceList
		switch k {
		case "requests":
			l = &res.Requests
		case "limits":
			l = &res.Limits
		default:
			return
		}
		sc, su, ok := x.call(v, u, p, classSettings)
		if ok && sc != nil {
			*l = x.settings(sc, su, p)
		}
	})
	return res
}

// settings reads a ResourceSettings(cpu, memory, gpu) call at path.
func (x *item) settings(c *python.Call, u int, path string) instancetype.ResourceList {
	l := instancetype.ResourceList{}
	x.keywords(c, u, []string{"cpu", "memory", "gpu"}, path+".", func(k string, v python.Expr) {
		var name instancetype.ResourceName
		switch k {
		case "cpu", "memory":
			name = instancetype.ResourceName(k)
		case "gpu":
			name = instancetype.ResourceNvidiaGPU
		default:
			return
		}
		p := path + "[" + string(name) + "]"
		s, why, ok := x.r.literal(v, u)
		if !ok {
			x.unknown(v, u, p, why)
			return
		}
		if s.set {
			l[name] = instancetype.AmountFromString(s.text)
			x.it.At[p] = s.at
		}
	})
	return l
}

// mlflow reports a model= that is Model(type="mlflow_model") or
// Model(type=AssetTypes.MLFLOW_MODEL), inline or through a name bound once. Anything
// else (a model by name, a model registered elsewhere) is not an MLflow model written
// here.
func (x *item) mlflow(e python.Expr, u int) bool {
	v, vu, why := x.r.resolve(e, u)
	if why != "" {
		return false
	}
	c, ok := v.(*python.Call)
	if !ok || x.r.class(c) != classModel {
		return false
	}
	x.r.consumed[c] = true
	mlflow := false
	for _, k := range c.Keywords {
		if k.Name != "type" {
			continue
		}
		t, tu, why := x.r.resolve(k.Value, vu)
		if why != "" {
			x.unknown(k.Value, vu, "model.type", why)
			continue
		}
		switch t := t.(type) {
		case *python.Constant:
			mlflow = t.Kind == python.Str && t.Value == "mlflow_model"
			x.it.At["model.type"] = x.r.pos(tu, t.Pos)
		case *python.Attribute:
			if q := x.r.qualify(t); isAzureML(q) && strings.HasSuffix(q, ".AssetTypes.MLFLOW_MODEL") {
				mlflow = true
				x.it.At["model.type"] = x.r.pos(tu, t.Pos)
			} else {
				x.unknown(k.Value, vu, "model.type", describe(t))
			}
		default:
			x.unknown(k.Value, vu, "model.type", describe(t))
		}
	}
	return mlflow
}

// standalone reads a part no workload takes.
func (r *reader) standalone(c *python.Call, u int) {
	cls := r.class(c)
	kind := workload.ComputeJob
	if cls != classJobResources {
		kind = workload.OnlineDeployment
	}
	x := r.newItem(c, u, cls, kind)
	x.it.Standalone = true
	w := x.it.Workload
	switch cls {
	case classJobResources:
		x.keywords(c, u, nil, "resources.", func(k string, v python.Expr) {
			if k == "instance_type" {
				w.InstanceType, _ = x.str(v, u, "resources.instance_type")
			}
		})
	case classRequirements:
		w.Resources = x.requirements(c, u, "resources")
	}
	r.consumed[c] = true
	r.res.Workloads = append(r.res.Workloads, *x.it)
}
