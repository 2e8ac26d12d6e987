package fit_test

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// exampleNode is a node of pool with the allocatable cpu, memory and GPUs given.
func exampleNode(name, pool, cpu, memory, gpus string) cluster.Node {
	alloc := map[instancetype.ResourceName]quantity.Quantity{
		instancetype.ResourceCPU:    quantity.MustParse(cpu),
		instancetype.ResourceMemory: quantity.MustParse(memory),
	}
	if gpus != "" {
		alloc[instancetype.ResourceNvidiaGPU] = quantity.MustParse(gpus)
	}
	return cluster.Node{
		Name:        name,
		Labels:      map[string]string{"agentpool": pool, "kubernetes.io/hostname": name},
		Allocatable: alloc,
	}
}

// Check instance types against a cluster of a CPU pool (one node cordoned) and a GPU pool
// tainted sku=gpu:NoSchedule: how many nodes each fits, and why not when none.
func Example() {
	gpu0 := exampleNode("aks-gpu-0", "gpu", "23660m", "214085516Ki", "1")
	gpu0.Taints = []cluster.Taint{{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}}
	cpu2 := exampleNode("aks-cpu-2", "cpu", "15740m", "59364472Ki", "")
	cpu2.Unschedulable = true
	ix := fit.NewIndex([]cluster.Node{
		exampleNode("aks-cpu-0", "cpu", "15740m", "59364472Ki", ""),
		exampleNode("aks-cpu-1", "cpu", "15740m", "59364472Ki", ""),
		cpu2,
		gpu0,
	})

	amount := instancetype.MustParseAmount
	types := []struct {
		name             string
		selector         map[string]string
		requests, limits instancetype.ResourceList
	}{
		{"cpu-medium", map[string]string{"agentpool": "cpu"},
			instancetype.ResourceList{"cpu": amount("4"), "memory": amount("16Gi")},
			instancetype.ResourceList{"cpu": amount("8"), "memory": amount("32Gi")}},
		{"cpu-large", map[string]string{"agentpool": "cpu"},
			instancetype.ResourceList{"cpu": amount("8"), "memory": amount("64Gi")},
			instancetype.ResourceList{"cpu": amount("8"), "memory": amount("64Gi")}},
		{"gpu-small", map[string]string{"agentpool": "gpu"},
			instancetype.ResourceList{"cpu": amount("4"), "memory": amount("32Gi")},
			instancetype.ResourceList{"cpu": amount("8"), "memory": amount("64Gi"), "nvidia.com/gpu": amount("1")}},
		{"gpu-typo", map[string]string{"agentpool": "gpus"},
			instancetype.ResourceList{"cpu": amount("1"), "memory": amount("1Gi")},
			instancetype.ResourceList{"cpu": amount("1"), "memory": amount("1Gi")}},
	}
	spec := field.NewPath("spec")
	requestPath := func(name instancetype.ResourceName) *field.Path {
		if name == instancetype.ResourceCPU || name == instancetype.ResourceMemory {
			return spec.Child("resources", "requests").Key(string(name))
		}
		return spec.Child("resources", "limits").Key(string(name)) // extended resources are limits
	}
	for _, it := range types {
		r := ix.Check(fit.DemandOf(it.selector, it.requests, it.limits))
		fmt.Printf("%s fits %d of %d nodes\n", it.name, r.Fits, r.Nodes)
		for _, err := range r.Errors(spec.Child("nodeSelector"), requestPath) {
			fmt.Println("  ", err)
		}
	}
	// Output:
	// cpu-medium fits 2 of 4 nodes
	// cpu-large fits 0 of 4 nodes
	//    spec.resources.requests[memory]: Invalid value: "64Gi": no candidate node has that much memory allocatable: the largest is 59364472Ki (about 56.6Gi), on aks-cpu-0; 1 more matching node is cordoned (aks-cpu-2)
	// gpu-small fits 0 of 4 nodes
	//    spec.nodeSelector: Invalid value: "agentpool=gpu": the only matching node is excluded by taints (sku=gpu:NoSchedule on aks-gpu-0); it would fit
	// gpu-typo fits 0 of 4 nodes
	//    spec.nodeSelector: Invalid value: "agentpool=gpus": no node matches: no node carries agentpool=gpus (nodes have agentpool=gpu or agentpool=cpu)
}

// A node pool dedicated to one Azure ML compute target: a workload on that compute
// tolerates its taints, as the extension's pods do; one on another compute does not, and a
// --tolerate of the caller's adds what the reference does not cover.
func ExampleWorkload() {
	pool := []cluster.Node{{
		Name:        "aks-gpu-0",
		Labels:      map[string]string{"agentpool": "gpu"},
		Allocatable: map[instancetype.ResourceName]quantity.Quantity{"cpu": quantity.MustParse("8"), "memory": quantity.MustParse("32Gi")},
		Taints: []cluster.Taint{
			{Key: fit.TaintAMLArcWorkload, Value: "true", Effect: cluster.NoSchedule},
			{Key: fit.TaintCompute, Value: "gpu-compute", Effect: cluster.NoSchedule},
			{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule},
		},
	}}
	ix := fit.NewIndex(pool)
	d := fit.Demand{NodeSelector: map[string]string{"agentpool": "gpu"}}
	sku, _ := cluster.ParseToleration("sku=gpu:NoSchedule")
	for _, compute := range []string{"gpu-compute", "cpu-compute"} {
		d.Tolerations = append(fit.Workload("", "", compute), sku)
		fmt.Println(compute, ix.Check(d).Fits)
	}
	// Output:
	// gpu-compute 1
	// cpu-compute 0
}
