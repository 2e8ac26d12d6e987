package textdist

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode"
)

// Index finds the names of a fixed set that are close to a name without comparing it with
// every one: a trie of the names (ASCII letters lowered, as Distance compares them),
// walked with the rows of the edit distance as far as they stay within the limit, and a
// map for equality but for case. Built once, it answers each question in about the time
// of a lookup, whatever the number of names: a miss in a catalog of 40,000 names does not
// cost 40,000 comparisons. It is safe for concurrent use once built.
//
// The names are numbered in the order given; ties between equally close names keep that
// order.
type Index struct {
	names []string
	nodes []trieNode
	kids  []int32 // the children of every node, each node's run sorted by byte
	ends  []int32 // the names that end at a node, each node's run in order
	// short holds, for each node at depth MinPrefix or more, the names of its subtree with
	// the fewest bytes (up to MaxExtending, ties in order): the names that extend a
	// prefix, nearest first.
	short []int32
	fold  map[string][]int32
	// ordered: the trie's order is the order given.
	ordered bool
}

// trieNode is a node of the trie: the bytes of a name lowered, one a level.
type trieNode struct {
	b                    byte
	depth                int32
	kids, kidsEnd        int32 // its children: kids[kids:kidsEnd]
	ends, endsEnd        int32 // the names that end here: ends[ends:endsEnd]
	shortFrom, shortTo   int32 // short[shortFrom:shortTo]
	minRest, maxRest     int32 // the fewest and most bytes the names below have past it
	firstName, nameCount int32 // used while building: a run of the sorted order
}

// MaxExtending is the most names Extending returns.
const MaxExtending = 5

// MinPrefix is the shortest prefix Extending answers for.
const MinPrefix = 3

// Budget is the most trie nodes Within visits for one name: in a set where more
// prefixes than that lie within the limit of a name (a set built to defeat the index),
// Within reports the close names it found first, and the cost of a question stays
// bounded whatever the set.
const Budget = 4096

// NewIndex returns the index of names, which it keeps (they must not be modified).
func NewIndex(names []string) *Index {
	x := &Index{names: names, fold: make(map[string][]int32, len(names))}
	order := make([]int32, len(names))
	for i, n := range names {
		order[i] = int32(i)
		k := foldKey(n)
		x.fold[k] = append(x.fold[k], int32(i))
	}
	lowered := make([]string, len(names))
	for i, n := range names {
		lowered[i] = lowerString(n)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return strings.Compare(lowered[a], lowered[b]) })
	x.ordered = true
	for i, o := range order {
		x.ordered = x.ordered && int(o) == i
	}
	// Build the trie breadth-first from the sorted names: the names under a node are a
	// run of order, which its children split by the byte at the node's depth.
	x.nodes = append(x.nodes, trieNode{firstName: 0, nameCount: int32(len(order))})
	for q := 0; q < len(x.nodes); q++ {
		nd := x.nodes[q]
		d := int(nd.depth)
		run := order[nd.firstName : nd.firstName+nd.nameCount]
		i := 0
		var ends []int32
		for i < len(run) && len(lowered[run[i]]) == d {
			ends = append(ends, run[i])
			i++
		}
		slices.Sort(ends) // the given order
		x.nodes[q].ends = int32(len(x.ends))
		x.ends = append(x.ends, ends...)
		x.nodes[q].endsEnd = int32(len(x.ends))
		x.nodes[q].kids = int32(len(x.kids))
		for i < len(run) {
			b := lowered[run[i]][d]
			j := i
			for j < len(run) && lowered[run[j]][d] == b {
				j++
			}
			x.kids = append(x.kids, int32(len(x.nodes)))
			x.nodes = append(x.nodes, trieNode{b: b, depth: int32(d + 1), firstName: nd.firstName + int32(i), nameCount: int32(j - i)})
			i = j
		}
		x.nodes[q].kidsEnd = int32(len(x.kids))
	}
	// The shortest names under each node deep enough, from the deepest nodes up.
	shortest := make([][]int32, len(x.nodes))
	for q := len(x.nodes) - 1; q >= 0; q-- {
		nd := &x.nodes[q]
		var s []int32
		s = append(s, x.ends[nd.ends:nd.endsEnd]...)
		nd.minRest, nd.maxRest = math.MaxInt32, 0
		if nd.endsEnd > nd.ends {
			nd.minRest = 0
		}
		for _, k := range x.kids[nd.kids:nd.kidsEnd] {
			s = append(s, shortest[k]...)
			shortest[k] = nil
			nd.minRest = min(nd.minRest, x.nodes[k].minRest+1)
			nd.maxRest = max(nd.maxRest, x.nodes[k].maxRest+1)
		}
		slices.SortFunc(s, func(a, b int32) int {
			return cmp.Or(cmp.Compare(len(names[a]), len(names[b])), cmp.Compare(a, b))
		})
		s = s[:min(len(s), MaxExtending)]
		shortest[q] = s
		if nd.depth >= MinPrefix {
			nd.shortFrom = int32(len(x.short))
			x.short = append(x.short, s...)
			nd.shortTo = int32(len(x.short))
		}
	}
	return x
}

// Len is the number of names.
func (x *Index) Len() int { return len(x.names) }

// Name is name i, in the order given.
func (x *Index) Name(i int) string { return x.names[i] }

// EqualFold returns the names equal to s but for case, as strings.EqualFold compares them
// (Unicode's simple case folding), in order.
func (x *Index) EqualFold(s string) []int32 { return x.fold[foldKey(s)] }

// Extending returns the names that start with s, ASCII case ignored, fewest bytes first
// (ties in order), at most n of them (n at most MaxExtending); none when s is shorter than
// MinPrefix bytes.
func (x *Index) Extending(s string, n int) []int32 {
	q := x.walk(s)
	if q < 0 || len(s) < MinPrefix {
		return nil
	}
	nd := x.nodes[q]
	r := x.short[nd.shortFrom:nd.shortTo]
	return r[:min(len(r), n)]
}

// Prefixes calls fn with each name that s starts with, ASCII case ignored, longest last.
func (x *Index) Prefixes(s string, fn func(i int)) {
	q := int32(0)
	for d := 0; ; d++ {
		nd := x.nodes[q]
		for _, i := range x.ends[nd.ends:nd.endsEnd] {
			fn(int(i))
		}
		if d == len(s) {
			return
		}
		if q = x.child(q, lowerASCII(s[d])); q < 0 {
			return
		}
	}
}

// walk returns the node reached by s's bytes lowered, or -1.
func (x *Index) walk(s string) int32 {
	q := int32(0)
	for d := 0; d < len(s) && q >= 0; d++ {
		q = x.child(q, lowerASCII(s[d]))
	}
	return q
}

// child returns the child of node q reached by byte b, or -1.
func (x *Index) child(q int32, b byte) int32 {
	kids := x.kids[x.nodes[q].kids:x.nodes[q].kidsEnd]
	i, ok := slices.BinarySearchFunc(kids, b, func(k int32, b byte) int { return cmp.Compare(x.nodes[k].b, b) })
	if !ok {
		return -1
	}
	return kids[i]
}

// Within calls fn with each name whose distance from s (as Distance(s, name, limit)
// computes it: names of more than MaxLen bytes are never close) is at most limit, and
// that distance, until fn returns false. The names come in the trie's order: the order
// given, when that is the order of the names with their ASCII letters lowered (sorted
// lower-case names, as a catalog's). It visits at most Budget nodes of the trie.
func (x *Index) Within(s string, limit int, fn func(i, dist int) bool) {
	if limit < 0 || len(s) > MaxLen+limit {
		return
	}
	if len(s) <= limit {
		for _, i := range x.ends[x.nodes[0].ends:x.nodes[0].endsEnd] {
			if !fn(int(i), len(s)) { // the empty name
				return
			}
		}
	}
	w := len(s) + 1
	// rows[d*w:] is the row of the distances from s's prefixes to the path's node at
	// depth d, path[d] its byte. Only the band of cells within limit of the diagonal is
	// computed (a cell further from it is above limit), with one cell each side of it
	// above limit for the next row to read.
	// As deep as the deepest name (at most MaxLen): the rows a walk can reach.
	depth := min(int(x.nodes[0].maxRest), MaxLen)
	rows := make([]int, (depth+2)*w)
	path := make([]byte, depth+2)
	over := limit + 1
	for j := range w {
		rows[j] = min(j, over)
	}
	budget := Budget
	var visit func(q int32) bool
	visit = func(q int32) bool {
		nd := x.nodes[q]
		for _, k := range x.kids[nd.kids:nd.kidsEnd] {
			if budget--; budget < 0 {
				return false
			}
			kid := x.nodes[k]
			d := int(kid.depth)
			lo, hi := max(1, d-limit), min(len(s), d+limit)
			if d > MaxLen || lo > hi+1 {
				continue
			}
			path[d] = kid.b
			prev, cur := rows[(d-1)*w:d*w], rows[d*w:(d+1)*w]
			cur[lo-1] = over
			if lo == 1 {
				cur[0] = min(d, over)
			}
			if hi < len(s) {
				cur[hi+1] = over
			}
			for j := lo; j <= hi; j++ {
				sj := lowerASCII(s[j-1])
				cost := 1
				if sj == kid.b {
					cost = 0
				}
				v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
				if d > 1 && j > 1 && sj == path[d-1] && lowerASCII(s[j-2]) == kid.b {
					v = min(v, rows[(d-2)*w+j-2]+1)
				}
				cur[j] = min(v, over)
			}
			if hi == len(s) && kid.endsEnd > kid.ends && cur[hi] <= limit {
				for _, i := range x.ends[kid.ends:kid.endsEnd] {
					if !fn(int(i), cur[hi]) {
						return false
					}
				}
			}
			// No name below is nearer than the best cell of the row, each raised by the
			// difference between what is left of s and what is left of the names: the
			// bytes past the node are at least minRest and at most maxRest.
			best := over
			for j := lo - 1; j <= hi; j++ {
				rest := int32(len(s) - j)
				gap := max(kid.minRest-rest, rest-kid.maxRest, 0)
				best = min(best, cur[j]+int(min(gap, int32(over))))
			}
			if best <= limit && !visit(k) {
				return false
			}
		}
		return true
	}
	visit(0)
}

// Hit is a name of an Index and its distance from the name asked about.
type Hit struct{ Index, Dist int }

// Nearest returns the n names nearest to s within limit (as Within finds them), nearest
// first, ties in the order given. It asks Within about each distance in turn, from 0 up,
// and stops at the first that holds n names, and, when the trie's order is the order
// given, at the n-th name: in a large set of similar names, the nearest few cost a walk
// of part of the trie, not of every name within the limit.
func (x *Index) Nearest(s string, limit, n int) []Hit {
	var hits []Hit // every name nearer than l
	for l := 0; l <= limit && len(hits) < n; l++ {
		x.Within(s, l, func(i, d int) bool {
			if d == l {
				hits = append(hits, Hit{i, d})
			}
			return !x.ordered || len(hits) < n
		})
	}
	slices.SortFunc(hits, func(a, b Hit) int { return cmp.Or(cmp.Compare(a.Dist, b.Dist), cmp.Compare(a.Index, b.Index)) })
	if len(hits) == 0 {
		return nil
	}
	return hits[:min(len(hits), n)]
}

// lowerString lowers the ASCII letters of s, as Distance compares them.
func lowerString(s string) string {
	for i := range len(s) {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}

// foldKey is s with each rune replaced by the least of its case-folding orbit, so that two
// strings have one key exactly when strings.EqualFold holds (a byte that is not UTF-8 is
// U+FFFD to both).
func foldKey(s string) string {
	var b strings.Builder
	for _, r := range s {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
	}
	return b.String()
}
