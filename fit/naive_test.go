package fit_test

import (
	"cmp"
	"slices"
	"strings"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/selector"
)

// naive is the slow, obvious reading of the rules of package fit, beside which the index is
// tested and benchmarked: every check scans every node, and the nearest miss tries every
// subset of the selector.
type naive struct {
	nodes []cluster.Node // the nodes kept: the last of each non-empty name, in input order
}

func newNaive(nodes []cluster.Node) *naive {
	last := map[string]int{}
	for i, x := range nodes {
		if x.Name != "" {
			last[x.Name] = i
		}
	}
	nv := &naive{}
	for i, x := range nodes {
		if x.Name == "" || last[x.Name] == i {
			nv.nodes = append(nv.nodes, x)
		}
	}
	return nv
}

// excludingTaints returns the NoSchedule and NoExecute taints of x that none of tols
// tolerates, sorted, each once.
func excludingTaints(x cluster.Node, tols []cluster.Toleration) []cluster.Taint {
	var ts []cluster.Taint
	for _, t := range x.Taints {
		if (t.Effect == cluster.NoSchedule || t.Effect == cluster.NoExecute) && !slices.ContainsFunc(tols, func(o cluster.Toleration) bool { return naiveTolerates(o, t) }) {
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b cluster.Taint) int {
		return cmp.Or(strings.Compare(a.Key, b.Key), strings.Compare(a.Effect, b.Effect), strings.Compare(a.Value, b.Value))
	})
	return slices.Compact(ts)
}

func allocatable(x cluster.Node, name instancetype.ResourceName) quantity.Quantity {
	return x.Allocatable[name] // a missing resource is the zero Quantity
}

func fitsNode(x cluster.Node, d fit.Demand) bool {
	for name, q := range d.Requests {
		if q.Sign() > 0 && allocatable(x, name).Cmp(q) < 0 {
			return false
		}
	}
	return true
}

// carries reports whether x carries every pair of ps.
func carries(x cluster.Node, ps []fit.Pair) bool {
	for _, p := range ps {
		if v, ok := x.Labels[p.Key]; !ok || v != p.Value {
			return false
		}
	}
	return true
}

func (nv *naive) check(d fit.Demand) fit.Result {
	r := fit.Result{Nodes: len(nv.nodes)}
	var matching []int // positions
	for i, x := range nv.nodes {
		if !selector.Matches(d.NodeSelector, x.Labels) {
			continue
		}
		matching = append(matching, i)
		r.Matching++
		f := fitsNode(x, d)
		switch {
		case x.Unschedulable:
			r.Cordoned++
		case len(excludingTaints(x, d.Tolerations)) > 0:
			r.Tainted++
		default:
			r.Candidates++
			if f {
				r.Fits++
			}
			continue
		}
		if f {
			r.WouldFit++
		}
	}
	if r.Fits > 0 {
		return r
	}
	for k, v := range d.NodeSelector {
		r.Selector = append(r.Selector, fit.Pair{Key: k, Value: v})
	}
	slices.SortFunc(r.Selector, func(a, b fit.Pair) int { return strings.Compare(a.Key, b.Key) })
	if r.Matching == 0 {
		r.Miss = nv.nearestMiss(r.Selector)
		return r
	}
	// Positions sorted by name, then position.
	slices.SortStableFunc(matching, func(a, b int) int { return strings.Compare(nv.nodes[a].Name, nv.nodes[b].Name) })
	var groups []fit.TaintGroup // with every taint, cut below
	for _, i := range matching {
		x := nv.nodes[i]
		switch ts := excludingTaints(x, d.Tolerations); {
		case x.Unschedulable:
			if len(r.CordonedNodes) < fit.MaxNamed {
				r.CordonedNodes = append(r.CordonedNodes, x.Name)
			}
		case len(ts) > 0:
			k := slices.IndexFunc(groups, func(g fit.TaintGroup) bool { return slices.Equal(g.Taints, ts) })
			if k < 0 {
				k = len(groups)
				groups = append(groups, fit.TaintGroup{Taints: ts})
			}
			groups[k].Nodes++
			if len(groups[k].Names) < fit.MaxNamed {
				groups[k].Names = append(groups[k].Names, x.Name)
			}
		}
	}
	slices.SortStableFunc(groups, func(a, b fit.TaintGroup) int {
		return cmp.Or(cmp.Compare(b.Nodes, a.Nodes), slices.CompareFunc(a.Taints, b.Taints, func(x, y cluster.Taint) int {
			return cmp.Or(strings.Compare(x.Key, y.Key), strings.Compare(x.Effect, y.Effect), strings.Compare(x.Value, y.Value))
		}))
	})
	for i, g := range groups {
		if i == fit.MaxNamed {
			break
		}
		if len(g.Taints) > fit.MaxNamed {
			g.MoreTaints = len(g.Taints) - fit.MaxNamed
			g.Taints = g.Taints[:fit.MaxNamed]
		}
		r.TaintGroups = append(r.TaintGroups, g)
	}
	if r.Candidates == 0 {
		return r
	}
	for name, q := range d.Requests {
		if q.Sign() <= 0 {
			continue
		}
		s := fit.Shortfall{Resource: name, Request: q}
		first := true
		for _, i := range matching { // in name order: the first with the largest wins
			x := nv.nodes[i]
			if x.Unschedulable || len(excludingTaints(x, d.Tolerations)) > 0 {
				continue
			}
			a := allocatable(x, name)
			if a.Cmp(q) >= 0 {
				s.Covering++
			}
			if first || a.Cmp(s.Largest) > 0 {
				s.Largest, s.Node, first = a, x.Name, false
			}
		}
		if s.Largest.Sign() <= 0 {
			s.Node = ""
		}
		r.Shortfalls = append(r.Shortfalls, s)
	}
	slices.SortFunc(r.Shortfalls, func(a, b fit.Shortfall) int {
		rank := func(n instancetype.ResourceName) int {
			switch n {
			case instancetype.ResourceCPU:
				return 0
			case instancetype.ResourceMemory:
				return 1
			}
			return 2
		}
		return cmp.Or(cmp.Compare(rank(a.Resource), rank(b.Resource)), strings.Compare(string(a.Resource), string(b.Resource)))
	})
	return r
}

// nearestMiss tries every subset of ps (a few pairs): the largest that some node carries,
// then the one most nodes carry, then the one holding the earliest pair where they differ.
func (nv *naive) nearestMiss(ps []fit.Pair) *fit.Miss {
	if len(nv.nodes) == 0 {
		m := &fit.Miss{}
		for _, p := range ps {
			m.Lacking = append(m.Lacking, fit.Lack{Pair: p})
		}
		return m
	}
	if len(ps) > 16 {
		panic("naive nearestMiss: too many pairs to try every subset")
	}
	bestSize, bestN, best := -1, 0, []int(nil)
	for set := 0; set < 1<<len(ps); set++ {
		var sub []fit.Pair
		var idx []int
		for i := range ps {
			if set&(1<<i) != 0 {
				sub = append(sub, ps[i])
				idx = append(idx, i)
			}
		}
		n := 0
		for _, x := range nv.nodes {
			if carries(x, sub) {
				n++
			}
		}
		if n == 0 {
			continue
		}
		better := len(sub) > bestSize ||
			len(sub) == bestSize && (n > bestN || n == bestN && earlier(idx, best))
		if better {
			bestSize, bestN, best = len(sub), n, idx
		}
	}
	m := &fit.Miss{Nodes: bestN}
	var carriers []cluster.Node
	var carried []fit.Pair
	for _, i := range best {
		carried = append(carried, ps[i])
	}
	for _, x := range nv.nodes {
		if carries(x, carried) {
			carriers = append(carriers, x)
		}
	}
	m.Carried = carried
	for i, p := range ps {
		if slices.Contains(best, i) {
			continue
		}
		l := fit.Lack{Pair: p}
		if len(m.Lacking) < fit.MaxNamed {
			var vs []string
			for _, x := range carriers {
				if v, ok := x.Labels[p.Key]; ok && !slices.Contains(vs, v) {
					vs = append(vs, v)
				}
			}
			slices.Sort(vs)
			slices.SortStableFunc(vs, func(a, b string) int { return cmp.Compare(distance(a, p.Value), distance(b, p.Value)) })
			if len(vs) > fit.MaxNamed {
				l.Values, l.MoreValues = vs[:fit.MaxNamed], len(vs)-fit.MaxNamed
			} else {
				l.Values = vs
			}
		}
		m.Lacking = append(m.Lacking, l)
	}
	return m
}

// earlier reports whether the sorted index set a holds the smallest index where a and b
// differ.
func earlier(a, b []int) bool {
	for i := 0; ; i++ {
		switch {
		case i == len(a) && i == len(b):
			return false
		case i == len(a):
			return false
		case i == len(b):
			return true
		case a[i] != b[i]:
			return a[i] < b[i]
		}
	}
}

// distance is the optimal string alignment distance of a and b ignoring ASCII case, by the
// full table, capped at 9; strings both longer than 64 bytes count as 9 apart, as the
// index's bounded computation has it.
func distance(a, b string) int {
	if len(a) > 64 && len(b) > 64 {
		return 9
	}
	a, b = strings.ToLower(a), strings.ToLower(b) // ASCII values only in these tests
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return min(d[len(a)][len(b)], 9)
}

// naiveTolerates is Kubernetes' rule, written out: core/v1's Toleration.ToleratesTaint.
func naiveTolerates(o cluster.Toleration, t cluster.Taint) bool {
	switch {
	case o.Effect != "" && o.Effect != t.Effect:
		return false
	case o.Key != "" && o.Key != t.Key: // an empty key is any key (the API allows it with Exists only)
		return false
	case o.Exists:
		return true
	}
	return o.Value == t.Value
}
