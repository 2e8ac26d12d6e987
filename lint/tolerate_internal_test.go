package lint

import (
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
)

// A fit finding whose matching nodes are kept off by taints says how to tolerate them,
// with the flag and the config file's key; each toleration it gives tolerates its taint
// as --tolerate parses it.
func TestTolerateHint(t *testing.T) {
	gpu := cluster.Taint{Key: "sku", Value: "gpu", Effect: "NoSchedule"}
	compute := cluster.Taint{Key: "ml.azure.com/compute", Value: "k8s", Effect: "NoSchedule"}
	bare := cluster.Taint{Key: "dedicated", Effect: "NoExecute"}
	other := cluster.Taint{Key: "spot", Value: "true", Effect: "NoSchedule"}
	group := func(nodes int, ts ...cluster.Taint) fit.TaintGroup {
		return fit.TaintGroup{Taints: ts, Nodes: nodes}
	}
	for _, tt := range []struct {
		name string
		res  fit.Result
		want string
	}{
		{"one taint", fit.Result{Matching: 2, Tainted: 2, WouldFit: 2, TaintGroups: []fit.TaintGroup{group(2, gpu)}},
			"; to tolerate them: --tolerate sku=gpu:NoSchedule, or tolerations: [sku=gpu:NoSchedule] in .instancetype.yaml"},
		{"a taint with no value", fit.Result{Matching: 1, Tainted: 1, WouldFit: 1, TaintGroups: []fit.TaintGroup{group(1, bare)}},
			"; to tolerate them: --tolerate dedicated:NoExecute, or tolerations: [dedicated:NoExecute] in .instancetype.yaml"},
		{"two groups sharing a taint, each named once", fit.Result{Matching: 3, Tainted: 3, WouldFit: 1, TaintGroups: []fit.TaintGroup{group(2, compute), group(1, compute, gpu)}},
			"; to tolerate them: --tolerate ml.azure.com/compute=k8s:NoSchedule --tolerate sku=gpu:NoSchedule, or tolerations: [ml.azure.com/compute=k8s:NoSchedule, sku=gpu:NoSchedule] in .instancetype.yaml"},
		{"more taints than are named", fit.Result{Matching: 4, Tainted: 4, WouldFit: 4, TaintGroups: []fit.TaintGroup{group(1, gpu), group(1, compute), group(1, bare), group(1, other)}},
			"; to tolerate them: --tolerate sku=gpu:NoSchedule --tolerate ml.azure.com/compute=k8s:NoSchedule --tolerate dedicated:NoExecute (and the other taints), or tolerations: [sku=gpu:NoSchedule, ml.azure.com/compute=k8s:NoSchedule, dedicated:NoExecute] in .instancetype.yaml"},
		{"nodes in groups not named", fit.Result{Matching: 9, Tainted: 9, WouldFit: 9, TaintGroups: []fit.TaintGroup{group(5, gpu)}},
			"; to tolerate them: --tolerate sku=gpu:NoSchedule (and the other taints), or tolerations: [sku=gpu:NoSchedule] in .instancetype.yaml"},
		{"a shortfall with tainted nodes that would fit", fit.Result{Matching: 3, Candidates: 1, Tainted: 2, WouldFit: 2, TaintGroups: []fit.TaintGroup{group(2, gpu)}},
			"; to tolerate them: --tolerate sku=gpu:NoSchedule, or tolerations: [sku=gpu:NoSchedule] in .instancetype.yaml"},
		{"it fits", fit.Result{Matching: 3, Candidates: 1, Fits: 1, Tainted: 2, WouldFit: 2, TaintGroups: []fit.TaintGroup{group(2, gpu)}}, ""},
		{"no excluded node would fit", fit.Result{Matching: 2, Tainted: 2, TaintGroups: []fit.TaintGroup{group(2, gpu)}}, ""},
		{"cordoned only", fit.Result{Matching: 2, Cordoned: 2, WouldFit: 2, CordonedNodes: []string{"a", "b"}}, ""},
		{"a taint the flag cannot name", fit.Result{Matching: 1, Tainted: 1, WouldFit: 1, TaintGroups: []fit.TaintGroup{group(1, cluster.Taint{Key: "k", Value: "a b\x1b", Effect: "NoSchedule"})}}, ""},
	} {
		got := tolerateHint(tt.res)
		if got != tt.want {
			t.Errorf("%s: tolerateHint = %q; want %q", tt.name, got, tt.want)
			continue
		}
		// Each toleration given tolerates a taint of the groups, as the flag reads it.
		for _, f := range strings.Split(got, "--tolerate ")[1:] {
			f, _, _ = strings.Cut(f, " ")
			f = strings.TrimSuffix(f, ",")
			tol, err := cluster.ParseToleration(f)
			if err != nil {
				t.Errorf("%s: --tolerate %s: %v", tt.name, f, err)
				continue
			}
			ok := false
			for _, g := range tt.res.TaintGroups {
				for _, taint := range g.Taints {
					ok = ok || tol.Tolerates(taint)
				}
			}
			if !ok {
				t.Errorf("%s: --tolerate %s tolerates no taint of %v", tt.name, f, tt.res.TaintGroups)
			}
		}
	}
}
