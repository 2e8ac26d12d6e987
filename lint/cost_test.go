package lint_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/internal/cputime"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/validate"
)

// manyInvalidKeys is an InstanceType whose node selector has n keys that are no label keys:
// n findings in one mapping.
func manyInvalidKeys(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: many\nspec:\n  nodeSelector:\n")
	for i := range n {
		fmt.Fprintf(&b, "    'bad key %d': v\n", i)
	}
	b.WriteString("  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: 1, memory: 1Gi}\n")
	return []byte(b.String())
}

// lintKeys runs lint on manyInvalidKeys(n), every finding kept, and checks that each key
// has its finding, on its line.
func lintKeys(t testing.TB, n int) {
	r, err := lint.Run([]lint.Input{lint.Bytes("keys.yaml", manyInvalidKeys(n))}, lint.Options{MaxFindings: -1})
	if err != nil {
		t.Fatal(err)
	}
	keys := r.Findings
	if n > validate.MaxNodeSelectorEntries {
		// One more, first: more entries than the CRD takes.
		if len(keys) == 0 || keys[0].Err.Field != "spec.nodeSelector" || keys[0].Err.Type != field.ErrorTypeTooMany || keys[0].Line != 6 {
			t.Fatalf("findings start with %v; want one of too many entries at spec.nodeSelector, line 6", keys[:min(len(keys), 1)])
		}
		keys = keys[1:]
	}
	if len(keys) != n {
		t.Fatalf("%d findings; want one for each of the %d keys", len(keys), n)
	}
	for i, f := range keys {
		if want := fmt.Sprintf("spec.nodeSelector[bad key %d]", i); f.Err.Field != want || f.Line != 7+i {
			t.Fatalf("finding %d at %s, line %d; want %s, line %d", i, f.Err.Field, f.Line, want, 7+i)
		}
	}
}

// Every finding of a mapping is placed at its key: 3,000 of them, correctly.
func TestManyFindingsInOneMapping(t *testing.T) { lintKeys(t, 3000) }

// The cost of a mapping's findings is linear in their number: placing each is a lookup in
// the document's table of positions, not a scan of the mapping. 30,000 invalid keys take at
// most 12 times the processor time of 3,000 (where a scan per finding takes 100 times), or,
// where the bare YAML parse of the same text (go.yaml.in/yaml/v3 into nodes), measured in
// the same run, takes more than 8 times, at most half as much again as the parse's ratio:
// lint adds nothing that grows faster than the YAML reader it calls. (A mapping of 30,000
// keys is no longer in the processor's caches: the parse alone takes 9 to 14 times as long
// as that of 3,000 on the machine where this was written.) Processor time, as
// cputime.Compare measures it, so that a busy machine cannot fail it; behind
// INSTANCETYPES_SLOW_TESTS.
func TestManyFindingsInOneMappingLinear(t *testing.T) {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
	parse := func(n int) func() {
		data := manyInvalidKeys(n)
		return func() {
			var doc yaml.Node
			if err := yaml.Unmarshal(data, &doc); err != nil {
				t.Fatal(err)
			}
		}
	}
	yamlParse := &cputime.Scaling{Name: "the bare YAML parse", Small: parse(3000), Large: parse(30000)}
	run := &cputime.Scaling{Name: "lint.Run", Small: func() { lintKeys(t, 3000) }, Large: func() { lintKeys(t, 30000) }}
	cputime.Compare(yamlParse, run)
	for _, w := range []*cputime.Scaling{yamlParse, run} {
		t.Logf("processor time of %s: 3,000 invalid keys %v, 30,000 %v (%.1f×)", w.Name, w.SmallTime, w.LargeTime, w.Ratio())
	}
	if bound := max(12, 1.5*yamlParse.Ratio()); run.Ratio() > bound {
		t.Errorf("30,000 invalid keys took %v, 3,000 %v: %.1f times, more than %.1f; want a cost linear in the findings", run.LargeTime, run.SmallTime, run.Ratio(), bound)
	}
}

// BenchmarkManyFindingsInOneMapping measures lint.Run on one mapping with many findings,
// for the ratio of 30,000 to 3,000 in scripts/bench.sh.
func BenchmarkManyFindingsInOneMapping(b *testing.B) {
	for _, n := range []int{3000, 30000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				lintKeys(b, n)
			}
		})
	}
}

// commentedKeys runs lint on manyInvalidKeys(n) with the comment on each key's line, and
// returns the report.
func commentedKeys(t testing.TB, n int, comment string) *lint.Report {
	data := strings.ReplaceAll(string(manyInvalidKeys(n)), "': v\n", "': v # "+comment+"\n")
	r, err := lint.Run([]lint.Input{lint.Bytes("keys.yaml", []byte(data))}, lint.Options{MaxFindings: -1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// suppressedKeys runs lint on manyInvalidKeys(n) with a suppression comment on each key's
// line, every one of which suppresses its finding. (The finding of too many entries, on
// the line of nodeSelector, stays.)
func suppressedKeys(t testing.TB, n int) {
	r := commentedKeys(t, n, "instancetype:ignore R4")
	kept := 0
	if n > validate.MaxNodeSelectorEntries {
		kept = 1
	}
	if len(r.Findings) != kept || r.SuppressedCount != n {
		t.Fatalf("%d findings, %d suppressed; want the %d suppressed", len(r.Findings), r.SuppressedCount, n)
	}
}

// Each of 3,000 findings is suppressed by the comment on its line.
func TestManySuppressions(t *testing.T) { suppressedKeys(t, 3000) }

// The cost of suppression is linear: a finding meets the comments of its line and of its
// document, not every comment of the file. 30,000 findings, each suppressed by the comment
// on its line, take at most three times the processor time of the same file with comments
// that suppress nothing (the YAML reader's own cost of comments is not linear: it is the
// baseline, measured in the same run); matching each finding with the comments of the file
// until one suppresses it took 4.3 times. Behind INSTANCETYPES_SLOW_TESTS.
func TestManySuppressionsLinear(t *testing.T) {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
	suppressedKeys(t, 300) // warm up
	plain := cputime.Of(func() { commentedKeys(t, 30000, "a comment") })
	suppressed := cputime.Of(func() { suppressedKeys(t, 30000) })
	t.Logf("processor time of lint.Run, 30,000 findings: with plain comments %v, each suppressed by its comment %v (%.1f×)",
		plain, suppressed, float64(suppressed)/float64(plain))
	if suppressed > 3*plain {
		t.Errorf("30,000 suppressed findings took %v, the file with plain comments %v: more than 3 times; want a cost linear in them", suppressed, plain)
	}
}

// manyJobs is a script, or a notebook of one cell, that creates n jobs in one list, its
// items separated by sep: all on one line (", "), or one a line (",\n").
func manyJobs(n int, notebook bool, sep string) []byte {
	var b strings.Builder
	b.WriteString("j = [")
	for i := range n {
		fmt.Fprintf(&b, "command(compute=\"k8s\", instance_type=\"t-%d\")%s", i, sep)
	}
	b.WriteString("]")
	if !notebook {
		return []byte("from azure.ai.ml import command\n" + b.String() + "\n")
	}
	cell, _ := json.Marshal([]string{"from azure.ai.ml import command\n", b.String()})
	return []byte(`{"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": ` + string(cell) + `}], "nbformat": 4, "nbformat_minor": 5}`)
}

// The columns of a Python file's findings are found in one pass over each line: 20,000
// jobs on one line of a script or a notebook take at most twice the processor time of the
// same jobs one a line (about as long here; a count from the line's start for each, as
// once, took over 70 times as long), measured in the same run, which allocates as much. Behind
// INSTANCETYPES_SLOW_TESTS.
func TestPythonColumnsLinear(t *testing.T) {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
	for _, nb := range []bool{false, true} {
		name := map[bool]string{false: "s.py", true: "n.ipynb"}[nb]
		check := func(n int, sep string) func() {
			data := manyJobs(n, nb, sep)
			return func() {
				r, err := lint.Run([]lint.Input{lint.Bytes(name, data)}, lint.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if r.Documents != n {
					t.Fatalf("%s: %d documents checked; want %d", name, r.Documents, n)
				}
			}
		}
		lines := &cputime.Scaling{Name: "a job a line", Small: check(2000, ",\n"), Large: check(20000, ",\n")}
		oneLine := &cputime.Scaling{Name: "all on one line", Small: check(2000, ", "), Large: check(20000, ", ")}
		cputime.Compare(lines, oneLine)
		for _, w := range []*cputime.Scaling{lines, oneLine} {
			t.Logf("%s, processor time of lint.Run, %s: 2,000 jobs %v, 20,000 %v (%.1f×)", name, w.Name, w.SmallTime, w.LargeTime, w.Ratio())
		}
		if oneLine.LargeTime > 2*lines.LargeTime {
			t.Errorf("%s: 20,000 jobs on one line took %v, one a line %v: more than twice; want a cost linear in the jobs", name, oneLine.LargeTime, lines.LargeTime)
		}
	}
}
