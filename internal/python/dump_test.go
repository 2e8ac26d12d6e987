package python

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// facts lists what testdata/astdump.py lists for CPython's tree, from ours:
// every call and every name assigned, sorted. It returns nil when Parse fails.
func facts(src string) []string {
	mod, err := Parse([]byte(src))
	if err != nil {
		return nil
	}
	out := []string{}
	Walk(mod, func(n Node) bool {
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
			out = append(out, fmt.Sprintf("call %s %d:%d args=%d kw=%s",
				dotted(n.Func), n.Pos.Line, n.Pos.Col, len(n.Args), strings.Join(kws, ",")))
		case *Assign:
			for _, t := range n.Targets {
				if name, ok := t.(*Name); ok {
					out = append(out, "assign "+name.ID+" "+kindAt(n.Value))
				}
			}
		case *AnnAssign:
			if name, ok := n.Target.(*Name); ok && n.Value != nil {
				out = append(out, "assign "+name.ID+" "+kindAt(n.Value))
			}
		}
		return true
	})
	sort.Strings(out)
	return out
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

// cpython runs testdata/astdump.py over the programs, once for all of them,
// and returns its facts (nil for a program ast.parse refuses). It skips the
// test when python3 is missing, unless INSTANCETYPES_PYTHON_REQUIRED is set.
func cpython(t testing.TB, programs []string) [][]string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("INSTANCETYPES_PYTHON_REQUIRED") != "" {
			t.Fatalf("python3 is required (INSTANCETYPES_PYTHON_REQUIRED): %v", err)
		}
		t.Skipf("python3 not found, the comparison with CPython's ast is skipped: %v", err)
	}
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
		t.Fatalf("python3 astdump.py: %v\n%s", err, stderr.String())
	}
	var res [][]string
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("python3 astdump.py: %v", err)
	}
	if len(res) != len(programs) {
		t.Fatalf("python3 astdump.py: %d results for %d programs", len(res), len(programs))
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
