package capacity

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/plan"
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

// Node is a node as Compute needs it: a cluster.Node, what package fit reads of it (name,
// labels, allocatable, taints, cordon), and what the pods already bound to it request.
type Node struct {
	cluster.Node
	// Requested sums the requests of the pods bound to the node that are not terminated
	// (spec.nodeName is the node, status.phase neither Succeeded nor Failed), as the
	// scheduler sums them: cpu in millicores (MilliValue), every other resource in its
	// unit (Value: bytes of memory, GPUs), each rounded up. Resources the node does not
	// allocate may be left out: no pod that requests them fits anyway.
	Requested map[instancetype.ResourceName]int64
	// Pods is the number of those pods. When Allocatable holds "pods" (the kubelet always
	// sets it), each pod takes one of them, as the scheduler counts them.
	Pods int
	// AllocatableUnits, when not nil, is the node's allocatable in the scheduler's units,
	// and Compute counts with it instead of Allocatable: for each resource, the MilliValue
	// (cpu) or Value (every other) of the resource.Quantity the API server sent, as the
	// scheduler takes it ([Units]). NodeOf sets it, so that an amount beyond what package
	// quantity holds ("1e19", "40000000000000000001"), which Allocatable leaves out, counts
	// as the scheduler counts it: zero, or wrapped around the int64 range as apimachinery
	// computes it.
	AllocatableUnits map[instancetype.ResourceName]int64
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
	// Tolerations are tolerations the pods have besides those of Azure ML's workload pods
	// (fit.Workload, with no compute known: the ml.azure.com/amlarc and amlarc-workload
	// taints), as the instancetype command's --tolerate adds them.
	Tolerations []cluster.Toleration
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
// Kubernetes requests at the limit, with the tolerations of Azure ML's workload pods and
// opts.Tolerations. The candidate nodes are those fit.Index.AppendCandidates gives, by
// package fit's rules (its taint and toleration rules included); on each, the pods that fit are the fewest that any
// requested resource holds, floor((allocatable − requested) / request), in the
// scheduler's units (Node.Requested), and no more than the pods left of an allocatable
// "pods". Of several nodes of one name, the last is used, as by package fit.
//
// Compute reads its arguments and never modifies them. Its time is that of indexing the
// nodes (fit.NewIndex) plus, per instance type, the candidate nodes times the resources
// it requests; its memory is linear in the nodes.
func Compute(types []*instancetype.InstanceType, nodes []Node, opts Options) *Report {
	catalog := resolve.NewCatalog(types...)
	fitNodes := make([]cluster.Node, len(nodes))
	for i := range nodes {
		fitNodes[i] = nodes[i].Node
	}
	ix := fit.NewIndex(fitNodes)
	c := newCounter(nodes, opts.PoolLabel)
	r := &Report{Capacity: []TypeCapacity{}, Nodes: ix.Len(), Pods: c.total}
	vopts := resolve.Options{NodeSelector: opts.NodeSelector}
	tols := append(fit.Workload("", "", ""), opts.Tolerations...)
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
		d.Tolerations = tols
		cands = ix.AppendCandidates(cands[:0], d)
		r.Capacity = append(r.Capacity, c.count(it.Name, d, cands))
	}
	return r
}

// counter counts the pods of a demand that fit on candidate nodes. It holds, per node, the
// free amount of every resource some node allocates, in the scheduler's units, so that a
// demand costs a few array reads per candidate node.
type counter struct {
	nodes []Node
	res   map[instancetype.ResourceName]int // resource → column of free
	free  []int64                           // by node, then column: allocatable less requested, ≥ 0
	cols  int
	pods  []int64  // by node: the pods left of its allocatable "pods"; -1 without one
	pool  []int    // by node: its pool's number
	pools []string // by number, sorted
	total int      // the pods of the nodes kept by the index
}

func newCounter(nodes []Node, label string) *counter {
	c := &counter{nodes: nodes, res: map[instancetype.ResourceName]int{}, pool: make([]int, len(nodes)), pods: make([]int64, len(nodes))}
	column := func(name instancetype.ResourceName) {
		if _, ok := c.res[name]; !ok && name != ResourcePods {
			c.res[name] = len(c.res)
		}
	}
	for i := range nodes {
		if units := nodes[i].AllocatableUnits; units != nil {
			for name := range units {
				column(name)
			}
			continue
		}
		for name := range nodes[i].Allocatable {
			column(name)
		}
	}
	c.cols = len(c.res)
	c.free = make([]int64, len(nodes)*c.cols)
	units := unitCache{}
	for i := range nodes {
		x := &nodes[i]
		c.pods[i] = -1
		units.each(x, func(name instancetype.ResourceName, n int64) {
			if name == ResourcePods {
				c.pods[i] = free(n, int64(x.Pods))
				return
			}
			c.free[i*c.cols+c.res[name]] = free(n, x.Requested[name])
		})
	}
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
			c.total += nodes[i].Pods
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

// request is one resource a demand requests, in the scheduler's units, and its column
// in counter.free (-1: no node allocates it).
type request struct {
	name instancetype.ResourceName
	n    int64
	col  int
}

// Units returns q in the scheduler's units for the resource name, as the scheduler of
// Kubernetes counts an amount it reads from the API server: millicores for cpu
// (MilliValue), the resource's own unit for every other (Value), each rounded up, of q's
// canonical text as resource.ParseQuantity reads it — the scheduler's NewResource and
// Resource.Add (k8s.io/kubernetes/pkg/scheduler/framework) take these apimachinery
// methods of the quantities it decodes, and so does Units, rather than computing them
// anew.
//
// Where the amount in those units does not fit an int64, the result is apimachinery's,
// not q's (which [quantity.Quantity.MilliValue] saturates): 0 for cpu "1e18" (10^21
// millicores), −1000 for cpu "9223372036854775807", −2^63 for cpu "1Ei". The scheduler
// finds no room on a node whose allocatable so comes to zero or less, and checks no
// request that comes to zero or less; Compute does the same. It is [plan.Units], which
// plan's figures count in; the tests here hold it to the scheduler's own arithmetic.
func Units(name instancetype.ResourceName, q quantity.Quantity) int64 {
	return plan.Units(name, q)
}

// unitCache holds what Units gave for amounts already seen: the nodes of a pool share
// theirs, so that Compute parses each amount once.
type unitCache map[unitKey]int64

type unitKey struct {
	cpu bool
	q   quantity.Quantity
}

// units is Units(name, q), from the cache when it has it.
func (u unitCache) units(name instancetype.ResourceName, q quantity.Quantity) int64 {
	k := unitKey{name == instancetype.ResourceCPU, q}
	n, ok := u[k]
	if !ok {
		n = Units(name, q)
		u[k] = n
	}
	return n
}

// each calls f with each resource node x allocates and its amount in the scheduler's
// units: x.AllocatableUnits when set, else Units of each amount of x.Allocatable.
func (u unitCache) each(x *Node, f func(instancetype.ResourceName, int64)) {
	if x.AllocatableUnits != nil {
		for name, n := range x.AllocatableUnits {
			f(name, n)
		}
		return
	}
	for name, q := range x.Allocatable {
		f(name, u.units(name, q))
	}
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

// count counts the pods of d that fit on the candidates cands (positions in c.nodes).
func (c *counter) count(name string, d fit.Demand, cands []int) TypeCapacity {
	reqs := make([]request, 0, len(d.Requests))
	for res, q := range d.Requests {
		if n := Units(res, q); n > 0 {
			col, ok := c.res[res]
			if !ok {
				col = -1
			}
			reqs = append(reqs, request{res, n, col})
		}
	}
	slices.SortFunc(reqs, func(a, b request) int { return compareResources(a.name, b.name) })
	podsLim := len(reqs) // the limiter number of pods; len(reqs)+1 is none

	tc := TypeCapacity{InstanceType: name, Pools: []PoolCapacity{}}
	type poolSum struct {
		nodes int
		fits  int64
		lim   []int // by limiter number: the nodes it limits
	}
	var sums []poolSum // by pool number, made on first use
	var used []int     // the pools with candidates
	all := make([]int, len(reqs)+2)
	for _, i := range cands {
		fits, lim := c.fitsOn(i, reqs, podsLim)
		p := c.pool[i]
		if sums == nil {
			sums = make([]poolSum, len(c.pools))
		}
		ps := &sums[p]
		if ps.nodes == 0 {
			ps.lim = make([]int, len(reqs)+2)
			used = append(used, p)
		}
		ps.nodes++
		ps.fits = addSat(ps.fits, fits)
		ps.lim[lim]++
		all[lim]++
		tc.Fits = addSat(tc.Fits, fits)
	}
	limiter := func(counts []int) instancetype.ResourceName {
		best, n := -1, 0
		for k, m := range counts[:len(reqs)+1] { // in tie order: requests sorted, then pods
			if m > n {
				best, n = k, m
			}
		}
		switch {
		case best < 0:
			return ""
		case best == podsLim:
			return ResourcePods
		}
		return reqs[best].name
	}
	tc.LimitedBy = limiter(all)
	slices.Sort(used)
	for _, p := range used {
		ps := &sums[p]
		tc.Pools = append(tc.Pools, PoolCapacity{Pool: c.pools[p], Nodes: ps.nodes, Fits: ps.fits, LimitedBy: limiter(ps.lim)})
	}
	return tc
}

// fitsOn returns how many pods of the requests fit on node i, and the number of the
// resource that limits them: its index in reqs, podsLim for the node's pods, podsLim+1
// when nothing does (no request, no pods allocatable).
func (c *counter) fitsOn(i int, reqs []request, podsLim int) (int64, int) {
	best, lim := int64(math.MaxInt64), podsLim+1
	row := c.free[i*c.cols : (i+1)*c.cols]
	for k, r := range reqs {
		var f int64
		if r.col >= 0 {
			f = row[r.col]
		}
		if n := f / r.n; n < best {
			best, lim = n, k
		}
	}
	if p := c.pods[i]; p >= 0 && p < best {
		best, lim = p, podsLim
	}
	if lim == podsLim+1 {
		return 0, lim
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
