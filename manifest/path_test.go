package manifest

import (
	"testing"

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
