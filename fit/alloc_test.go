package fit_test

import (
	"sync"
	"testing"

	"github.com/amlarc-go/instancetypes/fit"
)

// Package-level sinks keep the compiler from optimising the calls away.
var (
	sinkResult fit.Result
	sinkLen    int
)

// A demand that fits checks without allocating: the bitset path (pool labels), the list
// path (a hostname), the empty selector, and the error rendering of a success.
func TestCheckAllocs(t *testing.T) {
	ix := fit.NewIndex(benchCluster(500))
	for _, tc := range []struct {
		name string
		d    fit.Demand
	}{
		{"empty selector", fit.Demand{Requests: res("cpu", "100m", "memory", "2Gi")}},
		{"bitsets", fit.Demand{NodeSelector: sel("agentpool=cpud16", "kubernetes.io/os=linux"), Requests: res("cpu", "4", "memory", "16Gi")}},
		{"a list", fit.Demand{NodeSelector: sel("kubernetes.io/hostname=aks-cpud16-00000007", "agentpool=cpud16"), Requests: res("cpu", "1")}},
		{"gpu", fit.Demand{NodeSelector: sel("agentpool=gput4"), Requests: res("cpu", "1", "memory", "4Gi", "nvidia.com/gpu", "1")}},
		{"8 pairs, 8 requests", fit.Demand{
			NodeSelector: sel("agentpool=cpud16", "kubernetes.io/os=linux", "kubernetes.io/arch=amd64", "kubernetes.azure.com/mode=user",
				"kubernetes.azure.com/role=agent", "node.kubernetes.io/instance-type=Standard_D16ds_v5", "topology.kubernetes.io/region=westeurope", "kubernetes.azure.com/os-sku=Ubuntu"),
			Requests: res("cpu", "1", "memory", "1Gi", "pods", "1", "ephemeral-storage", "1Gi", "hugepages-2Mi", "0", "a.io/x", "0", "b.io/y", "0", "c.io/z", "0"),
		}},
	} {
		if r := ix.Check(tc.d); r.Fits == 0 {
			t.Fatalf("%s: fits no node: %v", tc.name, r.Errors(selectorPath, requestPath))
		}
		if n := testing.AllocsPerRun(100, func() { sinkResult = ix.Check(tc.d) }); n != 0 {
			t.Errorf("Check (%s): %v allocations per run; want 0", tc.name, n)
		}
		r := ix.Check(tc.d)
		if n := testing.AllocsPerRun(100, func() { sinkLen = len(r.Errors(selectorPath, requestPath)) }); n != 0 {
			t.Errorf("Errors of a fit (%s): %v allocations per run; want 0", tc.name, n)
		}
	}
}

// Any number of goroutines check against one index (run with -race).
func TestCheckConcurrently(t *testing.T) {
	nodes := benchCluster(500)
	ix, nv := fit.NewIndex(nodes), newNaive(nodes)
	demands := benchDemands(40)
	want := make([]fit.Result, len(demands))
	for i, d := range demands {
		want[i] = nv.check(d)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 5 {
				for i := range demands {
					i := (i + g + round) % len(demands)
					if diff := diffResults(ix.Check(demands[i]), want[i]); diff != "" {
						t.Errorf("demand %d in goroutine %d:%s", i, g, diff)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

// The index of 5,000 AKS-like nodes stays within a few bytes per node label: postings as
// bitsets or lists, one entry per distinct label pair, the names and classes. (About 6
// bytes a label when measured; the bound leaves room for the map's growth steps.)
func TestIndexMemoryIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	nodes := benchCluster(5000)
	labels := 0
	for _, x := range nodes {
		labels += len(x.Labels)
	}
	const perLabel, perNode = 16, 64
	if got, bound := retained(nodes), int64(perLabel*labels+perNode*len(nodes)); got > bound {
		t.Errorf("an index of %d nodes and %d labels keeps %d bytes; want at most %d", len(nodes), labels, got, bound)
	} else {
		t.Logf("an index of %d nodes and %d labels keeps %d bytes (%.1f a label)", len(nodes), labels, got, float64(got)/float64(labels))
	}
}
