package fit

import (
	"math/bits"
	"slices"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Result is the outcome of checking one demand against an index of nodes.
//
// The counts are always filled in; they partition the matching nodes:
// Matching = Candidates + Tainted + Cordoned. The rest explains a failure and is filled in
// only when Fits is 0, so that a demand that fits costs no allocation: Selector always
// then, Miss when no node matches, TaintGroups and CordonedNodes when some matching node
// is excluded, Shortfalls when some candidate exists. [Result.Errors] renders it all as
// field errors.
type Result struct {
	Nodes      int // nodes in the index
	Matching   int // nodes whose labels match the demand's selector
	Candidates int // matching nodes that are schedulable and carry no NoSchedule or NoExecute taint
	Fits       int // candidates whose allocatable covers every request: where the pods can land
	Tainted    int // matching nodes excluded by a taint only (schedulable, but tainted)
	Cordoned   int // matching nodes excluded by cordoning (spec.unschedulable), tainted or not
	WouldFit   int // excluded matching nodes (Tainted + Cordoned) whose allocatable covers every request

	// Selector is the demand's selector, sorted by key.
	Selector []Pair
	// TaintGroups are the Tainted nodes grouped by their NoSchedule and NoExecute taints:
	// the MaxNamed groups of the most nodes (ties: by taints, in order). The nodes of
	// the other groups, if any, number Tainted less the groups' Nodes.
	TaintGroups []TaintGroup
	// CordonedNodes are the names of the first MaxNamed of the Cordoned nodes, in order.
	CordonedNodes []string
	// Miss is the nearest miss of the selector, when no node matches.
	Miss *Miss
	// Shortfalls compares each request with the candidates' allocatable, cpu first, then
	// memory, then the others by name, when candidates exist but none fits.
	Shortfalls []Shortfall
}

// MaxNamed is how many nodes, taints and label values a Result names in each of its
// lists, and its messages repeat; the counts say how many there are in all.
const MaxNamed = 3

// TaintGroup is a set of excluding taints and the matching nodes that carry exactly these.
type TaintGroup struct {
	// Taints are the first MaxNamed of the taints, by key; MoreTaints counts the others.
	Taints     []cluster.Taint
	MoreTaints int
	// Nodes counts the matching nodes whose NoSchedule and NoExecute taints are these;
	// Names holds the first MaxNamed of them, by name.
	Nodes int
	Names []string
}

// Miss describes the nearest miss of a selector that no node matches: the largest part of
// it that some nodes carry.
//
// Carried is the largest subset of the selector's pairs that some node carries in full;
// among subsets of that size, the one the most nodes carry, and among those the one whose
// keys come first in order. (For a selector of more than 64 pairs, the subset of the first
// node by name that carries the most pairs.) Nodes counts the nodes that carry it (every
// node when Carried is empty); each of them lacks every pair of Lacking, since a node
// with one more pair would carry a larger subset.
type Miss struct {
	Carried []Pair // sorted by key
	Nodes   int
	Lacking []Lack // the selector's other pairs, sorted by key
}

// Lack is a selector pair that the nodes of a Miss lack, and what they have instead.
type Lack struct {
	// Pair is the selector's pair.
	Pair Pair
	// Values are the values that the Miss's nodes give the key instead: the MaxNamed
	// closest to the selector's value (by edit distance ignoring case, then in order), so
	// that the value meant by a typo comes first. They are filled in for the first
	// MaxNamed pairs of Lacking only.
	Values []string
	// MoreValues counts the other values.
	MoreValues int
}

// Shortfall compares one request with what the candidates have allocatable.
type Shortfall struct {
	Resource instancetype.ResourceName
	Request  quantity.Quantity
	// Covering counts the candidates whose allocatable covers this request, whatever the
	// others; 0 means no candidate has this much.
	Covering int
	// Largest is the largest amount of the resource allocatable on a candidate (a missing
	// amount is zero), and Node the first candidate by name that has it, "" when Largest
	// is not positive.
	Largest quantity.Quantity
	Node    string
}

// req is one positive request, numbered by the index's resources (-1: no node has it).
type req struct {
	res  int32
	q    quantity.Quantity
	name instancetype.ResourceName
}

// inline bounds the selectors and requests that Check handles without allocating.
const inline = 8

var emptyIndex Index

// Check tests the demand against the nodes: which match its selector, which of those are
// candidates, on which its requests fit. It never modifies the demand.
//
// When the demand fits some node (Fits > 0) Check does not allocate, for selectors and
// requests of up to 8 entries each; its cost is a map lookup per selector pair and per
// request, then either one pass over n/64 words per pair (pairs that many nodes carry) or
// a walk of the shortest pair's list, plus one test per capacity class that has matching
// nodes. When the demand fits no node, it also explains why, which costs time and memory
// linear in the number of nodes and their labels.
func (ix *Index) Check(d Demand) Result {
	if ix == nil {
		ix = &emptyIndex
	}
	r := Result{Nodes: ix.n}

	var reqBuf [inline]req
	reqs := reqBuf[:0]
	for name, q := range d.Requests {
		if q.Sign() <= 0 {
			continue
		}
		i, ok := ix.res[name]
		if !ok {
			i = -1
		}
		reqs = append(reqs, req{res: i, q: q, name: name})
	}
	for i := 1; i < len(reqs); i++ { // insertion sort by resource number: few entries
		for j := i; j > 0 && reqs[j].res < reqs[j-1].res; j-- {
			reqs[j], reqs[j-1] = reqs[j-1], reqs[j]
		}
	}

	var listBuf [inline]int32
	lists, some := ix.postings(d.NodeSelector, listBuf[:0])
	if some {
		if len(lists) > 0 && !ix.posts[lists[0]].dense {
			ix.countSparse(&r, lists, reqs, d.Tolerations)
		} else {
			ix.countDense(&r, lists, reqs, d.Tolerations)
		}
	}
	if r.Fits == 0 {
		ix.explain(&r, d.NodeSelector, lists, reqs, d.Tolerations)
	}
	return r
}

// postings appends to lists the postings of the pairs of sel, shortest first, and reports
// whether some node may match: false when no node carries one of the pairs.
func (ix *Index) postings(sel map[string]string, lists []int32) ([]int32, bool) {
	for k, v := range sel {
		pi, ok := ix.pairs[Pair{k, v}]
		if !ok {
			return lists, false // no node carries this pair: none matches
		}
		lists = append(lists, pi)
	}
	for i := 1; i < len(lists); i++ { // shortest first
		for j := i; j > 0 && ix.posts[lists[j]].n < ix.posts[lists[j-1]].n; j-- {
			lists[j], lists[j-1] = lists[j-1], lists[j]
		}
	}
	return lists, true
}

// add counts n matching nodes of class c, which the demand's tolerations leave excluded
// or not.
func (r *Result) add(c *class, n int, fits, excluded bool) {
	r.Matching += n
	switch {
	case !excluded:
		r.Candidates += n
		if fits {
			r.Fits += n
		}
		return
	case c.cordoned:
		r.Cordoned += n
	default:
		r.Tainted += n
	}
	if fits {
		r.WouldFit += n
	}
}

// AppendCandidates appends to dst the nodes that Check counts among the candidates of d
// (Result.Candidates): those whose labels match d.NodeSelector and that are neither
// cordoned nor excluded by a taint, each as its position in the slice given to NewIndex,
// in increasing order. d.Requests is not read. It applies the rules of Check by the same
// code, so that a caller that does its own accounting of resources on the candidates (as
// the client module's capacity does, with the pods already running) places pods by the
// same selector, taint and cordon rules as Check.
func (ix *Index) AppendCandidates(dst []int, d Demand) []int {
	if ix == nil {
		return dst
	}
	lists, some := ix.postings(d.NodeSelector, nil)
	if !some {
		return dst
	}
	start := len(dst)
	for _, id := range ix.matching(lists) {
		if !ix.classes[ix.classOf[id]].excluded(d.Tolerations) {
			dst = append(dst, int(ix.order[id]))
		}
	}
	slices.Sort(dst[start:])
	return dst
}

// countDense counts the nodes in every bitset of lists (all dense), class by class.
func (ix *Index) countDense(r *Result, lists []int32, reqs []req, tols []cluster.Toleration) {
	var offBuf [inline]int
	offs := offBuf[:0]
	for _, pi := range lists {
		offs = append(offs, ix.posts[pi].off)
	}
	for ci := range ix.classes {
		c := &ix.classes[ci]
		if n := ix.countRange(offs, int(c.lo), int(c.hi)); n > 0 {
			r.add(c, n, c.fits(reqs), c.excluded(tols))
		}
	}
}

// countRange returns how many of the nodes lo ≤ id < hi (lo < hi) are set in every bitset
// starting at offs in ix.words; with no bitsets, hi − lo.
func (ix *Index) countRange(offs []int, lo, hi int) int {
	if len(offs) == 0 {
		return hi - lo
	}
	w0, w1 := lo>>6, (hi-1)>>6
	total := 0
	for w := w0; w <= w1; w++ {
		x := ^uint64(0)
		for _, off := range offs {
			x &= ix.words[off+w]
		}
		if w == w0 {
			x &= ^uint64(0) << (lo & 63)
		}
		if w == w1 {
			x &= ^uint64(0) >> (63 - (hi-1)&63)
		}
		total += bits.OnesCount64(x)
	}
	return total
}

// countSparse walks the first list (sparse, the shortest) and counts the nodes the other
// lists hold too.
func (ix *Index) countSparse(r *Result, lists []int32, reqs []req, tols []cluster.Toleration) {
	var curBuf [inline]int
	cursors := curBuf[:0]
	for range lists {
		cursors = append(cursors, 0)
	}
	first := ix.posts[lists[0]]
	cls, run, fits, excluded := int32(-1), 0, false, false
	for _, id := range ix.ids[first.off : first.off+int(first.n)] {
		if !ix.inAll(lists[1:], cursors[1:], id) {
			continue
		}
		if c := ix.classOf[id]; c != cls { // nodes of a class are consecutive
			if run > 0 {
				r.add(&ix.classes[cls], run, fits, excluded)
			}
			cls, run, fits, excluded = c, 0, ix.classes[c].fits(reqs), ix.classes[c].excluded(tols)
		}
		run++
	}
	if run > 0 {
		r.add(&ix.classes[cls], run, fits, excluded)
	}
}

// inAll reports whether node id is in every list. Ids are asked in increasing order, so
// each sparse list keeps a cursor that only moves forward.
func (ix *Index) inAll(lists []int32, cursors []int, id int32) bool {
	for i, pi := range lists {
		p := &ix.posts[pi]
		if p.dense {
			if ix.words[p.off+int(id>>6)]&(1<<(id&63)) == 0 {
				return false
			}
			continue
		}
		l := ix.ids[p.off : p.off+int(p.n)]
		// Gallop from the cursor, then binary search the last step.
		lo, step := cursors[i], 1
		hi := lo
		for hi < len(l) && l[hi] < id {
			lo = hi + 1
			hi += step
			step *= 2
		}
		hi = min(hi, len(l))
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if l[m] < id {
				lo = m + 1
			} else {
				hi = m
			}
		}
		cursors[i] = lo
		if lo == len(l) || l[lo] != id {
			return false
		}
	}
	return true
}
