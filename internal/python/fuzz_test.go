package python

import (
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to Parse: it must return a tree or a
// *SyntaxError, never panic or hang, and a tree's positions must lie in the
// source. The corpus is seeded with the snippets (testdata/fuzz holds the
// inputs that once failed).
func FuzzParse(f *testing.F) {
	for _, s := range snippets {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Repeat("(", 300)))
	f.Add([]byte(strings.Repeat("-", 5000) + "1"))
	f.Add([]byte("if x:\n" + strings.Repeat(" ", 3) + "y\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		mod, err := Parse(src)
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("Parse error %T, want *SyntaxError: %v", err, err)
			}
			if mod != nil {
				t.Fatalf("Parse returned a module with an error")
			}
			return
		}
		lines := strings.Count(string(normalize(src)), "\n") + 1
		Walk(mod, func(n Node) bool {
			if p := n.Position(); p.Line < 1 || p.Line > lines || p.Col < 0 {
				t.Fatalf("%T at %v: outside the source's %d lines", n, p, lines)
			}
			return true
		})
	})
}
