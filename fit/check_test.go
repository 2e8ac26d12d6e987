package fit_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// baseCluster is a small cluster of four pools: two system nodes, three cpu nodes (one
// cordoned), two tainted V100 nodes and one untainted T4 node.
func baseCluster() []cluster.Node {
	system := res("cpu", "3860m", "memory", "12Gi", "pods", "110")
	cpu := res("cpu", "15740m", "memory", "56Gi", "pods", "110")
	v100 := res("cpu", "23660m", "memory", "200Gi", "pods", "110", "nvidia.com/gpu", "4")
	t4 := res("cpu", "3860m", "memory", "24Gi", "pods", "110", "nvidia.com/gpu", "1")
	return []cluster.Node{
		node("sys-0", "system", system, "zone=1"),
		node("sys-1", "system", system, "zone=2"),
		node("cpu-0", "cpu", cpu, "zone=1"),
		node("cpu-1", "cpu", cpu, "zone=2"),
		cordoned(node("cpu-2", "cpu", cpu, "zone=3")),
		tainted(node("gpu-0", "gpu", v100, "zone=1", "accelerator=v100"), skuGPU),
		tainted(node("gpu-1", "gpu", v100, "zone=2", "accelerator=v100"), skuGPU),
		node("t4-0", "gpu", t4, "zone=3", "accelerator=t4"),
	}
}

var checkTests = []struct {
	name   string
	nodes  []cluster.Node // nil: baseCluster
	demand fit.Demand
	want   counts
	errs   []finding
	check  func(t *testing.T, r fit.Result) // further expectations
}{
	{
		name:   "empty selector: every schedulable untainted node is a candidate",
		demand: fit.Demand{Requests: res("cpu", "100m", "memory", "2Gi")},
		want:   counts{Matching: 8, Candidates: 5, Fits: 5, Tainted: 2, Cordoned: 1, WouldFit: 3},
	},
	{
		name:   "pool selector",
		demand: fit.Demand{NodeSelector: sel("agentpool=cpu"), Requests: res("cpu", "8", "memory", "32Gi")},
		want:   counts{Matching: 3, Candidates: 2, Fits: 2, Cordoned: 1, WouldFit: 1},
	},
	{
		name:   "per-node label: the sparse path",
		demand: fit.Demand{NodeSelector: sel("kubernetes.io/hostname=cpu-1", "agentpool=cpu"), Requests: res("cpu", "1")},
		want:   counts{Matching: 1, Candidates: 1, Fits: 1},
	},
	{
		name:   "selector miss: the nearest miss names the pair the nodes lack and their values",
		demand: fit.Demand{NodeSelector: sel("agentpool=gpu", "accelerator=a100"), Requests: res("cpu", "1")},
		want:   counts{},
		errs:   []finding{invalid("spec.nodeSelector")},
		check: func(t *testing.T, r fit.Result) {
			want := &fit.Miss{
				Carried: []fit.Pair{{Key: "agentpool", Value: "gpu"}},
				Nodes:   3,
				Lacking: []fit.Lack{{Pair: fit.Pair{Key: "accelerator", Value: "a100"}, Values: []string{"v100", "t4"}}},
			}
			if diff := diffResults(fit.Result{Miss: r.Miss}, fit.Result{Miss: want}); diff != "" {
				t.Error(diff)
			}
		},
	},
	{
		name:   "selector miss: a typo of a value",
		demand: fit.Demand{NodeSelector: sel("agentpool=cpupool")},
		errs:   []finding{invalid("spec.nodeSelector")},
		check: func(t *testing.T, r fit.Result) {
			if r.Miss == nil || len(r.Miss.Carried) != 0 || r.Miss.Nodes != 8 ||
				!slices.Equal(r.Miss.Lacking[0].Values, []string{"cpu", "gpu", "system"}) { // cpu is 4 edits from cpupool, gpu 5
				t.Errorf("Miss = %+v; want nothing carried by all 8 nodes, which have agentpool cpu, gpu, system", r.Miss)
			}
		},
	},
	{
		name:   "selector miss: a key no node has",
		demand: fit.Demand{NodeSelector: sel("agentpol=gpu")},
		errs:   []finding{invalid("spec.nodeSelector")},
		check: func(t *testing.T, r fit.Result) {
			if r.Miss == nil || r.Miss.Nodes != 8 || len(r.Miss.Lacking) != 1 || r.Miss.Lacking[0].Values != nil {
				t.Errorf("Miss = %+v; want agentpol=gpu lacking, no values", r.Miss)
			}
		},
	},
	{
		name:   "pairs each carried, never together",
		demand: fit.Demand{NodeSelector: sel("agentpool=system", "accelerator=t4")},
		errs:   []finding{invalid("spec.nodeSelector")},
		check: func(t *testing.T, r fit.Result) {
			// {agentpool=system} is carried by 2 nodes, {accelerator=t4} by 1: the larger group wins.
			if r.Miss == nil || r.Miss.Nodes != 2 || r.Miss.Carried[0].Key != "agentpool" || r.Miss.Lacking[0].Values != nil {
				t.Errorf("Miss = %+v; want agentpool=system carried by 2, which have no accelerator", r.Miss)
			}
		},
	},
	{
		name: "nearest miss: of equal subsets carried by as many nodes, the one with the first key",
		nodes: []cluster.Node{
			node("x", "p", nil, "a=1", "d=1"),
			node("y", "p", nil, "b=1", "c=1"),
		},
		// {a, d} and {b, c} are both carried by one node: a comes first.
		demand: fit.Demand{NodeSelector: sel("a=1", "b=1", "c=1", "d=1")},
		errs:   []finding{invalid("spec.nodeSelector")},
		check: func(t *testing.T, r fit.Result) {
			if r.Miss == nil || len(r.Miss.Carried) != 2 || r.Miss.Carried[0].Key != "a" || r.Miss.Carried[1].Key != "d" {
				t.Errorf("Miss = %+v; want a=1,d=1 carried", r.Miss)
			}
		},
	},
	{
		name:   "taint excludes every matching node",
		demand: fit.Demand{NodeSelector: sel("accelerator=v100"), Requests: res("nvidia.com/gpu", "1")},
		want:   counts{Matching: 2, Tainted: 2, WouldFit: 2},
		errs:   []finding{invalid("spec.nodeSelector")},
		check: func(t *testing.T, r fit.Result) {
			want := []fit.TaintGroup{{Taints: []cluster.Taint{skuGPU}, Nodes: 2, Names: []string{"gpu-0", "gpu-1"}}}
			if diff := diffResults(fit.Result{TaintGroups: r.TaintGroups}, fit.Result{TaintGroups: want}); diff != "" {
				t.Error(diff)
			}
		},
	},
	{
		name:   "cordon excludes the node",
		demand: fit.Demand{NodeSelector: sel("kubernetes.io/hostname=cpu-2"), Requests: res("cpu", "1")},
		want:   counts{Matching: 1, Cordoned: 1, WouldFit: 1},
		errs:   []finding{invalid("spec.nodeSelector")},
		check: func(t *testing.T, r fit.Result) {
			if !slices.Equal(r.CordonedNodes, []string{"cpu-2"}) || r.TaintGroups != nil {
				t.Errorf("CordonedNodes = %q, TaintGroups = %v; want [cpu-2] and none (a cordoned node counts as cordoned only)", r.CordonedNodes, r.TaintGroups)
			}
		},
	},
	{
		name:   "cpu shortfall",
		demand: fit.Demand{NodeSelector: sel("agentpool=cpu"), Requests: res("cpu", "16", "memory", "1Gi")},
		want:   counts{Matching: 3, Candidates: 2, Cordoned: 1},
		errs:   []finding{invalid("spec.resources.requests[cpu]")},
		check:  wantShortfall("cpu", 0, "15740m", "cpu-0"),
	},
	{
		name:   "memory shortfall",
		demand: fit.Demand{NodeSelector: sel("agentpool=cpu"), Requests: res("cpu", "1", "memory", "64Gi")},
		want:   counts{Matching: 3, Candidates: 2, Cordoned: 1},
		errs:   []finding{invalid("spec.resources.requests[memory]")},
		check:  wantShortfall("memory", 0, "56Gi", "cpu-0"),
	},
	{
		name:   "cpu and memory shortfalls: one finding each",
		demand: fit.Demand{Requests: res("cpu", "64", "memory", "1Ti")},
		want:   counts{Matching: 8, Candidates: 5, Tainted: 2, Cordoned: 1},
		errs:   []finding{invalid("spec.resources.requests[cpu]"), invalid("spec.resources.requests[memory]")},
	},
	{
		name:   "GPU shortfall",
		demand: fit.Demand{NodeSelector: sel("accelerator=t4"), Requests: res("cpu", "1", "nvidia.com/gpu", "2")},
		want:   counts{Matching: 1, Candidates: 1},
		errs:   []finding{invalid("spec.resources.limits[nvidia.com/gpu]")},
		check:  wantShortfall("nvidia.com/gpu", 0, "1", "t4-0"),
	},
	{
		name:   "extended resource on some nodes only: fits those",
		demand: fit.Demand{Requests: res("cpu", "1", "nvidia.com/gpu", "1")},
		want:   counts{Matching: 8, Candidates: 5, Fits: 1, Tainted: 2, Cordoned: 1, WouldFit: 2},
	},
	{
		name:   "extended resource on no candidate",
		demand: fit.Demand{NodeSelector: sel("agentpool=system"), Requests: res("nvidia.com/gpu", "1")},
		want:   counts{Matching: 2, Candidates: 2},
		errs:   []finding{invalid("spec.resources.limits[nvidia.com/gpu]")},
		check:  wantShortfall("nvidia.com/gpu", 0, "0", ""),
	},
	{
		name:   "resource no node has",
		demand: fit.Demand{Requests: res("example.com/fpga", "1")},
		want:   counts{Matching: 8, Candidates: 5, Tainted: 2, Cordoned: 1},
		errs:   []finding{invalid("spec.resources.limits[example.com/fpga]")},
		check:  wantShortfall("example.com/fpga", 0, "0", ""),
	},
	{
		name:   "zero and negative requests ask for nothing",
		demand: fit.Demand{NodeSelector: sel("agentpool=system"), Requests: res("cpu", "0", "memory", "-1Gi", "nvidia.com/gpu", "0")},
		want:   counts{Matching: 2, Candidates: 2, Fits: 2},
	},
	{
		name: "each request covered by some candidate, none covers both",
		nodes: []cluster.Node{
			node("many-cores", "a", res("cpu", "16", "memory", "8Gi")),
			node("much-memory", "b", res("cpu", "2", "memory", "64Gi")),
			node("both", "c", res("cpu", "16", "memory", "64Gi")),
		},
		demand: fit.Demand{NodeSelector: sel("kubernetes.io/os=linux"), Requests: res("cpu", "8", "memory", "32Gi", "nvidia.com/gpu", "0")},
		want:   counts{Matching: 3, Candidates: 3, Fits: 1},
	},
	{
		name: "each request covered by some candidate, none covers both: at the tightest",
		nodes: []cluster.Node{
			node("many-cores", "a", res("cpu", "16", "memory", "8Gi")),
			node("many-cores-2", "a", res("cpu", "16", "memory", "8Gi")),
			node("much-memory", "b", res("cpu", "2", "memory", "64Gi")),
		},
		demand: fit.Demand{Requests: res("cpu", "8", "memory", "32Gi")},
		want:   counts{Matching: 3, Candidates: 3},
		errs:   []finding{invalid("spec.resources.requests[memory]")}, // 1 candidate covers memory, 2 cpu
	},
	{
		name: "PreferNoSchedule and unknown effects exclude nothing",
		nodes: []cluster.Node{
			tainted(node("soft", "a", res("cpu", "2")), cluster.Taint{Key: "soft", Effect: cluster.PreferNoSchedule}),
			tainted(node("odd", "a", res("cpu", "2")), cluster.Taint{Key: "odd", Effect: "Bogus"}, cluster.Taint{Key: "none"}),
			tainted(node("hard", "a", res("cpu", "2")), cluster.Taint{Key: "hard", Effect: cluster.NoExecute}),
		},
		demand: fit.Demand{Requests: res("cpu", "1")},
		want:   counts{Matching: 3, Candidates: 2, Fits: 2, Tainted: 1, WouldFit: 1},
	},
	{
		name: "a node both cordoned and tainted counts as cordoned",
		nodes: []cluster.Node{
			cordoned(tainted(node("x", "a", res("cpu", "2")), skuGPU)),
		},
		demand: fit.Demand{Requests: res("cpu", "1")},
		want:   counts{Matching: 1, Cordoned: 1, WouldFit: 1},
		errs:   []finding{invalid("spec.nodeSelector")},
	},
	{
		name: "duplicate names: the last definition is in effect",
		nodes: []cluster.Node{
			node("x", "a", res("cpu", "8")),
			node("y", "a", res("cpu", "1")),
			node("x", "a", res("cpu", "1")),
		},
		demand: fit.Demand{Requests: res("cpu", "4")},
		want:   counts{Matching: 2, Candidates: 2},
		errs:   []finding{invalid("spec.resources.requests[cpu]")},
		check:  wantShortfall("cpu", 0, "1", "x"),
	},
	{
		name: "odd nodes: nil maps, no name, no status, zero quantities",
		nodes: []cluster.Node{
			{},
			{Name: "no-status", Labels: map[string]string{"agentpool": "a"}},
			{Name: "", Labels: map[string]string{"agentpool": "a"}, Allocatable: res("cpu", "0", "memory", "0")},
			{Name: "zero-taint", Taints: []cluster.Taint{{}}, Allocatable: map[instancetype.ResourceName]quantity.Quantity{}},
		},
		demand: fit.Demand{Requests: res("cpu", "1")},
		want:   counts{Matching: 4, Candidates: 4},
		errs:   []finding{invalid("spec.resources.requests[cpu]")},
		check:  wantShortfall("cpu", 0, "0", ""),
	},
	{
		name:   "odd nodes: nothing requested fits a node without status",
		nodes:  []cluster.Node{{Name: "no-status"}},
		demand: fit.Demand{},
		want:   counts{Matching: 1, Candidates: 1, Fits: 1},
	},
	{
		name:   "no nodes at all",
		nodes:  []cluster.Node{},
		demand: fit.Demand{Requests: res("cpu", "1")},
		errs:   []finding{invalid("spec.nodeSelector")},
	},
}

// wantShortfall checks the shortfall of one resource.
func wantShortfall(name string, covering int, largest, node string) func(*testing.T, fit.Result) {
	return func(t *testing.T, r fit.Result) {
		t.Helper()
		for _, s := range r.Shortfalls {
			if s.Resource != instancetype.ResourceName(name) {
				continue
			}
			if s.Covering != covering || s.Largest.Cmp(quantity.MustParse(largest)) != 0 || s.Node != node {
				t.Errorf("shortfall of %s = %+v; want covering %d, largest %s on %q", name, s, covering, largest, node)
			}
			return
		}
		t.Errorf("no shortfall of %s in %+v", name, r.Shortfalls)
	}
}

func TestCheck(t *testing.T) {
	for _, tc := range checkTests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := tc.nodes
			if nodes == nil {
				nodes = baseCluster()
			}
			r := fit.NewIndex(nodes).Check(tc.demand)
			if got := countsOf(r); got != tc.want {
				t.Errorf("Check(%v) counts = %+v; want %+v", tc.demand, got, tc.want)
			}
			if got := findings(r.Errors(selectorPath, requestPath)); !slices.Equal(got, tc.errs) {
				t.Errorf("Errors = %v; want %v\n%v", got, tc.errs, r.Errors(selectorPath, requestPath))
			}
			if want := newNaive(nodes).check(tc.demand); diffResults(r, want) != "" {
				t.Errorf("index and naive scan disagree:%s", diffResults(r, want))
			}
			if tc.check != nil {
				tc.check(t, r)
			}
		})
	}
}

func TestNilAndZeroIndex(t *testing.T) {
	for _, ix := range []*fit.Index{nil, {}, fit.NewIndex(nil)} {
		r := ix.Check(fit.Demand{NodeSelector: sel("a=b"), Requests: res("cpu", "1")})
		if r.Nodes != 0 || r.Matching != 0 || r.Fits != 0 || ix.Len() != 0 {
			t.Errorf("Check on an empty index = %+v; want nothing", r)
		}
		if errs := r.Errors(selectorPath, requestPath); len(errs) != 1 {
			t.Errorf("Errors on an empty index = %v; want one finding", errs)
		}
	}
}

func TestNewIndexKeepsNoReferences(t *testing.T) {
	nodes := baseCluster()
	ix := fit.NewIndex(nodes)
	d := fit.Demand{NodeSelector: sel("agentpool=cpu"), Requests: res("cpu", "8")}
	before := ix.Check(d)
	for i := range nodes {
		nodes[i].Labels["agentpool"] = "changed"
		nodes[i].Allocatable["cpu"] = quantity.MustParse("1m")
		nodes[i].Unschedulable = true
		for j := range nodes[i].Taints {
			nodes[i].Taints[j].Effect = cluster.NoExecute
		}
		nodes[i].Name = "renamed"
	}
	clear(nodes)
	if after := ix.Check(d); diffResults(after, before) != "" {
		t.Errorf("the index changed with its input:%s", diffResults(after, before))
	}
	if before.Fits != 2 {
		t.Errorf("Fits = %d; want 2", before.Fits)
	}
}

func TestLen(t *testing.T) {
	nodes := append(baseCluster(), cluster.Node{Name: "sys-0"}, cluster.Node{}, cluster.Node{})
	if got, want := fit.NewIndex(nodes).Len(), len(baseCluster())+2; got != want {
		t.Errorf("Len() = %d; want %d (a duplicate name replaces, nameless nodes are kept)", got, want)
	}
}

// A selector of more than 64 pairs: the nearest miss is the subset of the first node, by
// name, among those carrying the most pairs.
func TestNearestMissOfALargeSelector(t *testing.T) {
	ps := make([]string, 100)
	for i := range ps {
		ps[i] = fmt.Sprintf("k%03d=v", i)
	}
	nodes := []cluster.Node{
		{Name: "c", Labels: sel(ps[10:15]...)},                               // 5 pairs
		{Name: "b", Labels: sel(ps[70:75]...), Allocatable: res("cpu", "1")}, // 5 pairs, first by name, numbered after c (another class)
		{Name: "d", Labels: sel(ps[70:75]...)},                               // the same 5
		{Name: "a", Labels: sel(ps[0:3]...)},                                 // 3 pairs
		{Name: "e", Labels: sel(append(ps[70:74:74], "k999=v")...)},
	}
	r := fit.NewIndex(nodes).Check(fit.Demand{NodeSelector: sel(ps...)})
	if r.Matching != 0 || r.Miss == nil {
		t.Fatalf("Check = %+v; want no match and a miss", r)
	}
	var carried []string
	for _, p := range r.Miss.Carried {
		carried = append(carried, p.Key+"="+p.Value)
	}
	if !slices.Equal(carried, ps[70:75]) || r.Miss.Nodes != 2 || len(r.Miss.Lacking) != 95 {
		t.Errorf("Miss carries %v on %d nodes, %d lacking; want %v on 2 (b and d), 95 lacking", carried, r.Miss.Nodes, len(r.Miss.Lacking), ps[70:75])
	}
	if r.Miss.Lacking[0].Pair.Key != "k000" || r.Miss.Lacking[0].Values != nil {
		t.Errorf("first lacking pair %+v; want k000, with no other value on b and d", r.Miss.Lacking[0])
	}
}

// Sparse lists intersected with each other and with bitsets, on a cluster whose labels
// repeat with coprime periods, so that intersections are small and far apart: every
// selector of the walk is checked against the naive scan.
func TestSparseIntersections(t *testing.T) {
	const n = 2000
	nodes := make([]cluster.Node, n)
	for i := range nodes {
		x := cluster.Node{
			Name: fmt.Sprintf("n%04d", i),
			Labels: map[string]string{
				"a": fmt.Sprint(i % 50), // 40 nodes each: sorted lists
				"c": fmt.Sprint(i % 45), // 44 or 45 nodes each: sorted lists
				"b": fmt.Sprint(i % 7),  // about 286 nodes each: bitsets
			},
			Allocatable:   res("cpu", fmt.Sprint(1+i%3)),
			Unschedulable: i%13 == 0,
		}
		if i%11 == 0 {
			x.Taints = []cluster.Taint{skuGPU}
		}
		nodes[i] = x
	}
	ix, nv := fit.NewIndex(nodes), newNaive(nodes)
	for a := range 50 {
		for _, c := range []int{0, 1, 5, 17, 44} {
			for _, b := range []string{"", "3"} {
				s := map[string]string{"a": fmt.Sprint(a), "c": fmt.Sprint(c)}
				if b != "" {
					s["b"] = b
				}
				d := fit.Demand{NodeSelector: s, Requests: res("cpu", "2")}
				if diff := diffResults(ix.Check(d), nv.check(d)); diff != "" {
					t.Fatalf("selector %v: index and naive scan disagree:%s", s, diff)
				}
			}
		}
	}
}
