package fit_test

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
)

// Tolerating more never excludes more: every candidate stays one, and the nodes that fit
// are a superset.
func TestToleratingMoreNeverExcludesMore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nodes := genCluster(80).Draw(t, "cluster")
		d := genDemand.Draw(t, "demand")
		more := d
		more.Tolerations = append(slices.Clone(d.Tolerations), genToleration.Draw(t, "more"))
		ix := fit.NewIndex(nodes)
		a, b := ix.Check(d), ix.Check(more)
		if b.Matching != a.Matching || b.Candidates < a.Candidates || b.Fits < a.Fits || b.Cordoned != a.Cordoned || b.Tainted > a.Tainted {
			t.Fatalf("tolerating %v more: %+v → %+v", more.Tolerations[len(more.Tolerations)-1], a, b)
		}
		ca, cb := ix.AppendCandidates(nil, d), ix.AppendCandidates(nil, more)
		for _, i := range ca {
			if !slices.Contains(cb, i) {
				t.Fatalf("node %d a candidate without the toleration, not with it", i)
			}
		}
	})
}

// A node tainted for Azure ML is excluded for a pod that does not tolerate its taints, and
// a candidate for a workload whose own compute, workspace and resource group they name;
// the finding of a workload of another compute names the taint that excludes it alone.
func TestAzureMLTaints(t *testing.T) {
	gpu := cluster.Node{Name: "gpu-0", Labels: map[string]string{"agentpool": "gpu"}, Allocatable: res("cpu", "8", "memory", "32Gi"), Taints: []cluster.Taint{
		{Key: fit.TaintAMLArc, Value: "true", Effect: cluster.NoSchedule},
		{Key: fit.TaintAMLArcWorkload, Value: "true", Effect: cluster.NoSchedule},
		{Key: fit.TaintResourceGroup, Value: "ml-rg", Effect: cluster.NoSchedule},
		{Key: fit.TaintWorkspace, Value: "ml-ws", Effect: cluster.NoSchedule},
		{Key: fit.TaintCompute, Value: "k8s-compute", Effect: cluster.NoExecute},
	}}
	ix := fit.NewIndex([]cluster.Node{gpu})
	d := fit.Demand{NodeSelector: sel("agentpool=gpu"), Requests: res("cpu", "1")}
	for _, tt := range []struct {
		tols []cluster.Toleration
		fits int
		says string // what the finding names, when it fits nowhere
	}{
		{nil, 0, "ml.azure.com/amlarc=true:NoSchedule"},
		{fit.Workload("ml-rg", "ml-ws", "k8s-compute"), 1, ""},
		{fit.Workload("ml-rg", "ml-ws", "other"), 0, "excluded by taints (ml.azure.com/compute=k8s-compute:NoExecute on gpu-0)"},
		{fit.Workload("", "", "k8s-compute"), 0, "ml.azure.com/resource-group=ml-rg:NoSchedule,ml.azure.com/workspace=ml-ws:NoSchedule on gpu-0"},
		{append(fit.Workload("", "", "k8s-compute"), cluster.Toleration{Key: fit.TaintResourceGroup, Exists: true}, cluster.Toleration{Key: fit.TaintWorkspace, Exists: true}), 1, ""},
	} {
		d.Tolerations = tt.tols
		r := ix.Check(d)
		if r.Fits != tt.fits {
			t.Errorf("tolerating %v: fits %d; want %d", tt.tols, r.Fits, tt.fits)
		}
		if tt.says != "" {
			errs := r.Errors(selectorPath, requestPath)
			if len(errs) != 1 || !strings.Contains(errs[0].Detail, tt.says) {
				t.Errorf("tolerating %v: %v; want a finding naming %s", tt.tols, errs, tt.says)
			}
		}
	}
	if got := fit.Workload("", "", ""); len(got) != 2 || got[0].Key != fit.TaintAMLArc || got[1].Key != fit.TaintAMLArcWorkload || got[1].Value != "true" {
		t.Errorf("Workload() = %v; want the overall and workload taints only", got)
	}
}

// A demand with tolerations that fits checks without allocating.
func TestCheckWithTolerationsAllocs(t *testing.T) {
	nodes := benchCluster(500)
	for i := range nodes {
		nodes[i].Taints = append(nodes[i].Taints, cluster.Taint{Key: fit.TaintAMLArcWorkload, Value: "true", Effect: cluster.NoSchedule})
	}
	ix := fit.NewIndex(nodes)
	d := fit.Demand{NodeSelector: sel("agentpool=cpud16"), Requests: res("cpu", "4", "memory", "16Gi"), Tolerations: fit.Workload("rg", "ws", "c")}
	if r := ix.Check(d); r.Fits == 0 {
		t.Fatalf("fits no node: %v", r.Errors(selectorPath, requestPath))
	}
	if n := testing.AllocsPerRun(100, func() { sinkResult = ix.Check(d) }); n != 0 {
		t.Errorf("Check: %v allocations per run; want 0", n)
	}
}
