package manifest

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"
)

// A path renders as the *field.Path it builds renders, for any chain of fields, keys and
// indexes (empty names included) below a document's root or below an object's base.
func TestPathStringAsFieldPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var base *field.Path
		if rapid.Bool().Draw(t, "based") {
			base = field.NewPath("items").Index(rapid.IntRange(0, 20).Draw(t, "item"))
		}
		p := root(base)
		paths := []path{p}
		for i := range rapid.IntRange(0, 6).Draw(t, "depth") {
			up := &paths[len(paths)-1]
			name := rapid.SampledFrom([]string{"", "spec", "a.b", "nvidia.com/gpu", "[x]"}).Draw(t, "name")
			var next path
			switch rapid.IntRange(0, 2).Draw(t, "kind") {
			case 0:
				next = up.child(name)
			case 1:
				next = up.key(name)
			default:
				next = up.index(i)
			}
			paths = append(paths, next)
			// Re-point the chain: paths may have moved when the slice grew.
			for j := 1; j < len(paths); j++ {
				paths[j].up = &paths[j-1]
			}
		}
		last := &paths[len(paths)-1]
		if got, want := last.String(), last.build().String(); got != want {
			t.Fatalf("String() = %q; build().String() = %q", got, want)
		}
	})
}
