package plan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/plan"
)

var parseResourcesTests = []struct {
	in   string
	want string // Resources.String of the result; "" for an error
	err  string
}{
	{"cpu=10m,memory=100Mi", "cpu=10m,memory=100Mi", ""},
	{" memory=1Gi , cpu=0.5 ", "cpu=500m,memory=1Gi", ""},
	{"none", "none", ""},
	{"nvidia.com/gpu=1,pods=2", "nvidia.com/gpu=1,pods=2", ""},
	{"cpu=0", "cpu=0", ""},
	{"", "", "no resources"},
	{"cpu", "", "not name=quantity"},
	{"cpus=1", "", `resource "cpus"`},
	{"gpu=1", "", `resource "gpu"`},
	{"cpu=1,cpu=2", "", "given twice"},
	{"cpu=-1", "", "below zero"},
	{"memory=1Gx", "", "memory: quantity"},
}

func TestParseResources(t *testing.T) {
	for _, tt := range parseResourcesTests {
		got, err := plan.ParseResources(tt.in)
		switch {
		case tt.err == "" && (err != nil || got.String() != tt.want):
			t.Errorf("ParseResources(%q) = %v, %v; want %s, nil", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || got != nil):
			t.Errorf("ParseResources(%q) = %v, %v; want an error saying %q", tt.in, got, err, tt.err)
		}
	}
}

func TestDefaultOverhead(t *testing.T) {
	for _, tt := range []struct {
		w    plan.Workload
		want string
	}{
		{plan.Deployment, `{"perNode":{"cpu":"10m","memory":"100Mi"},"perPod":{"cpu":"10m","memory":"100Mi"}}`},
		{plan.Job, `{"perNode":{"cpu":"10m","memory":"100Mi"},"perPod":{}}`},
	} {
		out, err := json.Marshal(plan.DefaultOverhead(tt.w))
		if err != nil || string(out) != tt.want {
			t.Errorf("DefaultOverhead(%q) = %s, %v; want %s", tt.w, out, err, tt.want)
		}
	}
}

// Each case: one pool of the nodes given, one instance type, and the entry expected.
var planTests = []struct {
	name     string
	nodes    []cluster.Node
	it       *instancetype.InstanceType
	overhead plan.Overhead
	want     string // the entry's JSON; "" for none
}{
	{
		name:     "the contract's example: 4 GPUs a node, one per pod",
		nodes:    []cluster.Node{node("g0", "gpupool", "18", "90Gi", "4"), node("g1", "gpupool", "18", "90Gi", "4")},
		it:       instanceType("gpu-1", "gpupool", "4", "20Gi", "1"),
		overhead: plan.DefaultOverhead(plan.Deployment),
		want:     `{"instanceType":"gpu-1","pool":"gpupool","nodes":2,"perNode":4,"fits":8,"limitedBy":"nvidia.com/gpu","stranded":{"cpu":"1950m","memory":"9740Mi","nvidia.com/gpu":"0"}}`,
	},
	{
		name:  "no overhead: 4 of 4 cores, nothing left",
		nodes: []cluster.Node{node("c0", "cpupool", "4", "16Gi", "")},
		it:    instanceType("one", "cpupool", "1", "4Gi", ""),
		want:  `{"instanceType":"one","pool":"cpupool","nodes":1,"perNode":4,"fits":4,"limitedBy":"cpu","stranded":{"cpu":"0","memory":"0"}}`,
	},
	{
		name:     "the overhead takes one pod off: 3 pods, and almost a core stranded; cpu and memory tie, cpu first",
		nodes:    []cluster.Node{node("c0", "cpupool", "4", "16Gi", "")},
		it:       instanceType("one", "cpupool", "1", "4Gi", ""),
		overhead: plan.DefaultOverhead(plan.Job),
		want:     `{"instanceType":"one","pool":"cpupool","nodes":1,"perNode":3,"fits":3,"limitedBy":"cpu","stranded":{"cpu":"990m","memory":"3996Mi"}}`,
	},
	{
		name:  "3 of 4 cores: a quarter of the node stranded",
		nodes: []cluster.Node{node("c0", "cpupool", "4", "16Gi", ""), node("c1", "cpupool", "8", "32Gi", "")},
		it:    instanceType("three", "cpupool", "3", "4Gi", ""),
		want:  `{"instanceType":"three","pool":"cpupool","nodes":2,"perNode":1,"fits":3,"limitedBy":"cpu","stranded":{"cpu":"1","memory":"12Gi"}}`,
	},
	{
		name: "cordoned and tainted nodes are not counted",
		nodes: func() []cluster.Node {
			a, b, c := node("c0", "cpupool", "4", "16Gi", ""), node("c1", "cpupool", "2", "16Gi", ""), node("c2", "cpupool", "1", "16Gi", "")
			b.Unschedulable = true
			c.Taints = []cluster.Taint{{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}}
			return []cluster.Node{a, b, c}
		}(),
		it:   instanceType("one", "cpupool", "1", "1Gi", ""),
		want: `{"instanceType":"one","pool":"cpupool","nodes":1,"perNode":4,"fits":4,"limitedBy":"cpu","stranded":{"cpu":"0","memory":"12Gi"}}`,
	},
	{
		name:  "a GPU type on a CPU pool fits nothing, for want of GPUs",
		nodes: []cluster.Node{node("c0", "cpupool", "4", "16Gi", "")},
		it:    instanceType("g", "cpupool", "1", "1Gi", "1"),
		want:  `{"instanceType":"g","pool":"cpupool","nodes":1,"perNode":0,"fits":0,"limitedBy":"nvidia.com/gpu","stranded":{"cpu":"4","memory":"16Gi","nvidia.com/gpu":"0"}}`,
	},
	{
		name:  "the node's pods run out first",
		nodes: []cluster.Node{withPods(node("c0", "cpupool", "64", "256Gi", ""), "2")},
		it:    instanceType("small", "cpupool", "1", "1Gi", ""),
		want:  `{"instanceType":"small","pool":"cpupool","nodes":1,"perNode":2,"fits":2,"limitedBy":"pods","stranded":{"cpu":"62","memory":"254Gi"}}`,
	},
	{
		name:  "a pool it may not use",
		nodes: []cluster.Node{node("c0", "cpupool", "4", "16Gi", "")},
		it:    instanceType("g", "gpupool", "1", "1Gi", "1"),
	},
}

func withPods(x cluster.Node, n string) cluster.Node {
	x.Allocatable[plan.ResourcePods] = mustQ(n)
	return x
}

func TestPlan(t *testing.T) {
	for _, tt := range planTests {
		for i := range tt.nodes { // the example nodes count 110 pods; these, only where said
			if _, set := tt.nodes[i].Allocatable[plan.ResourcePods]; set && tt.nodes[i].Allocatable[plan.ResourcePods] == mustQ("110") {
				delete(tt.nodes[i].Allocatable, plan.ResourcePods)
			}
		}
		r := plan.Compute([]*instancetype.InstanceType{tt.it}, tt.nodes, plan.Options{Overhead: tt.overhead})
		var got string
		switch len(r.Plan) {
		case 0:
			if len(r.Unplaced) != 1 {
				t.Errorf("%s: no entry, unplaced %v", tt.name, r.Unplaced)
			}
		case 1:
			out, _ := json.Marshal(r.Plan[0])
			got = string(out)
		default:
			t.Errorf("%s: %d entries", tt.name, len(r.Plan))
			continue
		}
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

// Suggested names are object names whatever the pool's label value, the same on every
// run, and apart for pools whose values differ only where a name cannot follow them.
func TestSuggestNames(t *testing.T) {
	pools := []string{"cpupool", "GPU_Pool", "gpu-pool", "gpu.pool", "_", "a-very-long-pool-name-that-goes-on-and-on-beyond-forty-bytes"}
	var nodes []cluster.Node
	for i, p := range pools {
		nodes = append(nodes, node(strings.Repeat("n", i+1), p, "4", "16Gi", ""))
	}
	first := plan.Suggest(nodes, plan.Options{Overhead: plan.DefaultOverhead(plan.Deployment)})
	again := plan.Suggest(nodes, plan.Options{Overhead: plan.DefaultOverhead(plan.Deployment)})
	seen := map[string]string{}
	for i, it := range first.List.Items {
		if it.Name != again.List.Items[i].Name {
			t.Errorf("name %q, then %q", it.Name, again.List.Items[i].Name)
		}
		if errs := validation.IsDNS1123Subdomain(it.Name); len(errs) > 0 {
			t.Errorf("%q: %v", it.Name, errs)
		}
		if p, dup := seen[it.Name]; dup {
			t.Errorf("%q names pools %q and %q", it.Name, p, first.Claims[i].Pool)
		}
		seen[it.Name] = first.Claims[i].Pool
	}
	if len(first.List.Items) != 3*len(pools) {
		t.Errorf("%d suggestions for %d pools", len(first.List.Items), len(pools))
	}
	for _, want := range []string{"cpupool-whole", "cpupool-half", "cpupool-quarter"} {
		if _, ok := seen[want]; !ok {
			t.Errorf("no %s among %v", want, seen)
		}
	}
}
