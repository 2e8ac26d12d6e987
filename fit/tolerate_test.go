package fit_test

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/fit"
)

var parseTolerationTests = []struct {
	in   string
	want fit.Toleration
	err  string // a substring of the error; "" for none
}{
	{"sku", fit.Toleration{Key: "sku", Exists: true}, ""},
	{"sku=gpu", fit.Toleration{Key: "sku", Value: "gpu"}, ""},
	{"sku=gpu:NoSchedule", fit.Toleration{Key: "sku", Value: "gpu", Effect: fit.NoSchedule}, ""},
	{"sku:NoExecute", fit.Toleration{Key: "sku", Exists: true, Effect: fit.NoExecute}, ""},
	{"sku=", fit.Toleration{Key: "sku"}, ""}, // the empty value, with Equal
	{"ml.azure.com/compute=k8s-compute:PreferNoSchedule", fit.Toleration{Key: "ml.azure.com/compute", Value: "k8s-compute", Effect: fit.PreferNoSchedule}, ""},
	{"*", fit.Toleration{Exists: true}, ""},
	{"*:NoSchedule", fit.Toleration{Exists: true, Effect: fit.NoSchedule}, ""},
	{"", fit.Toleration{}, "no taint key"},
	{"=gpu", fit.Toleration{}, "no taint key"},
	{"sku=gpu:Bogus", fit.Toleration{}, `effect "Bogus"`},
	{"sku=gpu:", fit.Toleration{}, `effect ""`},
	{"bad key!", fit.Toleration{}, `key "bad key!"`},
	{"sku=not a value", fit.Toleration{}, `value "not a value"`},
	{"*=x", fit.Toleration{}, `key "*"`},
}

func TestParseToleration(t *testing.T) {
	for _, tt := range parseTolerationTests {
		got, err := fit.ParseToleration(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("ParseToleration(%q) = %+v, %v; want %+v, nil", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || got != fit.Toleration{}):
			t.Errorf("ParseToleration(%q) = %+v, %v; want an error saying %q", tt.in, got, err, tt.err)
		}
		if err == nil {
			if back, err := fit.ParseToleration(got.String()); err != nil || back != got {
				t.Errorf("ParseToleration(%q).String() = %q, which reads back as %+v, %v", tt.in, got.String(), back, err)
			}
		}
	}
}

// Tolerates is Kubernetes' rule: every toleration against every taint of a small
// vocabulary, compared with the rule written out (naiveTolerates).
func TestTolerates(t *testing.T) {
	var taints []fit.Taint
	var tols []fit.Toleration
	for _, k := range []string{"", "sku", "dedicated"} {
		for _, v := range []string{"", "gpu", "ml"} {
			for _, e := range []string{"", fit.NoSchedule, fit.NoExecute, fit.PreferNoSchedule} {
				taints = append(taints, fit.Taint{Key: k, Value: v, Effect: e})
				tols = append(tols, fit.Toleration{Key: k, Value: v, Effect: e}, fit.Toleration{Key: k, Exists: true, Effect: e})
			}
		}
	}
	for _, o := range tols {
		for _, x := range taints {
			if got, want := o.Tolerates(x), naiveTolerates(o, x); got != want {
				t.Errorf("%+v.Tolerates(%+v) = %v; want %v", o, x, got, want)
			}
		}
	}
}

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
	gpu := fit.Node{Name: "gpu-0", Labels: map[string]string{"agentpool": "gpu"}, Allocatable: res("cpu", "8", "memory", "32Gi"), Taints: []fit.Taint{
		{Key: fit.TaintAMLArc, Value: "true", Effect: fit.NoSchedule},
		{Key: fit.TaintAMLArcWorkload, Value: "true", Effect: fit.NoSchedule},
		{Key: fit.TaintResourceGroup, Value: "ml-rg", Effect: fit.NoSchedule},
		{Key: fit.TaintWorkspace, Value: "ml-ws", Effect: fit.NoSchedule},
		{Key: fit.TaintCompute, Value: "k8s-compute", Effect: fit.NoExecute},
	}}
	ix := fit.NewIndex([]fit.Node{gpu})
	d := fit.Demand{NodeSelector: sel("agentpool=gpu"), Requests: res("cpu", "1")}
	for _, tt := range []struct {
		tols []fit.Toleration
		fits int
		says string // what the finding names, when it fits nowhere
	}{
		{nil, 0, "ml.azure.com/amlarc=true:NoSchedule"},
		{fit.Workload("ml-rg", "ml-ws", "k8s-compute"), 1, ""},
		{fit.Workload("ml-rg", "ml-ws", "other"), 0, "excluded by taints (ml.azure.com/compute=k8s-compute:NoExecute on gpu-0)"},
		{fit.Workload("", "", "k8s-compute"), 0, "ml.azure.com/resource-group=ml-rg:NoSchedule,ml.azure.com/workspace=ml-ws:NoSchedule on gpu-0"},
		{append(fit.Workload("", "", "k8s-compute"), fit.Toleration{Key: fit.TaintResourceGroup, Exists: true}, fit.Toleration{Key: fit.TaintWorkspace, Exists: true}), 1, ""},
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
		nodes[i].Taints = append(nodes[i].Taints, fit.Taint{Key: fit.TaintAMLArcWorkload, Value: "true", Effect: fit.NoSchedule})
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
