package capacity_test

import (
	"testing"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
)

// Capacity places pods by package fit's taint and toleration rules, with the tolerations
// of Azure ML's workload pods: a node tainted ml.azure.com/amlarc-workload counts, one
// tainted sku=gpu only with Options.Tolerations.
func TestComputeTolerates(t *testing.T) {
	node := func(name string, taint cluster.Taint) capacity.Node {
		return capacity.Node{Node: cluster.Node{Name: name, Taints: []cluster.Taint{taint},
			Allocatable: map[instancetype.ResourceName]quantity.Quantity{"cpu": quantity.MustParse("4"), "memory": quantity.MustParse("16Gi")}}}
	}
	nodes := []capacity.Node{
		node("ml-0", cluster.Taint{Key: fit.TaintAMLArcWorkload, Value: "true", Effect: cluster.NoSchedule}),
		node("gpu-0", cluster.Taint{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}),
	}
	fits := func(opts capacity.Options) int64 {
		r := capacity.Compute(nil, nodes, opts)
		if len(r.Capacity) != 1 {
			t.Fatalf("capacity %+v; want the built-in default's", r.Capacity)
		}
		return r.Capacity[0].Fits
	}
	// defaultinstancetype requests 100m cpu and 2Gi: 8 a node, by memory.
	if got := fits(capacity.Options{}); got != 8 {
		t.Errorf("fits %d; want 8, on ml-0 alone", got)
	}
	if got := fits(capacity.Options{Tolerations: []cluster.Toleration{{Key: "sku", Value: "gpu"}}}); got != 16 {
		t.Errorf("tolerating sku=gpu: fits %d; want 16", got)
	}
}
