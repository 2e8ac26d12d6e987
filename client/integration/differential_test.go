package integration_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/client/webhook"
)

// The differential tests: on table cases (a valid instance type plus one change, one per
// rule of validate/doc.go) and on generated instance types, the API server and package
// validate agree on accept or reject. "Package validate" is what the CLI and the webhook
// run: strict decoding with package manifest, then validate.InstanceType.
//
// Two API servers are compared: crdEnv (the generated CRD's schema and CEL rules) and
// policyEnv (a schemaless CRD with the ValidatingAdmissionPolicy bound). Where one of
// them cannot express a rule, the case says so (crdDiffers, policyDiffers), and the test
// checks that they do differ there, so that the list of differences in the README stays
// true: a difference that goes away fails the test too.

// validJSON is a valid instance type named name.
func validJSON(name string) string {
	return `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"` + name + `"},` +
		`"spec":{"nodeSelector":{"pool":"gpu"},"resources":{` +
		`"requests":{"cpu":"500m","memory":"1Gi"},` +
		`"limits":{"cpu":"1","memory":"2Gi","nvidia.com/gpu":1}}}}`
}

// object is an instance type as a JSON value, to change.
type object = map[string]any

func valid(name string) object {
	var m object
	if err := json.Unmarshal([]byte(validJSON(name)), &m); err != nil {
		panic(err)
	}
	return m
}

func spec(o object) object      { return o["spec"].(object) }
func resources(o object) object { return spec(o)["resources"].(object) }
func requests(o object) object  { return resources(o)["requests"].(object) }
func limits(o object) object    { return resources(o)["limits"].(object) }

type diffCase struct {
	name   string
	change func(o object) // applied to valid(name)
	raw    string         // instead of change: the request body as is
	// real sends the case as a real create, not a dry run: for what only storing refuses.
	real bool
	// crdDiffers and policyDiffers say why the CRD or the policy cannot agree with package
	// validate on this case ("" where they agree).
	crdDiffers, policyDiffers string
}

// Documented differences (the client module's README lists them).
const (
	nullPruned  = "null where the CRD's schema prunes it before its rules run (under a name that is no resource name: cpus, Nvidia.com/gpu; as a node selector value)"
	unknownKept = "unknown fields: a schemaless CRD keeps them, and the policy has no rule about them"
	generated   = "generateName without a name: the API server makes a name up; package validate wants the name workloads write (R1)"
	createOnly  = "resourceVersion: the API server refuses it on a create and wants it on an update; package validate cannot tell which, and reads kubectl get -o yaml"
)

// manyLimits sets n extended resources example.com/rI to v in the limits.
func manyLimits(n int, v any) func(object) {
	return func(o object) {
		for i := range n {
			limits(o)[fmt.Sprintf("example.com/r%d", i)] = v
		}
	}
}

// selectorOf sets a node selector of n entries.
func selectorOf(n int) func(object) {
	return func(o object) {
		sel := object{}
		for i := range n {
			sel[fmt.Sprintf("l%d", i)] = "v"
		}
		spec(o)["nodeSelector"] = sel
	}
}

func meta(o object) object { return o["metadata"].(object) }

func setIn(get func(object) object, key string, v any) func(object) {
	return func(o object) { get(o)[key] = v }
}
func deleteIn(get func(object) object, key string) func(object) {
	return func(o object) { delete(get(o), key) }
}

var diffCases = []diffCase{
	{name: "valid", change: func(object) {}},
	{name: "valid-numbers", change: func(o object) { limits(o)["cpu"] = 2; requests(o)["cpu"] = 1; limits(o)["memory"] = 3000000000 }},
	{name: "valid-equal", change: func(o object) { requests(o)["cpu"] = "1"; requests(o)["memory"] = "2Gi" }},
	{name: "valid-null-gpu", change: setIn(limits, "nvidia.com/gpu", nil)},
	{name: "valid-no-gpu", change: deleteIn(limits, "nvidia.com/gpu")},
	{name: "valid-gpu-0", change: setIn(limits, "nvidia.com/gpu", 0)},
	{name: "valid-gpu-1k", change: setIn(limits, "nvidia.com/gpu", "1k")},
	{name: "valid-amd-gpu", change: setIn(limits, "amd.com/gpu", "2")},
	{name: "valid-null-gpu-request", change: setIn(requests, "nvidia.com/gpu", nil)},
	{name: "valid-no-selector", change: deleteIn(spec, "nodeSelector")},
	{name: "valid-empty-label-value", change: setIn(spec, "nodeSelector", object{"pool": ""})},
	{name: "valid-prefixed-label", change: setIn(spec, "nodeSelector", object{"example.com/pool": "gpu"})},
	{name: "valid-exponent", change: setIn(limits, "memory", "2e9")},
	{name: "valid-cpu-fraction", change: setIn(requests, "cpu", "0.5")},
	{name: "cpu-fraction-number", change: setIn(requests, "cpu", 0.5)},
	{name: "valid-cpu-whole-float", change: setIn(limits, "cpu", 2.0)}, // json.Marshal writes 2, as kubectl does
	{name: "cpu-float-beyond-int64", change: setIn(limits, "cpu", 1e21)},
	{name: "cpu-integer-beyond-int64", raw: strings.Replace(validJSON("cpu-integer-beyond-int64"), `"cpu":"1"`, `"cpu":9223372036854775808`, 1)},
	{name: "valid-cpu-max-int64", raw: strings.Replace(strings.Replace(validJSON("valid-cpu-max-int64"), `"cpu":"1"`, `"cpu":9223372036854775807`, 1), `"memory":"2Gi"`, `"memory":"9223372036854775807"`, 1)},
	{name: "gpu-fraction-float", change: setIn(limits, "nvidia.com/gpu", 2.5)},

	{name: "valid-gpu-milli", change: setIn(limits, "nvidia.com/gpu", "1000m")},
	{name: "valid-gpu-decimal-point", change: setIn(limits, "nvidia.com/gpu", "1.0")},
	{name: "valid-gpu-negative-exponent", change: setIn(limits, "nvidia.com/gpu", "10e-1")},
	{name: "valid-gpu-nano", change: setIn(limits, "nvidia.com/gpu", "2000000000n")},
	{name: "valid-gpu-binary-fraction", change: setIn(limits, "nvidia.com/gpu", "1.5Ki")},
	{name: "valid-gpu-million-milli", change: setIn(limits, "nvidia.com/gpu", "1000000000m")},
	{name: "valid-sixteen-resources", change: manyLimits(13, 1)},
	{name: "valid-sixteen-resources-and-nulls", change: func(o object) {
		manyLimits(13, 1)(o)
		for i := range 4 {
			limits(o)[fmt.Sprintf("example.com/null%d", i)] = nil
		}
	}},
	{name: "valid-64-labels", change: selectorOf(64)},
	{name: "valid-value-of-64-bytes", change: setIn(limits, "nvidia.com/gpu", "1."+strings.Repeat("0", 62))},
	{name: "valid-exponent-of-3-digits", change: setIn(limits, "memory", "2e+009")},
	{name: "valid-max-int64", change: func(o object) { limits(o)["memory"] = "9223372036854775807"; limits(o)["cpu"] = "9223372036854775807" }},
	{name: "valid-significant-digits", change: setIn(limits, "memory", "12345678901.5")},
	{name: "valid-nine-fraction-digits", change: setIn(limits, "memory", "9223372036.854775807")},
	{name: "valid-gpu-huge-whole", change: setIn(limits, "nvidia.com/gpu", "9.2e18")},
	{name: "valid-gpu-huge-whole-milli", change: setIn(limits, "nvidia.com/gpu", "9000000000000000000000m")},
	{name: "valid-gpu-binary-whole", change: setIn(limits, "nvidia.com/gpu", "0.5Ki")},
	{name: "valid-annotations", change: setIn(meta, "annotations", object{"example.com/note": "x", "Example.com/Upper": "y", "note": ""})},
	{name: "valid-finalizers", change: setIn(meta, "finalizers", []any{"example.com/cleanup", "kubernetes"})},
	{name: "valid-generate-name", change: setIn(meta, "generateName", "gpu-")},
	{name: "valid-namespace-cleared", change: setIn(meta, "namespace", "default")},
	{name: "valid-labels", change: setIn(meta, "labels", object{"team": "ml", "example.com/tier": ""})},

	{name: "bad-name", change: func(o object) { o["metadata"].(object)["name"] = "Tiny_Type" }},
	{name: "bad-annotation-key", change: setIn(meta, "annotations", object{"a b": "c"})},
	{name: "bad-annotation-prefix", change: setIn(meta, "annotations", object{"example..com/x": "c"})},
	{name: "annotations-too-large", change: setIn(meta, "annotations", object{"a": strings.Repeat("x", 256<<10)})},
	{name: "bad-label-value-in-metadata", change: setIn(meta, "labels", object{"team": strings.Repeat("x", 64)})},
	{name: "bad-finalizer", change: setIn(meta, "finalizers", []any{"a b"})},
	{name: "orphan-and-foreground", change: setIn(meta, "finalizers", []any{"orphan", "foregroundDeletion"})},
	{name: "bad-generate-name", change: setIn(meta, "generateName", "Bad_")},
	{name: "generate-name-only", change: func(o object) { delete(meta(o), "name"); meta(o)["generateName"] = "gpu-" }, crdDiffers: generated, policyDiffers: generated},
	{name: "owner-without-uid", change: setIn(meta, "ownerReferences", []any{object{"apiVersion": "v1", "kind": "ConfigMap", "name": "c"}})},
	{name: "two-controllers", change: setIn(meta, "ownerReferences", []any{
		object{"apiVersion": "v1", "kind": "ConfigMap", "name": "a", "uid": "1", "controller": true},
		object{"apiVersion": "v1", "kind": "ConfigMap", "name": "b", "uid": "2", "controller": true}})},
	{name: "resource-version-on-create", change: setIn(meta, "resourceVersion", "42"), real: true, crdDiffers: createOnly, policyDiffers: createOnly},
	{name: "negative-generation", change: setIn(meta, "generation", -1)},
	{name: "bad-managed-fields", change: setIn(meta, "managedFields", []any{object{"manager": "m", "operation": "Patch", "fieldsType": "FieldsV1", "fieldsV1": object{}}})},
	{name: "long-field-manager", change: setIn(meta, "managedFields", []any{object{"manager": strings.Repeat("m", 129), "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": object{}}})},
	{name: "valid-gpu-over-a-million-milli", change: setIn(limits, "nvidia.com/gpu", "2000000000m")},
	{name: "gpu-huge-fraction", change: setIn(limits, "nvidia.com/gpu", "9000000000000000000.5")},
	{name: "gpu-huge-fraction-milli", change: setIn(limits, "nvidia.com/gpu", "9000000000000000000001m")},
	{name: "gpu-binary-fraction-over-a-million", change: setIn(limits, "nvidia.com/gpu", "1000000.3Ki")},
	{name: "gpu-fraction-near-whole", change: setIn(limits, "nvidia.com/gpu", "999999.999999999")},
	{name: "gpu-binary-fraction", change: setIn(limits, "nvidia.com/gpu", "0.3Ki")},
	{name: "long-name", change: func(o object) { o["metadata"].(object)["name"] = strings.Repeat("a", 254) }},
	{name: "bad-label", change: func(o object) { o["metadata"].(object)["labels"] = object{"a b": "c"} }},
	{name: "no-spec", change: func(o object) { delete(o, "spec") }},
	{name: "no-resources", change: deleteIn(spec, "resources")},
	{name: "no-requests", change: deleteIn(resources, "requests")},
	{name: "no-limits", change: deleteIn(resources, "limits")},
	{name: "no-request-cpu", change: deleteIn(requests, "cpu")},
	{name: "no-request-memory", change: deleteIn(requests, "memory")},
	{name: "no-limit-cpu", change: deleteIn(limits, "cpu")},
	{name: "no-limit-memory", change: deleteIn(limits, "memory")},
	{name: "null-request-cpu", change: setIn(requests, "cpu", nil)},
	{name: "null-limit-memory", change: setIn(limits, "memory", nil)},
	{name: "empty-request-cpu", change: setIn(requests, "cpu", "")},
	{name: "empty-limit-memory", change: setIn(limits, "memory", "")},
	{name: "bad-suffix", change: setIn(limits, "memory", "2Gx")},
	{name: "spaces", change: setIn(limits, "memory", " 2Gi")},
	{name: "zero-request-cpu", change: setIn(requests, "cpu", "0")},
	{name: "zero-number-limit-cpu", change: setIn(limits, "cpu", 0)},
	{name: "negative-limit-memory", change: setIn(limits, "memory", "-2Gi")},
	{name: "bool-cpu", change: setIn(limits, "cpu", true)},
	{name: "request-above-limit-cpu", change: setIn(requests, "cpu", "1001m")},
	{name: "request-above-limit-memory", change: setIn(requests, "memory", "3Gi")},
	{name: "huge-exponent", change: setIn(limits, "memory", "1e400")},
	{name: "huge-number", change: setIn(limits, "memory", "99999999999999999999")},
	{name: "just-over-int64", change: setIn(limits, "memory", "9223372036854775808")},
	{name: "too-many-significant-digits", change: setIn(limits, "memory", "12345678901.234567891")},
	{name: "ten-fraction-digits-rounded", change: setIn(limits, "memory", "9223372036.8547758071")},
	{name: "binary-capped", change: setIn(limits, "memory", "10Ei")},
	{name: "binary-at-the-cap", change: setIn(limits, "memory", "9007199254740991.9990234375Ki")},
	{name: "gpu-binary-capped", change: setIn(limits, "nvidia.com/gpu", "8Ei")},
	{name: "huge-request", change: setIn(requests, "cpu", "1e19")},
	{name: "long-exponent", change: setIn(limits, "memory", "2e+0009")},
	{name: "long-exponent-gpu", change: setIn(limits, "nvidia.com/gpu", "1e0000")},
	{name: "gpu-fraction", change: setIn(limits, "nvidia.com/gpu", "0.5")},
	{name: "gpu-fraction-number", change: setIn(limits, "nvidia.com/gpu", 1.5)},
	{name: "gpu-milli", change: setIn(limits, "nvidia.com/gpu", "1500m")},
	{name: "gpu-negative", change: setIn(limits, "nvidia.com/gpu", -1)},
	{name: "gpu-in-requests", change: setIn(requests, "nvidia.com/gpu", 1)},
	{name: "gpu-zero-in-requests", change: setIn(requests, "nvidia.com/gpu", 0)},
	{name: "unknown-name-limits", change: setIn(limits, "cpus", "1")},
	{name: "unknown-name-requests", change: setIn(requests, "mem", "1Gi")},
	{name: "unqualified-gpu", change: setIn(limits, "gpu", 1)},
	{name: "uppercase-domain", change: setIn(limits, "Nvidia.com/gpu", 1)},
	{name: "kubernetes-io-domain", change: setIn(limits, "kubernetes.io/foo", 1)},
	{name: "quota-prefix", change: setIn(limits, "requests.nvidia.com/gpu", 1)},
	{name: "null-unknown-name", change: setIn(limits, "cpus", nil), crdDiffers: nullPruned},
	{name: "null-bad-extended-name", change: setIn(limits, "Nvidia.com/gpu", nil), crdDiffers: nullPruned},
	{name: "null-label-value", change: setIn(spec, "nodeSelector", object{"pool": nil}), crdDiffers: nullPruned},
	{name: "bad-label-key", change: setIn(spec, "nodeSelector", object{"a b": "gpu"})},
	{name: "bad-label-value", change: setIn(spec, "nodeSelector", object{"pool": "a b"})},
	{name: "long-label-value", change: setIn(spec, "nodeSelector", object{"pool": strings.Repeat("a", 64)})},
	{name: "bool-label-value", change: setIn(spec, "nodeSelector", object{"pool": true})},
	{name: "long-value", change: setIn(limits, "nvidia.com/gpu", "1."+strings.Repeat("0", 63))},
	{name: "long-cpu", change: setIn(requests, "cpu", "0.5"+strings.Repeat("0", 62))},
	{name: "many-resources", change: manyLimits(14, 1)},
	{name: "many-requests", change: func(o object) {
		for i := range 15 {
			requests(o)[fmt.Sprintf("example.com/r%d", i)] = 0
		}
	}},
	{name: "many-labels", change: selectorOf(65)},
	{name: "unknown-field", change: setIn(spec, "extra", 1), policyDiffers: unknownKept},
	{name: "duplicate-key", raw: `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"duplicate-key"},` +
		`"spec":{"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","cpu":"2","memory":"1Gi"}}}}`},
}

func (c diffCase) body() []byte {
	if c.raw != "" {
		return []byte(c.raw)
	}
	o := valid(c.name)
	c.change(o)
	b, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	return b
}

// validateVerdict is package validate's answer: nil to accept, else the findings.
func validateVerdict(body []byte) error {
	var h webhook.Handler
	resp := h.Review(context.Background(), &admissionv1.AdmissionRequest{
		Operation: admissionv1.Create,
		Resource:  metav1.GroupVersionResource{Group: gvr.Group, Version: gvr.Version, Resource: gvr.Resource},
		Object:    runtime.RawExtension{Raw: body},
	})
	if resp.Allowed {
		return nil
	}
	return fmt.Errorf("%s", resp.Result.Message)
}

// agree checks one case against an API server: both accept or both refuse, unless
// differs says why they cannot, in which case they must differ.
func agree(t *testing.T, cs *kubernetes.Clientset, name string, body []byte, real bool, differs string) {
	t.Helper()
	serverErr := createRaw(stepContext(t), cs, body, real)
	validateErr := validateVerdict(body)
	same := (serverErr == nil) == (validateErr == nil)
	switch {
	case differs == "" && !same:
		t.Errorf("%s: the API server says %v, package validate %v\n%s", name, verdict(serverErr), verdict(validateErr), body)
	case differs != "" && same:
		t.Errorf("%s: documented difference (%s) is gone: both say %v\n%s", name, differs, verdict(serverErr), body)
	}
}

func verdict(err error) string {
	if err == nil {
		return "accept"
	}
	return "refuse (" + err.Error() + ")"
}

// Generated instance types draw every part from small pools of good and bad values, so
// that a run mixes valid objects with objects that break one rule or several. The pools
// leave out what the documented differences are about (nulls the CRD prunes).
var (
	genGoodNames = []string{"gpu", "cpu-small", "a.b"}
	genBadNames  = []string{"Tiny_Type", "x-", strings.Repeat("n", 254)}
	genLabelKeys = []string{"pool", "example.com/pool", "a b", "-x", "kubernetes.io/arch"}
	genLabelVals = []string{"gpu", "", "a b", strings.Repeat("v", 64), "x.y_z"}
	genCPU       = []any{"100m", "500m", "1", "2", "1500m", int64(1), int64(2)}
	genMemory    = []any{"100Mi", "1Gi", "1500Mi", "2Gi", "1e9", int64(2000000000)}
	genCPULimit  = []any{"2", "4", "2000m", int64(4)} // at least every genCPU
	genMemLimit  = []any{"4Gi", "8G", "2.5e9", int64(5000000000), "12345678901.5", "9223372036854775807"}
	genExtended  = []any{"0", "1", "2", "1k", int64(0), int64(1), int64(4), "2000000000m", "9.2e18", 2.0}
	genBad       = []any{"0", "-1", "0.5", "1500m", "2Gx", "", " 1", int64(0), int64(-1), 0.5, 1e21, "1e400", "2e+0009",
		"9223372036854775808", "12345678901.234567891", "10Ei", "1." + strings.Repeat("0", 63)}
	genExtraNames = []string{"nvidia.com/gpu", "amd.com/gpu", "cpus", "gpu", "Nvidia.com/gpu", "requests.nvidia.com/gpu"}
)

// pick draws from good, or, one time in eight, from bad.
func pick[T any](t *rapid.T, label string, good, bad []T) T {
	// rapid leans towards the ends of a range; the middle is as rare as it looks.
	if rapid.IntRange(0, 7).Draw(t, label+" bad") == 3 {
		return rapid.SampledFrom(bad).Draw(t, label)
	}
	return rapid.SampledFrom(good).Draw(t, label)
}

// genList draws a requests or limits map: cpu and memory (each missing or null at times),
// and at times another name, extended or not; null only under a valid extended resource
// name (see nullPruned). Good limits
// are at least every good request, so that a request above its limit comes from a bad
// value.
func genList(t *rapid.T, label string, isLimits bool) object {
	m := object{}
	for _, n := range []string{"cpu", "memory"} {
		switch rapid.IntRange(0, 19).Draw(t, label+" "+n+" form") {
		case 9: // missing
		case 10:
			m[n] = nil
		default:
			pool := map[bool][]any{false: genCPU, true: genCPULimit}[isLimits]
			if n == "memory" {
				pool = map[bool][]any{false: genMemory, true: genMemLimit}[isLimits]
			}
			m[n] = pick(t, label+"["+n+"]", pool, genBad)
		}
	}
	if rapid.IntRange(0, 2).Draw(t, label+" extra") == 1 {
		n := rapid.SampledFrom(genExtraNames).Draw(t, label+" extra name")
		v := pick(t, label+"["+n+"]", genExtended, genBad)
		if (n == "nvidia.com/gpu" || n == "amd.com/gpu") && rapid.IntRange(0, 5).Draw(t, label+"["+n+"] null") == 2 {
			v = nil
		}
		m[n] = v
	}
	return m
}

// genObject draws an instance type as a JSON value.
func genObject(t *rapid.T) object {
	vals := genLabelVals
	sel := object{}
	for range rapid.IntRange(0, 2).Draw(t, "selector size") {
		sel[pick(t, "label key", genLabelKeys[:2], genLabelKeys[2:])] = pick(t, "label value", vals[:1], vals)
	}
	return object{
		"apiVersion": "amlarc.azureml.com/v1alpha1",
		"kind":       "InstanceType",
		"metadata":   object{"name": pick(t, "name", genGoodNames, genBadNames)},
		"spec": object{
			"nodeSelector": sel,
			"resources":    object{"requests": genList(t, "requests", false), "limits": genList(t, "limits", true)},
		},
	}
}

// checkGenerated runs the generated cases against cs; it counts both verdicts so that a
// generator that only makes one kind of object is noticed.
func checkGenerated(t *testing.T, cs *kubernetes.Clientset) {
	accepted, refused := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		body, err := json.Marshal(genObject(rt))
		if err != nil {
			rt.Fatal(err)
		}
		serverErr := createRaw(stepContext(t), cs, body, false)
		validateErr := validateVerdict(body)
		if (serverErr == nil) != (validateErr == nil) {
			rt.Fatalf("the API server says %v, package validate %v\n%s", verdict(serverErr), verdict(validateErr), body)
		}
		if serverErr == nil {
			accepted++
		} else {
			refused++
		}
	})
	t.Logf("generated instance types: %d accepted and %d refused by both", accepted, refused)
	if accepted == 0 || refused == 0 {
		t.Errorf("the generator made %d valid and %d invalid instance types; want some of each", accepted, refused)
	}
}

// checkQuantities runs generated quantities against cs: each as the memory limit and as
// the nvidia.com/gpu limit of a valid instance type whose memory request is the least
// there is, so that the verdicts turn on the range of the value (package quantity's, which
// the CRD restates exactly in CEL: at most 2^63-1, no more significant digits than an
// int64 holds, binary values below 2^63-1), on its wholeness for the GPU, and on the
// CRD's bounds on its text. The grammar leans on the edges: long integer parts, many
// fraction digits, every suffix, the digits of 2^63-1.
func checkQuantities(t *testing.T, cs *kubernetes.Clientset) {
	accepted, refused := 0, 0
	rapid.Check(t, func(rt *rapid.T) {
		digits := rapid.SampledFrom([]*rapid.Generator[string]{
			rapid.StringMatching(`[1-9][0-9]{0,19}`),
			rapid.StringMatching(`9223372036[0-9]{0,9}`),
			rapid.SampledFrom([]string{"9223372036854775807", "9223372036854775808", "9007199254740991", "8", "1"}),
		}).Draw(rt, "digits kind").Draw(rt, "digits")
		v := digits
		if rapid.Bool().Draw(rt, "fraction") {
			v += "." + rapid.StringMatching(`[0-9]{0,12}`).Draw(rt, "fraction digits")
		}
		v += rapid.SampledFrom([]string{"", "", "m", "u", "n", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei",
			"e3", "e-3", "e9", "e-9", "e18", "e+009", "e0009"}).Draw(rt, "suffix")
		for _, n := range []string{"memory", "nvidia.com/gpu"} {
			o := valid("quantity")
			requests(o)["memory"] = "1n"
			limits(o)[n] = v
			body := mustJSON(o)
			serverErr := createRaw(stepContext(t), cs, body, false)
			validateErr := validateVerdict(body)
			if (serverErr == nil) != (validateErr == nil) {
				rt.Fatalf("%s %q: the API server says %v, package validate %v", n, v, verdict(serverErr), verdict(validateErr))
			}
			if serverErr == nil {
				accepted++
			} else {
				refused++
			}
		}
	})
	t.Logf("generated quantities: %d accepted and %d refused by both", accepted, refused)
	if accepted == 0 || refused == 0 {
		t.Errorf("the generator made %d valid and %d invalid values; want some of each", accepted, refused)
	}
}

// TestCRDAgreesWithValidate: the generated CRD's schema and CEL rules against package
// validate.
func TestCRDAgreesWithValidate(t *testing.T) {
	cs := clientset(t, crdEnv.Start(t))
	t.Run("table", func(t *testing.T) {
		for _, c := range diffCases {
			agree(t, cs, c.name, c.body(), c.real, c.crdDiffers)
		}
	})
	t.Run("generated", func(t *testing.T) { checkGenerated(t, cs) })
	t.Run("quantities", func(t *testing.T) { checkQuantities(t, cs) })
}
