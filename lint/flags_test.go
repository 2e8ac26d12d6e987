package lint_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Every flag that a message of lint, decode, azureml or source advises (a skip reason: "give nodes with
// --nodes") is a flag of the command.
func TestAdvisedFlagsExist(t *testing.T) {
	literals := func(glob string) map[string][]string {
		names, err := filepath.Glob(glob)
		if err != nil || len(names) == 0 {
			t.Fatalf("Glob(%q) = %v, %v", glob, names, err)
		}
		out := map[string][]string{}
		fset := token.NewFileSet()
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
					if s, err := strconv.Unquote(l.Value); err == nil {
						out[s] = append(out[s], fset.Position(l.Pos()).String())
					}
				}
				return true
			})
		}
		return out
	}
	// The command's flags: the names given to its flag set, and those it matches itself.
	cmd := literals("../cmd/instancetype/cli/*.go")
	if len(cmd["nodes"]) == 0 || len(cmd["catalog"]) == 0 {
		t.Fatal(`no "nodes" or "catalog" among the command's strings: its flags are declared elsewhere`)
	}
	flag := regexp.MustCompile(`(^|[^-\w])--([a-z][a-z-]*[a-z])`)
	found := 0
	for _, glob := range []string{"*.go", "../decode/*.go", "../azureml/*.go", "../source/*.go"} {
		for s, at := range literals(glob) {
			for _, m := range flag.FindAllStringSubmatch(s, -1) {
				found++
				if name := m[2]; len(cmd[name]) == 0 && len(cmd["--"+name]) == 0 {
					t.Errorf("%s: %q names --%s, which the command does not have", at[0], s, name)
				}
			}
		}
	}
	if found == 0 {
		t.Error("no flag named in lint's messages: the test finds nothing")
	}
}
