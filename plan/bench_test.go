package plan_test

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/plan"
)

// benchPools are the pools of an AKS-like cluster: name, share of the nodes in thousandths,
// allocatable cpu, memory and GPUs, and whether they are tainted for GPUs.
var benchPools = []struct {
	name        string
	permille    int
	cpu, memory string
	gpus        string
	tainted     bool
}{
	{"system", 2, "3860m", "12880452Ki", "", false},
	{"cpud16", 390, "15740m", "59364472Ki", "", false},
	{"cpud32", 250, "31580m", "120308820Ki", "", false},
	{"meme32", 150, "31580m", "245231824Ki", "", false},
	{"gput4", 120, "3860m", "23350004Ki", "1", false},
	{"gpua100", 68, "23660m", "214085516Ki", "1", true},
	{"gpund96", 20, "95190m", "885Gi", "8", true},
}

// benchCluster returns n nodes in benchPools, each with a dozen labels, one in 97 cordoned.
func benchCluster(n int) []cluster.Node {
	nodes := make([]cluster.Node, 0, n)
	for pi, p := range benchPools {
		count := n * p.permille / 1000
		if pi == len(benchPools)-1 {
			count = n - len(nodes)
		}
		for i := range count {
			x := node(fmt.Sprintf("aks-%s-%08d", p.name, i), p.name, p.cpu, p.memory, p.gpus)
			x.Labels[plan.AKSPoolLabel] = p.name
			x.Labels["kubernetes.io/hostname"] = x.Name
			x.Labels["topology.kubernetes.io/zone"] = fmt.Sprintf("westeurope-%d", 1+i%3)
			for _, k := range []string{"kubernetes.io/os", "beta.kubernetes.io/os", "kubernetes.azure.com/role", "kubernetes.azure.com/mode", "storageprofile", "storagetier", "kubernetes.azure.com/cluster"} {
				x.Labels[k] = "v"
			}
			if p.tainted {
				x.Taints = []cluster.Taint{{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}}
			}
			x.Unschedulable = len(nodes)%97 == 96
			nodes = append(nodes, x)
		}
	}
	return nodes
}

// benchTypes returns n instance types: each on one pool, or (one in ten) on none, of
// sizes from a tenth of a core to most of a node, a third of them with GPUs.
func benchTypes(n int) []*instancetype.InstanceType {
	types := make([]*instancetype.InstanceType, n)
	for i := range types {
		p := benchPools[i%len(benchPools)]
		gpus := ""
		if p.gpus != "" {
			gpus = "1"
		}
		it := instanceType(fmt.Sprintf("type-%04d", i), p.name, fmt.Sprintf("%dm", 100+i*37%12000), fmt.Sprintf("%dMi", 256+i*101%40000), gpus)
		if i%10 == 9 {
			it.Spec.NodeSelector = nil
		}
		it.ObjectMeta = metav1.ObjectMeta{Name: it.Name}
		types[i] = it
	}
	return types
}

// BenchmarkCompute plans 1,000 instance types on 5,000 nodes (and smaller shapes): the
// cost is linear in nodes times types.
func BenchmarkCompute(b *testing.B) {
	for _, shape := range []struct{ nodes, types int }{{500, 100}, {5000, 100}, {5000, 1000}} {
		nodes, types := benchCluster(shape.nodes), benchTypes(shape.types)
		opts := plan.Options{Overhead: plan.DefaultOverhead(plan.Deployment), Tolerations: []cluster.Toleration{{Key: "sku", Value: "gpu"}}}
		b.Run(fmt.Sprintf("nodes=%d/types=%d", shape.nodes, shape.types), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if r := plan.Compute(types, nodes, opts); len(r.Plan) == 0 {
					b.Fatal("no plan")
				}
			}
		})
	}
}
