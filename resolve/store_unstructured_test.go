package resolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// u returns an unstructured object as a dynamic informer delivers it: JSON values, so
// numbers are int64 or float64.
func u(obj map[string]any) *unstructured.Unstructured { return &unstructured.Unstructured{Object: obj} }

// unstructuredType returns an InstanceType named name with the given spec.
func unstructuredType(name string, spec map[string]any) *unstructured.Unstructured {
	return u(map[string]any{
		"apiVersion": instancetype.APIVersion,
		"kind":       instancetype.Kind,
		"metadata":   map[string]any{"name": name},
		"spec":       spec,
	})
}

func gpuSpec() map[string]any {
	return map[string]any{
		"nodeSelector": map[string]any{"pool": "gpu"},
		"resources": map[string]any{
			"requests": map[string]any{"cpu": "4", "memory": "16Gi"},
			"limits":   map[string]any{"cpu": int64(8), "memory": "32Gi", "nvidia.com/gpu": int64(2), "amd.com/gpu": nil},
		},
	}
}

func TestStoreUnstructured(t *testing.T) {
	s := NewStore()
	var drops []Drop
	s.SetDropHandler(func(d Drop) { drops = append(drops, d) })

	s.OnAdd(unstructuredType("gpu", gpuSpec()), true)
	it, ok := s.Catalog().Get("gpu")
	if !ok {
		t.Fatalf("OnAdd(unstructured gpu): not in the catalog; drops %v", drops)
	}
	lim := it.Spec.Resources.Limits
	if got := listText(lim); got != "amd.com/gpu=,cpu=8,memory=32Gi,nvidia.com/gpu=2" {
		t.Errorf("OnAdd(unstructured gpu): limits %s; want amd.com/gpu unset, cpu=8, memory=32Gi, nvidia.com/gpu=2", got)
	}
	if lim["amd.com/gpu"].IsSet() || !lim["cpu"].IsValid() {
		t.Errorf("OnAdd(unstructured gpu): null is not unset, or a JSON number is not a valid amount: %+v", lim)
	}
	if it.Spec.NodeSelector["pool"] != "gpu" || it.Spec.Resources.Requests["memory"].String() != "16Gi" {
		t.Errorf("OnAdd(unstructured gpu): got %+v", it.Spec)
	}

	spec := gpuSpec()
	spec["nodeSelector"] = map[string]any{"pool": "gpu2"}
	s.OnUpdate(unstructuredType("gpu", gpuSpec()), unstructuredType("gpu", spec))
	if it, _ := s.Catalog().Get("gpu"); it.Spec.NodeSelector["pool"] != "gpu2" {
		t.Errorf("OnUpdate(unstructured gpu): node selector %v; want pool=gpu2", it.Spec.NodeSelector)
	}

	// A custom defaultinstancetype overrides the built-in one; deleting it, here as a
	// tombstone holding an unstructured object, brings the built-in one back.
	custom := unstructuredType(instancetype.DefaultName, gpuSpec())
	s.OnAdd(custom, false)
	if s.Catalog().IsBuiltIn(instancetype.DefaultName) {
		t.Error("an unstructured defaultinstancetype did not override the built-in one")
	}
	s.OnDelete(deletedFinalStateUnknown{Key: instancetype.DefaultName, Obj: custom})
	if !s.Catalog().IsBuiltIn(instancetype.DefaultName) {
		t.Error("deleting the unstructured defaultinstancetype did not restore the built-in one")
	}

	// Deleting needs the name only: values that would not convert do not keep it.
	broken := unstructuredType("gpu", map[string]any{"resources": map[string]any{"limits": map[string]any{"cpu": true}}})
	s.OnDelete(broken)
	if _, ok := s.Catalog().Get("gpu"); ok {
		t.Error("OnDelete(unstructured gpu with a bad value) did not delete it")
	}
	if len(drops) != 0 || s.Dropped() != 0 {
		t.Errorf("usable events were dropped: %v", drops)
	}
}

// TestStoreDrops feeds each handler objects it cannot use and checks that each is counted
// and reported with its event and reason, and that the catalog is unchanged.
func TestStoreDrops(t *testing.T) {
	gpu := gpuType()
	otherKind := unstructuredType("gpu", gpuSpec())
	otherKind.SetKind("Pod")
	otherVersion := unstructuredType("gpu", gpuSpec())
	otherVersion.SetAPIVersion("amlarc.azureml.com/v1")
	badValue := unstructuredType("gpu", map[string]any{"resources": map[string]any{"limits": map[string]any{"cpu": true}}})
	badShape := unstructuredType("gpu", map[string]any{"nodeSelector": []any{"pool"}})
	tests := []struct {
		name  string
		event string
		obj   any
		want  error
	}{
		{"add nil", EventAdd, nil, ErrNotInstanceType},
		{"add a string", EventAdd, "gpu", ErrNotInstanceType},
		{"add a nil typed pointer", EventAdd, (*instancetype.InstanceType)(nil), ErrNotInstanceType},
		{"add a list", EventAdd, &instancetype.InstanceTypeList{}, ErrNotInstanceType},
		{"add a nameless type", EventAdd, newType("", nil, nil, nil), ErrNoName},
		{"add a nil unstructured", EventAdd, (*unstructured.Unstructured)(nil), ErrNotInstanceType},
		{"add an empty unstructured", EventAdd, u(nil), ErrNotInstanceType},
		{"add another kind", EventAdd, otherKind, ErrNotInstanceType},
		{"add another version", EventAdd, otherVersion, ErrNotInstanceType},
		{"add a bool resource value", EventAdd, badValue, ErrConvert},
		{"add a list node selector", EventAdd, badShape, ErrConvert},
		{"add a nameless unstructured", EventAdd, unstructuredType("", gpuSpec()), ErrNoName},
		{"update to a bool resource value", EventUpdate, badValue, ErrConvert},
		{"update to another kind", EventUpdate, otherKind, ErrNotInstanceType},
		{"update to nil", EventUpdate, nil, ErrNotInstanceType},
		{"delete nil", EventDelete, nil, ErrNotInstanceType},
		{"delete a number", EventDelete, 7, ErrNotInstanceType},
		{"delete another kind", EventDelete, otherKind, ErrNotInstanceType},
		{"delete a nameless type", EventDelete, newType("", nil, nil, nil), ErrNoName},
		{"delete an empty tombstone", EventDelete, deletedFinalStateUnknown{Key: "gpu"}, ErrNotInstanceType},
		{"delete a tombstone of a string", EventDelete, deletedFinalStateUnknown{Key: "gpu", Obj: "gpu"}, ErrNotInstanceType},
		{"delete a tombstone of another kind", EventDelete, &deletedFinalStateUnknown{Key: "gpu", Obj: otherKind}, ErrNotInstanceType},
		{"delete a nil tombstone", EventDelete, (*deletedFinalStateUnknown)(nil), ErrNotInstanceType},
		{"delete a struct without Obj", EventDelete, struct{ obj any }{gpu}, ErrNotInstanceType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(gpu)
			before := s.Catalog()
			var got []Drop
			s.SetDropHandler(func(d Drop) { got = append(got, d) })
			switch tt.event {
			case EventAdd:
				s.OnAdd(tt.obj, false)
			case EventUpdate:
				s.OnUpdate(gpu, tt.obj)
			case EventDelete:
				s.OnDelete(tt.obj)
			}
			if len(got) != 1 || s.Dropped() != 1 {
				t.Fatalf("On%s(%#v): %d drops reported, Dropped() = %d; want 1 and 1", tt.event, tt.obj, len(got), s.Dropped())
			}
			d := got[0]
			if d.Event != tt.event || !errors.Is(d.Err, tt.want) || !reflect.DeepEqual(d.Obj, tt.obj) {
				t.Errorf("On%s(%#v): drop {%s, %v}; want event %s, an error wrapping %v, the object", tt.event, tt.obj, d.Event, d.Err, tt.event, tt.want)
			}
			if s.Catalog() != before {
				t.Errorf("On%s(%#v) changed the catalog", tt.event, tt.obj)
			}
		})
	}
}

// TestStoreDropCountWithoutHandler checks that drops are counted with no handler set, and
// after the handler is removed.
func TestStoreDropCountWithoutHandler(t *testing.T) {
	var s Store
	s.OnAdd("x", false)
	calls := 0
	s.SetDropHandler(func(Drop) { calls++ })
	s.OnDelete("x")
	s.SetDropHandler(nil)
	s.OnUpdate(nil, "x")
	if s.Dropped() != 3 || calls != 1 {
		t.Fatalf("Dropped() = %d, handler called %d times; want 3 and 1", s.Dropped(), calls)
	}
}

// genAmount draws a resource value as an informer's unstructured object holds it: a
// quantity string, a JSON integer, or null.
func genAmount(t *rapid.T, label string) any {
	switch rapid.IntRange(0, 3).Draw(t, label+" form") {
	case 0:
		return rapid.Int64Range(0, 1<<40).Draw(t, label)
	case 1:
		return nil
	}
	return rapid.SampledFrom([]string{"100m", "1", "2", "0.5", "1500Mi", "2Gi", "1e3", "0", "700m", "4G", "2Gx", ""}).Draw(t, label)
}

func genList(t *rapid.T, label string) map[string]any {
	names := rapid.SliceOfDistinct(rapid.SampledFrom([]string{"cpu", "memory", "nvidia.com/gpu", "amd.com/gpu", "cpus"}), rapid.ID[string]).Draw(t, label+" names")
	m := make(map[string]any, len(names))
	for _, n := range names {
		m[n] = genAmount(t, label+"["+n+"]")
	}
	return m
}

// TestStoreUnstructuredMatchesTyped: for generated instance types, an unstructured object
// (what a dynamic informer holds) gives the store the same instance type as the typed
// object decoded from the same JSON values.
func TestStoreUnstructuredMatchesTyped(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.StringMatching(`[a-z]([a-z0-9-]{0,10}[a-z0-9])?`).Draw(t, "name")
		spec := map[string]any{"resources": map[string]any{"requests": genList(t, "requests"), "limits": genList(t, "limits")}}
		if rapid.Bool().Draw(t, "with selector") {
			spec["nodeSelector"] = map[string]any{"pool": rapid.StringMatching(`[a-z]{1,5}`).Draw(t, "pool")}
		}
		obj := unstructuredType(name, spec)

		want := new(instancetype.InstanceType)
		data, err := obj.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, want); err != nil {
			t.Fatalf("decoding %s: %v", data, err)
		}

		s := NewStore()
		s.OnAdd(obj, false)
		got, ok := s.Catalog().Get(name)
		if !ok || s.Dropped() != 0 {
			t.Fatalf("OnAdd(%s): not in the catalog, %d drops", data, s.Dropped())
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("OnAdd(%s): got %+v; want %+v", data, got, want)
		}
		if s.Catalog().Len() != 2 && name != instancetype.DefaultName {
			t.Fatalf("OnAdd(%s): catalog of %d types; want %s and the built-in default", data, s.Catalog().Len(), name)
		}
	})
}

// A Store registered on a client-go dynamic informer is handed *unstructured.Unstructured
// objects; it converts InstanceTypes and reports anything else through the drop handler.
func ExampleStore_SetDropHandler() {
	store := NewStore()
	store.SetDropHandler(func(d Drop) { fmt.Printf("dropped %s: %v\n", d.Event, d.Err) })

	store.OnAdd(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "amlarc.azureml.com/v1alpha1",
		"kind":       "InstanceType",
		"metadata":   map[string]any{"name": "gpu"},
		"spec": map[string]any{"resources": map[string]any{
			"requests": map[string]any{"cpu": "1", "memory": "4Gi"},
			"limits":   map[string]any{"cpu": int64(2), "memory": "8Gi", "nvidia.com/gpu": int64(1)},
		}},
	}}, true)
	store.OnAdd(&unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "gpu"},
	}}, true)

	it, _ := store.Catalog().Get("gpu")
	fmt.Println("gpu limits:", listText(it.Spec.Resources.Limits))
	fmt.Println("dropped:", store.Dropped())
	// Output:
	// dropped add: resolve: not an amlarc.azureml.com/v1alpha1 InstanceType: apiVersion "v1", kind "ConfigMap"
	// gpu limits: cpu=2,memory=8Gi,nvidia.com/gpu=1
	// dropped: 1
}
