package capacity_test

import (
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

var (
	genPool = rapid.SampledFrom([]string{"cpupool", "gpupool", "system"})
	genZone = rapid.SampledFrom([]string{"1", "2"})
)

// genNode draws a node of a small cluster: a pool (under either pool label, or none), a
// zone, a few sizes, GPUs or not, a pods limit or not, pods already using part of it or
// more than all of it, taints of every effect, a cordon.
func genNode(i int) *rapid.Generator[capacity.Node] {
	return rapid.Custom(func(t *rapid.T) capacity.Node {
		labels := map[string]string{"topology.kubernetes.io/zone": genZone.Draw(t, "zone")}
		switch rapid.IntRange(0, 3).Draw(t, "poolLabel") {
		case 0, 1:
			labels[capacity.AKSPoolLabel] = genPool.Draw(t, "pool")
		case 2:
			labels[capacity.PoolLabel] = genPool.Draw(t, "pool")
		}
		alloc := map[instancetype.ResourceName]quantity.Quantity{}
		if rapid.IntRange(0, 9).Draw(t, "hasCPU") > 0 {
			alloc[instancetype.ResourceCPU] = quantity.MustParse(fmt.Sprintf("%dm", rapid.IntRange(0, 16000).Draw(t, "cpu")))
		}
		if rapid.IntRange(0, 9).Draw(t, "hasMemory") > 0 {
			alloc[instancetype.ResourceMemory] = quantity.MustParse(fmt.Sprintf("%dMi", rapid.IntRange(0, 65536).Draw(t, "memory")))
		}
		if rapid.Bool().Draw(t, "hasGPU") {
			alloc[instancetype.ResourceNvidiaGPU] = quantity.MustParse(fmt.Sprint(rapid.IntRange(0, 4).Draw(t, "gpus")))
		}
		if rapid.IntRange(0, 3).Draw(t, "hasPods") > 0 {
			alloc[capacity.ResourcePods] = quantity.MustParse(fmt.Sprint(rapid.IntRange(0, 30).Draw(t, "podsLimit")))
		}
		x := capacity.Node{Node: cluster.Node{
			Name:          fmt.Sprintf("n%d", rapid.IntRange(0, i).Draw(t, "name")), // duplicates
			Labels:        labels,
			Allocatable:   alloc,
			Unschedulable: rapid.IntRange(0, 7).Draw(t, "cordoned") == 0,
		}}
		switch rapid.IntRange(0, 5).Draw(t, "taint") {
		case 0:
			x.Taints = []cluster.Taint{{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}}
		case 1:
			x.Taints = []cluster.Taint{{Key: "x", Effect: cluster.PreferNoSchedule}}
		case 2:
			x.Taints = []cluster.Taint{{Key: "node.kubernetes.io/not-ready", Effect: cluster.NoExecute}}
		}
		if rapid.Bool().Draw(t, "used") {
			x.Pods = rapid.IntRange(0, 35).Draw(t, "pods")
			x.Requested = map[instancetype.ResourceName]int64{}
			for _, name := range []instancetype.ResourceName{instancetype.ResourceCPU, instancetype.ResourceMemory, instancetype.ResourceNvidiaGPU} {
				if rapid.Bool().Draw(t, "uses"+string(name)) {
					max := map[instancetype.ResourceName]int{instancetype.ResourceCPU: 20000, instancetype.ResourceMemory: 80 << 30, instancetype.ResourceNvidiaGPU: 5}[name]
					x.Requested[name] = int64(rapid.IntRange(0, max).Draw(t, "requested"+string(name)))
				}
			}
		}
		return x
	})
}

// genType draws an instance type: its requests equal to its limits, maybe a GPU, maybe a
// selector on pool and zone.
func genType(i int) *rapid.Generator[*instancetype.InstanceType] {
	return rapid.Custom(func(t *rapid.T) *instancetype.InstanceType {
		name := rapid.SampledFrom([]string{"small", "large", "gpu", instancetype.DefaultName}).Draw(t, "typeName")
		cpu := fmt.Sprintf("%dm", rapid.IntRange(100, 8000).Draw(t, "typeCPU"))
		memory := fmt.Sprintf("%dMi", rapid.IntRange(128, 32768).Draw(t, "typeMemory"))
		gpus := ""
		if rapid.Bool().Draw(t, "typeGPU") {
			gpus = fmt.Sprint(rapid.IntRange(0, 2).Draw(t, "typeGPUs"))
		}
		var sel map[string]string
		if rapid.Bool().Draw(t, "typePool") {
			sel = map[string]string{capacity.AKSPoolLabel: genPool.Draw(t, "typePoolValue")}
		}
		if rapid.IntRange(0, 3).Draw(t, "typeZone") == 0 {
			if sel == nil {
				sel = map[string]string{}
			}
			sel["topology.kubernetes.io/zone"] = genZone.Draw(t, "typeZoneValue")
		}
		return instanceType(name, cpu, memory, gpus, sel)
	})
}

// demandOf is the naive model's demand of an instance type, merged with the extension's
// selector: nil when they conflict.
func demandOf(it *instancetype.InstanceType, ext map[string]string) *naiveDemand {
	d := &naiveDemand{name: it.Name, sel: map[string]string{}, reqs: map[instancetype.ResourceName]int64{}}
	for k, v := range ext {
		d.sel[k] = v
	}
	for k, v := range it.Spec.NodeSelector {
		if old, ok := d.sel[k]; ok && old != v {
			return nil
		}
		d.sel[k] = v
	}
	for _, name := range []instancetype.ResourceName{instancetype.ResourceCPU, instancetype.ResourceMemory} {
		q, _ := it.Spec.Resources.Requests[name].Quantity()
		d.reqs[name] = capacity.Units(name, q)
	}
	if a, ok := it.Spec.Resources.Limits[instancetype.ResourceNvidiaGPU]; ok {
		if q, _ := a.Quantity(); q.Value() > 0 {
			d.reqs[instancetype.ResourceNvidiaGPU] = q.Value()
		}
	}
	return d
}

func checkComputeAgreesWithNaive(t *rapid.T) {
	n := rapid.IntRange(0, 25).Draw(t, "nodes")
	nodes := make([]capacity.Node, n)
	for i := range nodes {
		nodes[i] = genNode(i).Draw(t, fmt.Sprintf("node%d", i))
	}
	types := rapid.SliceOfN(genType(0), 0, 4).Draw(t, "types")
	var opts capacity.Options
	if rapid.Bool().Draw(t, "extension") {
		opts.NodeSelector = map[string]string{"topology.kubernetes.io/zone": genZone.Draw(t, "extensionZone")}
	}
	if rapid.IntRange(0, 3).Draw(t, "customPoolLabel") == 0 {
		opts.PoolLabel = "topology.kubernetes.io/zone"
	}

	got := capacity.Compute(types, nodes, opts)

	// The catalog, as resolve forms it: the last of each name, the built-in default
	// unless overridden.
	byName := map[string]*instancetype.InstanceType{instancetype.DefaultName: instancetype.Default()}
	for _, it := range types {
		byName[it.Name] = it
	}
	var demands []naiveDemand
	conflicts := map[string]bool{}
	for _, it := range byName {
		if d := demandOf(it, opts.NodeSelector); d != nil {
			demands = append(demands, *d)
		} else {
			conflicts[it.Name] = true
		}
	}
	want := naiveCapacity(demands, nodes, opts.PoolLabel)
	if len(got.Capacity) != len(want) {
		t.Fatalf("Compute gives %d instance types, the model %d: %+v", len(got.Capacity), len(want), got.Capacity)
	}
	for i, c := range got.Capacity {
		if i > 0 && got.Capacity[i-1].InstanceType >= c.InstanceType {
			t.Fatalf("not in name order: %q then %q", got.Capacity[i-1].InstanceType, c.InstanceType)
		}
		if w := want[c.InstanceType]; !reflect.DeepEqual(c, w) {
			t.Fatalf("%s: Compute = %+v\nnaive model = %+v", c.InstanceType, c, w)
		}
	}
	for _, s := range got.Skipped {
		if !conflicts[s.InstanceType] {
			t.Fatalf("skipped %q without a conflict: %s", s.InstanceType, s.Reason)
		}
	}
	if len(got.Skipped) != len(conflicts) {
		t.Fatalf("skipped %v; conflicts %v", got.Skipped, conflicts)
	}
	last := map[string]int{}
	for i, x := range nodes {
		last[x.Name] = i
	}
	pods := 0
	for _, i := range last {
		pods += nodes[i].Pods
	}
	if got.Nodes != len(last) || got.Pods != pods {
		t.Fatalf("nodes, pods = %d, %d; want %d, %d", got.Nodes, got.Pods, len(last), pods)
	}
}

// Compute gives, for every instance type and pool, the counts and limiting resources of a
// model that adds pods one at a time on the nodes it may use.
func TestComputeAgreesWithNaive(t *testing.T) { rapid.Check(t, checkComputeAgreesWithNaive) }

func FuzzComputeAgreesWithNaive(f *testing.F) { f.Fuzz(rapid.MakeFuzz(checkComputeAgreesWithNaive)) }

// Binding one more pod of an instance type (its requests added to a node it fits) leaves
// exactly one fewer to fit, on that pool and in all.
func TestBindingAPodTakesOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 15).Draw(t, "nodes")
		nodes := make([]capacity.Node, n)
		for i := range nodes {
			nodes[i] = genNode(i).Draw(t, fmt.Sprintf("node%d", i))
			nodes[i].Name = fmt.Sprintf("n%d", i)
		}
		it := genType(0).Draw(t, "type")
		before := capacity.Compute([]*instancetype.InstanceType{it}, nodes, capacity.Options{})
		var tc capacity.TypeCapacity
		for _, c := range before.Capacity {
			if c.InstanceType == it.Name {
				tc = c
			}
		}
		if tc.Fits == 0 {
			return
		}
		d := demandOf(it, nil)
		// Bind it on the first node where the model fits one.
		for i := range nodes {
			if !naiveMayUse(nodes[i], d.sel) {
				continue
			}
			if k, _ := naiveOnNode(nodes[i], d.reqs); k == 0 {
				continue
			}
			x := &nodes[i]
			req := map[instancetype.ResourceName]int64{}
			for k, v := range x.Requested {
				req[k] = v
			}
			for k, v := range d.reqs {
				req[k] += v
			}
			x.Requested = req
			x.Pods++
			break
		}
		after := capacity.Compute([]*instancetype.InstanceType{it}, nodes, capacity.Options{})
		for _, c := range after.Capacity {
			if c.InstanceType == it.Name && c.Fits != tc.Fits-1 {
				t.Fatalf("fits %d before binding one, %d after", tc.Fits, c.Fits)
			}
		}
	})
}
