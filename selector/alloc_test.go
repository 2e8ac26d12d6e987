package selector_test

import (
	"testing"

	"github.com/amlarc-go/instancetypes/selector"
)

// Package-level sinks keep the compiler from optimising the calls away.
var (
	sinkBool  bool
	sinkMap   map[string]string
	sinkError error
	sinkInt   int
)

var (
	allocNode = map[string]string{
		"kubernetes.io/os":                 "linux",
		"kubernetes.io/arch":               "amd64",
		"node.kubernetes.io/instance-type": "Standard_NC6s_v3",
		"topology.kubernetes.io/zone":      "westeurope-1",
		"pool":                             "ml",
		"gpu":                              "",
	}
	allocExtension = map[string]string{"kubernetes.io/os": "linux", "pool": "ml"}
	allocType      = map[string]string{"node.kubernetes.io/instance-type": "Standard_NC6s_v3", "gpu": ""}
)

func assertNoAllocs(t *testing.T, name string, f func()) {
	t.Helper()
	if n := testing.AllocsPerRun(100, f); n != 0 {
		t.Errorf("%s: %v allocations per run; want 0", name, n)
	}
}

func TestAllocs(t *testing.T) {
	assertNoAllocs(t, "Matches", func() { sinkBool = selector.Matches(allocExtension, allocNode) })
	assertNoAllocs(t, "Matches (no match)", func() { sinkBool = selector.Matches(map[string]string{"pool": "cpu"}, allocNode) })
	assertNoAllocs(t, "IsSubset", func() { sinkBool = selector.IsSubset(allocType, allocNode) })
	assertNoAllocs(t, "Compatible", func() { sinkBool = selector.Compatible(allocExtension, allocNode) })
	assertNoAllocs(t, "Merge(nil, nil)", func() { sinkMap, sinkError = selector.Merge(nil, nil) })
	assertNoAllocs(t, "ValidLabelKey", func() { sinkBool = selector.ValidLabelKey("node.kubernetes.io/instance-type") })
	assertNoAllocs(t, "ValidLabelValue", func() { sinkBool = selector.ValidLabelValue("Standard_NC6s_v3") })
	assertNoAllocs(t, "ValidateLabels", func() { sinkInt = len(selector.ValidateLabels(allocNode, nil)) })
}

// TestMergeAllocsOnlyTheMap checks that a real union costs no more than
// building the resulting map itself.
func TestMergeAllocsOnlyTheMap(t *testing.T) {
	want := testing.AllocsPerRun(100, func() {
		m := make(map[string]string, len(allocExtension)+len(allocType))
		for k, v := range allocExtension {
			m[k] = v
		}
		for k, v := range allocType {
			m[k] = v
		}
		sinkMap = m
	})
	got := testing.AllocsPerRun(100, func() { sinkMap, sinkError = selector.Merge(allocExtension, allocType) })
	if got > want {
		t.Errorf("Merge of disjoint selectors: %v allocations per run; building the map alone takes %v", got, want)
	}
	if len(sinkMap) != len(allocExtension)+len(allocType) {
		t.Errorf("Merge of disjoint selectors has %d keys", len(sinkMap))
	}
}
