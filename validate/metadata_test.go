package validate_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// metadataFields returns the metadata fields (name, annotations, finalizers, ...) that
// errs, of an object at the document's root, have findings about.
func metadataFields(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		rest, ok := strings.CutPrefix(e.Field, "metadata.")
		if !ok {
			continue
		}
		if i := strings.IndexAny(rest, ".["); i >= 0 {
			rest = rest[:i]
		}
		out = append(out, rest)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// apimachineryMetadata is what the API server refuses in the metadata of a cluster-scoped
// custom resource it creates: apimachinery's ValidateObjectMeta, as apiextensions-apiserver
// calls it (NameIsDNSSubdomain, no namespace), on the metadata as the API server has
// prepared it by then: namespace cleared, generation 1, managed fields its own (the
// client module's differential test shows a real API server doing so).
func apimachineryMetadata(m *metav1.ObjectMeta) field.ErrorList {
	prepared := m.DeepCopy()
	prepared.Namespace, prepared.Generation, prepared.ManagedFields = "", 1, nil
	return apivalidation.ValidateObjectMeta(prepared, false, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
}

// Pools of metadata values, good and bad.
var (
	metaNames          = []string{"gpu", "a.b", "Tiny_Type", "x-", strings.Repeat("n", 254)}
	metaGenerateNames  = []string{"", "gpu-", "gpu", "a.", "-", "a-", "Gpu-", "gpu.-", strings.Repeat("g", 253) + "-", strings.Repeat("g", 254) + "-", "a_b-"}
	metaLabelKeys      = []string{"team", "example.com/team", "a b", "Example.com/team", "-x"}
	metaLabelValues    = []string{"ml", "", "a b", strings.Repeat("v", 64)}
	metaAnnotationKeys = []string{"note", "example.com/note", "Example.com/note", "EXAMPLE.COM/Note", "a b", "example.com/", "/x", strings.Repeat("k", 64), "kubectl.kubernetes.io/last-applied-configuration", "İ.com/x"}
	metaFinalizers     = []string{"example.com/cleanup", "kubernetes", "orphan", "foregroundDeletion", "a b", "Example.com/x", "example.com/", strings.Repeat("f", 64)}
	metaAPIVersions    = []string{"v1", "apps/v1", "", "a/b/c", "apps/", "/v1"}
	metaKinds          = []string{"Deployment", "Event", ""}
	metaOperations     = []metav1.ManagedFieldsOperationType{"Apply", "Update", "", "Patch"}
	metaManagers       = []string{"kubectl", "", "bad\tmanager", strings.Repeat("m", 129)}
)

// pick draws from pool: its first element three times in four, else any element (the
// pools put a good value first), so that a draw breaks few fields.
func pick[T any](t *rapid.T, label string, pool []T) T {
	if rapid.IntRange(0, 3).Draw(t, label+" good") > 0 {
		return pool[0]
	}
	return rapid.SampledFrom(pool).Draw(t, label)
}

// genObjectMeta draws metadata that is valid in most fields and breaks one or a few.
func genObjectMeta(t *rapid.T) metav1.ObjectMeta {
	m := metav1.ObjectMeta{
		Name:         pick(t, "name", metaNames),
		GenerateName: pick(t, "generateName", metaGenerateNames),
		Generation:   pick(t, "generation", []int64{0, 3, -1}),
	}
	if rapid.Bool().Draw(t, "labels") {
		m.Labels = map[string]string{pick(t, "label key", metaLabelKeys): pick(t, "label value", metaLabelValues)}
	}
	if rapid.Bool().Draw(t, "annotations") {
		m.Annotations = map[string]string{}
		for i := range rapid.IntRange(1, 3).Draw(t, "annotation count") {
			m.Annotations[pick(t, fmt.Sprint("annotation key ", i), metaAnnotationKeys)] = "v"
		}
		// Near the total size limit, on either side of it.
		if big := rapid.IntRange(0, 7).Draw(t, "big annotation"); big > 4 {
			m.Annotations["big"] = strings.Repeat("x", 256<<10-(len("big")+2+big-5))
		}
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "finalizers") {
		m.Finalizers = append(m.Finalizers, pick(t, fmt.Sprint("finalizer ", i), metaFinalizers))
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "owner references") {
		m.OwnerReferences = append(m.OwnerReferences, metav1.OwnerReference{
			APIVersion: pick(t, fmt.Sprint("owner apiVersion ", i), metaAPIVersions),
			Kind:       pick(t, fmt.Sprint("owner kind ", i), metaKinds),
			Name:       pick(t, fmt.Sprint("owner name ", i), []string{"owner", ""}),
			UID:        "1",
			Controller: new(rapid.Bool().Draw(t, fmt.Sprint("owner controller ", i))),
		})
	}
	for i := range rapid.IntRange(0, 2).Draw(t, "managed fields") {
		m.ManagedFields = append(m.ManagedFields, metav1.ManagedFieldsEntry{
			Manager:     pick(t, fmt.Sprint("manager ", i), metaManagers),
			Operation:   pick(t, fmt.Sprint("operation ", i), metaOperations),
			FieldsType:  pick(t, fmt.Sprint("fields type ", i), []string{"FieldsV1", "", "FieldsV2"}),
			Subresource: pick(t, fmt.Sprint("subresource ", i), []string{"", "status", strings.Repeat("s", 257)}),
		})
	}
	return m
}

// TestObjectMetaAgreesWithApimachinery: on generated metadata, package validate refuses
// exactly what apimachinery's ValidateObjectMeta refuses (what the API server refuses in
// an InstanceType's metadata), and in the same fields.
func TestObjectMetaAgreesWithApimachinery(t *testing.T) {
	valid, invalid := 0, 0
	rapid.Check(t, func(t *rapid.T) {
		it := seedType()
		it.ObjectMeta = genObjectMeta(t)
		ours := metadataFields(validate.InstanceType(it, nil, resolve.Options{}))
		theirs := metadataFields(apimachineryMetadata(&it.ObjectMeta))
		if !slices.Equal(ours, theirs) {
			t.Fatalf("package validate has findings about metadata fields %q; apimachinery about %q\nours: %v\ntheirs: %v",
				ours, theirs, validate.InstanceType(it, nil, resolve.Options{}), apimachineryMetadata(&it.ObjectMeta))
		}
		if len(ours) == 0 {
			valid++
		} else {
			invalid++
		}
	})
	if valid == 0 || invalid == 0 {
		t.Errorf("generated %d valid and %d invalid metadata; want some of each", valid, invalid)
	}
}

// TestObjectMetaFindings: one change to valid metadata, one finding, with the key or index
// in its path.
func TestObjectMetaFindings(t *testing.T) {
	tests := []struct {
		name   string
		change func(m *metav1.ObjectMeta)
		want   []finding
	}{
		{"annotation key with a space", func(m *metav1.ObjectMeta) { m.Annotations = map[string]string{"a b": "c"} }, []finding{invalid("metadata.annotations[a b]")}},
		{"annotation key with an upper-case prefix", func(m *metav1.ObjectMeta) { m.Annotations = map[string]string{"Example.com/x": "c"} }, nil},
		{"annotations too large", func(m *metav1.ObjectMeta) {
			m.Annotations = map[string]string{"a": strings.Repeat("x", 256<<10)}
		}, []finding{{field.ErrorTypeTooLong, "metadata.annotations"}}},
		{"annotations at the limit", func(m *metav1.ObjectMeta) {
			m.Annotations = map[string]string{"a": strings.Repeat("x", 256<<10-1)}
		}, nil},
		{"finalizer", func(m *metav1.ObjectMeta) { m.Finalizers = []string{"example.com/ok", "a b"} }, []finding{invalid("metadata.finalizers[1]")}},
		{"orphan and foreground", func(m *metav1.ObjectMeta) { m.Finalizers = []string{"orphan", "foregroundDeletion"} }, []finding{invalid("metadata.finalizers")}},
		{"generateName", func(m *metav1.ObjectMeta) { m.GenerateName = "GPU-" }, []finding{invalid("metadata.generateName")}},
		{"generateName ending in a dash", func(m *metav1.ObjectMeta) { m.GenerateName = "gpu-" }, nil},
		{"negative generation: set by the API server", func(m *metav1.ObjectMeta) { m.Generation = -1 }, nil},
		{"owner without uid", func(m *metav1.ObjectMeta) {
			m.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "c"}}
		}, []finding{required("metadata.ownerReferences[0].uid")}},
		{"managed fields: set by the API server", func(m *metav1.ObjectMeta) {
			m.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "a\x00", Operation: "Patch"}}
		}, nil},
		{"namespace: cleared by the API server, not refused", func(m *metav1.ObjectMeta) { m.Namespace = "default" }, nil},
		{"resourceVersion: what kubectl get prints", func(m *metav1.ObjectMeta) { m.ResourceVersion = "42" }, nil},
	}
	for _, tt := range tests {
		it := seedType()
		tt.change(&it.ObjectMeta)
		if got := findings(validate.InstanceType(it, nil, resolve.Options{})); !equalFindings(got, tt.want) {
			t.Errorf("%s: %v; want %v", tt.name, got, tt.want)
		}
	}
}

// TestObjectMetaAllocs: valid metadata with every field the check reads validates
// without allocating.
func TestObjectMetaAllocs(t *testing.T) {
	it := seedType()
	it.GenerateName = "gpu-"
	it.Generation = 2
	it.Labels = map[string]string{"team": "ml", "example.com/tier": "gold"}
	it.Annotations = map[string]string{"example.com/note": "hello", "note": ""}
	it.Finalizers = []string{"example.com/cleanup"}
	it.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "1", Controller: new(true)}}
	it.ManagedFields = []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: "Apply", FieldsType: "FieldsV1"}}
	if errs := validate.InstanceType(it, nil, resolve.Options{}); len(errs) != 0 {
		t.Fatalf("InstanceType = %v; want no findings", errs)
	}
	if errs := apimachineryMetadata(&it.ObjectMeta); len(errs) != 0 {
		t.Fatalf("apimachinery finds %v", errs)
	}
	if n := testing.AllocsPerRun(100, func() { sinkErrs = validate.InstanceType(it, nil, resolve.Options{}) }); n != 0 {
		t.Errorf("InstanceType with full metadata makes %v allocations per run; want 0", n)
	}
}
