package plan_test

import (
	"fmt"
	"slices"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/plan"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/selector"
	"github.com/amlarc-go/instancetypes/validate"
)

// The naive simulation beside which plan is tested: for each node the type may use, by the
// obvious reading of the rules (labels, cordon, taints), take the per-node overhead from
// its allocatable, then place pods one by one while every resource still holds one more.

const (
	cpu    = instancetype.ResourceCPU
	memory = instancetype.ResourceMemory
	gpu    = instancetype.ResourceNvidiaGPU
	pods   = plan.ResourcePods
)

// units is an amount in the scheduler's units, by quantity's own arithmetic (exact for
// the amounts generated here).
func units(name instancetype.ResourceName, q quantity.Quantity) int64 {
	if name == cpu {
		return q.MilliValue()
	}
	return q.Value()
}

// kept are the nodes package fit keeps: the last of each non-empty name.
func kept(nodes []cluster.Node) []cluster.Node {
	last := map[string]int{}
	for i, x := range nodes {
		if x.Name != "" {
			last[x.Name] = i
		}
	}
	var out []cluster.Node
	for i, x := range nodes {
		if x.Name == "" || last[x.Name] == i {
			out = append(out, x)
		}
	}
	return out
}

// admits reports whether a pod with the selector sel and the tolerations tols may use x.
func admits(x cluster.Node, sel map[string]string, tols []cluster.Toleration) bool {
	if x.Unschedulable || !selector.Matches(sel, x.Labels) {
		return false
	}
	for _, t := range x.Taints {
		if t.Effect != cluster.NoSchedule && t.Effect != cluster.NoExecute {
			continue
		}
		if !slices.ContainsFunc(tols, func(o cluster.Toleration) bool { return o.Tolerates(t) }) {
			return false
		}
	}
	return true
}

func poolOf(x cluster.Node, label string) string {
	if label != "" {
		return x.Labels[label]
	}
	if p, ok := x.Labels[plan.AKSPoolLabel]; ok {
		return p
	}
	return x.Labels[plan.PoolLabel]
}

// simulation is what the naive simulation finds on one node.
type simulation struct {
	node    cluster.Node
	count   int64
	left    map[instancetype.ResourceName]int64 // what is left of each resource, pods included
	usable  map[instancetype.ResourceName]int64
	blocked []instancetype.ResourceName // the resources that cannot hold one more pod
}

// simulate places pods of req (per pod, overhead included) on the empty node x after the
// per-node overhead over, one by one.
func simulate(x cluster.Node, req, over map[instancetype.ResourceName]int64) simulation {
	s := simulation{node: x, left: map[instancetype.ResourceName]int64{}, usable: map[instancetype.ResourceName]int64{}}
	_, countsPods := x.Allocatable[pods]
	for name, q := range x.Allocatable {
		s.left[name] = max(units(name, q)-over[name], 0)
		s.usable[name] = s.left[name]
	}
	one := func(name instancetype.ResourceName, n int64) bool { return s.left[name] >= n }
	for {
		ok := true
		for name, n := range req {
			ok = ok && one(name, n)
		}
		if countsPods {
			ok = ok && one(pods, 1)
		}
		if !ok {
			break
		}
		for name, n := range req {
			s.left[name] -= n
		}
		if countsPods {
			s.left[pods]--
		}
		s.count++
	}
	for name, n := range req {
		if !one(name, n) {
			s.blocked = append(s.blocked, name)
		}
	}
	if countsPods && !one(pods, 1) {
		s.blocked = append(s.blocked, pods)
	}
	return s
}

// tieOrder is the order of LimitedBy's ties: extended resources by name, cpu, memory, pods.
func tieOrder(a, b instancetype.ResourceName) int {
	rank := func(n instancetype.ResourceName) int {
		return map[instancetype.ResourceName]int{cpu: 1, memory: 2, pods: 3}[n]
	}
	if rank(a) != rank(b) {
		return rank(a) - rank(b)
	}
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

// Generators.

var (
	genPool  = rapid.SampledFrom([]string{"cpupool", "gpupool", "system", ""})
	genTaint = rapid.SampledFrom([]cluster.Taint{
		{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule},
		{Key: fit.TaintAMLArc, Value: "true", Effect: cluster.NoSchedule}, // tolerated by Azure ML's pods
		{Key: "spot", Value: "true", Effect: cluster.PreferNoSchedule},
		{Key: "dedicated", Value: "ml", Effect: cluster.NoExecute},
	})
)

func genNode(i int) *rapid.Generator[cluster.Node] {
	return rapid.Custom(func(t *rapid.T) cluster.Node {
		x := cluster.Node{Name: fmt.Sprintf("node-%d", i), Labels: map[string]string{}, Allocatable: map[instancetype.ResourceName]quantity.Quantity{}}
		if rapid.IntRange(0, 9).Draw(t, "dup") == 0 {
			x.Name = fmt.Sprintf("node-%d", rapid.IntRange(0, i).Draw(t, "dupOf"))
		}
		if pool := genPool.Draw(t, "pool"); pool != "" {
			if rapid.Bool().Draw(t, "aks") {
				x.Labels[plan.AKSPoolLabel] = pool
			} else {
				x.Labels[plan.PoolLabel] = pool
			}
		}
		if rapid.Bool().Draw(t, "zoned") {
			x.Labels["zone"] = rapid.SampledFrom([]string{"1", "2"}).Draw(t, "zone")
		}
		if rapid.IntRange(0, 9).Draw(t, "noCPU") > 0 {
			x.Allocatable[cpu] = quantity.MustParse(fmt.Sprintf("%dm", rapid.Int64Range(0, 64000).Draw(t, "cpu")))
		}
		if rapid.IntRange(0, 9).Draw(t, "noMemory") > 0 {
			x.Allocatable[memory] = quantity.MustParse(fmt.Sprintf("%dKi", rapid.Int64Range(0, 256<<20).Draw(t, "memory")))
		}
		if rapid.Bool().Draw(t, "gpus") {
			x.Allocatable[gpu] = quantity.MustParse(fmt.Sprint(rapid.IntRange(0, 8).Draw(t, "gpu")))
		}
		if rapid.IntRange(0, 3).Draw(t, "noPods") > 0 {
			x.Allocatable[pods] = quantity.MustParse(fmt.Sprint(rapid.IntRange(0, 30).Draw(t, "pods")))
		}
		x.Taints = rapid.SliceOfN(genTaint, 0, 2).Draw(t, "taints")
		x.Unschedulable = rapid.IntRange(0, 9).Draw(t, "cordoned") == 0
		return x
	})
}

func genNodes(t *rapid.T) []cluster.Node {
	n := rapid.IntRange(0, 12).Draw(t, "nodes")
	nodes := make([]cluster.Node, n)
	for i := range nodes {
		nodes[i] = genNode(i).Draw(t, fmt.Sprintf("node%d", i))
	}
	return nodes
}

func genResources(t *rapid.T, label string) plan.Resources {
	r := plan.Resources{}
	if rapid.Bool().Draw(t, label+"CPU?") {
		r[cpu] = quantity.MustParse(fmt.Sprintf("%dm", rapid.Int64Range(0, 2000).Draw(t, label+"CPU")))
	}
	if rapid.Bool().Draw(t, label+"Memory?") {
		r[memory] = quantity.MustParse(fmt.Sprintf("%dMi", rapid.Int64Range(0, 4096).Draw(t, label+"Memory")))
	}
	return r
}

func genInstanceType(i int) *rapid.Generator[*instancetype.InstanceType] {
	return rapid.Custom(func(t *rapid.T) *instancetype.InstanceType {
		it := &instancetype.InstanceType{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("type-%d", i)}}
		if pool := genPool.Draw(t, "pool"); pool != "" {
			it.Spec.NodeSelector = map[string]string{rapid.SampledFrom([]string{plan.AKSPoolLabel, plan.PoolLabel}).Draw(t, "key"): pool}
		}
		c := fmt.Sprintf("%dm", rapid.Int64Range(50, 40000).Draw(t, "cpu"))
		m := fmt.Sprintf("%dMi", rapid.Int64Range(64, 128<<10).Draw(t, "memory"))
		it.Spec.Resources.Requests = instancetype.ResourceList{cpu: instancetype.MustParseAmount(c), memory: instancetype.MustParseAmount(m)}
		it.Spec.Resources.Limits = instancetype.ResourceList{cpu: instancetype.MustParseAmount(c), memory: instancetype.MustParseAmount(m)}
		if g := rapid.IntRange(0, 4).Draw(t, "gpu"); g > 0 {
			it.Spec.Resources.Limits[gpu] = instancetype.MustParseAmount(fmt.Sprint(g))
		}
		return it
	})
}

func genOptions(t *rapid.T) plan.Options {
	opts := plan.Options{Overhead: plan.Overhead{PerNode: genResources(t, "node"), PerPod: genResources(t, "pod")}}
	if rapid.Bool().Draw(t, "tolerateSKU") {
		opts.Tolerations = []cluster.Toleration{{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}}
	}
	if rapid.IntRange(0, 3).Draw(t, "extension") == 0 {
		opts.NodeSelector = map[string]string{"zone": "1"}
	}
	if rapid.IntRange(0, 3).Draw(t, "poolLabel") == 0 {
		opts.PoolLabel = plan.PoolLabel
	}
	return opts
}

// unitsOf is r in the scheduler's units.
func unitsOf(r plan.Resources) map[instancetype.ResourceName]int64 {
	m := map[instancetype.ResourceName]int64{}
	for name, q := range r {
		m[name] = units(name, q)
	}
	return m
}

// naivePlan is what the simulation says of one instance type: per pool, the simulations
// of the nodes it may use.
func naivePlan(it *instancetype.InstanceType, nodes []cluster.Node, opts plan.Options) map[string][]simulation {
	sel, err := selector.Merge(opts.NodeSelector, it.Spec.NodeSelector)
	if err != nil {
		return nil
	}
	tols := append(fit.Workload("", "", ""), opts.Tolerations...)
	req := map[instancetype.ResourceName]int64{}
	for name, a := range it.Spec.Resources.Requests {
		q, _ := a.Quantity()
		req[name] += units(name, q)
	}
	for name, a := range it.Spec.Resources.Limits {
		if name != cpu && name != memory {
			q, _ := a.Quantity()
			req[name] += units(name, q)
		}
	}
	for name, n := range unitsOf(opts.Overhead.PerPod) {
		if n > 0 {
			req[name] += n
		}
	}
	out := map[string][]simulation{}
	for _, x := range kept(nodes) {
		if !admits(x, sel, tols) {
			continue
		}
		over := unitsOf(opts.Overhead.PerNode)
		if o, ok := opts.NodeOverhead[x.Name]; ok {
			over = unitsOf(o)
		}
		p := poolOf(x, opts.PoolLabel)
		out[p] = append(out[p], simulate(x, req, over))
	}
	return out
}

// checkEntries checks plan's entries of one instance type against the simulation.
func checkEntries(t *rapid.T, it *instancetype.InstanceType, entries []plan.Entry, nodes []cluster.Node, opts plan.Options) {
	want := naivePlan(it, nodes, opts)
	if len(entries) != len(want) {
		t.Fatalf("%s: %d entries (%+v); the simulation has %d pools", it.Name, len(entries), entries, len(want))
	}
	for i, e := range entries {
		if i > 0 && entries[i-1].Pool >= e.Pool {
			t.Fatalf("%s: pools out of order: %q then %q", it.Name, entries[i-1].Pool, e.Pool)
		}
		sims, ok := want[e.Pool]
		if !ok {
			t.Fatalf("%s: entry of pool %q, which it may not use", it.Name, e.Pool)
		}
		least, sum := sims[0].count, int64(0)
		for _, s := range sims {
			least = min(least, s.count)
			sum += s.count
		}
		if e.Nodes != len(sims) || e.PerNode != least || e.Fits != sum {
			t.Fatalf("%s on %s: nodes %d, per node %d, fits %d; the simulation: %d, %d, %d", it.Name, e.Pool, e.Nodes, e.PerNode, e.Fits, len(sims), least, sum)
		}
		// The smallest node is one that holds the fewest, and what is left there is the
		// simulation's.
		j := slices.IndexFunc(sims, func(s simulation) bool { return s.node.Name == e.Node && s.count == least && sameLeft(s, e) })
		if j < 0 {
			t.Fatalf("%s on %s: smallest node %q, stranded %v, usable %v: no node of the simulation holds %d pods and leaves that", it.Name, e.Pool, e.Node, e.Stranded, e.Usable, least)
		}
		s := sims[j]
		slices.SortFunc(s.blocked, tieOrder)
		if len(s.blocked) == 0 || s.blocked[0] != e.LimitedBy {
			t.Fatalf("%s on %s: limited by %q; on %s the simulation is blocked by %v", it.Name, e.Pool, e.LimitedBy, e.Node, s.blocked)
		}
	}
}

// sameLeft reports whether the entry's stranded and usable amounts are those the
// simulation leaves on its node, for cpu, memory and GPUs, and whether it tells them all.
func sameLeft(s simulation, e plan.Entry) bool {
	for _, name := range []instancetype.ResourceName{cpu, memory, gpu} {
		q, told := e.Stranded[name]
		u := e.Usable[name]
		must := name != gpu || s.usable[gpu] > 0 || e.LimitedBy == gpu || s.left[gpu] != s.usable[gpu]
		if !told {
			if must {
				return false
			}
			continue
		}
		if units(name, q) != s.left[name] || units(name, u) != s.usable[name] {
			return false
		}
	}
	return true
}

func TestPlanAgreesWithSimulation(t *testing.T) { rapid.Check(t, propPlanAgreesWithSimulation) }

// The properties as fuzz targets (.ci/run gives each a short budget).
func FuzzPlanAgreesWithSimulation(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propPlanAgreesWithSimulation)) }
func FuzzSuggestClaimsHold(f *testing.F)        { f.Fuzz(rapid.MakeFuzz(propSuggestClaimsHold)) }

func propPlanAgreesWithSimulation(t *rapid.T) {
	nodes := genNodes(t)
	opts := genOptions(t)
	if rapid.IntRange(0, 3).Draw(t, "live") == 0 && len(nodes) > 0 {
		opts.NodeOverhead = map[string]plan.Resources{nodes[0].Name: genResources(t, "live")}
	}
	types := make([]*instancetype.InstanceType, rapid.IntRange(1, 5).Draw(t, "types"))
	for i := range types {
		types[i] = genInstanceType(i).Draw(t, fmt.Sprintf("type%d", i))
	}
	r := plan.Compute(types, nodes, opts)
	for _, it := range types {
		var entries []plan.Entry
		for _, e := range r.Plan {
			if e.InstanceType == it.Name {
				entries = append(entries, e)
			}
		}
		checkEntries(t, it, entries, nodes, opts)
		if (len(entries) == 0) != slices.Contains(r.Unplaced, it.Name) {
			t.Fatalf("%s: %d entries, unplaced %v", it.Name, len(entries), r.Unplaced)
		}
	}
}

// The suggestions are valid instance types, their nodeSelector names their pool, each asks
// at least 90% of its share of what is usable, and the simulation places exactly the pods
// it claims on the pool's smallest node, leaving no GPU.
func TestSuggestClaimsHold(t *testing.T) { rapid.Check(t, propSuggestClaimsHold) }

func propSuggestClaimsHold(t *rapid.T) {
	nodes := genNodes(t)
	opts := genOptions(t)
	s := plan.Suggest(nodes, opts)
	if len(s.Claims) != len(s.List.Items) {
		t.Fatalf("%d claims for %d items", len(s.Claims), len(s.List.Items))
	}
	if errs := validate.InstanceTypeList(s.List, nil, resolve.Options{}); len(errs) > 0 {
		t.Fatalf("the suggestions are not valid: %v", errs)
	}
	r := plan.Compute(itemsOf(s.List), nodes, opts)
	for i := range s.List.Items {
		it, c := &s.List.Items[i], s.Claims[i]
		if poolOf(cluster.Node{Labels: it.Spec.NodeSelector}, opts.PoolLabel) != c.Pool || len(it.Spec.NodeSelector) != 1 {
			t.Fatalf("%s: nodeSelector %v does not name pool %q", it.Name, it.Spec.NodeSelector, c.Pool)
		}
		sims := naivePlan(it, nodes, opts)
		if len(sims) != 1 || len(sims[c.Pool]) == 0 {
			t.Fatalf("%s: may use the pools %v, not just %q", it.Name, sims, c.Pool)
		}
		least := sims[c.Pool][0]
		for _, x := range sims[c.Pool] {
			if x.count < least.count {
				least = x
			}
		}
		if least.count != c.PerNode {
			t.Fatalf("%s: claims %d per node; the simulation places %d on %s", it.Name, c.PerNode, least.count, least.node.Name)
		}
		for _, x := range sims[c.Pool] {
			if x.count == least.count && x.left[gpu] != 0 {
				t.Fatalf("%s: leaves %d GPUs on %s", it.Name, x.left[gpu], x.node.Name)
			}
		}
		checkShare(t, it, c, sims[c.Pool], opts)
		var entries []plan.Entry
		for _, e := range r.Plan {
			if e.InstanceType == it.Name {
				entries = append(entries, e)
			}
		}
		if len(entries) != 1 || entries[0].PerNode != c.PerNode || entries[0].Stranded[gpu].Sign() != 0 {
			t.Fatalf("%s: plan %+v; claim %+v", it.Name, entries, c)
		}
	}
}

// checkShare checks that each pod of a suggestion asks at least 90% of its share (1/n) of
// what is usable of cpu and memory on the pool's nodes (the least of them).
func checkShare(t *rapid.T, it *instancetype.InstanceType, c plan.Claim, sims []simulation, opts plan.Options) {
	for _, name := range []instancetype.ResourceName{cpu, memory} {
		least := sims[0].usable[name]
		for _, s := range sims {
			least = min(least, s.usable[name])
		}
		q, _ := it.Spec.Resources.Requests[name].Quantity()
		if ask := units(name, q); ask*10*c.PerNode < 9*least-9*c.PerNode {
			t.Fatalf("%s: asks %d of %s, less than 90%% of %d/%d", it.Name, ask, name, least, c.PerNode)
		}
	}
}

func itemsOf(l *instancetype.InstanceTypeList) []*instancetype.InstanceType {
	out := make([]*instancetype.InstanceType, len(l.Items))
	for i := range l.Items {
		out[i] = &l.Items[i]
	}
	return out
}
