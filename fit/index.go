package fit

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Index holds a set of nodes, indexed for Check. It is immutable once NewIndex returns:
// any number of goroutines may call Check at the same time, and the caller may change or
// reuse the nodes it was built from. The zero Index and a nil *Index hold no nodes.
//
// # Layout
//
// Nodes are numbered so that nodes of the same capacity class — the same allocatable
// resources, the same excluding taints and the same cordon — are consecutive, in order of
// name within a class. A class is tested against a demand once, not once per node, and in
// a real cluster a pool is a class or a few.
//
// Each label pair key=value has a posting list of the nodes that carry it: a bitset over
// all nodes when at least a 32nd of them carry it (the bitset is then no larger than the
// list), a sorted list of node numbers otherwise (kubernetes.io/hostname and other
// per-node labels). A selector is the intersection of its pairs' lists: when all are
// bitsets, their words are ANDed and counted class by class (one pass over n/64 words);
// otherwise the shortest list is walked and each of its nodes tested against the others.
// Memory is bounded by about four bytes per node label, plus the map of label pairs: about
// 700 kB for 5,000 nodes of 25 labels each.
type Index struct {
	n       int
	names   []string // by node number
	order   []int32  // by node number: position in the nodes given, for ties between equal names
	classOf []int32  // by node number
	classes []class

	pairs map[Pair]int32 // label pair → posting
	posts []posting
	byKey map[string][]int32 // label key → the postings of its pairs, for explanations
	ids   []int32            // the sparse posting lists, one after another
	words []uint64           // the bitsets, one after another, nwords each
	nw    int                // words per bitset: (n+63)/64

	res map[instancetype.ResourceName]int32 // resource name → number, in name order
}

// posting is the list of the nodes that carry one label pair.
type posting struct {
	value string // the pair's value
	off   int    // into Index.words (dense) or Index.ids
	n     int32  // how many nodes carry the pair
	dense bool
}

// class is a run of nodes lo ≤ id < hi with the same allocatable resources, excluding
// taints and cordon.
type class struct {
	lo, hi   int32
	alloc    []amount // the nonzero allocatable resources, by resource number
	cordoned bool
	taints   []cluster.Taint // the NoSchedule and NoExecute taints, sorted, without duplicates
}

type amount struct {
	res int32
	q   quantity.Quantity
}

// denseFactor: a pair carried by at least n/denseFactor nodes gets a bitset of n bits,
// which then costs no more than a list of int32s.
const denseFactor = 32

// NewIndex indexes nodes for Check. It keeps no reference to the nodes' maps or slices
// (strings, being immutable, are shared), so the caller may modify them afterwards.
//
// Of several nodes with the same non-empty Name, the last is kept, as a later definition
// replaces an earlier one in the cluster. Nodes without a name are each kept. NewIndex
// never fails and never panics: odd nodes (nil maps, no name, zero or negative quantities)
// are indexed as they are.
func NewIndex(nodes []cluster.Node) *Index {
	// The nodes kept, in input order: the last of each name.
	last := make(map[string]int, len(nodes))
	for i := range nodes {
		if nodes[i].Name != "" {
			last[nodes[i].Name] = i
		}
	}
	kept := make([]int, 0, len(last))
	for i := range nodes {
		if name := nodes[i].Name; name == "" || last[name] == i {
			kept = append(kept, i)
		}
	}
	n := len(kept)
	ix := &Index{n: n, nw: (n + 63) / 64}

	// Resources, numbered in name order, so that class keys and allocatable lists are
	// canonical.
	var resNames []instancetype.ResourceName
	seen := map[instancetype.ResourceName]bool{}
	for _, i := range kept {
		for name := range nodes[i].Allocatable {
			if !seen[name] {
				seen[name] = true
				resNames = append(resNames, name)
			}
		}
	}
	slices.Sort(resNames)
	ix.res = make(map[instancetype.ResourceName]int32, len(resNames))
	for i, name := range resNames {
		ix.res[name] = int32(i)
	}

	// Capacity classes, keyed by a canonical encoding of what they share.
	type member struct {
		node  int // into nodes
		order int32
		class int // into keys/protos
	}
	members := make([]member, n)
	classByKey := map[string]int{}
	var keys []string
	var protos []class
	var key []byte
	for k, i := range kept {
		c := classOf(&nodes[i], ix.res)
		key = c.appendKey(key[:0])
		ci, ok := classByKey[string(key)]
		if !ok {
			ci = len(protos)
			classByKey[string(key)] = ci
			keys = append(keys, string(key))
			protos = append(protos, c)
		}
		members[k] = member{node: i, order: int32(i), class: ci}
	}
	// Number the nodes: classes in key order, names in order within a class.
	rank := make([]int, len(keys)) // class → its position in key order
	byKey := make([]int, len(keys))
	for i := range byKey {
		byKey[i] = i
	}
	slices.SortFunc(byKey, func(a, b int) int { return strings.Compare(keys[a], keys[b]) })
	for pos, ci := range byKey {
		rank[ci] = pos
	}
	slices.SortFunc(members, func(a, b member) int {
		if c := cmp.Compare(rank[a.class], rank[b.class]); c != 0 {
			return c
		}
		if c := strings.Compare(nodes[a.node].Name, nodes[b.node].Name); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})
	ix.names = make([]string, n)
	ix.order = make([]int32, n)
	ix.classOf = make([]int32, n)
	ix.classes = make([]class, 0, len(protos))
	for id, m := range members {
		ix.names[id] = nodes[m.node].Name
		ix.order[id] = m.order
		pos := rank[m.class]
		if pos == len(ix.classes) {
			c := protos[m.class]
			c.lo = int32(id)
			ix.classes = append(ix.classes, c)
		}
		ix.classes[pos].hi = int32(id + 1)
		ix.classOf[id] = int32(pos)
	}

	// Posting lists: count, lay out, fill in node order (so lists come out sorted).
	ix.pairs = make(map[Pair]int32)
	for _, m := range members {
		for k, v := range nodes[m.node].Labels {
			p := Pair{k, v}
			pi, ok := ix.pairs[p]
			if !ok {
				pi = int32(len(ix.posts))
				ix.pairs[p] = pi
				ix.posts = append(ix.posts, posting{value: v})
			}
			ix.posts[pi].n++
		}
	}
	ix.byKey = make(map[string][]int32)
	for p, pi := range ix.pairs {
		ix.byKey[p.Key] = append(ix.byKey[p.Key], pi)
	}
	nids, ndense := 0, 0
	for i := range ix.posts {
		p := &ix.posts[i]
		if int(p.n)*denseFactor >= n {
			p.dense = true
			p.off = ndense * ix.nw
			ndense++
		} else {
			p.off = nids
			nids += int(p.n)
		}
		p.n = 0 // counted again while filling
	}
	ix.ids = make([]int32, nids)
	ix.words = make([]uint64, ndense*ix.nw)
	for id, m := range members {
		for k, v := range nodes[m.node].Labels {
			p := &ix.posts[ix.pairs[Pair{k, v}]]
			if p.dense {
				ix.words[p.off+id>>6] |= 1 << (id & 63)
			} else {
				ix.ids[p.off+int(p.n)] = int32(id)
			}
			p.n++
		}
	}
	return ix
}

// classOf returns the class of node x, without its range.
func classOf(x *cluster.Node, res map[instancetype.ResourceName]int32) class {
	var c class
	for name, q := range x.Allocatable {
		if !q.IsZero() { // a zero amount is the same as a missing one
			c.alloc = append(c.alloc, amount{res[name], q})
		}
	}
	slices.SortFunc(c.alloc, func(a, b amount) int { return cmp.Compare(a.res, b.res) })
	c.cordoned = x.Unschedulable
	for _, t := range x.Taints {
		if t.Excludes() {
			c.taints = append(c.taints, t)
		}
	}
	slices.SortFunc(c.taints, compareTaints)
	c.taints = slices.Compact(c.taints)
	return c
}

func compareTaints(a, b cluster.Taint) int {
	if c := strings.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	if c := strings.Compare(a.Effect, b.Effect); c != 0 {
		return c
	}
	return strings.Compare(a.Value, b.Value)
}

// appendKey appends an encoding of c that is equal for two classes exactly when they hold
// the same resources, taints and cordon.
func (c *class) appendKey(b []byte) []byte {
	if c.cordoned {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(c.alloc)))
	for _, a := range c.alloc {
		b = binary.AppendUvarint(b, uint64(a.res))
		b, _ = a.q.AppendText(b)
		b = append(b, 0, byte(a.q.Format())) // the text never holds a NUL; "512" may be BinarySI
	}
	return appendTaintsKey(b, c.taints)
}

// appendString appends s, prefixed with its length.
func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// Len returns the number of nodes in the index: those given to NewIndex, less the earlier
// ones of each duplicated name.
func (ix *Index) Len() int {
	if ix == nil {
		return 0
	}
	return ix.n
}

// excluded reports whether the class's nodes are no candidates for a pod with the
// tolerations tols: cordoned, or with a taint that excludes and that tols do not tolerate.
// Check and AppendCandidates both ask it, so that they agree.
func (c *class) excluded(tols []cluster.Toleration) bool {
	if c.cordoned {
		return true
	}
	for _, t := range c.taints {
		if !tolerated(t, tols) {
			return true
		}
	}
	return false
}

// untolerated returns the class's excluding taints that tols do not tolerate: its taints
// themselves when tols tolerate none of them.
func (c *class) untolerated(tols []cluster.Toleration) []cluster.Taint {
	n := 0
	for _, t := range c.taints {
		if !tolerated(t, tols) {
			n++
		}
	}
	if n == len(c.taints) {
		return c.taints
	}
	out := make([]cluster.Taint, 0, n)
	for _, t := range c.taints {
		if !tolerated(t, tols) {
			out = append(out, t)
		}
	}
	return out
}

// allocatable returns the class's allocatable amount of resource number r, zero if none.
func (c *class) allocatable(r int32) quantity.Quantity {
	for _, a := range c.alloc {
		if a.res == r {
			return a.q
		}
		if a.res > r {
			break
		}
	}
	return quantity.Quantity{}
}

// fits reports whether the class's allocatable covers every request. reqs is sorted by
// resource number, holds only positive amounts, and res is -1 for a resource no node has.
func (c *class) fits(reqs []req) bool {
	j := 0
	for _, r := range reqs {
		if r.res < 0 {
			return false
		}
		for j < len(c.alloc) && c.alloc[j].res < r.res {
			j++
		}
		if j == len(c.alloc) || c.alloc[j].res != r.res || c.alloc[j].q.Cmp(r.q) < 0 {
			return false // missing is zero, below a positive request
		}
	}
	return true
}
