package cluster_test

import (
	"testing"

	"github.com/amlarc-go/instancetypes/cluster"
)

func TestTaint(t *testing.T) {
	for _, tc := range []struct {
		t        cluster.Taint
		excludes bool
		text     string
	}{
		{cluster.Taint{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}, true, "sku=gpu:NoSchedule"},
		{cluster.Taint{Key: "node.kubernetes.io/not-ready", Effect: cluster.NoExecute}, true, "node.kubernetes.io/not-ready:NoExecute"},
		{cluster.Taint{Key: "spot", Value: "true", Effect: cluster.PreferNoSchedule}, false, "spot=true:PreferNoSchedule"},
		{cluster.Taint{Key: "x", Effect: "noschedule"}, false, "x:noschedule"},
		{cluster.Taint{}, false, ":"},
	} {
		if got := tc.t.Excludes(); got != tc.excludes {
			t.Errorf("%+v.Excludes() = %v; want %v", tc.t, got, tc.excludes)
		}
		if got := tc.t.String(); got != tc.text {
			t.Errorf("%+v.String() = %q; want %q", tc.t, got, tc.text)
		}
	}
}
