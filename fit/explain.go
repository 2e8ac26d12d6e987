package fit

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/textdist"
)

// explain fills in the parts of r that say why the demand fits no node, from the postings
// of the selector's pairs (lists, shortest first; unused when no node matches). It runs
// only on that path, and may allocate: its time and memory are linear in the nodes and
// their labels.
func (ix *Index) explain(r *Result, sel map[string]string, lists []int32, reqs []req, tols []cluster.Toleration) {
	r.Selector = sortedPairs(sel)
	if r.Matching == 0 {
		r.Miss = ix.nearestMiss(r.Selector)
		return
	}
	ids := ix.matching(lists)
	ix.nameExcluded(r, ids, tols)
	if r.Candidates > 0 {
		r.Shortfalls = ix.shortfalls(ids, reqs, tols)
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

// runs calls f for each run of ids (increasing) of the same class, with the run: since the
// nodes of a class are numbered in name order, a run's first node is its first by name.
func (ix *Index) runs(ids []int32, f func(c *class, run []int32)) {
	for i := 0; i < len(ids); {
		ci := ix.classOf[ids[i]]
		j := i + 1
		for j < len(ids) && ix.classOf[ids[j]] == ci {
			j++
		}
		f(&ix.classes[ci], ids[i:j])
		i = j
	}
}

// nameExcluded groups the tainted nodes among ids by the taints that tols do not tolerate,
// and names the first MaxNamed of each group and of the cordoned nodes.
func (ix *Index) nameExcluded(r *Result, ids []int32, tols []cluster.Toleration) {
	type group struct {
		taints []cluster.Taint
		nodes  int
		first  []int32
	}
	var cordoned []int32
	var groups []*group
	byTaints := map[string]*group{}
	var key []byte
	ix.runs(ids, func(c *class, run []int32) {
		switch {
		case c.cordoned:
			for _, id := range run[:min(len(run), MaxNamed)] {
				cordoned = ix.keepFirst(cordoned, id)
			}
			return
		case !c.excluded(tols):
			return
		}
		taints := c.untolerated(tols)
		key = appendTaintsKey(key[:0], taints) // classes may share taints
		g := byTaints[string(key)]
		if g == nil {
			g = &group{taints: taints}
			byTaints[string(key)] = g
			groups = append(groups, g)
		}
		g.nodes += len(run)
		for _, id := range run[:min(len(run), MaxNamed)] {
			g.first = ix.keepFirst(g.first, id)
		}
	})
	slices.SortFunc(groups, func(a, b *group) int {
		return cmp.Or(cmp.Compare(b.nodes, a.nodes), slices.CompareFunc(a.taints, b.taints, compareTaints))
	})
	for _, g := range groups[:min(len(groups), MaxNamed)] {
		tg := TaintGroup{Taints: slices.Clone(g.taints[:min(len(g.taints), MaxNamed)]), Nodes: g.nodes}
		tg.MoreTaints = len(g.taints) - len(tg.Taints)
		for _, id := range g.first {
			tg.Names = append(tg.Names, ix.names[id])
		}
		r.TaintGroups = append(r.TaintGroups, tg)
	}
	for _, id := range cordoned {
		r.CordonedNodes = append(r.CordonedNodes, ix.names[id])
	}
}

func appendTaintsKey(b []byte, ts []cluster.Taint) []byte {
	for _, t := range ts {
		b = appendString(appendString(appendString(b, t.Key), t.Value), t.Effect)
	}
	return b
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
func (ix *Index) shortfalls(ids []int32, reqs []req, tols []cluster.Toleration) []Shortfall {
	out := make([]Shortfall, len(reqs))
	best := make([]int32, len(reqs)) // the node holding Largest, -1 for none yet
	for i, rq := range reqs {
		out[i] = Shortfall{Resource: rq.name, Request: rq.q}
		best[i] = -1
	}
	ix.runs(ids, func(c *class, run []int32) {
		if c.excluded(tols) {
			return
		}
		id := run[0] // the class's first matching node by name
		for i, rq := range reqs {
			a := c.allocatable(rq.res) // zero for rq.res == -1
			if a.Cmp(rq.q) >= 0 {
				out[i].Covering += len(run)
			}
			switch s := a.Cmp(out[i].Largest); {
			case best[i] < 0 || s > 0:
				out[i].Largest, best[i] = a, id
			case s == 0 && ix.before(id, best[i]):
				out[i].Largest, best[i] = a, id // the same value, perhaps in another format
			}
		}
	})
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
	m.Lacking = lacks(lacking, func(p Pair) ([]string, int) { return ix.valuesAmong(p.Key, p.Value, carriers) })
	return m
}

func lacks(ps []Pair, values func(Pair) ([]string, int)) []Lack {
	var ls []Lack
	for i, p := range ps {
		l := Lack{Pair: p}
		if i < MaxNamed && values != nil {
			l.Values, l.MoreValues = values(p)
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
	var best uint64
	bestN := -1
	consider := func(mk uint64, n int) {
		if n > 0 && (bestN < 0 || betterMask(mk, n, best, bestN)) {
			best, bestN = mk, n
		}
	}
	if len(ps) <= 12 { // count the masks in an array of at most 4096
		count := make([]int, 1<<len(ps))
		for _, mk := range masks {
			count[mk]++
		}
		for mk, n := range count {
			consider(uint64(mk), n)
		}
	} else {
		count := map[uint64]int{}
		for _, mk := range masks {
			count[mk]++
		}
		for mk, n := range count {
			consider(mk, n)
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

// anyIn reports whether posting pi holds some node of the bitset nodes.
func (ix *Index) anyIn(pi int32, nodes []uint64) bool {
	p := ix.posts[pi]
	if p.dense {
		for w, x := range ix.words[p.off : p.off+ix.nw] {
			if x&nodes[w] != 0 {
				return true
			}
		}
		return false
	}
	for _, id := range ix.ids[p.off : p.off+int(p.n)] {
		if nodes[id>>6]&(1<<(id&63)) != 0 {
			return true
		}
	}
	return false
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

// valuesAmong returns the MaxNamed values closest to want (by edit distance ignoring
// case, then in order) that some node of the bitset nodes gives key, and how many other
// values they give it.
func (ix *Index) valuesAmong(key, want string, nodes []uint64) ([]string, int) {
	type value struct {
		v    string
		dist int
	}
	var vs []value
	for _, pi := range ix.byKey[key] {
		if ix.anyIn(pi, nodes) {
			v := ix.posts[pi].value
			vs = append(vs, value{v, closeness(v, want)})
		}
	}
	slices.SortFunc(vs, func(a, b value) int { return cmp.Or(cmp.Compare(a.dist, b.dist), strings.Compare(a.v, b.v)) })
	out := make([]string, 0, min(len(vs), MaxNamed))
	for _, v := range vs[:min(len(vs), MaxNamed)] {
		out = append(out, v.v)
	}
	if len(out) == 0 {
		return nil, 0
	}
	return out, len(vs) - len(out)
}

// closenessLimit bounds the edit distances computed: values further apart than this are
// equally far.
const closenessLimit = 8

// closeness is the edit distance between a node's value v and the selector's want,
// ignoring case, at most closenessLimit+1.
func closeness(v, want string) int {
	if len(want) > textdist.MaxLen {
		v, want = want, v // Distance bounds its second argument
	}
	return textdist.Distance(v, want, closenessLimit)
}
