package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/amlarc-go/instancetypes/client/webhook"
	"github.com/amlarc-go/instancetypes/resolve"
)

// object is an instance type as a JSON value, to change.
type object = map[string]any

// validObject is a valid instance type, with a finalizer.
func validObject() object {
	var o object
	if err := json.Unmarshal([]byte(`{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType",
		"metadata":{"name":"gpu","finalizers":["example.com/cleanup"]},
		"spec":{"nodeSelector":{"pool":"gpu"},"resources":{
			"requests":{"cpu":"500m","memory":"1Gi"},
			"limits":{"cpu":"1","memory":"2Gi","nvidia.com/gpu":1}}}}`), &o); err != nil {
		panic(err)
	}
	return o
}

func at(o object, keys ...string) object {
	for _, k := range keys {
		o = o[k].(object)
	}
	return o
}

// with returns validObject changed by each change in turn.
func with(changes ...func(object)) object {
	o := validObject()
	for _, c := range changes {
		c(o)
	}
	return o
}

func set(v any, keys ...string) func(object) {
	return func(o object) { at(o, keys[:len(keys)-1]...)[keys[len(keys)-1]] = v }
}

func del(keys ...string) func(object) {
	return func(o object) { delete(at(o, keys[:len(keys)-1]...), keys[len(keys)-1]) }
}

func noFinalizers(o object) { delete(at(o, "metadata"), "finalizers") }

func encode(t testing.TB, o object) []byte {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func update(t *testing.T, h *webhook.Handler, oldObj, newObj []byte) *admissionv1.AdmissionResponse {
	t.Helper()
	return h.Review(context.Background(), &admissionv1.AdmissionRequest{
		UID: "u", Operation: admissionv1.Update, Resource: instanceTypes, Name: "gpu",
		Object: runtime.RawExtension{Raw: newObj}, OldObject: runtime.RawExtension{Raw: oldObj},
	})
}

func causeFields(r *admissionv1.AdmissionResponse) []string {
	var out []string
	if r.Result != nil && r.Result.Details != nil {
		for _, c := range r.Result.Details.Causes {
			out = append(out, c.Field)
		}
	}
	return out
}

// TestRatchet: on UPDATE, a finding whose value is unchanged from the old object, and which
// the old object has too, is a warning; any other finding denies.
func TestRatchet(t *testing.T) {
	badSpec := []func(object){
		set("a b", "spec", "nodeSelector", "pool"),          // not a label value
		set("0", "spec", "resources", "requests", "cpu"),    // zero
		del("spec", "resources", "limits", "memory"),        // required, missing
		set(int64(1), "spec", "resources", "requests", "x"), // unknown resource name
	}
	invalidOld := with(badSpec...)
	tests := []struct {
		name        string
		old, new    object
		allowed     bool
		denyAt      []string // the causes, when denied
		warnedCount int      // the findings kept as warnings
	}{
		{
			// The case that matters most: an object stored invalid (before the webhook or a
			// rule existed) can lose its finalizer, and so be deleted.
			name: "finalizer removed from an invalid object", old: invalidOld,
			new: with(append(slices.Clip(badSpec), noFinalizers)...), allowed: true, warnedCount: 4,
		},
		{
			name: "label added to an invalid object", old: invalidOld,
			new: with(append(slices.Clip(badSpec), set(object{"team": "ml"}, "metadata", "labels"))...), allowed: true, warnedCount: 4,
		},
		{
			name: "one finding fixed, the others kept", old: invalidOld,
			new: with(append(slices.Clip(badSpec), set("gpu", "spec", "nodeSelector", "pool"))...), allowed: true, warnedCount: 3,
		},
		{
			// The same finding (type, path and detail: "must be greater than zero") at a
			// changed value: denied.
			name: "an invalid value changed to another invalid value", old: invalidOld,
			new:    with(append(slices.Clip(badSpec), set("-1", "spec", "resources", "requests", "cpu"))...),
			denyAt: []string{"spec.resources.requests[cpu]"}, warnedCount: 3,
		},
		{
			name: "a new invalid value beside the unchanged ones", old: invalidOld,
			new:    with(append(slices.Clip(badSpec), set(object{"a b": "c"}, "metadata", "labels"))...),
			denyAt: []string{"metadata.labels[a b]"}, warnedCount: 4,
		},
		{
			name: "a new invalid value in a valid object", old: validObject(),
			new:    with(set("2Gx", "spec", "resources", "limits", "memory")),
			denyAt: []string{"spec.resources.limits[memory]"},
		},
		{
			// The request is unchanged, but its finding is new: it names the new limit.
			name:   "a limit lowered below an unchanged request",
			old:    with(set("3", "spec", "resources", "requests", "cpu"), set("2", "spec", "resources", "limits", "cpu")),
			new:    with(set("3", "spec", "resources", "requests", "cpu"), set("1", "spec", "resources", "limits", "cpu")),
			denyAt: []string{"spec.resources.requests[cpu]"},
		},
		{
			// A GPU in requests is forbidden with the same detail whatever its count.
			name:   "a forbidden value changed",
			old:    with(set(int64(1), "spec", "resources", "requests", "nvidia.com/gpu")),
			new:    with(set(int64(2), "spec", "resources", "requests", "nvidia.com/gpu")),
			denyAt: []string{"spec.resources.requests[nvidia.com/gpu]"},
		},
		{
			// Two values of the same text: equal JSON.
			name: "a number written again as the same number",
			old:  with(set(1.5, "spec", "resources", "limits", "nvidia.com/gpu")),
			new:  with(set(1.5, "spec", "resources", "limits", "nvidia.com/gpu"), noFinalizers), allowed: true, warnedCount: 1,
		},
		{
			// "1.5" and 1.5 read as the same quantity, but the value is not the same JSON.
			name:   "a number written as a string",
			old:    with(set(1.5, "spec", "resources", "limits", "nvidia.com/gpu")),
			new:    with(set("1.5", "spec", "resources", "limits", "nvidia.com/gpu")),
			denyAt: []string{"spec.resources.limits[nvidia.com/gpu]"},
		},
		{
			name: "an unknown field kept", old: with(set(int64(1), "spec", "extra")),
			new: with(set(int64(1), "spec", "extra"), noFinalizers), allowed: true, warnedCount: 1,
		},
		{
			name: "an unknown field changed", old: with(set(int64(1), "spec", "extra")),
			new: with(set(int64(2), "spec", "extra")), denyAt: []string{"spec.extra"},
		},
		{
			// spec.a.b names two places: the field "a.b" of spec and the field b of spec.a.
			// Such a path is never unchanged; spec.a is.
			name:   "a path that names two places",
			old:    with(set(int64(1), "spec", "a.b"), set(object{"b": int64(2)}, "spec", "a")),
			new:    with(set(int64(1), "spec", "a.b"), set(object{"b": int64(2)}, "spec", "a"), noFinalizers),
			denyAt: []string{"spec.a.b"}, warnedCount: 1,
		},
		{
			name: "no old object", old: nil, new: invalidOld,
			denyAt: []string{"spec.nodeSelector[pool]", "spec.resources.limits[memory]", "spec.resources.requests[x]", "spec.resources.requests[cpu]"},
		},
	}
	h := &webhook.Handler{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var oldRaw []byte
			if tt.old != nil {
				oldRaw = encode(t, tt.old)
			}
			r := update(t, h, oldRaw, encode(t, tt.new))
			allowed := tt.denyAt == nil
			if r.Allowed != allowed {
				t.Fatalf("allowed = %v (%+v); want %v", r.Allowed, r.Result, allowed)
			}
			if !allowed {
				if r.Result.Reason != metav1.StatusReasonInvalid {
					t.Fatalf("reason %s (%s); want Invalid", r.Result.Reason, r.Result.Message)
				}
				got := causeFields(r)
				slices.Sort(got)
				want := slices.Sorted(slices.Values(tt.denyAt))
				if !slices.Equal(got, want) {
					t.Errorf("denied at %q; want %q", got, want)
				}
			}
			checkRatchetWarnings(t, r.Warnings, tt.warnedCount)
		})
	}
}

// checkRatchetWarnings checks that warnings report n findings kept by ratcheting: a line
// that counts them, then one per finding (there are fewer than nine here).
func checkRatchetWarnings(t *testing.T, warnings []string, n int) {
	t.Helper()
	checkWarningBounds(t, warnings)
	if n == 0 {
		if len(warnings) != 0 {
			t.Errorf("warnings %q; want none", warnings)
		}
		return
	}
	if len(warnings) != n+1 || !strings.HasPrefix(warnings[0], fmt.Sprint(n, " finding")) {
		t.Errorf("warnings %q; want a count of %d, then each", warnings, n)
	}
	for _, w := range warnings[1:] {
		if !strings.HasPrefix(w, "unchanged: spec.") {
			t.Errorf("warning %q; want it to name the unchanged finding", w)
		}
	}
}

func checkWarningBounds(t *testing.T, warnings []string) {
	t.Helper()
	if len(warnings) > webhook.MaxWarnings {
		t.Errorf("%d warnings; want at most %d", len(warnings), webhook.MaxWarnings)
	}
	for _, w := range warnings {
		if utf8.RuneCountInString(w) > webhook.MaxWarningRunes || !utf8.ValidString(w) || strings.ContainsFunc(w, unicode.IsControl) {
			t.Errorf("warning %q: %d characters, or not valid UTF-8, or a control character", w, utf8.RuneCountInString(w))
		}
	}
}

// TestRatchetMany: 8,000 unchanged bad keys are admitted with a bounded list of warnings;
// the same number of new bad keys is denied with a bounded Status.
func TestRatchetMany(t *testing.T) {
	const n = 8000
	sel := object{}
	for i := range n {
		sel[fmt.Sprintf("bad key %d\n", i)] = "v"
	}
	bad := encode(t, with(set(sel, "spec", "nodeSelector")))
	h := &webhook.Handler{}
	r := update(t, h, bad, encode(t, with(set(sel, "spec", "nodeSelector"), noFinalizers)))
	if !r.Allowed {
		t.Fatalf("denied: %.300s", r.Result.Message)
	}
	checkWarningBounds(t, r.Warnings)
	// n+1 findings: one for each key, and one for more entries than the CRD allows.
	if len(r.Warnings) != webhook.MaxWarnings-1 || !strings.HasPrefix(r.Warnings[0], "8001 findings") ||
		!strings.HasPrefix(r.Warnings[len(r.Warnings)-1], fmt.Sprintf("and %d more", n+1-(webhook.MaxWarnings-3))) {
		t.Errorf("warnings %q; want a count, %d findings, and how many more", r.Warnings, webhook.MaxWarnings-3)
	}
	r = update(t, h, encode(t, validObject()), bad)
	if r.Allowed || len(r.Result.Details.Causes) != webhook.MaxCauses+1 {
		t.Fatalf("new bad keys: allowed %v, %d causes", r.Allowed, len(r.Result.Details.Causes))
	}
}

// TestRatchetOnlyOnUpdate: a CREATE with an oldObject (which the API server never sends)
// ratchets nothing.
func TestRatchetOnlyOnUpdate(t *testing.T) {
	bad := encode(t, with(set("0", "spec", "resources", "requests", "cpu")))
	r := (&webhook.Handler{}).Review(context.Background(), &admissionv1.AdmissionRequest{
		Operation: admissionv1.Create, Resource: instanceTypes,
		Object: runtime.RawExtension{Raw: bad}, OldObject: runtime.RawExtension{Raw: bad},
	})
	if r.Allowed {
		t.Fatal("a CREATE was ratcheted")
	}
}

// TestRatchetOldObjectNotAnInstanceType: an old object that cannot be read ratchets nothing.
func TestRatchetOldObjectNotAnInstanceType(t *testing.T) {
	bad := encode(t, with(set("0", "spec", "resources", "requests", "cpu")))
	for _, old := range []string{`{`, `"gpu"`, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"gpu"}}`} {
		if r := update(t, &webhook.Handler{}, []byte(old), bad); r.Allowed {
			t.Errorf("old object %s: the update was ratcheted", old)
		}
	}
}

// TestRatchetOptions: findings that come from the extension's selector ratchet too, as
// long as the old object has them under the same options.
func TestRatchetOptions(t *testing.T) {
	h := &webhook.Handler{Options: resolve.Options{NodeSelector: map[string]string{"pool": "cpu"}}}
	o := encode(t, validObject())
	r := update(t, h, o, encode(t, with(noFinalizers)))
	if !r.Allowed || len(r.Warnings) != 2 {
		t.Fatalf("allowed %v, warnings %q; want allowed with the pool=gpu finding as a warning", r.Allowed, r.Warnings)
	}
}

// TestWarningDefaultOverride: an instance type named defaultinstancetype is admitted with
// a warning that it overrides the built-in one.
func TestWarningDefaultOverride(t *testing.T) {
	o := encode(t, with(set("defaultinstancetype", "metadata", "name")))
	r := (&webhook.Handler{}).Review(context.Background(), &admissionv1.AdmissionRequest{
		Operation: admissionv1.Create, Resource: instanceTypes, Object: runtime.RawExtension{Raw: o},
	})
	if !r.Allowed || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "overrides the built-in defaultinstancetype") {
		t.Fatalf("allowed %v, warnings %q", r.Allowed, r.Warnings)
	}
	checkWarningBounds(t, r.Warnings)
}

// TestRatchetSameValueOtherText: a value is unchanged when it is the same JSON written
// otherwise (spacing, key order, escapes); the same text with another value is changed.
func TestRatchetSameValueOtherText(t *testing.T) {
	const old = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu","finalizers":["f"]},
		"spec":{"nodeSelector":{"pool":"a b"},"extra":{"x":1,"y":[true,null]},"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}}`
	const same = `{"kind":"InstanceType","apiVersion":"amlarc.azureml.com/v1alpha1","metadata":{"name":"gpu"},
		"spec":{ "extra" : { "y" : [ true , null ], "x" : 1 }, "nodeSelector":{"pool":"a\u0020b"},"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}}`
	const changed = `{"kind":"InstanceType","apiVersion":"amlarc.azureml.com/v1alpha1","metadata":{"name":"gpu"},
		"spec":{"extra":{"x":1.0,"y":[true,null]},"nodeSelector":{"pool":"a\u0020b"},"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi"}}}}`
	h := &webhook.Handler{}
	if r := update(t, h, []byte(old), []byte(same)); !r.Allowed {
		t.Errorf("the same values written otherwise: denied: %s", r.Result.Message)
	} else {
		checkRatchetWarnings(t, r.Warnings, 2)
	}
	r := update(t, h, []byte(old), []byte(changed))
	if r.Allowed || !slices.Equal(causeFields(r), []string{"spec.extra"}) {
		t.Errorf("1 written as 1.0 (another JSON value, as encoding/json reads it): allowed %v, %v; want spec.extra denied", r.Allowed, r.Result)
	}
}
