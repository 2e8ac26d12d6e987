package manifest_test

import (
	"testing"

	"github.com/amlarc-go/instancetypes/manifest"
)

// Refused walks up a field path as the package writes it: a bracketed key holding dots
// or slashes is one segment.
func TestRefusedAbove(t *testing.T) {
	src := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a}\n" +
		"spec:\n  nodeSelector: {example.com/pool: [a]}\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: 5\n"
	f := manifest.Parse("t.yaml", []byte(src))
	if len(f.Documents) != 1 {
		t.Fatalf("Parse: %d documents; want 1", len(f.Documents))
	}
	d := f.Documents[0]
	for path, want := range map[string]bool{
		"spec.resources.limits":                   true,
		"spec.resources.limits[cpu]":              true,
		"spec.resources.limits[nvidia.com/gpu]":   true,
		"spec.resources.limits[a.b].c[0]":         true,
		"spec.nodeSelector[example.com/pool]":     true,
		"spec.nodeSelector[example.com/pool][0]":  true,
		"spec.nodeSelector[example.com/pool].x":   true,
		"spec.nodeSelector[example.com/pool2]":    false,
		"spec.nodeSelector[example.com/pool]x":    false, // one key, "example.com/pool]x"
		"spec.nodeSelector[example":               false,
		"spec.nodeSelector":                       false,
		"spec.resources":                          false,
		"spec.resources.limitsX":                  false,
		"spec.resources.requests[cpu]":            false,
		"spec":                                    false,
		"":                                        false,
		"metadata.name":                           false,
		"spec.resources.requests[spec.resources]": false,
	} {
		if got := d.Refused(path); got != want {
			t.Errorf("Refused(%q) = %v; want %v", path, got, want)
		}
	}
}
