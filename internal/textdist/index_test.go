package textdist

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// nameGen draws names from a small alphabet, so that many are close to each other, with
// upper case, a byte that is not UTF-8 and a letter that folds beyond ASCII among them.
func nameGen() *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b", "A", "-", "c", "ab", "\xff", "K", "k", "\u212a", "é", "É"}), 0, 12).Draw(t, "parts")
		s := strings.Join(parts, "")
		if rapid.IntRange(0, 20).Draw(t, "long") == 0 {
			s += strings.Repeat("a", rapid.IntRange(55, 70).Draw(t, "n"))
		}
		return s
	})
}

// TestIndexAgreesWithScan: every answer of the index is what comparing the name with each
// name of the set gives.
func TestIndexAgreesWithScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		names := rapid.SliceOfN(nameGen(), 0, 40).Draw(t, "names")
		if rapid.Bool().Draw(t, "sorted") {
			// A catalog's names: lower case and sorted, the trie's order.
			for i, n := range names {
				names[i] = lowerString(n)
			}
			slices.Sort(names)
		}
		x := NewIndex(names)
		s := nameGen().Draw(t, "s")
		if len(names) > 0 && rapid.Bool().Draw(t, "near") {
			// A few edits of a name of the set: swaps, deletions, insertions, changes.
			b := []byte(names[rapid.IntRange(0, len(names)-1).Draw(t, "of")])
			for range rapid.IntRange(0, 4).Draw(t, "edits") {
				i := rapid.IntRange(0, len(b)).Draw(t, "at")
				switch op := rapid.IntRange(0, 3).Draw(t, "op"); {
				case op == 0 && i+1 < len(b):
					b[i], b[i+1] = b[i+1], b[i]
				case op == 1 && i < len(b):
					b = append(b[:i], b[i+1:]...)
				case op == 2:
					b = append(b[:i], append([]byte{"aBk-"[i%4]}, b[i:]...)...)
				case i < len(b):
					b[i] = "bAc"[i%3]
				}
			}
			s = string(b)
		}
		if len(names) > 0 && rapid.IntRange(0, 3).Draw(t, "prefix") == 0 {
			// The start of a name of the set, which others may extend.
			n := names[rapid.IntRange(0, len(names)-1).Draw(t, "of")]
			s = n[:rapid.IntRange(0, len(n)).Draw(t, "cut")]
		}
		limit := rapid.IntRange(0, 4).Draw(t, "limit")

		type hit struct{ i, d int }
		var got, want []hit
		x.Within(s, limit, func(i, d int) bool { got = append(got, hit{i, d}); return true })
		for i, n := range names {
			if d := Distance(s, n, limit); d <= limit {
				want = append(want, hit{i, d})
			}
		}
		slices.SortFunc(got, func(a, b hit) int { return cmp.Compare(a.i, b.i) })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("Within(%q, %d) = %v; scan %v", s, limit, got, want)
		}

		n := rapid.IntRange(1, 6).Draw(t, "n")
		slices.SortStableFunc(want, func(a, b hit) int { return cmp.Compare(a.d, b.d) })
		var near []hit
		for _, h := range x.Nearest(s, limit, n) {
			near = append(near, hit{h.Index, h.Dist})
		}
		if w := want[:min(len(want), n)]; fmt.Sprint(near) != fmt.Sprint(w) && (len(near) > 0 || len(w) > 0) {
			t.Fatalf("Nearest(%q, %d, %d) = %v; scan %v", s, limit, n, near, w)
		}

		var fold []int32
		for i, n := range names {
			if strings.EqualFold(n, s) {
				fold = append(fold, int32(i))
			}
		}
		if g := x.EqualFold(s); fmt.Sprint(g) != fmt.Sprint(fold) {
			t.Fatalf("EqualFold(%q) = %v; scan %v", s, g, fold)
		}

		var ext []int32
		if len(s) >= MinPrefix {
			for i, n := range names {
				if len(n) >= len(s) && lowerString(n[:len(s)]) == lowerString(s) {
					ext = append(ext, int32(i))
				}
			}
			slices.SortStableFunc(ext, func(a, b int32) int { return cmp.Compare(len(names[a]), len(names[b])) })
			ext = ext[:min(len(ext), MaxExtending)]
		}
		if g := x.Extending(s, MaxExtending); fmt.Sprint(g) != fmt.Sprint(ext) && !(len(g) == 0 && len(ext) == 0) {
			t.Fatalf("Extending(%q) = %v; scan %v", s, g, ext)
		}

		var pre, gotPre []int
		for i, n := range names {
			if len(s) >= len(n) && lowerString(s[:len(n)]) == lowerString(n) {
				pre = append(pre, i)
			}
		}
		x.Prefixes(s, func(i int) { gotPre = append(gotPre, i) })
		slices.Sort(gotPre)
		if fmt.Sprint(gotPre) != fmt.Sprint(pre) {
			t.Fatalf("Prefixes(%q) = %v; scan %v", s, gotPre, pre)
		}
	})
}

// TestIndexBudget: a set built so that every prefix of every name is close to the name
// asked about; the walk stops at Budget nodes, and what it reports is still close.
func TestIndexBudget(t *testing.T) {
	var names []string
	for i := range 20000 {
		names = append(names, fmt.Sprintf("a%05d", i))
	}
	x := NewIndex(names)
	n := 0
	x.Within("a00000", 3, func(i, d int) bool {
		n++
		if Distance("a00000", names[i], 3) != d {
			t.Errorf("%s: %d", names[i], d)
		}
		return true
	})
	if n == 0 {
		t.Fatal("nothing found")
	}
}

func TestIndexAllocs(t *testing.T) {
	x := NewIndex([]string{"cpu-small", "cpu-large", "gpu-a100", "gpu-v100", "defaultinstancetype"})
	if n := testing.AllocsPerRun(100, func() { x.Extending("gpu", 5); x.Prefixes("gpu-a100x", func(int) {}) }); n != 0 {
		t.Errorf("Extending and Prefixes allocate %v times; want 0", n)
	}
}

func BenchmarkIndex(b *testing.B) {
	for _, n := range []int{4000, 40000} {
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("gpu-%s-%d", []string{"a100", "v100", "t4", "h100", "k80"}[i%5], i)
		}
		slices.Sort(names) // a catalog's order
		x := NewIndex(names)
		b.Run(fmt.Sprintf("impl=ours/names=%d", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				x.Nearest(fmt.Sprintf("gpu-a10-%d", i%n), 3, 5)
			}
		})
		b.Run(fmt.Sprintf("impl=naive/names=%d", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				s := fmt.Sprintf("gpu-a10-%d", i%n)
				for _, m := range names {
					Distance(s, m, 3)
				}
			}
		})
	}
}

// Within's rows are as deep as the index's deepest name, not MaxLen: a lookup among short
// names allocates about a kilobyte, not MaxLen's rows (66 of the query's length and one
// ints: over 4 KB here, 11 KB for a query of 20 bytes), and lint runs one for every
// missing instance type.
func TestWithinAllocatesByDepth(t *testing.T) {
	x := NewIndex([]string{"cpu-small", "gpu-a100", "defaultinstancetype"})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 100 {
		x.Within("gpu-a10", 2, func(int, int) bool { return true })
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 100; per > 2048 {
		t.Errorf("Within allocates %d bytes a call; want at most 2048 for names of at most 19 bytes", per)
	}
}
