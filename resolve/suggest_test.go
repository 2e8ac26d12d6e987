package resolve

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/internal/textdist"
	"pgregory.net/rapid"
)

// naiveSuggest is suggest by a pass over every name, sorted: each name gets the first
// class that holds (equal but for case, within the edit distance, sharing a prefix), and
// the best MaxSuggestions by class, distance and order are kept.
func naiveSuggest(name string, names []string) []string {
	if name == "" {
		return nil
	}
	maxDist := min(3, max(1, len(name)/3))
	type candidate struct {
		name        string
		class, dist int
	}
	var cs []candidate
	prefix := func(s, p string) bool { return len(s) >= len(p) && lowerASCII(s[:len(p)]) == lowerASCII(p) }
	for _, n := range names {
		c := candidate{name: n, class: -1}
		switch {
		case strings.EqualFold(n, name):
			c.class = 0
		case len(n) <= maxEditLen && len(name) <= maxEditLen && textdist.Distance(name, n, maxDist) <= maxDist:
			c.class, c.dist = 1, textdist.Distance(name, n, maxDist)
		case len(name) >= minPrefix && prefix(n, name):
			c.class, c.dist = 2, len(n)-len(name)
		case len(n) >= minPrefix && prefix(name, n):
			c.class, c.dist = 2, len(name)-len(n)
		}
		if c.class >= 0 {
			cs = append(cs, c)
		}
	}
	slices.SortStableFunc(cs, func(a, b candidate) int {
		if a.class != b.class {
			return a.class - b.class
		}
		return a.dist - b.dist
	})
	var out []string
	for _, c := range cs[:min(len(cs), MaxSuggestions)] {
		out = append(out, c.name)
	}
	return out
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// TestSuggestAgreesWithScan: the index's suggestions are those of a pass over the names,
// on catalogs of names alike (shared prefixes, numbers, case), for names near them.
func TestSuggestAgreesWithScan(t *testing.T) {
	part := rapid.SampledFrom([]string{"gpu", "cpu", "-", "a100", "a10", "small", "s", "1", "2", "K", "\u212a", "é", "É"})
	nameGen := rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(part, 1, 6).Draw(t, "parts"), "")
	})
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SliceOfN(nameGen, 0, 60).Draw(t, "names")
		if rapid.Bool().Draw(t, "lower") {
			for i, n := range names {
				names[i] = lowerASCII(n)
			}
		}
		slices.Sort(names)
		names = slices.Compact(names)
		name := nameGen.Draw(t, "name")
		if len(names) > 0 && rapid.Bool().Draw(t, "edit") {
			// A name of the catalog, mistyped or cut.
			b := []byte(names[rapid.IntRange(0, len(names)-1).Draw(t, "of")])
			i := rapid.IntRange(0, len(b)-1).Draw(t, "at")
			switch rapid.IntRange(0, 3).Draw(t, "op") {
			case 0:
				b = b[:i]
			case 1:
				b = append(b[:i], b[i+1:]...)
			case 2:
				b[i] = 'x'
			default:
				if i+1 < len(b) {
					b[i], b[i+1] = b[i+1], b[i]
				}
			}
			name = string(b)
		}
		got := suggest(name, textdist.NewIndex(names))
		if want := naiveSuggest(name, names); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("suggest(%q) = %q; a pass over the names gives %q", name, got, want)
		}
	})
}

// BenchmarkSuggest: a miss in catalogs of 4,000 and 40,000 names alike, by the index and
// by a pass over the names.
func BenchmarkSuggest(b *testing.B) {
	for _, n := range []int{4000, 40000} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("gpu-%s-%d", []string{"a100", "v100", "t4", "h100", "k80"}[i%5], i)
		}
		slices.Sort(names)
		x := textdist.NewIndex(names)
		b.Run(fmt.Sprintf("impl=ours/names=%d", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				suggest(fmt.Sprintf("gpu-a10-%d", i%n), x)
			}
		})
		b.Run(fmt.Sprintf("impl=naive/names=%d", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				naiveSuggest(fmt.Sprintf("gpu-a10-%d", i%n), names)
			}
		})
	}
}
