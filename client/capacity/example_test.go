package capacity_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// node is a node of pool with the allocatable cpu, memory, GPUs (if any) and 110 pods.
func node(name, pool, cpu, memory, gpus string) capacity.Node {
	alloc := map[instancetype.ResourceName]quantity.Quantity{
		instancetype.ResourceCPU:    quantity.MustParse(cpu),
		instancetype.ResourceMemory: quantity.MustParse(memory),
		capacity.ResourcePods:       quantity.MustParse("110"),
	}
	if gpus != "" {
		alloc[instancetype.ResourceNvidiaGPU] = quantity.MustParse(gpus)
	}
	return capacity.Node{Node: cluster.Node{
		Name:        name,
		Labels:      map[string]string{capacity.AKSPoolLabel: pool},
		Allocatable: alloc,
	}}
}

// instanceType is an instance type of the given requests, limits and selector.
func instanceType(name, cpu, memory, gpus string, sel map[string]string) *instancetype.InstanceType {
	it := &instancetype.InstanceType{}
	it.Name = name
	it.Spec.NodeSelector = sel
	it.Spec.Resources.Requests = instancetype.ResourceList{
		instancetype.ResourceCPU: instancetype.MustParseAmount(cpu), instancetype.ResourceMemory: instancetype.MustParseAmount(memory),
	}
	it.Spec.Resources.Limits = instancetype.ResourceList{
		instancetype.ResourceCPU: instancetype.MustParseAmount(cpu), instancetype.ResourceMemory: instancetype.MustParseAmount(memory),
	}
	if gpus != "" {
		it.Spec.Resources.Limits[instancetype.ResourceNvidiaGPU] = instancetype.MustParseAmount(gpus)
	}
	return it
}

// How many more pods of each instance type fit on a cluster of a CPU pool (one node
// cordoned, one half used) and a GPU pool (one GPU taken), beside the built-in default.
// On aks-cpu-0, 8 of 15.74 cores and 30Gi of about 56.6Gi are taken: one more cpu-large
// (4 cores, 16Gi) fits, and 13 of the default (2Gi each); on the empty aks-cpu-1, 3 and
// 28. Ties (one cpu-large by cpu and by memory) go to cpu.
func ExampleCompute() {
	cpu0 := node("aks-cpu-0", "cpupool", "15740m", "59364472Ki", "")
	cpu0.Requested = map[instancetype.ResourceName]int64{instancetype.ResourceCPU: 8000, instancetype.ResourceMemory: 30 << 30}
	cpu0.Pods = 3
	cpu1 := node("aks-cpu-1", "cpupool", "15740m", "59364472Ki", "")
	cpu2 := node("aks-cpu-2", "cpupool", "15740m", "59364472Ki", "")
	cpu2.Unschedulable = true
	gpu0 := node("aks-gpu-0", "gpupool", "23660m", "214085516Ki", "2")
	gpu0.Requested = map[instancetype.ResourceName]int64{instancetype.ResourceCPU: 4000, instancetype.ResourceMemory: 16 << 30, instancetype.ResourceNvidiaGPU: 1}
	gpu0.Pods = 1
	gpu1 := node("aks-gpu-1", "gpupool", "23660m", "214085516Ki", "2")

	report := capacity.Compute([]*instancetype.InstanceType{
		instanceType("cpu-large", "4", "16Gi", "", map[string]string{capacity.AKSPoolLabel: "cpupool"}),
		instanceType("gpu", "4", "16Gi", "1", map[string]string{capacity.AKSPoolLabel: "gpupool"}),
	}, []capacity.Node{cpu0, cpu1, cpu2, gpu0, gpu1}, capacity.Options{})

	for _, c := range report.Capacity {
		fmt.Printf("%s: %d more, limited by %s\n", c.InstanceType, c.Fits, c.LimitedBy)
		for _, p := range c.Pools {
			fmt.Printf("  %s: %d nodes, %d more, limited by %s\n", p.Pool, p.Nodes, p.Fits, p.LimitedBy)
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.Encode(report.Capacity[1])
	// Output:
	// cpu-large: 4 more, limited by cpu
	//   cpupool: 2 nodes, 4 more, limited by cpu
	// defaultinstancetype: 237 more, limited by memory
	//   cpupool: 2 nodes, 41 more, limited by memory
	//   gpupool: 2 nodes, 196 more, limited by memory
	// gpu: 3 more, limited by nvidia.com/gpu
	//   gpupool: 2 nodes, 3 more, limited by nvidia.com/gpu
	// {"instanceType":"defaultinstancetype","fits":237,"limitedBy":"memory","pools":[{"pool":"cpupool","nodes":2,"fits":41,"limitedBy":"memory"},{"pool":"gpupool","nodes":2,"fits":196,"limitedBy":"memory"}]}
}
