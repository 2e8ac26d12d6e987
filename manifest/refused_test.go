package manifest_test

import (
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

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

// A map key may hold "]", "." and "[": its path's text then starts with the text of a
// sibling's path. A refused sibling does not hide the key's findings, and each is placed
// at its own line: a recorded path is answered by its own entry, not by cutting its text.
func TestRefusedSiblingWithBrackets(t *testing.T) {
	src := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a}\n" +
		"spec:\n  nodeSelector:\n    a: [1]\n    \"a].b\": v\n    \"a].b[0]\": w\n"
	d := manifest.Parse("t.yaml", []byte(src)).Documents[0]
	for path, want := range map[string]bool{
		"spec.nodeSelector[a]":        true,
		"spec.nodeSelector[a].b]":     false,
		"spec.nodeSelector[a].b[0]]":  false,
		"spec.nodeSelector[a][0]":     true,
		"spec.nodeSelector[a].b].new": false,
	} {
		if got := d.Refused(path); got != want {
			t.Errorf("Refused(%q) = %v; want %v", path, got, want)
		}
	}
	errs := field.ErrorList{
		field.Invalid(field.NewPath("spec", "nodeSelector").Key("a].b"), "a].b", "bad key"),
		field.Invalid(field.NewPath("spec", "nodeSelector").Key("a].b[0]"), "a].b[0]", "bad key"),
		field.Required(field.NewPath("spec", "nodeSelector").Key("a"), "again"),
	}
	got := d.Locate(errs)
	if len(got) != 2 || got[0].Line != 7 || got[1].Line != 8 {
		t.Errorf("Locate: %v; want the two keys' findings, at lines 7 and 8", got)
	}
}

// A Document answers questions from several goroutines at once: its table of positions is
// indexed when the first comes, once (go test -race holds it).
func TestDocumentQuestionsInParallel(t *testing.T) {
	src := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a}\n" +
		"spec:\n  nodeSelector: {pool: [a]}\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n"
	d := manifest.Parse("t.yaml", []byte(src)).Documents[0]
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if p := d.Position("spec.resources.requests[memory]"); p.Line != 7 {
				t.Errorf("Position: line %d; want 7", p.Line)
			}
			if !d.Refused("spec.nodeSelector[pool]") {
				t.Errorf("Refused(spec.nodeSelector[pool]) = false")
			}
		})
	}
	wg.Wait()
}
