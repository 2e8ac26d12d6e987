package python

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"
)

// facts lists what testdata/astdump.py lists for CPython's tree, from ours:
// every node with its type and position, every call, every name assigned,
// every name a pattern binds, every comment, sorted. It returns nil when Parse fails.
func facts(src string) []string {
	mod, err := Parse([]byte(src))
	if err != nil {
		return nil
	}
	out := []string{}
	collect(mod, &out)
	for _, c := range mod.Comments {
		out = append(out, fmt.Sprintf("comment %d:%d %s", c.Pos.Line, c.Pos.Col, c.Text))
	}
	sort.Strings(out)
	return out
}

func collect(root Node, out *[]string) {
	Walk(root, func(n Node) bool {
		if name := astName(n); name != "" {
			p := n.Position()
			*out = append(*out, fmt.Sprintf("node %s %d:%d", name, p.Line, p.Col))
		}
		switch n := n.(type) {
		case *Call:
			kws := make([]string, len(n.Keywords))
			for i, k := range n.Keywords {
				name := k.Name
				if name == "" {
					name = "**"
				}
				kws[i] = name + "=" + kindAt(k.Value)
			}
			*out = append(*out, fmt.Sprintf("call %s %d:%d args=%d kw=%s",
				dotted(n.Func), n.Pos.Line, n.Pos.Col, len(n.Args), strings.Join(kws, ",")))
		case *Assign:
			for _, t := range n.Targets {
				if name, ok := t.(*Name); ok {
					*out = append(*out, "assign "+name.ID+" "+kindAt(n.Value))
				}
			}
		case *AnnAssign:
			if name, ok := n.Target.(*Name); ok && n.Value != nil {
				*out = append(*out, "assign "+name.ID+" "+kindAt(n.Value))
			}
		case *MatchCase:
			// The names a pattern binds are patterns in CPython's tree, not
			// Name nodes: listed as bindings, not walked.
			for _, name := range n.Names {
				*out = append(*out, "bind "+name.ID)
			}
			if n.Guard != nil {
				collect(n.Guard, out)
			}
			for _, s := range n.Body {
				collect(s, out)
			}
			return false
		}
		return true
	})
}

// astName is the name of CPython's node type for n, "" for what CPython's
// tree has no positioned node for.
func astName(n Node) string {
	switch n := n.(type) {
	case *Module, *FormattedValue, *MatchCase:
		return ""
	case *Comp:
		return [...]string{ListComp: "ListComp", SetComp: "SetComp", DictComp: "DictComp", GeneratorExp: "GeneratorExp"}[n.Kind]
	case *Yield:
		if n.From {
			return "YieldFrom"
		}
		return "Yield"
	case *Global:
		if n.Nonlocal {
			return "Nonlocal"
		}
		return "Global"
	case *Simple:
		return map[string]string{"pass": "Pass", "break": "Break", "continue": "Continue"}[n.Keyword]
	case *ExprStmt:
		return "Expr"
	case *Try:
		if n.Star {
			return "TryStar"
		}
		return "Try"
	case *With:
		if n.Async {
			return "AsyncWith"
		}
		return "With"
	case *For:
		if n.Async {
			return "AsyncFor"
		}
		return "For"
	case *FunctionDef:
		if n.Async {
			return "AsyncFunctionDef"
		}
		return "FunctionDef"
	case *Arg:
		return "arg"
	case *Keyword:
		return "keyword"
	case *Alias:
		return "alias"
	}
	t := fmt.Sprintf("%T", n)
	return t[strings.LastIndexByte(t, '.')+1:]
}

func dotted(e Expr) string {
	switch e := e.(type) {
	case *Name:
		return e.ID
	case *Attribute:
		if inner := dotted(e.Value); inner != "?" {
			return inner + "." + e.Attr
		}
	}
	return "?"
}

func kindAt(e Expr) string {
	k := "other"
	switch e := e.(type) {
	case *Constant:
		switch e.Kind {
		case Str:
			k = "str"
		case Bytes:
			k = "bytes"
		case Int, Float, Imag:
			k = "num"
		case True, False:
			k = "bool"
		case None:
			k = "none"
		}
	case *Name:
		k = "name"
	case *Call:
		k = "call"
	case *JoinedStr:
		k = "fstr"
	}
	p := e.Position()
	return fmt.Sprintf("%s@%d:%d", k, p.Line, p.Col)
}

// referencePython finds CPython 3.11, the reference: $INSTANCETYPES_PYTHON,
// else python3.11, else python3 when it is 3.11. It skips the test when there
// is none, unless INSTANCETYPES_PYTHON_REQUIRED is set. Other versions differ
// on purpose (3.12 tokenizes f-strings anew and accepts what 3.11 refuses).
func referencePython(t testing.TB) string {
	t.Helper()
	reference.once.Do(func() { reference.path, reference.why = findPython() })
	if reference.path != "" {
		return reference.path
	}
	msg := "CPython 3.11 not found (" + reference.why + "): the comparison with its ast is skipped"
	if os.Getenv("INSTANCETYPES_PYTHON_REQUIRED") != "" {
		t.Fatal(msg + ", and INSTANCETYPES_PYTHON_REQUIRED is set")
	}
	t.Skip(msg)
	return ""
}

// reference is the CPython found once for all tests.
var reference struct {
	once      sync.Once
	path, why string
}

func findPython() (path, why string) {
	var candidates []string
	if p := os.Getenv("INSTANCETYPES_PYTHON"); p != "" {
		candidates = []string{p}
	} else {
		candidates = []string{"python3.11", "python3"}
	}
	var tried []string
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			tried = append(tried, c+": not found")
			continue
		}
		out, err := exec.Command(path, "-c", "import sys; print('%d.%d' % sys.version_info[:2])").Output()
		if err != nil {
			tried = append(tried, c+": "+err.Error())
			continue
		}
		if v := strings.TrimSpace(string(out)); v != "3.11" {
			tried = append(tried, c+" is "+v)
			continue
		}
		return path, ""
	}
	return "", strings.Join(tried, "; ")
}

// cpython runs testdata/astdump.py over the programs, once for all of them,
// and returns its facts (nil for a program ast.parse refuses).
func cpython(t testing.TB, programs []string) [][]string {
	t.Helper()
	py := referencePython(t)
	in, err := json.Marshal(programs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-W", "ignore", "testdata/astdump.py")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s testdata/astdump.py: %v\n%s", py, err, stderr.String())
	}
	var res [][]string
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%s testdata/astdump.py: %v", py, err)
	}
	if len(res) != len(programs) {
		t.Fatalf("%s testdata/astdump.py: %d results for %d programs", py, len(res), len(programs))
	}
	return res
}

// diffFacts describes how ours differs from CPython's, or returns "".
func diffFacts(want, got []string) string {
	switch {
	case want == nil && got == nil:
		return ""
	case want == nil:
		return "CPython refuses it, we accept it"
	case got == nil:
		return "CPython accepts it, we refuse it"
	}
	w := strings.Join(want, "\n")
	g := strings.Join(got, "\n")
	if w == g {
		return ""
	}
	return "facts differ:\n--- CPython\n" + w + "\n--- ours\n" + g
}
