package plan_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/plan"
	"github.com/amlarc-go/instancetypes/quantity"
)

// node is a node of pool with the allocatable cpu, memory and GPUs given, and 110 pods.
func node(name, pool, cpu, memory, gpus string) cluster.Node {
	alloc := map[instancetype.ResourceName]quantity.Quantity{
		instancetype.ResourceCPU:    quantity.MustParse(cpu),
		instancetype.ResourceMemory: quantity.MustParse(memory),
		plan.ResourcePods:           quantity.MustParse("110"),
	}
	if gpus != "" {
		alloc[instancetype.ResourceNvidiaGPU] = quantity.MustParse(gpus)
	}
	return cluster.Node{Name: name, Labels: map[string]string{"agentpool": pool}, Allocatable: alloc}
}

// instanceType is an instance type on pool, with limits equal to its requests.
func instanceType(name, pool, cpu, memory, gpus string) *instancetype.InstanceType {
	res := instancetype.ResourceList{
		instancetype.ResourceCPU:    instancetype.MustParseAmount(cpu),
		instancetype.ResourceMemory: instancetype.MustParseAmount(memory),
	}
	it := &instancetype.InstanceType{ObjectMeta: metav1.ObjectMeta{Name: name}}
	it.Spec.NodeSelector = map[string]string{"agentpool": pool}
	it.Spec.Resources.Requests = res
	it.Spec.Resources.Limits = instancetype.ResourceList{}
	for k, v := range res {
		it.Spec.Resources.Limits[k] = v
	}
	if gpus != "" {
		it.Spec.Resources.Limits[instancetype.ResourceNvidiaGPU] = instancetype.MustParseAmount(gpus)
	}
	return it
}

// Plan two instance types on a CPU pool and a GPU pool of four GPUs a node: the pods per
// node and pool, what runs out first, and what is left stranded, with the overhead of an
// online deployment counted.
func ExampleCompute() {
	nodes := []cluster.Node{
		node("cpu-0", "cpupool", "15740m", "59363452Ki", ""),
		node("cpu-1", "cpupool", "15740m", "59363452Ki", ""),
		node("gpu-0", "gpupool", "23660m", "210466052Ki", "4"),
		node("gpu-1", "gpupool", "23660m", "210466052Ki", "4"),
	}
	types := []*instancetype.InstanceType{
		instanceType("cpu-3", "cpupool", "3", "12Gi", ""),
		instanceType("gpu-1", "gpupool", "4", "32Gi", "1"),
	}
	r := plan.Compute(types, nodes, plan.Options{Overhead: plan.DefaultOverhead(plan.Deployment)})
	for _, e := range r.Plan {
		fmt.Printf("%s on %s: %d per node, %d on %d nodes, limited by %s, stranded %v\n",
			e.InstanceType, e.Pool, e.PerNode, e.Fits, e.Nodes, e.LimitedBy, e.Stranded)
	}
	out, _ := json.Marshal(r.Overhead)
	fmt.Println(string(out))
	// Output:
	// cpu-3 on cpupool: 4 per node, 8 on 2 nodes, limited by memory, stranded cpu=3690m,memory=8519804Ki
	// gpu-1 on gpupool: 4 per node, 8 on 2 nodes, limited by nvidia.com/gpu, stranded cpu=7610m,memory=75736324Ki,nvidia.com/gpu=0
	// {"perNode":{"cpu":"10m","memory":"100Mi"},"perPod":{"cpu":"10m","memory":"100Mi"}}
}

// Suggest instance types for a CPU pool and a GPU pool of four GPUs a node.
func ExampleSuggest() {
	nodes := []cluster.Node{
		node("cpu-0", "cpupool", "3860m", "12880816Ki", ""),
		node("gpu-0", "gpupool", "23660m", "210466052Ki", "4"),
	}
	s := plan.Suggest(nodes, plan.Options{Overhead: plan.DefaultOverhead(plan.Deployment)})
	for i, it := range s.List.Items {
		r := it.Spec.Resources
		fmt.Printf("%s: %d per node, cpu %v, memory %v, gpu %v\n", it.Name, s.Claims[i].PerNode,
			r.Requests[instancetype.ResourceCPU], r.Requests[instancetype.ResourceMemory], cmp.Or(r.Limits[instancetype.ResourceNvidiaGPU].String(), "none"))
	}
	out, _ := yaml.Marshal(s.List.Items[2])
	os.Stdout.Write(out)
	// Output:
	// cpupool-whole: 1 per node, cpu 3840m, memory 12378Mi, gpu none
	// cpupool-half: 2 per node, cpu 1910m, memory 6139Mi, gpu none
	// cpupool-quarter: 4 per node, cpu 950m, memory 3019Mi, gpu none
	// gpupool-1gpu: 4 per node, cpu 5900m, memory 51258Mi, gpu 1
	// gpupool-2gpu: 2 per node, cpu 11810m, memory 102616Mi, gpu 2
	// gpupool-4gpu: 1 per node, cpu 23640m, memory 205333Mi, gpu 4
	// apiVersion: amlarc.azureml.com/v1alpha1
	// kind: InstanceType
	// metadata:
	//   annotations:
	//     instancetypes.amlarc-go.github.io/sized-for: a quarter of a node of pool cpupool,
	//       4 per node, on 3850m cpu, 12778416Ki memory usable per node after the overhead
	//       (per node cpu=10m,memory=100Mi; per pod cpu=10m,memory=100Mi)
	//   name: cpupool-quarter
	// spec:
	//   nodeSelector:
	//     agentpool: cpupool
	//   resources:
	//     limits:
	//       cpu: 950m
	//       memory: 3019Mi
	//     requests:
	//       cpu: 950m
	//       memory: 3019Mi
}

func mustQ(s string) quantity.Quantity { return quantity.MustParse(s) }

// Find the resources an instance type leaves mostly idle on every node it may use: the
// check behind instancetype validate --nodes (rule stranded).
func ExamplePlanner_Strands() {
	p := plan.New([]cluster.Node{node("gpu-0", "gpupool", "23660m", "210466052Ki", "1")},
		plan.Options{Overhead: plan.DefaultOverhead(plan.Deployment)})
	strands, _ := p.Strands(instanceType("gpu-a100", "gpupool", "8", "64Gi", "1"), 0.5)
	for _, s := range strands {
		fmt.Printf("%s: %.0f%% left on %s, %d pod a node, limited by %s\n", s.Resource, s.Share*100, s.At.Node, s.At.PerNode, s.At.LimitedBy)
	}
	// Output:
	// cpu: 66% left on gpu-0, 1 pod a node, limited by nvidia.com/gpu
	// memory: 68% left on gpu-0, 1 pod a node, limited by nvidia.com/gpu
}
