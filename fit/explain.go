package fit

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// explain fills in the parts of r that say why the demand fits no node. It runs only on
// that path, and may allocate: its time and memory are linear in the nodes and their
// labels.
func (ix *Index) explain(r *Result, sel map[string]string, lists []int32, missing bool, reqs []req) {
	r.Selector = sortedPairs(sel)
	if r.Matching == 0 {
		r.Miss = ix.nearestMiss(r.Selector)
		return
	}
	ids := ix.matching(lists)
	ix.nameExcluded(r, ids)
	if r.Candidates > 0 {
		r.Shortfalls = ix.shortfalls(ids, reqs)
	}
}

func sortedPairs(sel map[string]string) []Pair {
	if len(sel) == 0 {
		return nil
	}
	ps := make([]Pair, 0, len(sel))
	for k, v := range sel {
		ps = append(ps, Pair{k, v})
	}
	slices.SortFunc(ps, func(a, b Pair) int { return strings.Compare(a.Key, b.Key) })
	return ps
}

// before orders nodes by name, then by their position among the nodes given.
func (ix *Index) before(a, b int32) bool {
	if c := strings.Compare(ix.names[a], ix.names[b]); c != 0 {
		return c < 0
	}
	return ix.order[a] < ix.order[b]
}

// matching returns the nodes in every list (sorted by length, shortest first), in
// increasing order; with no lists, every node.
func (ix *Index) matching(lists []int32) []int32 {
	var ids []int32
	if len(lists) == 0 {
		ids = make([]int32, ix.n)
		for i := range ids {
			ids[i] = int32(i)
		}
		return ids
	}
	if first := ix.posts[lists[0]]; !first.dense {
		cursors := make([]int, len(lists))
		for _, id := range ix.ids[first.off : first.off+int(first.n)] {
			if ix.inAll(lists[1:], cursors[1:], id) {
				ids = append(ids, id)
			}
		}
		return ids
	}
	for w := range ix.nw {
		x := ^uint64(0)
		for _, pi := range lists {
			x &= ix.words[ix.posts[pi].off+w]
		}
		for x != 0 {
			ids = append(ids, int32(w*64+bits.TrailingZeros64(x)))
			x &= x - 1
		}
	}
	return ids
}

// nameExcluded names the first MaxNamed tainted and cordoned nodes among ids.
func (ix *Index) nameExcluded(r *Result, ids []int32) {
	var tainted, cordoned []int32
	for _, id := range ids {
		switch c := &ix.classes[ix.classOf[id]]; {
		case c.cordoned:
			cordoned = ix.keepFirst(cordoned, id)
		case len(c.taints) > 0:
			tainted = ix.keepFirst(tainted, id)
		}
	}
	for _, id := range tainted {
		ts := ix.classes[ix.classOf[id]].taints
		tn := TaintedNode{Name: ix.names[id], Taints: slices.Clone(ts[:min(len(ts), MaxNamed)])}
		tn.MoreTaints = len(ts) - len(tn.Taints)
		r.TaintedNodes = append(r.TaintedNodes, tn)
	}
	for _, id := range cordoned {
		r.CordonedNodes = append(r.CordonedNodes, ix.names[id])
	}
}

// keepFirst adds id to first, the MaxNamed first nodes seen so far, kept in order.
func (ix *Index) keepFirst(first []int32, id int32) []int32 {
	i := len(first)
	for i > 0 && ix.before(id, first[i-1]) {
		i--
	}
	if i == MaxNamed {
		return first
	}
	if len(first) < MaxNamed {
		first = append(first, 0)
	}
	copy(first[i+1:], first[i:])
	first[i] = id
	return first
}

// shortfalls compares each request with the candidates among ids.
func (ix *Index) shortfalls(ids []int32, reqs []req) []Shortfall {
	out := make([]Shortfall, len(reqs))
	best := make([]int32, len(reqs)) // the node holding Largest, -1 for none yet
	for i, rq := range reqs {
		out[i] = Shortfall{Resource: rq.name, Request: rq.q}
		best[i] = -1
	}
	for _, id := range ids {
		c := &ix.classes[ix.classOf[id]]
		if c.excluded() {
			continue
		}
		for i, rq := range reqs {
			a := c.allocatable(rq.res) // zero for rq.res == -1
			if a.Cmp(rq.q) >= 0 {
				out[i].Covering++
			}
			switch s := a.Cmp(out[i].Largest); {
			case best[i] < 0 || s > 0:
				out[i].Largest, best[i] = a, id
			case s == 0 && ix.before(id, best[i]):
				out[i].Largest, best[i] = a, id // the same value, perhaps in another format
			}
		}
	}
	for i := range out {
		if best[i] >= 0 && out[i].Largest.Sign() > 0 {
			out[i].Node = ix.names[best[i]]
		}
	}
	slices.SortFunc(out, func(a, b Shortfall) int { return compareResources(a.Resource, b.Resource) })
	return out
}

// compareResources orders cpu first, memory second, then the others by name.
func compareResources(a, b instancetype.ResourceName) int {
	rank := func(n instancetype.ResourceName) int {
		switch n {
		case instancetype.ResourceCPU:
			return 0
		case instancetype.ResourceMemory:
			return 1
		}
		return 2
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c
	}
	return strings.Compare(string(a), string(b))
}

// nearestMiss finds the largest part of the selector ps (sorted) that some nodes carry.
func (ix *Index) nearestMiss(ps []Pair) *Miss {
	m := &Miss{}
	if ix.n == 0 {
		m.Lacking = lacks(ps, nil)
		return m
	}
	carried := make([]bool, len(ps))  // the pairs of the chosen subset
	carriers := make([]uint64, ix.nw) // the nodes carrying it, as a bitset
	if len(ps) <= 64 {
		ix.bestSubsetByMask(ps, carried, carriers)
	} else {
		ix.bestSubsetByCount(ps, carried, carriers)
	}
	var lacking []Pair
	for i, p := range ps {
		if carried[i] {
			m.Carried = append(m.Carried, p)
		} else {
			lacking = append(lacking, p)
		}
	}
	for _, w := range carriers {
		m.Nodes += bits.OnesCount64(w)
	}
	m.Lacking = lacks(lacking, func(key string) ([]string, int) { return ix.valuesAmong(key, carriers) })
	return m
}

func lacks(ps []Pair, values func(key string) ([]string, int)) []Lack {
	var ls []Lack
	for i, p := range ps {
		l := Lack{Pair: p}
		if i < MaxNamed && values != nil {
			l.Values, l.MoreValues = values(p.Key)
		}
		ls = append(ls, l)
	}
	return ls
}

// bestSubsetByMask records, as a bitmask per node, which of the (at most 64) pairs each
// node carries, and chooses the mask with the most pairs, then the most nodes, then the
// one whose pairs come first.
func (ix *Index) bestSubsetByMask(ps []Pair, carried []bool, carriers []uint64) {
	masks := make([]uint64, ix.n)
	for i, p := range ps {
		pi, ok := ix.pairs[p]
		if !ok {
			continue
		}
		ix.eachIn(pi, func(id int32) { masks[id] |= 1 << i })
	}
	count := map[uint64]int{}
	for _, mk := range masks {
		count[mk]++
	}
	var best uint64
	bestN := -1
	for mk, n := range count {
		if bestN < 0 || betterMask(mk, n, best, bestN) {
			best, bestN = mk, n
		}
	}
	for i := range carried {
		carried[i] = best&(1<<i) != 0
	}
	for id, mk := range masks {
		if mk == best {
			carriers[id>>6] |= 1 << (id & 63)
		}
	}
}

// betterMask reports whether subset a, carried by na nodes, is a nearer miss than subset
// b, carried by nb: more pairs, else more nodes, else the earlier pairs (the lowest bit
// where they differ is a's).
func betterMask(a uint64, na int, b uint64, nb int) bool {
	if ca, cb := bits.OnesCount64(a), bits.OnesCount64(b); ca != cb {
		return ca > cb
	}
	if na != nb {
		return na > nb
	}
	return a != b && a&(a^b)&-(a^b) != 0
}

// bestSubsetByCount is the fallback for selectors of more than 64 pairs: it counts the
// pairs each node carries and takes the subset of the first node, by name, of those that
// carry the most.
func (ix *Index) bestSubsetByCount(ps []Pair, carried []bool, carriers []uint64) {
	counts := make([]int32, ix.n)
	found := make([]int32, len(ps)) // posting of each pair, -1 when no node carries it
	for i, p := range ps {
		found[i] = -1
		if pi, ok := ix.pairs[p]; ok {
			found[i] = pi
			ix.eachIn(pi, func(id int32) { counts[id]++ })
		}
	}
	first := int32(0)
	for id := int32(1); id < int32(ix.n); id++ {
		if counts[id] > counts[first] || counts[id] == counts[first] && ix.before(id, first) {
			first = id
		}
	}
	size := int32(0)
	for i, pi := range found {
		if pi >= 0 && ix.holds(pi, first) {
			carried[i] = true
			size++
		}
	}
	// The nodes carrying every pair of the subset: those that carry its pairs size times.
	clear(counts)
	for i, pi := range found {
		if carried[i] {
			ix.eachIn(pi, func(id int32) { counts[id]++ })
		}
	}
	for id, n := range counts {
		if n == size {
			carriers[id>>6] |= 1 << (id & 63)
		}
	}
}

// eachIn calls f for each node of posting pi, in increasing order.
func (ix *Index) eachIn(pi int32, f func(id int32)) {
	p := ix.posts[pi]
	if !p.dense {
		for _, id := range ix.ids[p.off : p.off+int(p.n)] {
			f(id)
		}
		return
	}
	for w, x := range ix.words[p.off : p.off+ix.nw] {
		for x != 0 {
			f(int32(w*64 + bits.TrailingZeros64(x)))
			x &= x - 1
		}
	}
}

// holds reports whether posting pi holds node id.
func (ix *Index) holds(pi int32, id int32) bool {
	p := ix.posts[pi]
	if p.dense {
		return ix.words[p.off+int(id>>6)]&(1<<(id&63)) != 0
	}
	l := ix.ids[p.off : p.off+int(p.n)]
	_, ok := slices.BinarySearch(l, id)
	return ok
}

// valuesAmong returns the first MaxNamed values, in order, that some node of the bitset
// nodes gives key, and how many more there are.
func (ix *Index) valuesAmong(key string, nodes []uint64) ([]string, int) {
	var vs []string
	for p, pi := range ix.pairs {
		if p.Key != key {
			continue
		}
		present := false
		ix.eachIn(pi, func(id int32) {
			present = present || nodes[id>>6]&(1<<(id&63)) != 0
		})
		if present {
			vs = append(vs, p.Value)
		}
	}
	slices.Sort(vs)
	if len(vs) > MaxNamed {
		return vs[:MaxNamed:MaxNamed], len(vs) - MaxNamed
	}
	return vs, 0
}
