package decode

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// instanceTypeOf decodes the InstanceType document text and returns it with the findings
// of decoding it.
func instanceTypeOf(t *testing.T, text string) (*Result, field.ErrorList) {
	t.Helper()
	_, r := decodeText(t, text)
	if len(r.InstanceTypes) != 1 {
		t.Fatalf("%q: %d instance types", text, len(r.InstanceTypes))
	}
	return r, append(slices.Clone(r.Errors), r.InstanceTypes[0].Errors...)
}

// Quantities are the values kubectl sends, by YAML 1.1 as sigs.k8s.io/yaml reads them: a
// number is the JSON number kubectl sends, written as encoding/json writes it. (What
// kubectl refuses, .inf or a tag that does not fit, refuses the document: see package
// source.)
func TestQuantityScalars(t *testing.T) {
	tests := []struct {
		yaml string
		want string // the amount's text; "" for unset
		bad  string // the type of the finding, if any
	}{
		{"1", "1", ""},
		{"1e9", "1000000000", ""},
		{"010", "8", ""},
		{"08", "8", ""},
		{"0x10", "16", ""},
		{"0o17", "15", ""},
		{"0b101", "5", ""},
		{"1_000", "1000", ""},
		{"+1", "1", ""},
		{"1.5e3", "1500", ""},
		{"1.0", "1", ""},   // kubectl sends a whole float as the integer it is,
		{"2.0e0", "2", ""}, // which the CRD's int-or-string takes
		{"9223372036854775807", "9223372036854775807", ""},
		{"-9223372036854775808", "-9223372036854775808", ""},
		{"9.2e18", "9200000000000000000", ""},
		// A number that reaches the API server as a float: its schema refuses it (the
		// value is kept as written, and the finding refuses it).
		{".5", "0.5", "FieldValueTypeInvalid"},
		{"0.5", "0.5", "FieldValueTypeInvalid"},
		{"1.5", "1.5", "FieldValueTypeInvalid"},
		{"0.1e-2", "0.001", "FieldValueTypeInvalid"},
		{"9223372036854775808", "9223372036854775808", "FieldValueTypeInvalid"},
		{"18446744073709551615", "18446744073709551615", "FieldValueTypeInvalid"},
		{"1e21", "1e+21", "FieldValueTypeInvalid"},
		{"1e400", "1e400", ""}, // no float64: kubectl sends the text
		{`"010"`, "010", ""},
		{"'0x10'", "0x10", ""},
		{"!!str 12", "12", ""},
		{"!!binary MTAw", "100", ""},
		{"2Gi", "2Gi", ""},
		{"~", "", ""},
		{"null", "", ""},
		{"", "", ""},
		{"yes", "", "FieldValueTypeInvalid"},
		{"true", "", "FieldValueTypeInvalid"},
		{"[1]", "", "FieldValueTypeInvalid"},
		{"{a: 1}", "", "FieldValueTypeInvalid"},
	}
	for _, tt := range tests {
		r, errs := instanceTypeOf(t, head+"metadata: {name: a}\nspec:\n  resources:\n    limits:\n      memory: "+tt.yaml+"\n")
		got := r.InstanceTypes[0].Object.Spec.Resources.Limits["memory"]
		if got.String() != tt.want || tt.want == "" && got.IsSet() {
			t.Errorf("Document(memory: %s) = %q (set %v); want %q", tt.yaml, got, got.IsSet(), tt.want)
		}
		var types []string
		for _, e := range errs {
			types = append(types, string(e.Type))
		}
		if want := []string{tt.bad}; tt.bad == "" && len(types) != 0 || tt.bad != "" && !slices.Equal(types, want) {
			t.Errorf("Document(memory: %s) findings %v; want %q", tt.yaml, errs, tt.bad)
		}
		if tt.bad != "" && (!Refuses(errs[0]) || errs[0].Field != "spec.resources.limits[memory]") {
			t.Errorf("Document(memory: %s): %v; want a finding that refuses the value at spec.resources.limits[memory]", tt.yaml, errs[0])
		}
	}
}

// In a JSON document numbers are kept as written (1.0, 1e3), and read as kubectl sends
// them: a whole one as the integer it is, any other a finding, as the CRD's int-or-string
// refuses it.
func TestQuantityJSONNumbers(t *testing.T) {
	tests := []struct {
		json, want string
		bad        bool
	}{
		{"1", "1", false},
		{"1.0", "1", false},
		{"1e3", "1000", false},
		{"1E+3", "1000", false},
		{"-0", "-0", false},
		{"-0.0", "0", false},
		{"9223372036854775807", "9223372036854775807", false},
		{"9.223372036854775e18", "9223372036854774784", false}, // the float below 2^63
		{"1.5", "1.5", true},
		{"1e-3", "1e-3", true},
		{"9223372036854775808", "9223372036854775808", true},
		{"1e19", "1e19", true},
		{`"1.5"`, "1.5", false},
	}
	for _, tt := range tests {
		r, errs := instanceTypeOf(t, `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"a"},"spec":{"resources":{"limits":{"cpu":`+tt.json+`}}}}`)
		if got := r.InstanceTypes[0].Object.Spec.Resources.Limits["cpu"]; got.String() != tt.want {
			t.Errorf("Document(cpu: %s) = %q; want %q", tt.json, got, tt.want)
		}
		if bad := len(errs) > 0; bad != tt.bad || bad && (errs[0].Origin != "wrong-type" || errs[0].Field != "spec.resources.limits[cpu]" || !Refuses(errs[0])) {
			t.Errorf("Document(cpu: %s) findings %v; want a finding: %v", tt.json, errs, tt.bad)
		}
	}
}

// Labels (strings) that kubectl would send as another type are findings; quoting fixes
// them.
func TestStringScalars(t *testing.T) {
	tests := []struct {
		yaml, want string // want "" with a finding
		ok         bool
	}{
		{"pool", "pool", true},
		{`"yes"`, "yes", true},
		{"'010'", "010", true},
		{"!!str on", "on", true},
		{"! 12", "12", true},               // the non-specific tag: a string
		{"!custom 12", "12", true},         // any other tag leaves a string
		{"2024-01-01", "2024-01-01", true}, // a timestamp is sent as written
		{"1:30", "1:30", true},             // no sexagesimal numbers
		{"|\n      block", "block\n", true},
		{"yes", "", false}, {"Yes", "", false}, {"YES", "", false}, {"no", "", false},
		{"on", "", false}, {"off", "", false}, {"y", "", false}, {"n", "", false}, {"N", "", false},
		{"true", "", false}, {"False", "", false},
		{"1", "", false}, {"010", "", false}, {"0x1F", "", false}, {".5", "", false}, {"1e3", "", false},
		{"~", "", false}, {"null", "", false}, {"", "", false},
		{"[a]", "", false}, {"{a: b}", "", false},
	}
	for _, tt := range tests {
		doc, r := decodeText(t, head+"metadata: {name: a}\nspec:\n  nodeSelector:\n    k: "+tt.yaml+"\n")
		got := r.InstanceTypes[0].Object.Spec.NodeSelector["k"]
		errs := r.InstanceTypes[0].Errors
		if got != tt.want || (len(errs) == 0) != tt.ok {
			t.Errorf("Document(k: %s) = %q with findings %v; want %q, ok %v", tt.yaml, got, errs, tt.want, tt.ok)
		}
		if !tt.ok && (len(errs) != 1 || errs[0].Type != field.ErrorTypeTypeInvalid || errs[0].Field != "spec.nodeSelector[k]" || doc.PositionOf(errs[0].Field).Line != 6) {
			t.Errorf("Document(k: %s) findings %v; want one TypeInvalid at spec.nodeSelector[k], line 6", tt.yaml, errs)
		}
	}
}

// kubectl makes strings of keys that are numbers or booleans; two keys that make the same
// string are one key set twice, the last in effect.
func TestKeysReadAsNumbers(t *testing.T) {
	doc, r := decodeText(t, head+"metadata:\n  name: a\n  labels:\n    1: a\n    0x1: b\n    true: c\n")
	if want := map[string]string{"1": "b", "true": "c"}; !maps.Equal(r.InstanceTypes[0].Object.Labels, want) {
		t.Errorf("labels = %v; want %v (keys as kubectl makes strings of them, the last in effect)", r.InstanceTypes[0].Object.Labels, want)
	}
	if got := all(doc, r); len(got) != 1 || !strings.HasPrefix(got[0], `7: metadata.labels[1]: Duplicate value: "1": key set twice in this mapping, first on line 6`) {
		t.Errorf("findings %q; want one duplicate at metadata.labels[1], line 7", got)
	}
}

// Anchors, aliases and merge keys, as kubectl's reader applies them; positions are those of
// the keys in effect, where they are written.
func TestAnchorsAliasesAndMerges(t *testing.T) {
	doc, r := decodeText(t, `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
items:
- metadata: {name: a}
  spec:
    resources: &res
      requests: &req {cpu: 1, memory: 1Gi}
      limits: {cpu: 2, memory: 2Gi}
- metadata: {name: b}
  spec:
    resources:
      requests: *req
      limits:
        <<: *req
        cpu: 4
- metadata: {name: c}
  spec:
    resources:
      requests:
        cpu: "2"
        <<: *req
        memory: 3Gi
      limits:
        <<: [{cpu: "4"}, {cpu: "5", memory: 9Gi}]
- metadata: {name: d}
  spec:
    resources: *res
`)
	if got := all(doc, r); len(got) != 0 {
		t.Fatalf("findings %q; want none", got)
	}
	tests := []struct {
		item               int
		requests, limits   map[string]string
		limitCPU, limitMem int // lines of the limits' keys
	}{
		{1, map[string]string{"cpu": "1", "memory": "1Gi"}, map[string]string{"cpu": "4", "memory": "1Gi"}, 15, 7},
		// Keys written before << lose to it, keys after it win; in a list the earlier wins.
		{2, map[string]string{"cpu": "1", "memory": "3Gi"}, map[string]string{"cpu": "4", "memory": "9Gi"}, 24, 24},
		{3, map[string]string{"cpu": "1", "memory": "1Gi"}, map[string]string{"cpu": "2", "memory": "2Gi"}, 8, 8},
	}
	for _, tt := range tests {
		res := r.InstanceTypes[tt.item].Object.Spec.Resources
		if got := amountTexts(res.Requests); !maps.Equal(got, tt.requests) {
			t.Errorf("items[%d] requests = %v; want %v", tt.item, got, tt.requests)
		}
		if got := amountTexts(res.Limits); !maps.Equal(got, tt.limits) {
			t.Errorf("items[%d] limits = %v; want %v", tt.item, got, tt.limits)
		}
		p := r.InstanceTypes[tt.item].Path.String() + ".spec.resources.limits"
		if got := doc.PositionOf(p + "[cpu]").Line; got != tt.limitCPU {
			t.Errorf("PositionOf(%s[cpu]) on line %d; want %d, where the key in effect is written", p, got, tt.limitCPU)
		}
		if got := doc.PositionOf(p + "[memory]").Line; got != tt.limitMem {
			t.Errorf("PositionOf(%s[memory]) on line %d; want %d, where the key in effect is written", p, got, tt.limitMem)
		}
	}
}

// amountTexts renders a resource list as text, for comparing.
func amountTexts[L ~map[K]V, K ~string, V interface{ String() string }](l L) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// Two merge keys in one mapping: both apply, the later winning; the finding is at the
// mapping, placed at the second.
func TestTwoMergeKeys(t *testing.T) {
	doc, r := decodeText(t, head+"metadata: {name: m}\nspec:\n  resources:\n    requests:\n      <<: {cpu: \"1\", memory: 1Gi}\n      <<: {cpu: \"2\"}\n")
	if got, want := amountTexts(r.InstanceTypes[0].Object.Spec.Resources.Requests), map[string]string{"cpu": "2", "memory": "1Gi"}; !maps.Equal(got, want) {
		t.Errorf("requests = %v; want %v", got, want)
	}
	if got := all(doc, r); len(got) != 1 || !strings.HasPrefix(got[0], "8: spec.resources.requests: Duplicate value: \"<<\": a merge key (<<) set twice in this mapping, first on line 7") {
		t.Errorf("findings %q; want one duplicate at spec.resources.requests, line 8", got)
	}
}

// Metadata's fields are decoded as Kubernetes decodes them, through encoding/json where
// their types read their own JSON.
func TestMetadataViaJSON(t *testing.T) {
	doc, r := decodeText(t, head+`metadata:
  name: a
  namespace: ns
  generation: 3
  creationTimestamp: "2024-01-02T03:04:05Z"
  finalizers: [x]
  labels: {app: ml}
  annotations: {note: "1"}
  deletionGracePeriodSeconds: soon
`)
	if got := all(doc, r); len(got) != 1 || !strings.HasPrefix(got[0], `11: metadata.deletionGracePeriodSeconds: Invalid value: "soon": must be an integer, not a string [wrong-type]`) {
		t.Fatalf("findings %q; want one at metadata.deletionGracePeriodSeconds", got)
	}
	m := r.InstanceTypes[0].Object.ObjectMeta
	if m.Namespace != "ns" || m.Generation != 3 || m.CreationTimestamp.Year() != 2024 || !slices.Equal(m.Finalizers, []string{"x"}) ||
		!maps.Equal(m.Labels, map[string]string{"app": "ml"}) || !maps.Equal(m.Annotations, map[string]string{"note": "1"}) {
		t.Errorf("metadata = %+v", m)
	}
	if !Refuses(r.InstanceTypes[0].Errors[0]) {
		t.Error("the finding at metadata.deletionGracePeriodSeconds does not refuse its value")
	}
}

// Strict decoding reaches inside the fields of metadata's lists too.
func TestUnknownFieldsInsideMetadataLists(t *testing.T) {
	for _, tt := range []struct{ src, field string }{
		{head + "metadata:\n  name: a\n  ownerReferences: [{apiVersion: v1, kind: X, name: o, uid: u, bogus: 1}]\n", "metadata.ownerReferences[0].bogus"},
		{head + "metadata:\n  name: a\n  managedFields: [{manager: m, mangler: 2}]\n", "metadata.managedFields[0].mangler"},
	} {
		_, errs := instanceTypeOf(t, tt.src)
		if len(errs) != 1 || errs[0].Field != tt.field || errs[0].Origin != "unknown-field" {
			t.Errorf("Document(%q) findings %v; want one unknown field at %s", tt.src, errs, tt.field)
		}
	}
}

// An unknown field close to a known one gets a did-you-mean: equal but for case, or the
// only one within a small edit distance; else the known fields are listed.
func TestUnknownFieldSuggestions(t *testing.T) {
	for _, tt := range []struct{ key, field, want string }{
		{"Name", "metadata", "name"},
		{"nodeselector", "spec", "nodeSelector"},
		{"nodeSelectr", "spec", "nodeSelector"},
		{"lables", "metadata", "labels"},
		{"request", "spec.resources", "requests"},
		{"limit", "spec.resources", "limits"},
		// Too far from every field, or as near to two: no guess.
		{"colour", "metadata", ""},
		{"nodes", "spec", ""},
		{"x", "spec.resources", ""},
	} {
		var src string
		switch tt.field {
		case "metadata":
			src = head + "metadata: {name: a, " + tt.key + ": x}\n"
		case "spec":
			src = head + "metadata: {name: a}\nspec: {" + tt.key + ": {}}\n"
		default:
			src = head + "metadata: {name: a}\nspec: {resources: {" + tt.key + ": {}}}\n"
		}
		_, errs := instanceTypeOf(t, src)
		if len(errs) != 1 {
			t.Errorf("Document(%s: %s) findings %v; want one", tt.field, tt.key, errs)
			continue
		}
		if d := errs[0].Detail; tt.want == "" && (strings.Contains(d, "did you mean") || !strings.Contains(d, "known fields: ")) ||
			tt.want != "" && !strings.Contains(d, `did you mean "`+tt.want+`"?`) {
			t.Errorf("Document(%s: %s) finding %q; want it to suggest %q", tt.field, tt.key, d, tt.want)
		}
	}
}

// Messages of values read through encoding/json name the JSON type as a user knows it.
func TestJSONTypeWording(t *testing.T) {
	_, errs := instanceTypeOf(t, head+"metadata:\n  name: a\n  ownerReferences: [[1]]\n  managedFields: [{fieldsType: {}}]\n")
	if len(errs) != 2 {
		t.Errorf("findings %v; want 2", errs)
	}
	for _, e := range errs {
		if strings.Contains(e.Detail, " a array") || strings.Contains(e.Detail, " a object") || strings.Contains(e.Detail, " an array") {
			t.Errorf("finding %q", e)
		}
	}
}

// Every field of the Go types is known: a file that sets each decodes to what
// sigs.k8s.io/yaml (kubectl's reading) decodes into the same types, and a field of no type
// is unknown at every level.
func TestKnownFieldsFromJSONTags(t *testing.T) {
	_, errs := instanceTypeOf(t, fullInstanceType)
	if len(errs) != 0 {
		t.Fatalf("findings %v; want none", errs)
	}
	for _, tt := range []struct{ src, field string }{
		{fullInstanceType + "bogus: 1\n", "bogus"},
		{strings.Replace(fullInstanceType, "  name: full\n", "  name: full\n  bogus: 1\n", 1), "metadata.bogus"},
		{fullInstanceType + "  bogus: 1\n", "spec.bogus"},
		{fullInstanceType + "    bogus: 1\n", "spec.resources.bogus"},
	} {
		_, errs := instanceTypeOf(t, tt.src)
		if len(errs) != 1 || errs[0].Field != tt.field || errs[0].Origin != "unknown-field" {
			t.Errorf("Document(full + %s) findings %v; want one unknown field at %s", tt.field, errs, tt.field)
		}
	}
	_, r := decodeText(t, "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nmetadata: {resourceVersion: \"1\", continue: next, remainingItemCount: 3, selfLink: /x}\nitems: []\n")
	if len(r.Errors) != 0 {
		t.Errorf("a list of every ListMeta field: findings %v; want none", r.Errors)
	}
}

// fullInstanceType sets every field of InstanceType, its spec, resources and metadata.
const fullInstanceType = `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: full
  generateName: full-
  namespace: ns
  selfLink: /apis/amlarc.azureml.com/v1alpha1/instancetypes/full
  uid: 6f1d2c1e-1111-2222-3333-444455556666
  resourceVersion: "42"
  generation: 7
  creationTimestamp: "2024-01-02T03:04:05Z"
  deletionTimestamp: 2024-02-03T04:05:06Z
  deletionGracePeriodSeconds: 30
  labels: {app: ml, "on": "yes"}
  annotations: {note: hello}
  ownerReferences:
  - apiVersion: v1
    kind: ConfigMap
    name: owner
    uid: "1111"
    controller: true
    blockOwnerDeletion: false
  finalizers: [example.com/f]
  managedFields:
  - manager: kubectl
    operation: Apply
    apiVersion: amlarc.azureml.com/v1alpha1
    time: "2024-01-02T03:04:05Z"
    fieldsType: FieldsV1
    fieldsV1: {"f:spec": {}}
    subresource: status
spec:
  nodeSelector: {pool: gpu}
  resources:
    requests: {cpu: 100m, memory: 1Gi}
    limits: {cpu: 1, memory: 2e9, nvidia.com/gpu: 1}
`

// jsonNames lists the JSON names of a struct's fields, those of inlined structs included:
// written here apart from the decoder's own table, so that the two can disagree.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case name == "" && f.Anonymous:
			out = append(out, jsonNames(f.Type)...)
		default:
			out = append(out, name)
		}
	}
	return out
}

// The test file sets every field of the types, and decodes to what sigs.k8s.io/yaml
// decodes it into them.
func TestFullInstanceTypeIsFull(t *testing.T) {
	var generic map[string]any
	if err := sigsyaml.Unmarshal([]byte(fullInstanceType), &generic); err != nil {
		t.Fatal(err)
	}
	sub := func(m map[string]any, key string) map[string]any { v, _ := m[key].(map[string]any); return v }
	for _, c := range []struct {
		typ reflect.Type
		set map[string]any
	}{
		{reflect.TypeFor[instancetype.InstanceType](), generic},
		{reflect.TypeFor[metav1.ObjectMeta](), sub(generic, "metadata")},
		{reflect.TypeFor[instancetype.InstanceTypeSpec](), sub(generic, "spec")},
		{reflect.TypeFor[instancetype.ResourceRequirements](), sub(sub(generic, "spec"), "resources")},
	} {
		for _, name := range jsonNames(c.typ) {
			if _, ok := c.set[name]; !ok {
				t.Errorf("the test file does not set %s.%s: add it", c.typ.Name(), name)
			}
		}
	}
	r, _ := instanceTypeOf(t, fullInstanceType)
	var want instancetype.InstanceType
	if err := sigsyaml.UnmarshalStrict([]byte(fullInstanceType), &want); err != nil {
		t.Fatal(err)
	}
	if got := r.InstanceTypes[0].Object; !reflect.DeepEqual(got, &want) {
		t.Errorf("Document = %+v\nsigs.k8s.io/yaml = %+v", got, &want)
	}
}
