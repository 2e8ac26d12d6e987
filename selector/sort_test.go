package selector

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// sortEntries puts any set of keys in the order a comparison sort does: keys from a few
// bytes (so that they share long prefixes and end inside one another), of any number,
// around the size below which it sorts by insertion and well past it, with a prefix that
// all of them share and one that most share.
func TestSortEntries(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		alphabet := rapid.SampledFrom([]string{"ab", "a\x00\xff", "abc/.-_ é"}).Draw(t, "alphabet")
		key := rapid.StringOfN(rapid.SampledFrom([]rune(alphabet)), 0, 12, -1)
		n := rapid.SampledFrom([]int{0, 1, 2, insertionMax, insertionMax + 1, insertionMax + 2, 100, 300}).Draw(t, "n")
		keys := rapid.SliceOfNDistinct(key, n, n, func(k string) string { return k }).Draw(t, "keys")
		// A prefix every key shares, and one most keys share, deal no key apart.
		prefix, most := key.Draw(t, "prefix"), key.Draw(t, "most")
		for i := range keys {
			if i%5 != 0 && !slices.Contains(keys, most+keys[i]) {
				keys[i] = most + keys[i]
			}
			keys[i] = prefix + keys[i]
		}
		checkSorted(t, keys)
	})
}

// Keys that peel off one at a time (a, aa, aaa, ...) and keys with a long shared prefix
// are sorted, without a recursion as deep as the keys are many.
func TestSortEntriesHostileKeys(t *testing.T) {
	var peel, prefix []string
	for i := 1; i <= 3000; i++ {
		peel = append(peel, strings.Repeat("a", i))
		prefix = append(prefix, strings.Repeat("p", 300)+strings.Repeat("z", i%7)+string(rune('a'+i%26))+strings.Repeat("q", i/26))
	}
	for _, keys := range [][]string{peel, prefix} {
		checkSorted(t, keys)
	}
}

func checkSorted(t interface{ Fatalf(string, ...any) }, keys []string) {
	es := make([]labelEntry, len(keys))
	for i, k := range keys {
		es[i] = labelEntry{k: k, v: "v" + k}
	}
	sortEntries(es)
	want := slices.Sorted(slices.Values(keys))
	for i, e := range es {
		if e.k != want[i] || e.v != "v"+e.k {
			t.Fatalf("sorted %d keys: entry %d is %q (value %q); want %q", len(keys), i, e.k, e.v, want[i])
		}
	}
}
