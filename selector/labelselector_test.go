package selector_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/amlarc-go/instancetypes/selector"
)

func TestLabelSelector(t *testing.T) {
	for _, m := range []map[string]string{nil, {}} {
		s, err := selector.LabelSelector(m)
		if err != nil || !s.Empty() {
			t.Errorf("LabelSelector(%v) = %v, %v; want an empty selector", m, s, err)
		}
	}

	m := map[string]string{"pool": "ml", "kubernetes.io/os": "linux", "gpu": ""}
	s, err := selector.LabelSelector(m)
	if err != nil {
		t.Fatalf("LabelSelector(%v) error %v", m, err)
	}
	if got, want := s.String(), "gpu=,kubernetes.io/os=linux,pool=ml"; got != want {
		t.Errorf("LabelSelector(%v).String() = %q; want %q", m, got, want)
	}
	ref, err := labels.ValidatedSelectorFromSet(m)
	if err != nil || ref.String() != s.String() {
		t.Errorf("labels.ValidatedSelectorFromSet(%v) = %v, %v; want %v", m, ref, err, s)
	}
	// The selector must agree with Matches.
	for _, node := range []map[string]string{
		nil,
		{"pool": "ml"},
		{"pool": "ml", "kubernetes.io/os": "linux", "gpu": ""},
		{"pool": "ml", "kubernetes.io/os": "linux", "gpu": "a100"},
		{"pool": "ml", "kubernetes.io/os": "linux", "gpu": "", "zone": "1"},
	} {
		if got, want := s.Matches(labels.Set(node)), selector.Matches(m, node); got != want {
			t.Errorf("LabelSelector(%v).Matches(%v) = %v; Matches says %v", m, node, got, want)
		}
	}
	// The selector does not share m.
	m["pool"] = "cpu"
	if !s.Matches(labels.Set{"pool": "ml", "kubernetes.io/os": "linux", "gpu": ""}) {
		t.Errorf("changing the map changed the selector")
	}

	bad := map[string]string{"my label": "ml", "pool": "a b"}
	s, err = selector.LabelSelector(bad)
	if err == nil || s != nil {
		t.Fatalf("LabelSelector(%v) = %v, %v; want an error", bad, s, err)
	}
	if _, refErr := labels.ValidatedSelectorFromSet(bad); refErr == nil {
		t.Errorf("labels.ValidatedSelectorFromSet(%v) accepts what LabelSelector refuses", bad)
	}
	for _, k := range []string{"[my label]", "[pool]"} {
		if !strings.Contains(err.Error(), k) {
			t.Errorf("LabelSelector(%v) error %q does not name %s", bad, err, k)
		}
	}
}
