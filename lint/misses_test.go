package lint_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/internal/cputime"
	"github.com/amlarc-go/instancetypes/lint"
)

// misses is a catalog of n instance types (at most 25,000, the most a run keeps), n
// Kubernetes compute targets (Options.Computes) and n jobs, each naming an instance type and a compute target that are missing but close
// to many that are given: gpu-a10-7 where gpu-a100-7, gpu-a100-70, … are known. The
// worst case for did-you-mean, in the shape of a large catalog.
func misses(n int) ([]lint.Input, lint.Options) {
	kinds := []string{"a100", "v100", "t4", "h100", "k80"}
	var types, computes strings.Builder
	computes.WriteString("[")
	for i := range n {
		if i < 25000 {
			fmt.Fprintf(&types, "---\napiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: gpu-%s-%d}\nspec:\n  resources:\n    requests: {cpu: \"1\", memory: 1Gi}\n    limits: {cpu: \"1\", memory: 1Gi}\n", kinds[i%len(kinds)], i)
		}
		if i > 0 {
			computes.WriteString(",")
		}
		fmt.Fprintf(&computes, "\n {\"name\": \"k8s-%s-%d\", \"type\": \"kubernetes\"}", kinds[i%len(kinds)], i)
	}
	computes.WriteString("\n]\n")
	in := []lint.Input{lint.Bytes("types.yaml", []byte(types.String()))}
	for i := range n {
		in = append(in, lint.Bytes(fmt.Sprintf("jobs/%d.yaml", i), fmt.Appendf(nil, "command: python train.py\nresources: {instance_type: gpu-a10-%d}\ncompute: azureml:k8s-a10-%d\n", i, i)))
	}
	return in, lint.Options{Computes: []lint.Input{lint.Bytes("computes.json", []byte(computes.String()))}, MaxFindings: -1}
}

// lintMisses runs lint on misses(n) and checks that every job has its two findings, each
// with a suggestion.
func lintMisses(t testing.TB, n int) {
	in, opts := misses(n)
	r, err := lint.Run(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 2*n {
		t.Fatalf("%d findings; want two for each of the %d jobs: %v", len(r.Findings), n, renderAll(r.Findings[:min(len(r.Findings), 5)]))
	}
	for _, f := range r.Findings {
		if !strings.Contains(f.Err.Detail, "did you mean") {
			t.Fatalf("%s:%d: %s: no suggestion", f.File, f.Line, f.Message())
		}
	}
}

// Each job naming a missing instance type and compute target gets its finding and the
// nearest names, among 50 and among 4,000 of each.
func TestManyMisses(t *testing.T) {
	in, opts := misses(50)
	r, err := lint.Run(in, opts)
	if err != nil {
		t.Fatal(err)
	}
	got := renderAll(r.Findings)
	for _, want := range []string{
		`jobs/7.yaml:2: resources.instance_type: Not found: "gpu-a10-7": did you mean "gpu-a100-0", "gpu-a100-5", "gpu-a100-10", "gpu-a100-15" or "gpu-a100-20"? [R6]`,
		`jobs/7.yaml:3: compute: Not found: "k8s-a10-7": not among the compute targets given (--computes); did you mean "k8s-a100-0", "k8s-a100-5" or "k8s-a100-10"? [compute-not-found]`,
	} {
		if !slices.ContainsFunc(got, func(s string) bool { return s == want }) {
			t.Errorf("no finding %q among %q", want, got[:min(len(got), 6)])
		}
	}
	lintMisses(t, 4000)
}

// Did-you-mean costs about a lookup: 4,000 jobs naming missing instance types and compute
// targets among 4,000 of each take at most 20 times the processor time of 400 (a pass over
// the names per miss takes 100 times; BenchmarkMisses measures 4,000 and 40,000). Processor time, as cputime.Compare
// measures it, so that a busy machine cannot fail it; behind INSTANCETYPES_SLOW_TESTS.
func TestManyMissesLinear(t *testing.T) {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
	w := &cputime.Scaling{Name: "lint.Run", Small: func() { lintMisses(t, 400) }, Large: func() { lintMisses(t, 4000) }}
	cputime.Compare(w)
	t.Logf("processor time: 400 misses of each %v, 4,000 %v (%.1f×)", w.SmallTime, w.LargeTime, w.Ratio())
	if w.Ratio() > 20 {
		t.Errorf("4,000 misses took %v, 400 %v: %.1f times; want a cost linear in the findings", w.LargeTime, w.SmallTime, w.Ratio())
	}
}

// BenchmarkMisses: lint.Run on misses(n), 4,000 and 40,000 of each.
func BenchmarkMisses(b *testing.B) {
	for _, n := range []int{4000, 40000} {
		in, opts := misses(n)
		b.Run(fmt.Sprintf("names=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := lint.Run(in, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
