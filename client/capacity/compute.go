package capacity

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/selector"
	"github.com/amlarc-go/instancetypes/validate"
)

// Pool labels: a node's pool is the value of the first of these it carries, unless
// Options.PoolLabel names another.
const (
	AKSPoolLabel = "kubernetes.azure.com/agentpool"
	PoolLabel    = "agentpool"
)

// ResourcePods is the resource a node's allocatable "pods" counts: each pod takes one.
const ResourcePods instancetype.ResourceName = "pods"

// Node is a node as Compute needs it: what package fit reads of it (name, labels,
// allocatable, taints, cordon), and what the pods already bound to it request.
type Node struct {
	fit.Node
	// Requested sums the requests of the pods bound to the node that are not terminated
	// (spec.nodeName is the node, status.phase neither Succeeded nor Failed), as the
	// scheduler sums them: cpu in millicores (MilliValue), every other resource in its
	// unit (Value: bytes of memory, GPUs), each rounded up. Resources the node does not
	// allocate may be left out: no pod that requests them fits anyway.
	Requested map[instancetype.ResourceName]int64
	// Pods is the number of those pods. When Allocatable holds "pods" (the kubelet always
	// sets it), each pod takes one of them, as the scheduler counts them.
	Pods int
}

// Options are the settings of Compute.
type Options struct {
	// NodeSelector is the Azure ML extension's nodeSelector (R7), merged with each
	// instance type's to form the selector of its pods.
	NodeSelector map[string]string
	// PoolLabel is the node label whose value names a node's pool. Empty means
	// kubernetes.azure.com/agentpool, else agentpool; a node with neither is in the pool
	// "".
	PoolLabel string
}

// Report is how many more pods of each instance type fit now. Its JSON is the output of
// kubectl instancetype capacity -o json.
type Report struct {
	// Capacity has one entry per instance type, in name order: the built-in default
	// (unless a custom one overrides it) and every valid instance type given.
	Capacity []TypeCapacity `json:"capacity"`
	// Nodes is the number of nodes (the last of each name); Pods the pods bound to them
	// that are counted (Node.Pods).
	Nodes int `json:"nodes"`
	Pods  int `json:"pods"`
	// Skipped are the instance types left out, and why: invalid (package validate's
	// first finding), or not decoded.
	Skipped []Skip `json:"skipped,omitempty"`
}

// TypeCapacity is how many more pods of one instance type fit now, in all and per pool.
type TypeCapacity struct {
	// InstanceType is the instance type's name.
	InstanceType string `json:"instanceType"`
	// Fits is how many more pods of its requests can be bound now: on every candidate
	// node (labels matching its effective selector, schedulable, not excluded by a taint,
	// as package fit has it), the number of pods its free resources (allocatable less
	// what the pods bound to it request) hold, summed. It saturates at math.MaxInt64.
	Fits int64 `json:"fits"`
	// LimitedBy is the resource that runs out first: of the resources the instance type
	// requests (cpu, memory, an extended resource such as nvidia.com/gpu) and a node's
	// pods, the one that limits the most candidate nodes. On a node, the limiting
	// resource is the one that holds the fewest pods; ties go to an extended resource
	// (by name), then cpu, memory and pods. Empty when no node is a candidate.
	LimitedBy instancetype.ResourceName `json:"limitedBy"`
	// Pools are the pools that have candidate nodes, by name.
	Pools []PoolCapacity `json:"pools"`
}

// PoolCapacity is how many more pods of an instance type fit on one pool.
type PoolCapacity struct {
	// Pool is the pool's name: the value of the pool label, "" for nodes without one.
	Pool string `json:"pool"`
	// Nodes is the number of candidate nodes of the pool.
	Nodes int `json:"nodes"`
	// Fits and LimitedBy are those of TypeCapacity, on this pool's candidates.
	Fits      int64                     `json:"fits"`
	LimitedBy instancetype.ResourceName `json:"limitedBy"`
}

// Skip is an instance type that Compute leaves out, and why.
type Skip struct {
	InstanceType string `json:"instanceType"`
	Reason       string `json:"reason"`
}

// Compute returns how many more pods of each instance type fit on the nodes now. The
// instance types form a catalog as package resolve forms it: the built-in
// defaultinstancetype unless one of them overrides it, the last of several of one name.
// An instance type that package validate refuses (with opts.NodeSelector, so that a
// selector at odds with the extension's is refused too) is left out, in Report.Skipped.
//
// For each instance type, its demand is fit.DemandOf its effective selector, requests and
// limits: the cpu and memory requests, and each extended resource's limit, which
// Kubernetes requests at the limit. The candidate nodes are those fit.Index.AppendCandidates
// gives, by package fit's rules; on each, the pods that fit are the fewest that any
// requested resource holds, floor((allocatable − requested) / request), in the
// scheduler's units (Node.Requested), and no more than the pods left of an allocatable
// "pods". Of several nodes of one name, the last is used, as by package fit.
//
// Compute reads its arguments and never modifies them. Its time is that of indexing the
// nodes (fit.NewIndex) plus, per instance type, the candidate nodes times the resources
// it requests; its memory is linear in the nodes.
func Compute(types []*instancetype.InstanceType, nodes []Node, opts Options) *Report {
	catalog := resolve.NewCatalog(types...)
	fitNodes := make([]fit.Node, len(nodes))
	for i := range nodes {
		fitNodes[i] = nodes[i].Node
	}
	ix := fit.NewIndex(fitNodes)
	c := newCounter(nodes, opts.PoolLabel)
	r := &Report{Capacity: []TypeCapacity{}, Nodes: ix.Len(), Pods: c.pods}
	vopts := validate.Options{NodeSelector: opts.NodeSelector}
	var cands []int
	for it := range catalog.All() {
		if errs := validate.InstanceType(it, nil, vopts); len(errs) > 0 {
			reason := errs[0].Error()
			if len(errs) > 1 {
				reason += " (and " + strconv.Itoa(len(errs)-1) + " more)"
			}
			r.Skipped = append(r.Skipped, Skip{InstanceType: it.Name, Reason: reason})
			continue
		}
		sel, err := selector.Merge(opts.NodeSelector, it.Spec.NodeSelector)
		if err != nil { // validate refuses these: kept for safety
			r.Skipped = append(r.Skipped, Skip{InstanceType: it.Name, Reason: err.Error()})
			continue
		}
		d := fit.DemandOf(sel, it.Spec.Resources.Requests, it.Spec.Resources.Limits)
		cands = ix.AppendCandidates(cands[:0], d)
		r.Capacity = append(r.Capacity, c.count(it.Name, d, cands))
	}
	return r
}

// counter counts the pods of a demand that fit on candidate nodes.
type counter struct {
	nodes []Node
	pool  []int    // by node: its pool's number
	pools []string // by number, sorted
	pods  int      // the pods of the nodes kept by the index
}

func newCounter(nodes []Node, label string) *counter {
	c := &counter{nodes: nodes, pool: make([]int, len(nodes))}
	names := make([]string, len(nodes))
	for i := range nodes {
		names[i] = poolOf(nodes[i].Labels, label)
	}
	c.pools = slices.Clone(names)
	slices.Sort(c.pools)
	c.pools = slices.Compact(c.pools)
	for i, n := range names {
		c.pool[i], _ = slices.BinarySearch(c.pools, n)
	}
	// The pods of the nodes the index keeps: the last of each name.
	last := make(map[string]int, len(nodes))
	for i := range nodes {
		if nodes[i].Name != "" {
			last[nodes[i].Name] = i
		}
	}
	for i := range nodes {
		if nodes[i].Name == "" || last[nodes[i].Name] == i {
			c.pods += nodes[i].Pods
		}
	}
	return c
}

// poolOf is the pool of a node with the given labels.
func poolOf(labels map[string]string, label string) string {
	if label != "" {
		return labels[label]
	}
	if p, ok := labels[AKSPoolLabel]; ok {
		return p
	}
	return labels[PoolLabel]
}

// request is one resource a demand requests, in the scheduler's units.
type request struct {
	name instancetype.ResourceName
	n    int64
}

// Units returns q in the scheduler's units for the resource name: millicores for cpu
// (MilliValue), the resource's own unit for every other (Value), each rounded up.
func Units(name instancetype.ResourceName, q quantity.Quantity) int64 {
	if name == instancetype.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

// rank orders resources for ties of LimitedBy: extended resources (by name), then cpu,
// memory and pods.
func rank(name instancetype.ResourceName) int {
	switch name {
	case instancetype.ResourceCPU:
		return 1
	case instancetype.ResourceMemory:
		return 2
	case ResourcePods:
		return 3
	}
	return 0
}

func compareResources(a, b instancetype.ResourceName) int {
	return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b))
}

// limiters counts, per resource, the nodes it limits.
type limiters map[instancetype.ResourceName]int

// most is the resource that limits the most nodes, ties broken by compareResources.
func (l limiters) most() instancetype.ResourceName {
	var best instancetype.ResourceName
	n := -1
	for name, k := range l {
		if k > n || k == n && compareResources(name, best) < 0 {
			best, n = name, k
		}
	}
	return best
}

// count counts the pods of d that fit on the candidates cands (positions in c.nodes).
func (c *counter) count(name string, d fit.Demand, cands []int) TypeCapacity {
	reqs := make([]request, 0, len(d.Requests))
	for res, q := range d.Requests {
		if n := Units(res, q); n > 0 {
			reqs = append(reqs, request{res, n})
		}
	}
	slices.SortFunc(reqs, func(a, b request) int { return compareResources(a.name, b.name) })

	tc := TypeCapacity{InstanceType: name, Pools: []PoolCapacity{}}
	all := limiters{}
	type poolSum struct {
		nodes int
		fits  int64
		lim   limiters
	}
	byPool := map[int]*poolSum{}
	for _, i := range cands {
		fits, lim := c.fitsOn(&c.nodes[i], reqs)
		ps := byPool[c.pool[i]]
		if ps == nil {
			ps = &poolSum{lim: limiters{}}
			byPool[c.pool[i]] = ps
		}
		ps.nodes++
		ps.fits = addSat(ps.fits, fits)
		if lim != "" {
			ps.lim[lim]++
			all[lim]++
		}
		tc.Fits = addSat(tc.Fits, fits)
	}
	tc.LimitedBy = all.most()
	pools := make([]int, 0, len(byPool))
	for p := range byPool {
		pools = append(pools, p)
	}
	slices.Sort(pools)
	for _, p := range pools {
		ps := byPool[p]
		tc.Pools = append(tc.Pools, PoolCapacity{Pool: c.pools[p], Nodes: ps.nodes, Fits: ps.fits, LimitedBy: ps.lim.most()})
	}
	return tc
}

// fitsOn returns how many pods of the requests fit on x, and the resource that limits
// them ("" when nothing does: no request, no pods allocatable).
func (c *counter) fitsOn(x *Node, reqs []request) (int64, instancetype.ResourceName) {
	best := int64(math.MaxInt64)
	var lim instancetype.ResourceName
	for _, r := range reqs {
		var alloc int64
		if q, ok := x.Allocatable[r.name]; ok {
			alloc = Units(r.name, q)
		}
		if n := free(alloc, x.Requested[r.name]) / r.n; n < best {
			best, lim = n, r.name
		}
	}
	if q, ok := x.Allocatable[ResourcePods]; ok {
		if n := free(q.Value(), int64(x.Pods)); n < best {
			best, lim = n, ResourcePods
		}
	}
	if lim == "" {
		return 0, ""
	}
	return best, lim
}

// free is what is left of alloc once used is taken, never below zero.
func free(alloc, used int64) int64 {
	if used < 0 {
		used = 0
	}
	if alloc <= used {
		return 0
	}
	return alloc - used
}

func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
