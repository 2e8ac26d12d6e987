package plan

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/selector"
)

// Pool labels: a node's pool is the value of the first of these it carries, unless
// Options.PoolLabel names another (the same labels as the client module's capacity).
const (
	AKSPoolLabel = "kubernetes.azure.com/agentpool"
	PoolLabel    = "agentpool"
)

// ResourcePods is the resource a node's allocatable "pods" counts: each pod takes one.
const ResourcePods instancetype.ResourceName = "pods"

// Options are the settings of a plan.
type Options struct {
	// NodeSelector is the Azure ML extension's nodeSelector (R7), merged with each
	// instance type's to form the selector of its pods.
	NodeSelector map[string]string
	// PoolLabel is the node label whose value names a node's pool. Empty means
	// kubernetes.azure.com/agentpool, else agentpool; a node with neither is in the pool "".
	PoolLabel string
	// Tolerations are tolerations the pods have besides those of Azure ML's workload pods
	// (fit.Workload with no compute known), as the command's --tolerate adds them.
	Tolerations []cluster.Toleration
	// Overhead is what runs beside the pods: per node and per pod (see DefaultOverhead).
	// The zero Overhead counts none.
	Overhead Overhead
	// NodeOverhead, when it holds a node's name, replaces Overhead.PerNode on that node:
	// the requests of the DaemonSet pods a live cluster has bound to it.
	NodeOverhead map[string]Resources
}

// Report is the plan of every instance type on every pool it may use. Its JSON is the
// output of instancetype plan -o json.
type Report struct {
	// Plan has one entry per instance type and pool that has a node the type may use: in
	// the order of the instance types given, then by pool name.
	Plan []Entry `json:"plan"`
	// Overhead is the overhead counted: Options.Overhead, its maps never nil.
	Overhead Overhead `json:"overhead"`
	// Unplaced are the instance types that no schedulable node admits (by labels and
	// taints), and Skipped those that were not planned, each with why.
	Unplaced []string `json:"-"`
	Skipped  []Skip   `json:"-"`
}

// Skip is an instance type left out of a plan, and why.
type Skip struct {
	InstanceType string
	Reason       string
}

// Entry is the plan of one instance type on one pool.
type Entry struct {
	// InstanceType and Pool name the instance type and the pool.
	InstanceType string `json:"instanceType"`
	Pool         string `json:"pool"`
	// Nodes is the number of the pool's nodes the type may use: schedulable, with labels
	// matching its effective selector and taints its pods tolerate.
	Nodes int `json:"nodes"`
	// PerNode is how many pods of the type fit on one empty node of the pool, its
	// smallest (the one of the Nodes that holds the fewest), after the per-node overhead,
	// each pod requesting the type's requests and the per-pod overhead.
	PerNode int64 `json:"perNode"`
	// Fits is the sum of those pods over the pool's Nodes, each empty. It saturates at
	// math.MaxInt64.
	Fits int64 `json:"fits"`
	// LimitedBy is the resource that runs out first on the smallest node: of those a pod
	// requests and the node's pods, the one that holds the fewest pods; ties go to an
	// extended resource (by name), then cpu, memory and pods.
	LimitedBy instancetype.ResourceName `json:"limitedBy"`
	// Stranded is what is left on the smallest node once PerNode pods are placed: cpu,
	// memory, and each extended resource the node allocates or the type requests.
	Stranded Resources `json:"stranded"`
	// Node is the name of the smallest node; Usable what it has of each resource of
	// Stranded once the per-node overhead is taken (allocatable less overhead, at least 0).
	Node   string    `json:"-"`
	Usable Resources `json:"-"`
}

// StrandedShare returns the share of the usable amount of resource name on the smallest
// node that is left stranded, from 0 to 1, and false when the node has none of it usable.
func (e Entry) StrandedShare(name instancetype.ResourceName) (float64, bool) {
	u, s := e.Usable[name], e.Stranded[name]
	if u.Sign() <= 0 {
		return 0, false
	}
	return float64(Units(name, s)) / float64(Units(name, u)), true
}

// Planner plans instance types on a fixed set of nodes. It is immutable once New returns
// and safe for concurrent use.
type Planner struct {
	ix       *fit.Index
	nodes    []cluster.Node
	opts     Options
	tols     []cluster.Toleration
	cols     map[instancetype.ResourceName]int // resource → column of free
	colNames []instancetype.ResourceName       // by column
	ncols    int
	free     []int64           // by node, then column: allocatable less the per-node overhead, ≥ 0
	formats  []quantity.Format // by node, then column: the format of the allocatable amount
	pods     []int64           // by node: pods left of an allocatable "pods" after overhead; -1 without
	pool     []int             // by node: its pool's number
	pools    []string          // by number, sorted
	poolKey  []string          // by pool number: the label key that names it on its first node
	perPod   map[instancetype.ResourceName]int64
}

// New returns a planner of the nodes with the options. Of several nodes of one name the
// last is used, as package fit uses it. New keeps the nodes slice (not copied): the caller
// must not modify it while the planner is in use. Its cost is linear in the nodes and their
// allocatable resources.
func New(nodes []cluster.Node, opts Options) *Planner {
	p := &Planner{
		ix:    fit.NewIndex(nodes),
		nodes: nodes,
		opts:  opts,
		tols:  append(fit.Workload("", "", ""), opts.Tolerations...),
		cols:  map[instancetype.ResourceName]int{},
	}
	column := func(name instancetype.ResourceName) {
		if _, ok := p.cols[name]; !ok && name != ResourcePods {
			p.cols[name] = len(p.colNames)
			p.colNames = append(p.colNames, name)
		}
	}
	column(instancetype.ResourceCPU)
	column(instancetype.ResourceMemory)
	for i := range nodes {
		for name := range nodes[i].Allocatable {
			column(name)
		}
	}
	p.ncols = len(p.colNames)
	p.free = make([]int64, len(nodes)*p.ncols)
	p.formats = make([]quantity.Format, len(nodes)*p.ncols)
	p.pods = make([]int64, len(nodes))
	p.perPod = map[instancetype.ResourceName]int64{}
	for name, q := range opts.Overhead.PerPod {
		if n := Units(name, q); n > 0 {
			p.perPod[name] = n
		}
	}
	units := unitCache{}
	nodeOverhead := units.of(opts.Overhead.PerNode)
	for i := range nodes {
		x := &nodes[i]
		over := nodeOverhead
		if o, ok := opts.NodeOverhead[x.Name]; ok {
			over = units.of(o)
		}
		p.pods[i] = -1
		for name, q := range x.Allocatable {
			n := units.units(name, q) - over[name]
			if name == ResourcePods {
				p.pods[i] = max(n, 0)
				continue
			}
			c := i*p.ncols + p.cols[name]
			p.free[c] = max(n, 0)
			p.formats[c] = q.Format()
		}
	}
	names := make([]string, len(nodes))
	for i := range nodes {
		names[i] = poolOf(nodes[i].Labels, opts.PoolLabel)
	}
	p.pools = slices.Clone(names)
	slices.Sort(p.pools)
	p.pools = slices.Compact(p.pools)
	p.pool = make([]int, len(nodes))
	p.poolKey = make([]string, len(p.pools))
	for i := len(nodes) - 1; i >= 0; i-- {
		p.pool[i], _ = slices.BinarySearch(p.pools, names[i])
		p.poolKey[p.pool[i]] = poolKeyOf(nodes[i].Labels, opts.PoolLabel)
	}
	return p
}

// poolOf is the pool of a node with the given labels.
func poolOf(labels map[string]string, label string) string {
	return labels[poolKeyOf(labels, label)]
}

// poolKeyOf is the label that names the pool of a node with the given labels.
func poolKeyOf(labels map[string]string, label string) string {
	if label != "" {
		return label
	}
	if _, ok := labels[AKSPoolLabel]; ok {
		return AKSPoolLabel
	}
	return PoolLabel
}

// Units returns q in the scheduler's units for the resource name: millicores for cpu, the
// resource's own unit for every other (bytes of memory, GPUs, pods), rounded up — what
// the scheduler's NodeResourcesFit filter counts, apimachinery's MilliValue and Value of
// the amount as resource.ParseQuantity reads its text. Where those do not fit an int64,
// the result is apimachinery's (the scheduler finds no room where it comes to zero or less).
func Units(name instancetype.ResourceName, q quantity.Quantity) int64 {
	r, err := resource.ParseQuantity(q.String())
	if err != nil { // q's text always parses; kept so that a change there cannot panic
		r = q.ToResource()
	}
	if name == instancetype.ResourceCPU {
		return r.MilliValue()
	}
	return r.Value()
}

// unitCache holds what Units gave for amounts already seen: the nodes of a pool share
// theirs, so that each amount is parsed once.
type unitCache map[unitKey]int64

type unitKey struct {
	cpu bool
	q   quantity.Quantity
}

func (u unitCache) units(name instancetype.ResourceName, q quantity.Quantity) int64 {
	k := unitKey{name == instancetype.ResourceCPU, q}
	n, ok := u[k]
	if !ok {
		n = Units(name, q)
		u[k] = n
	}
	return n
}

// of returns r in the scheduler's units, amounts of zero or less left out.
func (u unitCache) of(r Resources) map[instancetype.ResourceName]int64 {
	m := make(map[instancetype.ResourceName]int64, len(r))
	for name, q := range r {
		if n := u.units(name, q); n > 0 {
			m[name] = n
		}
	}
	return m
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

// request is what one pod asks of one resource, in the scheduler's units (the type's
// request plus the per-pod overhead), and its column (-1: no node allocates it; -2: pods).
type request struct {
	name instancetype.ResourceName
	n    int64
	col  int
}

// demand is what one pod of an instance type asks of a node.
type demand struct {
	fit  fit.Demand
	reqs []request // sorted in the tie order of LimitedBy; pods last when counted
}

// demandOf returns the demand of an instance type's pods, or a reason it has none.
func (p *Planner) demandOf(it *instancetype.InstanceType) (demand, string) {
	sel, err := selector.Merge(p.opts.NodeSelector, it.Spec.NodeSelector)
	if err != nil {
		return demand{}, err.Error()
	}
	d := demand{fit: fit.DemandOf(sel, it.Spec.Resources.Requests, it.Spec.Resources.Limits)}
	d.fit.Tolerations = p.tols
	total := map[instancetype.ResourceName]int64{}
	for name, q := range d.fit.Requests {
		if n := Units(name, q); n > 0 {
			total[name] = n
		}
	}
	if len(total) == 0 {
		return demand{}, "it requests no resource"
	}
	for name, n := range p.perPod {
		total[name] = addSat(total[name], n)
	}
	for name, n := range total {
		col, ok := p.cols[name]
		switch {
		case name == ResourcePods:
			col = -2
		case !ok:
			col = -1
		}
		d.reqs = append(d.reqs, request{name, n, col})
	}
	if _, ok := total[ResourcePods]; !ok {
		d.reqs = append(d.reqs, request{ResourcePods, 1, -2})
	}
	slices.SortFunc(d.reqs, func(a, b request) int { return compareResources(a.name, b.name) })
	return d, ""
}

// fitsOn returns how many pods of d fit on empty node i, and the index in d.reqs of the
// resource that limits them.
func (p *Planner) fitsOn(i int, d *demand) (int64, int) {
	best, lim := int64(math.MaxInt64), -1
	row := p.free[i*p.ncols : (i+1)*p.ncols]
	for k, r := range d.reqs {
		var f int64
		switch {
		case r.col >= 0:
			f = row[r.col]
		case r.col == -2:
			if p.pods[i] < 0 {
				continue // the node does not count pods
			}
			f = p.pods[i] / r.n
			if f < best {
				best, lim = f, k
			}
			continue
		}
		if n := f / r.n; n < best {
			best, lim = n, k
		}
	}
	if lim < 0 {
		return 0, lim
	}
	return best, lim
}

// Plan returns the entries of one instance type: one per pool that has a node it may use,
// by pool name; none when no node admits it. The reason is not empty when the type cannot
// be planned at all: its selector conflicts with the extension's, or it requests nothing.
// Its cost is that of listing the type's candidate nodes (fit.Index.AppendCandidates)
// plus a few divisions per candidate and resource.
func (p *Planner) Plan(it *instancetype.InstanceType) ([]Entry, string) {
	d, reason := p.demandOf(it)
	if reason != "" {
		return nil, reason
	}
	entries, _ := p.plan(it.Name, &d, nil)
	return entries, ""
}

// poolAgg is what plan sums of one pool.
type poolAgg struct {
	nodes    int
	fits     int64
	smallest int // node position
	per      int64
	lim      int
}

// plan returns the entries of a demand, and cands (a buffer the caller may pass again)
// holding its candidates.
func (p *Planner) plan(name string, d *demand, cands []int) ([]Entry, []int) {
	cands = p.ix.AppendCandidates(cands[:0], d.fit)
	if len(cands) == 0 {
		return nil, cands
	}
	aggs := map[int]*poolAgg{}
	for _, i := range cands {
		n, lim := p.fitsOn(i, d)
		a := aggs[p.pool[i]]
		if a == nil {
			a = &poolAgg{smallest: i, per: n, lim: lim}
			aggs[p.pool[i]] = a
		} else if p.smaller(i, n, a.smallest, a.per) {
			a.smallest, a.per, a.lim = i, n, lim
		}
		a.nodes++
		a.fits = addSat(a.fits, n)
	}
	pools := make([]int, 0, len(aggs))
	for k := range aggs {
		pools = append(pools, k)
	}
	slices.Sort(pools)
	entries := make([]Entry, 0, len(pools))
	for _, k := range pools {
		a := aggs[k]
		e := Entry{InstanceType: name, Pool: p.pools[k], Nodes: a.nodes, PerNode: a.per, Fits: a.fits, Node: p.nodes[a.smallest].Name}
		if a.lim >= 0 {
			e.LimitedBy = d.reqs[a.lim].name
		}
		e.Stranded, e.Usable = p.left(a.smallest, a.per, d)
		entries = append(entries, e)
	}
	return entries, cands
}

// smaller reports whether node i, holding n pods, is smaller than node j, holding m: it
// holds fewer, or as many with less usable cpu, then memory, then an earlier name.
func (p *Planner) smaller(i int, n int64, j int, m int64) bool {
	if n != m {
		return n < m
	}
	ri, rj := p.free[i*p.ncols:(i+1)*p.ncols], p.free[j*p.ncols:(j+1)*p.ncols]
	for c := range 2 { // cpu and memory are columns 0 and 1
		if ri[c] != rj[c] {
			return ri[c] < rj[c]
		}
	}
	if a, b := p.nodes[i].Name, p.nodes[j].Name; a != b {
		return a < b
	}
	return i < j
}

// strandable reports whether what is left of a resource is told in Stranded: cpu, memory
// and extended resources (a qualified name, nvidia.com/gpu), not hugepages or storage.
func strandable(name instancetype.ResourceName) bool {
	return name == instancetype.ResourceCPU || name == instancetype.ResourceMemory ||
		strings.Contains(string(name), "/") && !strings.Contains(string(name), "kubernetes.io/")
}

// left returns what is left on node i once n pods of d are placed, and what it had, of
// cpu, memory and every extended resource the node allocates or d requests.
func (p *Planner) left(i int, n int64, d *demand) (stranded, usable Resources) {
	stranded, usable = Resources{}, Resources{}
	row := p.free[i*p.ncols : (i+1)*p.ncols]
	asked := map[instancetype.ResourceName]int64{}
	for _, r := range d.reqs {
		asked[r.name] = r.n
	}
	for c, name := range p.colNames {
		_, requested := asked[name]
		if !strandable(name) || row[c] == 0 && !requested && c > 1 {
			continue
		}
		f := p.formats[i*p.ncols+c]
		usable[name] = fromUnits(name, row[c], f)
		stranded[name] = fromUnits(name, row[c]-n*asked[name], f)
	}
	for _, r := range d.reqs { // requested, and no node allocates it
		if r.col == -1 && strandable(r.name) {
			usable[r.name], stranded[r.name] = quantity.Quantity{}, quantity.Quantity{}
		}
	}
	return stranded, usable
}

// fromUnits is the quantity of n of resource name in the scheduler's units, printed in
// format f as apimachinery prints an amount it computed (1990m, 9900Mi).
func fromUnits(name instancetype.ResourceName, n int64, f quantity.Format) quantity.Quantity {
	var r *resource.Quantity
	if name == instancetype.ResourceCPU {
		r = resource.NewMilliQuantity(n, resource.DecimalSI)
	} else {
		r = resource.NewQuantity(n, resource.DecimalSI)
	}
	q, err := quantity.FromResource(*r)
	if err != nil {
		return quantity.Quantity{}
	}
	return q.WithFormat(f)
}

func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// Compute plans every instance type on the nodes: New(nodes, opts), then Plan of each
// type, in the order given. A nil type is left out; one that cannot be planned is in
// Report.Skipped, one no node admits in Report.Unplaced. Compute does not check the
// instance types (package validate does): of an invalid amount it counts nothing, as
// fit.DemandOf. Its cost is linear in the nodes times the instance types.
func Compute(types []*instancetype.InstanceType, nodes []cluster.Node, opts Options) *Report {
	p := New(nodes, opts)
	r := &Report{Plan: []Entry{}, Overhead: Overhead{PerNode: Resources{}, PerPod: Resources{}}}
	for name, q := range opts.Overhead.PerNode {
		r.Overhead.PerNode[name] = q
	}
	for name, q := range opts.Overhead.PerPod {
		r.Overhead.PerPod[name] = q
	}
	var cands []int
	for _, it := range types {
		if it == nil {
			continue
		}
		d, reason := p.demandOf(it)
		if reason != "" {
			r.Skipped = append(r.Skipped, Skip{InstanceType: it.Name, Reason: reason})
			continue
		}
		var entries []Entry
		entries, cands = p.plan(it.Name, &d, cands)
		if len(entries) == 0 {
			r.Unplaced = append(r.Unplaced, it.Name)
		}
		r.Plan = append(r.Plan, entries...)
	}
	return r
}
