package manifest

import (
	"fmt"
	"testing"

	"go.yaml.in/yaml/v3"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"
)

// A path stack's text is the text of the *field.Path it builds, for any chain of fields,
// keys and indexes (empty names included), entered and left in any order: the table of
// positions is keyed by the text, and findings carry the built path's text.
func TestPathStackAsFieldPath(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var s pathStack
		var want *field.Path // built alongside, the way a validator builds paths
		var stack []*field.Path
		for range rapid.IntRange(0, 12).Draw(t, "steps") {
			if len(stack) > 0 && rapid.IntRange(0, 3).Draw(t, "pop") == 0 {
				s.pop()
				want, stack = stack[len(stack)-1], stack[:len(stack)-1]
			} else {
				stack = append(stack, want)
				name := rapid.SampledFrom([]string{"", "spec", "a.b", "nvidia.com/gpu", "[x]", "items"}).Draw(t, "name")
				switch rapid.IntRange(0, 2).Draw(t, "kind") {
				case 0:
					s.field(name)
					want = want.Child(name)
				case 1:
					s.key(name)
					want = want.Key(name)
				default:
					i := rapid.IntRange(0, 20).Draw(t, "index")
					s.index(i)
					want = want.Index(i)
				}
			}
			wantText := want.String()
			if want == nil {
				wantText = ""
			}
			if got := s.String(); got != wantText {
				t.Fatalf("text %q; the field.Path renders %q", got, wantText)
			}
			if got := s.build().String(); got != want.String() {
				t.Fatalf("build() = %q; want %q", got, want.String())
			}
		}
	})
}

// The walk of a mapping allocates nothing per field: the path stack is the decoder's, the
// field callback does not escape, and the table of positions is sized from the node count.
// A walk of 10,000 fields costs about the allocations of a walk of 10.
func TestWalkAllocatesNothingPerField(t *testing.T) {
	allocs := func(fields int) float64 {
		src := []byte("{")
		for i := range fields {
			src = fmt.Appendf(src, "f%d: v, ", i)
		}
		root, err := parseDocument(append(src, '}'))
		if err != nil {
			t.Fatal(err)
		}
		n := root.Content[0]
		return testing.AllocsPerRun(20, func() {
			d := newDecoder(2*fields+1, MaxNodes, 0)
			d.path.field("spec")
			seen := 0
			d.object(n, func(key string, k, v *yaml.Node) {
				d.path.key("x") // a walk below, and back
				d.path.pop()
				seen++
			})
			if seen != fields {
				t.Fatalf("walked %d fields of %d", seen, fields)
			}
		})
	}
	// The duplicate check of a large mapping makes one map, sized at once, which Go
	// allocates in tables of about a thousand keys: a few allocations for a thousand
	// fields, where one a field would be ten thousand.
	small, large := allocs(10), allocs(10000)
	if large-small > 100 {
		t.Errorf("a walk of 10,000 fields makes %v allocations, of 10 fields %v: it allocates per field", large, small)
	}
}
