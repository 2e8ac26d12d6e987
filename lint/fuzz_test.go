package lint_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/validate"
)

// FuzzLint: whatever a file holds, a run over it returns at once, without a panic, the same
// report every time, findings in file order, each at a line of the file with a rule id
// that exists and a message, none twice nor repeating much of the file; documents skipped
// and workloads placed at lines of the file; a document that cannot be read, or that
// kubectl refuses, has a finding. (The invariants of the old reader's FuzzParse and
// FuzzValidate.) Seeded with the manifests of examples/ and the kept corpus
// (testdata/fuzz/FuzzLint: what the reader of earlier versions once got wrong).
func FuzzLint(f *testing.F) {
	for _, fsys := range []fs.FS{examples.Manifests, examples.Broken} {
		_ = fs.WalkDir(fsys, ".", func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				data, _ := fs.ReadFile(fsys, p)
				f.Add(data)
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		run := func() *lint.Report {
			r, err := lint.Run([]lint.Input{lint.Bytes("f.yaml", data)}, lint.Options{MaxFindings: -1})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			return r
		}
		r := run()
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, x := range r.Findings {
			if x.Line < 1 || x.Line > lines || x.Column < 1 {
				t.Errorf("finding at %d:%d of a file of %d lines: %s", x.Line, x.Column, lines, x)
			}
			if _, ok := lint.LookupRule(x.Rule()); !ok {
				t.Errorf("finding of rule %q, which does not exist: %s", x.Rule(), x)
			}
			if x.Message() == "" {
				t.Errorf("finding without a message: %+v", x)
			}
		}
		// No finding twice (the same problem at one place and two fields is two: an
		// anchored value aliased twice), none at the field "<nil>", none that repeats more
		// of a value than a message may.
		seen := map[string]bool{}
		for _, x := range r.Findings {
			if k := fmt.Sprintf("%d:%d %s %s", x.Line, x.Column, x, x.Rule()); seen[k] {
				t.Errorf("finding twice: %s", k)
			} else {
				seen[k] = true
			}
			if x.Err.Field == "<nil>" {
				t.Errorf("finding %s at the field <nil>; want \"\" for the document", x)
			}
			if v, ok := x.Err.BadValue.(string); ok && len(v) > validate.MaxValueLen+32 || len(x.Err.Field) > 1024+32 || len(x.String()) > 4*len(data)+8192 {
				t.Errorf("finding of %d bytes repeats too much of its input: %.200s", len(x.String()), x)
			}
		}
		for _, s := range r.Skipped {
			if s.File != "f.yaml" || s.Line < 1 || s.Line > lines || s.Reason == "" {
				t.Errorf("skipped %+v; the input has %d lines", s, lines)
			}
		}
		for _, p := range r.Placements {
			if p.File != "f.yaml" || p.Line < 1 || p.Line > lines || p.Workload == nil || p.InstanceType == "" {
				t.Errorf("placement %+v; the input has %d lines", p, lines)
			}
		}
		if !slices.IsSortedFunc(r.Findings, func(a, b lint.Finding) int {
			if a.Line != b.Line {
				return a.Line - b.Line
			}
			return a.Column - b.Column
		}) {
			t.Errorf("findings not in file order:\n%s", render(r))
		}
		if a, b := render(r), render(run()); a != b {
			t.Fatalf("not the same report twice:\n%s\n---\n%s", a, b)
		}
	})
}

func render(r *lint.Report) string {
	var b strings.Builder
	for _, x := range r.Findings {
		fmt.Fprintln(&b, x.String(), x.Rule())
	}
	for _, s := range r.Skipped {
		fmt.Fprintln(&b, s.File, s.Line, s.Reason)
	}
	fmt.Fprintln(&b, r.Files, r.Documents, r.Workloads)
	return b.String()
}
