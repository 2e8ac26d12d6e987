package selector_test

import (
	"testing"

	"github.com/amlarc-go/instancetypes/selector"
)

var subsetTests = []struct {
	sub, super map[string]string
	want       bool
}{
	{nil, nil, true},
	{map[string]string{}, nil, true},
	{nil, map[string]string{}, true},
	{nil, map[string]string{"pool": "ml"}, true},
	{map[string]string{"pool": "ml"}, nil, false},
	{map[string]string{"pool": "ml"}, map[string]string{}, false},
	{map[string]string{"pool": "ml"}, map[string]string{"pool": "ml"}, true},
	{map[string]string{"pool": "ml"}, map[string]string{"pool": "ml", "os": "linux"}, true},
	{map[string]string{"pool": "ml", "os": "linux"}, map[string]string{"pool": "ml"}, false},
	{map[string]string{"pool": "ml"}, map[string]string{"pool": "cpu"}, false},
	{map[string]string{"pool": "ml"}, map[string]string{"Pool": "ml"}, false}, // keys are case sensitive
	{map[string]string{"pool": "ml"}, map[string]string{"pool": "ML"}, false}, // values too
	// An empty value requires the key to be present.
	{map[string]string{"gpu": ""}, map[string]string{"pool": "ml"}, false},
	{map[string]string{"gpu": ""}, map[string]string{"gpu": ""}, true},
	{map[string]string{"gpu": ""}, map[string]string{"gpu": "a100"}, false},
	// Same size, different keys.
	{map[string]string{"a": "1", "b": "2"}, map[string]string{"a": "1", "c": "2"}, false},
}

func TestIsSubset(t *testing.T) {
	for _, tt := range subsetTests {
		if got := selector.IsSubset(tt.sub, tt.super); got != tt.want {
			t.Errorf("IsSubset(%v, %v) = %v; want %v", tt.sub, tt.super, got, tt.want)
		}
	}
}

func TestMatches(t *testing.T) {
	// Matches is IsSubset with a selector and a node's labels.
	for _, tt := range subsetTests {
		if got := selector.Matches(tt.sub, tt.super); got != tt.want {
			t.Errorf("Matches(%v, %v) = %v; want %v", tt.sub, tt.super, got, tt.want)
		}
	}
	node := map[string]string{
		"kubernetes.io/os":                 "linux",
		"node.kubernetes.io/instance-type": "Standard_NC6",
		"pool":                             "ml",
	}
	for _, tt := range []struct {
		sel  map[string]string
		want bool
	}{
		{nil, true},
		{map[string]string{"pool": "ml"}, true},
		{map[string]string{"pool": "ml", "kubernetes.io/os": "linux"}, true},
		{map[string]string{"pool": "ml", "kubernetes.io/os": "windows"}, false},
		{map[string]string{"pool": "ml", "gpu": "a100"}, false},
	} {
		if got := selector.Matches(tt.sel, node); got != tt.want {
			t.Errorf("Matches(%v, node) = %v; want %v", tt.sel, got, tt.want)
		}
	}
}
