package cluster_test

import (
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/cluster"
)

var parseTolerationTests = []struct {
	in   string
	want cluster.Toleration
	err  string // a substring of the error; "" for none
}{
	{"sku", cluster.Toleration{Key: "sku", Exists: true}, ""},
	{"sku=gpu", cluster.Toleration{Key: "sku", Value: "gpu"}, ""},
	{"sku=gpu:NoSchedule", cluster.Toleration{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}, ""},
	{"sku:NoExecute", cluster.Toleration{Key: "sku", Exists: true, Effect: cluster.NoExecute}, ""},
	{"sku=", cluster.Toleration{Key: "sku"}, ""}, // the empty value, with Equal
	{"ml.azure.com/compute=k8s-compute:PreferNoSchedule", cluster.Toleration{Key: "ml.azure.com/compute", Value: "k8s-compute", Effect: cluster.PreferNoSchedule}, ""},
	{"*", cluster.Toleration{Exists: true}, ""},
	{"*:NoSchedule", cluster.Toleration{Exists: true, Effect: cluster.NoSchedule}, ""},
	{"", cluster.Toleration{}, "no taint key"},
	{"=gpu", cluster.Toleration{}, "no taint key"},
	{"sku=gpu:Bogus", cluster.Toleration{}, `effect "Bogus"`},
	{"sku=gpu:", cluster.Toleration{}, `effect ""`},
	{"bad key!", cluster.Toleration{}, `key "bad key!"`},
	{"sku=not a value", cluster.Toleration{}, `value "not a value"`},
	{"*=x", cluster.Toleration{}, `key "*"`},
}

func TestParseToleration(t *testing.T) {
	for _, tt := range parseTolerationTests {
		got, err := cluster.ParseToleration(tt.in)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("ParseToleration(%q) = %+v, %v; want %+v, nil", tt.in, got, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || got != cluster.Toleration{}):
			t.Errorf("ParseToleration(%q) = %+v, %v; want an error saying %q", tt.in, got, err, tt.err)
		}
		if err == nil {
			if back, err := cluster.ParseToleration(got.String()); err != nil || back != got {
				t.Errorf("ParseToleration(%q).String() = %q, which reads back as %+v, %v", tt.in, got.String(), back, err)
			}
		}
	}
}

// Tolerates is Kubernetes' rule: every toleration against every taint of a small
// vocabulary, compared with the rule written out (naiveTolerates).
func TestTolerates(t *testing.T) {
	var taints []cluster.Taint
	var tols []cluster.Toleration
	for _, k := range []string{"", "sku", "dedicated"} {
		for _, v := range []string{"", "gpu", "ml"} {
			for _, e := range []string{"", cluster.NoSchedule, cluster.NoExecute, cluster.PreferNoSchedule} {
				taints = append(taints, cluster.Taint{Key: k, Value: v, Effect: e})
				tols = append(tols, cluster.Toleration{Key: k, Value: v, Effect: e}, cluster.Toleration{Key: k, Exists: true, Effect: e})
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

// naiveTolerates is Kubernetes' rule, written out: core/v1's Toleration.ToleratesTaint.
func naiveTolerates(o cluster.Toleration, t cluster.Taint) bool {
	switch {
	case o.Effect != "" && o.Effect != t.Effect:
		return false
	case o.Key != "" && o.Key != t.Key: // an empty key is any key (the API allows it with Exists only)
		return false
	case o.Exists:
		return true
	}
	return o.Value == t.Value
}
