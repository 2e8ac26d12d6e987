package capacity_test

import (
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// schedResource is the scheduler's framework.Resource (k8s.io/kubernetes
// pkg/scheduler/framework/types.go) for the resources of these tests: its Add takes
// MilliValue of cpu, Value of memory, pods and scalar resources, in int64 (int for pods),
// with Go's wrapping arithmetic.
type schedResource struct {
	milliCPU, memory int64
	pods             int
	scalar           map[corev1.ResourceName]int64
}

func newSchedResource(rl corev1.ResourceList) schedResource {
	r := schedResource{scalar: map[corev1.ResourceName]int64{}}
	for name, q := range rl {
		switch name {
		case corev1.ResourceCPU:
			r.milliCPU += q.MilliValue()
		case corev1.ResourceMemory:
			r.memory += q.Value()
		case corev1.ResourcePods:
			r.pods += int(q.Value())
		default:
			r.scalar[name] += q.Value()
		}
	}
	return r
}

// schedulerFits binds pods of requests reqs on an empty node of allocatable alloc one at
// a time while NodeResourcesFit's fitsRequest (pkg/scheduler/framework/plugins/
// noderesources/fit.go) admits one more: the pods it allows, and each requested resource
// greater than zero no greater than allocatable less requested.
func schedulerFits(alloc, reqs corev1.ResourceList) int64 {
	a, r := newSchedResource(alloc), newSchedResource(reqs)
	var used schedResource
	used.scalar = map[corev1.ResourceName]int64{}
	n := int64(0)
	for {
		if int(n)+1 > a.pods {
			return n
		}
		if r.milliCPU > 0 && r.milliCPU > a.milliCPU-used.milliCPU {
			return n
		}
		if r.memory > 0 && r.memory > a.memory-used.memory {
			return n
		}
		for name, v := range r.scalar {
			if v > 0 && v > a.scalar[name]-used.scalar[name] {
				return n
			}
		}
		used.milliCPU += r.milliCPU
		used.memory += r.memory
		for name, v := range r.scalar {
			used.scalar[name] += v
		}
		n++
	}
}

// overWire is n as a client reads it from the API server: encoded and decoded, so that
// each quantity is what resource.ParseQuantity makes of its canonical text, as the
// scheduler's informer has it.
func overWire(t *testing.T, n *corev1.Node) *corev1.Node {
	t.Helper()
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	out := new(corev1.Node)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return out
}

// A node's allocatable of huge amounts counts as the scheduler counts it: cpu in
// MilliValue, which for 10^18 cores (10^21 millicores) apimachinery gives as 0, memory in
// Value, both with apimachinery's overflow. The instance type is the built-in default
// (100m cpu, 2Gi memory): 16 pods on a node of 32Gi when its cpu counts as room.
func TestHugeAllocatableAsTheScheduler(t *testing.T) {
	for _, tc := range []struct {
		resource corev1.ResourceName
		amount   string
	}{
		{corev1.ResourceCPU, "4"},
		{corev1.ResourceCPU, "1e3"},
		{corev1.ResourceCPU, "1e15"},                 // 10^18 millicores: fits an int64
		{corev1.ResourceCPU, "9223372036854775"},     // MaxInt64/1000 cores
		{corev1.ResourceCPU, "9223372036854776"},     // one more: the millicores overflow
		{corev1.ResourceCPU, "1e16"},                 // 10^19 millicores
		{corev1.ResourceCPU, "1e18"},                 // the finding: 16 pods where the scheduler has none
		{corev1.ResourceCPU, "1E"},                   // the same in DecimalSI
		{corev1.ResourceCPU, "1000000000000000000"},  // written out: sent as "1E"
		{corev1.ResourceCPU, "0.5e19"},               // sent as "5e18"
		{corev1.ResourceCPU, "9223372036854775807"},  // MaxInt64 cores
		{corev1.ResourceCPU, "9223372036854775807m"}, // MaxInt64 millicores: fits exactly
		{corev1.ResourceCPU, "9223372036854775808m"}, // 2^63 millicores: beyond package quantity
		{corev1.ResourceCPU, "1e19"},                 // beyond package quantity
		{corev1.ResourceCPU, "1e30"},
		{corev1.ResourceCPU, "1Ei"},
		{corev1.ResourceCPU, "7Ei"},
		{corev1.ResourceCPU, "8Ei"}, // sent as 2^63-1
		{corev1.ResourceCPU, "40000000000000000001"},
		{corev1.ResourceMemory, "32Gi"},
		{corev1.ResourceMemory, "1e18"},
		{corev1.ResourceMemory, "9223372036854775807"},
		{corev1.ResourceMemory, "1e19"},
		{corev1.ResourceMemory, "8Ei"},
		{corev1.ResourceMemory, "16Ei"},
		{corev1.ResourceMemory, "40000000000000000001"}, // wraps to 3.1e18 bytes
		{corev1.ResourceMemory, "1e30"},
		{corev1.ResourcePods, "1e18"},
		{corev1.ResourcePods, "1e19"},
		{corev1.ResourcePods, "9223372036854775808"},
	} {
		alloc := corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("4"),
			corev1.ResourceMemory: resource.MustParse("32Gi"),
			corev1.ResourcePods:   resource.MustParse("110"),
		}
		alloc[tc.resource] = resource.MustParse(tc.amount)
		n := overWire(t, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Status: corev1.NodeStatus{Allocatable: alloc}})
		def := instancetype.Default().Spec.Resources.Requests
		reqs := corev1.ResourceList{}
		for name, a := range def {
			q, _ := a.Quantity()
			reqs[corev1.ResourceName(name)] = q.ToResource()
		}
		want := schedulerFits(n.Status.Allocatable, reqs)

		fits := func(x capacity.Node) int64 {
			r := capacity.Compute(nil, []capacity.Node{x}, capacity.Options{})
			return r.Capacity[0].Fits
		}
		if got := fits(capacity.NodeOf(n)); got != want {
			t.Errorf("%s %s: Compute(NodeOf) fits %d; the scheduler %d", tc.resource, tc.amount, got, want)
		}
		// The same node built from package quantity's amounts, when they hold it.
		x := capacity.Node{Node: cluster.Node{Name: "n", Allocatable: map[instancetype.ResourceName]quantity.Quantity{}}}
		held := true
		for name, q := range n.Status.Allocatable {
			v, err := quantity.FromResource(q)
			if err != nil {
				held = false
				break
			}
			x.Allocatable[instancetype.ResourceName(name)] = v
		}
		if held {
			if got := fits(x); got != want {
				t.Errorf("%s %s: Compute of package quantity's amounts fits %d; the scheduler %d", tc.resource, tc.amount, got, want)
			}
		}
	}
}

// Units is apimachinery's MilliValue (cpu) or Value (the rest) of the amount as the API
// sends it, overflow included.
func TestUnitsAsApimachinery(t *testing.T) {
	for _, tc := range []struct {
		name   instancetype.ResourceName
		amount string
		want   int64
	}{
		{"cpu", "100m", 100},
		{"cpu", "1", 1000},
		{"cpu", "1n", 1},
		{"cpu", "1e15", 1e18},
		{"cpu", "9223372036854775807m", 9223372036854775807},
		{"cpu", "1e18", 0},                    // 10^21 millicores: apimachinery's overflow is 0
		{"cpu", "9223372036854775807", -1000}, // MaxInt64 × 1000, wrapped
		{"cpu", "9223372036854776", -9223372036854775616},
		{"cpu", "1Ei", -9223372036854775808},
		{"memory", "2Gi", 2 << 30},
		{"memory", "1e18", 1e18},
		{"memory", "9223372036854775807", 9223372036854775807},
		{"nvidia.com/gpu", "4", 4},
		{"pods", "110", 110},
	} {
		q := quantity.MustParse(tc.amount)
		r := resource.MustParse(q.String())
		ref := r.Value()
		if tc.name == "cpu" {
			ref = r.MilliValue()
		}
		if got := capacity.Units(tc.name, q); got != tc.want || got != ref {
			t.Errorf("Units(%s, %s) = %d; want %d (apimachinery: %d)", tc.name, tc.amount, got, tc.want, ref)
		}
	}
}

// An instance type's huge requests count as the scheduler counts a pod's: a cpu request
// whose MilliValue overflows to zero or less is not checked (NodeResourcesFit checks a
// request only when it is greater than zero), one that comes to a huge positive number
// fits nowhere. The node: 4 cpus, 32Gi, 110 pods; the type asks 1Gi of memory.
func TestHugeRequestsAsTheScheduler(t *testing.T) {
	alloc := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("4"),
		corev1.ResourceMemory: resource.MustParse("32Gi"),
		corev1.ResourcePods:   resource.MustParse("110"),
	}
	n := overWire(t, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Status: corev1.NodeStatus{Allocatable: alloc}})
	for _, cpu := range []string{"1", "1e15", "1e16", "1e18", "9223372036854775807", "9223372036854775807m", "9223372036854776", "1Ei"} {
		it := instanceType("huge", cpu, "1Gi", "", nil)
		// The pod's requests as the API server sends them: the canonical text of each.
		pod := overWire(t, &corev1.Node{Status: corev1.NodeStatus{Allocatable: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse(cpu),
			corev1.ResourceMemory: resource.MustParse("1Gi"),
		}}}).Status.Allocatable
		want := schedulerFits(n.Status.Allocatable, pod)
		r := capacity.Compute([]*instancetype.InstanceType{it}, []capacity.Node{capacity.NodeOf(n)}, capacity.Options{})
		for _, c := range r.Capacity {
			if c.InstanceType == "huge" && c.Fits != want {
				t.Errorf("requests of cpu %s: Compute fits %d; the scheduler %d", cpu, c.Fits, want)
			}
		}
		if len(r.Skipped) > 0 {
			t.Errorf("requests of cpu %s: skipped %v", cpu, r.Skipped)
		}
	}
}
