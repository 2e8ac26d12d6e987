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
	nonInteger  = "JSON numbers that are not integers: the CRD's int-or-string refuses 0.5, Kubernetes' quantities accept it"
	valueRange  = "values beyond what an int64 holds: package quantity refuses them, CEL's quantity() keeps them"
	longExp     = "exponents of more than 3 digits: refused, so that no rule hands apimachinery an exponent it cannot parse in time"
	nullUnknown = "null under a name that is no resource name (cpus, Nvidia.com/gpu): the CRD prunes nulls before its rules see them"
	unknownKept = "unknown fields: a schemaless CRD keeps them, and the policy has no rule about them"
	crdBounds   = "bounds the CRD's CEL cost budget needs: values of at most 64 bytes, at most 16 resources in requests or limits, at most 64 node selector entries"
	wholeBound  = "extended resources above 1,000,000 written with a fraction, a negative exponent, m, u, n or a binary suffix after a fraction: CEL tells whole numbers from others exactly only up to there"
	generated   = "generateName without a name: the API server makes a name up; package validate wants the name workloads write (R1)"
	createOnly  = "resourceVersion: the API server refuses it on a create and wants it on an update; package validate cannot tell which, and reads kubectl get -o yaml"
)

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
	{name: "valid-cpu-fraction-number", change: setIn(requests, "cpu", 0.5), crdDiffers: nonInteger},

	{name: "valid-gpu-milli", change: setIn(limits, "nvidia.com/gpu", "1000m")},
	{name: "valid-gpu-decimal-point", change: setIn(limits, "nvidia.com/gpu", "1.0")},
	{name: "valid-gpu-negative-exponent", change: setIn(limits, "nvidia.com/gpu", "10e-1")},
	{name: "valid-gpu-nano", change: setIn(limits, "nvidia.com/gpu", "2000000000n")},
	{name: "valid-gpu-binary-fraction", change: setIn(limits, "nvidia.com/gpu", "1.5Ki")},
	{name: "valid-gpu-million-milli", change: setIn(limits, "nvidia.com/gpu", "1000000000m")},
	{name: "valid-sixteen-resources", change: func(o object) {
		for i := range 13 {
			limits(o)[fmt.Sprintf("example.com/r%d", i)] = 1
		}
	}},
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
	{name: "gpu-over-a-million-milli", change: setIn(limits, "nvidia.com/gpu", "2000000000m"), crdDiffers: wholeBound, policyDiffers: wholeBound},
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
	{name: "huge-exponent", change: setIn(limits, "memory", "1e400"), crdDiffers: valueRange, policyDiffers: valueRange},
	{name: "huge-number", change: setIn(limits, "memory", "99999999999999999999"), crdDiffers: valueRange, policyDiffers: valueRange},
	{name: "long-exponent", change: setIn(limits, "memory", "2e+0009"), crdDiffers: longExp, policyDiffers: longExp},
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
	{name: "null-unknown-name", change: setIn(limits, "cpus", nil), crdDiffers: nullUnknown},
	{name: "null-bad-extended-name", change: setIn(limits, "Nvidia.com/gpu", nil), crdDiffers: nullUnknown},
	{name: "bad-label-key", change: setIn(spec, "nodeSelector", object{"a b": "gpu"})},
	{name: "bad-label-value", change: setIn(spec, "nodeSelector", object{"pool": "a b"})},
	{name: "long-label-value", change: setIn(spec, "nodeSelector", object{"pool": strings.Repeat("a", 64)})},
	{name: "bool-label-value", change: setIn(spec, "nodeSelector", object{"pool": true})},
	{name: "long-value", change: setIn(limits, "nvidia.com/gpu", "1."+strings.Repeat("0", 63)), crdDiffers: crdBounds, policyDiffers: crdBounds},
	{name: "many-resources", change: func(o object) {
		for i := range 15 {
			limits(o)[fmt.Sprintf("example.com/r%d", i)] = 1
		}
	}, crdDiffers: crdBounds},
	{name: "many-labels", change: func(o object) {
		sel := object{}
		for i := range 65 {
			sel[fmt.Sprintf("l%d", i)] = "v"
		}
		spec(o)["nodeSelector"] = sel
	}, crdDiffers: crdBounds},
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
// leave out what the documented differences are about (non-integer JSON numbers for the
// CRD, values out of range, long exponents, nulls under unknown names).
var (
	genGoodNames  = []string{"gpu", "cpu-small", "a.b"}
	genBadNames   = []string{"Tiny_Type", "x-", strings.Repeat("n", 254)}
	genLabelKeys  = []string{"pool", "example.com/pool", "a b", "-x", "kubernetes.io/arch"}
	genLabelVals  = []string{"gpu", "", "a b", strings.Repeat("v", 64), "x.y_z"}
	genCPU        = []any{"100m", "500m", "1", "2", "1500m", int64(1), int64(2)}
	genMemory     = []any{"100Mi", "1Gi", "1500Mi", "2Gi", "1e9", int64(2000000000)}
	genCPULimit   = []any{"2", "4", "2000m", int64(4)} // at least every genCPU
	genMemLimit   = []any{"4Gi", "8G", "2.5e9", int64(5000000000)}
	genExtended   = []any{"0", "1", "2", "1k", int64(0), int64(1), int64(4)}
	genBad        = []any{"0", "-1", "0.5", "1500m", "2Gx", "", " 1", int64(0), int64(-1)}
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
// name (see nullUnknown). Good limits
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
}
