package selector_test

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/validate/content"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/selector"
)

// benchLabels are typical node labels, in a fixed order.
var benchLabels = [][2]string{
	{"kubernetes.io/os", "linux"},
	{"pool", "ml"},
	{"node.kubernetes.io/instance-type", "Standard_NC6s_v3"},
	{"kubernetes.io/arch", "amd64"},
	{"topology.kubernetes.io/zone", "westeurope-1"},
	{"gpu", ""},
}

// benchSelector returns a selector of the first n typical labels, padded
// with made-up ones.
func benchSelector(n int) map[string]string {
	m := make(map[string]string, n)
	for i := range n {
		if i < len(benchLabels) {
			m[benchLabels[i][0]] = benchLabels[i][1]
		} else {
			m[fmt.Sprintf("example.com/label-%d", i)] = fmt.Sprintf("value-%d", i)
		}
	}
	return m
}

func BenchmarkMerge(b *testing.B) {
	ext := map[string]string{"kubernetes.io/os": "linux", "pool": "ml"}
	for _, bc := range []struct {
		name string
		a, b map[string]string
	}{
		{"empty", ext, nil},
		{"subset", ext, map[string]string{"pool": "ml"}},
		{"disjoint", ext, map[string]string{"gpu": "a100", "zone": "1"}},
		{"conflict", ext, map[string]string{"pool": "cpu"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkMap, sinkError = selector.Merge(bc.a, bc.b)
			}
		})
	}
}

func BenchmarkMatches(b *testing.B) {
	node := benchSelector(20)
	for _, n := range []int{1, 2, 6} {
		sel := benchSelector(n)
		b.Run(fmt.Sprintf("sel=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkBool = selector.Matches(sel, node)
			}
		})
	}
}

// refValidateLabels is the obvious implementation on top of apimachinery's
// checks, benchmarked beside ValidateLabels: the same errors, in map order.
func refValidateLabels(m map[string]string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for k, v := range m {
		if msgs := content.IsLabelKey(k); len(msgs) > 0 {
			errs = append(errs, field.Invalid(fldPath.Key(k), k, strings.Join(msgs, "; ")))
		}
		if msgs := content.IsLabelValue(v); len(msgs) > 0 {
			errs = append(errs, field.Invalid(fldPath.Key(k), v, strings.Join(msgs, "; ")))
		}
	}
	return errs
}

// badSelector returns a selector of n keys that are no label keys.
func badSelector(n int) map[string]string {
	m := make(map[string]string, n)
	for i := range n {
		m[fmt.Sprintf("bad key %05d", i)] = "v"
	}
	return m
}

// BenchmarkValidateLabels validates typical selectors (every label valid) and selectors
// of 3,000 and 30,000 bad keys (labels=N_bad), whose errors ValidateLabels sorts by key and
// the obvious implementation leaves in map order: the ratio of 30,000 to 3,000 shows the
// cost linear in the keys.
func BenchmarkValidateLabels(b *testing.B) {
	path := field.NewPath("spec", "nodeSelector")
	type selectorCase struct {
		name string
		m    map[string]string
	}
	var cases []selectorCase
	for _, n := range []int{2, 6, 20} {
		cases = append(cases, selectorCase{fmt.Sprintf("labels=%d", n), benchSelector(n)})
	}
	for _, n := range []int{3000, 30000} {
		cases = append(cases, selectorCase{fmt.Sprintf("labels=%d_bad", n), badSelector(n)})
	}
	for _, c := range cases {
		b.Run(c.name+"/impl=selector", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkInt = len(selector.ValidateLabels(c.m, path))
			}
		})
		b.Run(c.name+"/impl=apimachinery", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkInt = len(refValidateLabels(c.m, path))
			}
		})
	}
}

func BenchmarkLabelKey(b *testing.B) {
	for _, bc := range []struct{ name, key string }{
		{"short", "pool"},
		{"prefixed", "node.kubernetes.io/instance-type"},
		{"invalid", "Example.com/pool"},
	} {
		b.Run("key="+bc.name+"/impl=selector", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkBool = selector.ValidLabelKey(bc.key)
			}
		})
		b.Run("key="+bc.name+"/impl=apimachinery", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkBool = len(content.IsLabelKey(bc.key)) == 0
			}
		})
	}
}
