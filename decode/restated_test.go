package decode

import (
	"maps"
	"slices"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/source"
)

// kept returns which of paths WithoutRestated keeps, a finding of validation at each,
// beside the findings of decoding decoded.
func kept(decoded field.ErrorList, paths []string) map[string]bool {
	var errs field.ErrorList
	for _, p := range paths {
		errs = append(errs, &field.Error{Type: field.ErrorTypeRequired, Field: p})
	}
	out := map[string]bool{}
	for _, e := range WithoutRestated(decoded, errs, nil) {
		out[e.Field] = true
	}
	return out
}

// One mistake, one finding: a finding of validation at or below a value that decoding
// refused says the same mistake again, and is left out; one beside it is kept. A
// bracketed key holding dots or slashes is one step of a path.
func TestWithoutRestated(t *testing.T) {
	_, errs := instanceTypeOf(t, head+`metadata:
  name: 7
  generation: soon
  labels: [x]
spec:
  nodeSelector: {a: yes, b: ok, example.com/pool: [a]}
  resources:
    requests: {cpu: [1], memory: true}
    limits: [1]
`)
	restated := map[string]bool{
		"metadata.name":                          true,
		"metadata.generation":                    true,
		"metadata.labels":                        true,
		"metadata.labels[team]":                  true,
		"spec.nodeSelector[a]":                   true,
		"spec.nodeSelector[example.com/pool]":    true,
		"spec.nodeSelector[example.com/pool][0]": true,
		"spec.nodeSelector[example.com/pool].x":  true,
		"spec.resources.requests[cpu]":           true,
		"spec.resources.requests[memory]":        true,
		"spec.resources.limits":                  true,
		"spec.resources.limits[cpu]":             true,
		"spec.resources.limits[nvidia.com/gpu]":  true,
		"spec.resources.limits[0].x":             true,
		"metadata":                               false,
		"spec.nodeSelector[b]":                   false,
		"spec.nodeSelector[example.com/pool2]":   false,
		"spec.nodeSelector[example":              false,
		"spec.nodeSelector":                      false,
		"spec.resources":                         false,
		"spec.resources.limitsX":                 false,
		"spec.resources.requests":                false,
		"spec":                                   false,
		"":                                       false,
	}
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range restated {
			if !yield(p) {
				return
			}
		}
	})
	got := kept(errs, paths)
	for _, p := range paths {
		if got[p] == restated[p] {
			t.Errorf("WithoutRestated: a finding at %q kept %v; want %v", p, got[p], !restated[p])
		}
	}
}

// A map key may hold "]" and ".": its path's text then starts with the text of a sibling's
// path. A refused sibling does not hide the key's findings. (A key that holds "[" too,
// a].b[0], is a path the text cannot tell from one below its sibling.)
func TestRestatedSiblingWithBrackets(t *testing.T) {
	_, errs := instanceTypeOf(t, head+"metadata: {name: a}\nspec:\n  nodeSelector:\n    a: [1]\n    \"a].b\": v\n")
	p := field.NewPath("spec", "nodeSelector")
	got := kept(errs, []string{p.Key("a].b").String(), p.Key("a").String(), p.Key("a").Index(0).String(), p.Key("a").Child("b").String()})
	if want := map[string]bool{p.Key("a].b").String(): true}; !maps.Equal(got, want) {
		t.Errorf("WithoutRestated kept %v; want %v", got, want)
	}
}

// A document answers questions of position from several goroutines at once: its tree is
// parsed once, when the first comes (go test -race holds it).
func TestPositionsInParallel(t *testing.T) {
	var doc *source.Document
	source.Scan([]byte(head+"metadata: {name: a}\nspec:\n  nodeSelector: {pool: [a]}\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n"),
		source.Options{}, func(d *source.Document) bool { doc = d; return false })
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if p := doc.PositionOf("spec.resources.requests[memory]"); p.Line != 7 {
				t.Errorf("PositionOf: line %d; want 7", p.Line)
			}
			if dups, _ := Duplicates(doc); len(dups) != 0 {
				t.Errorf("Duplicates: %v", dups)
			}
		})
	}
	wg.Wait()
}
