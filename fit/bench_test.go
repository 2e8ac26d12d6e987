package fit_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// benchPool is a node pool of an AKS-like cluster: every node of it has the same VM size,
// allocatable resources and taints.
type benchPool struct {
	name, size string
	permille   int // share of the nodes
	alloc      map[instancetype.ResourceName]quantity.Quantity
	taints     []cluster.Taint
	labels     []string // beyond those every node has
}

var benchPools = []benchPool{
	{"system", "Standard_D4ds_v5", 2, res("cpu", "3860m", "memory", "12880452Ki", "pods", "110", "ephemeral-storage", "119703055367"), nil, []string{"kubernetes.azure.com/mode=system"}},
	{"cpud16", "Standard_D16ds_v5", 290, res("cpu", "15740m", "memory", "59364472Ki", "pods", "110", "ephemeral-storage", "119703055367"), nil, nil},
	{"cpud32", "Standard_D32ds_v5", 200, res("cpu", "31580m", "memory", "120308820Ki", "pods", "110", "ephemeral-storage", "119703055367"), nil, nil},
	{"meme32", "Standard_E32ds_v5", 150, res("cpu", "31580m", "memory", "245231824Ki", "pods", "110", "ephemeral-storage", "119703055367"), nil, []string{"workload=memory"}},
	{"gput4", "Standard_NC4as_T4_v3", 100, res("cpu", "3860m", "memory", "23350004Ki", "pods", "110", "nvidia.com/gpu", "1"), nil, []string{"accelerator=nvidia", "kubernetes.azure.com/accelerator=nvidia"}},
	{"gpua100", "Standard_NC24ads_A100_v4", 60, res("cpu", "23660m", "memory", "214085516Ki", "pods", "110", "nvidia.com/gpu", "1"), []cluster.Taint{{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}}, []string{"accelerator=nvidia", "kubernetes.azure.com/accelerator=nvidia"}},
	{"gpund96", "Standard_ND96asr_v4", 20, res("cpu", "95190m", "memory", "885Gi", "pods", "110", "nvidia.com/gpu", "8"), []cluster.Taint{{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}}, []string{"accelerator=nvidia", "kubernetes.azure.com/accelerator=nvidia"}},
	{"spotd16", "Standard_D16ds_v5", 158, res("cpu", "15740m", "memory", "59364472Ki", "pods", "110"), []cluster.Taint{{Key: "kubernetes.azure.com/scalesetpriority", Value: "spot", Effect: cluster.NoSchedule}}, []string{"kubernetes.azure.com/scalesetpriority=spot"}},
	{"armd16", "Standard_D16pds_v5", 20, res("cpu", "15740m", "memory", "59364472Ki", "pods", "110"), nil, []string{"kubernetes.io/arch=arm64"}},
}

// benchCluster returns n nodes in the pools above, each with the ~25 labels AKS gives a
// node (a unique hostname, a zone, the pool, the VM size, an image version that differs
// between the halves of a pool in mid-upgrade), one node in 97 cordoned and one in 211
// not ready.
func benchCluster(n int) []cluster.Node {
	nodes := make([]cluster.Node, 0, n)
	for pi, p := range benchPools {
		count := n * p.permille / 1000
		if pi == len(benchPools)-1 {
			count = n - len(nodes)
		}
		for i := range count {
			name := fmt.Sprintf("aks-%s-%08d", p.name, i)
			zone := fmt.Sprintf("westeurope-%d", 1+i%3)
			l := map[string]string{
				"agentpool":                                p.name,
				"kubernetes.azure.com/agentpool":           p.name,
				"beta.kubernetes.io/arch":                  "amd64",
				"kubernetes.io/arch":                       "amd64",
				"beta.kubernetes.io/os":                    "linux",
				"kubernetes.io/os":                         "linux",
				"beta.kubernetes.io/instance-type":         p.size,
				"node.kubernetes.io/instance-type":         p.size,
				"kubernetes.io/hostname":                   name,
				"failure-domain.beta.kubernetes.io/region": "westeurope",
				"topology.kubernetes.io/region":            "westeurope",
				"failure-domain.beta.kubernetes.io/zone":   zone,
				"topology.kubernetes.io/zone":              zone,
				"topology.disk.csi.azure.com/zone":         zone,
				"kubernetes.azure.com/cluster":             "MC_rg-ml_aks-ml_westeurope",
				"kubernetes.azure.com/mode":                "user",
				"kubernetes.azure.com/role":                "agent",
				"kubernetes.io/role":                       "agent",
				"node-role.kubernetes.io/agent":            "",
				"kubernetes.azure.com/os-sku":              "Ubuntu",
				"kubernetes.azure.com/node-image-version":  fmt.Sprintf("AKSUbuntu-2204gen2containerd-2024%02d.12.0", 10+i%2),
				"kubernetes.azure.com/nodepool-type":       "VirtualMachineScaleSets",
				"kubernetes.azure.com/storageprofile":      "managed",
				"kubernetes.azure.com/storagetier":         "Premium_LRS",
			}
			for k, v := range sel(p.labels...) {
				l[k] = v
			}
			x := cluster.Node{Name: name, Labels: l, Allocatable: p.alloc, Taints: p.taints}
			switch k := len(nodes); {
			case k%97 == 96:
				x.Unschedulable = true
				x.Taints = append(x.Taints[:len(x.Taints):len(x.Taints)], cluster.Taint{Key: "node.kubernetes.io/unschedulable", Effect: cluster.NoSchedule})
			case k%211 == 210:
				x.Taints = append(x.Taints[:len(x.Taints):len(x.Taints)], cluster.Taint{Key: "node.kubernetes.io/not-ready", Effect: cluster.NoExecute})
			}
			nodes = append(nodes, x)
		}
	}
	return nodes
}

// benchDemands returns k demands shaped like a catalog of instance types for the cluster
// above: small to large types per pool, by pool, by VM size or by pool and zone; types
// with no selector; GPU types; a few pinned to one node; and about a fifth that fit
// nowhere: a typo in the pool, a size beyond the pool, a tainted pool.
func benchDemands(k int) []fit.Demand {
	type tmpl struct {
		sel  []string
		reqs func(i int) []string
	}
	scaled := func(cpu, mem int, extra ...string) func(int) []string {
		return func(i int) []string {
			f := 1 + i%4 // four sizes of each template
			return append([]string{"cpu", fmt.Sprintf("%dm", cpu*1000*f/4), "memory", fmt.Sprintf("%dMi", mem*1024*f/4)}, extra...)
		}
	}
	milli := func(m int) func(int) []string {
		return func(i int) []string {
			return []string{"cpu", fmt.Sprintf("%dm", m*(1+i%4)), "memory", fmt.Sprintf("%dMi", 512*(1+i%4))}
		}
	}
	templates := []tmpl{
		{nil, milli(100)},
		{[]string{"agentpool=cpud16"}, scaled(14, 48)},
		{[]string{"agentpool=cpud32"}, scaled(28, 96)},
		{[]string{"agentpool=meme32"}, scaled(28, 200)},
		{[]string{"node.kubernetes.io/instance-type=Standard_D16ds_v5", "kubernetes.azure.com/mode=user"}, scaled(8, 32)},
		{[]string{"agentpool=cpud16", "topology.kubernetes.io/zone=westeurope-2"}, scaled(12, 40)},
		{[]string{"workload=memory", "kubernetes.io/os=linux"}, scaled(16, 220)},
		{[]string{"agentpool=gput4"}, scaled(3, 20, "nvidia.com/gpu", "1")},
		{[]string{"accelerator=nvidia"}, scaled(2, 16, "nvidia.com/gpu", "1")},
		{[]string{"agentpool=armd16", "kubernetes.io/arch=arm64"}, scaled(8, 32)},
		{[]string{"kubernetes.io/os=linux"}, milli(500)},
		{[]string{"agentpool=cpud32", "kubernetes.azure.com/node-image-version=AKSUbuntu-2204gen2containerd-202411.12.0"}, scaled(16, 64)},
		{[]string{"kubernetes.io/hostname=aks-cpud32-00000042"}, scaled(4, 8)}, // pinned: a sorted list
		{[]string{"agentpool=system"}, milli(200)},
		{[]string{"agentpool=cpud16", "kubernetes.io/os=linux", "kubernetes.io/arch=amd64"}, scaled(4, 16)},
		// Fitting nowhere:
		{[]string{"agentpool=cpu-d16"}, scaled(4, 16)},                                           // a typo
		{[]string{"agentpool=cpud32"}, scaled(128, 512)},                                         // beyond the pool
		{[]string{"agentpool=gpua100"}, scaled(20, 200, "nvidia.com/gpu", "1")},                  // tainted
		{[]string{"kubernetes.azure.com/scalesetpriority=spot"}, scaled(8, 32)},                  // tainted
		{[]string{"accelerator=nvidia", "topology.kubernetes.io/zone=westeurope-4"}, milli(100)}, // no such zone
	}
	ds := make([]fit.Demand, k)
	for i := range ds {
		t := templates[i%len(templates)]
		ds[i] = fit.Demand{NodeSelector: sel(t.sel...), Requests: res(t.reqs(i / len(templates))...)}
	}
	return ds
}

const (
	benchNodes = 5000
	benchTypes = 200
)

func BenchmarkCheck(b *testing.B) {
	nodes := benchCluster(benchNodes)
	all := benchDemands(benchTypes)
	ix, nv := fit.NewIndex(nodes), newNaive(nodes)
	var fitting []fit.Demand
	for _, d := range all {
		if nv.check(d).Fits > 0 {
			fitting = append(fitting, d)
		}
	}
	for _, set := range []struct {
		name    string
		demands []fit.Demand
	}{
		{fmt.Sprintf("demands=%d", len(all)), all},
		{fmt.Sprintf("demands=%d-fitting", len(fitting)), fitting},
	} {
		for _, impl := range []struct {
			name  string
			check func(fit.Demand) fit.Result
		}{
			{"index", ix.Check},
			{"naive", nv.check},
		} {
			b.Run(fmt.Sprintf("nodes=%d/%s/impl=%s", len(nodes), set.name, impl.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, d := range set.demands {
						sinkResult = impl.check(d)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(set.demands)), "ns/check")
			})
		}
	}
}

func BenchmarkNewIndex(b *testing.B) {
	nodes := benchCluster(benchNodes)
	b.Run(fmt.Sprintf("nodes=%d", len(nodes)), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkLen = fit.NewIndex(nodes).Len()
		}
		b.ReportMetric(float64(retained(nodes)), "B/index")
	})
}

// retained returns the heap an index of nodes keeps alive, measured after collections.
func retained(nodes []cluster.Node) int64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&before)
	ix := fit.NewIndex(nodes)
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(ix)
	runtime.KeepAlive(nodes)
	return int64(after.HeapAlloc) - int64(before.HeapAlloc)
}
