package lint_test

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"
	"unicode/utf16"
	"unsafe"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/workload"
)

// findingTests are files and the findings reading them gives, in file order.
var findingTests = []struct {
	name string
	src  string
	want []loc
}{{
	// Unknown fields were Unsupported values at the parent listing the known fields; they
	// are now UnknownField findings, as apimachinery's strict decoding makes them.
	name: "unknown fields at every level",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  lables: {x: y}
spec:
  nodeselector: {x: y}
  resources:
    request: {cpu: 1}
    limits: {cpu: 1, memory: 1Gi}
extra: 1
`,
	want: []loc{
		{5, "metadata.lables", "UnknownField"},
		{7, "spec.nodeselector", "UnknownField"},
		{9, "spec.resources.request", "UnknownField"},
		{11, "extra", "UnknownField"},
	},
}, {
	name: "duplicate keys are reported at the second",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  name: b
spec:
  nodeSelector:
    pool: a
    zone: b
    pool: c
  resources:
    limits:
      cpu: 1
      cpu: 2
`,
	want: []loc{
		{5, "metadata.name", "FieldValueDuplicate"},
		{10, "spec.nodeSelector[pool]", "FieldValueDuplicate"},
		{14, "spec.resources.limits[cpu]", "FieldValueDuplicate"},
	},
}, {
	// A duplicate hides no finding about the value in effect (decoding's finding first).
	name: "a duplicate and the wrong value in effect",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  name: [b]
spec:
  nodeSelector:
    pool: a
    pool: yes
`,
	want: []loc{
		{5, "metadata.name", "FieldValueTypeInvalid"},
		{5, "metadata.name", "FieldValueDuplicate"},
		{9, "spec.nodeSelector[pool]", "FieldValueTypeInvalid"},
		{9, "spec.nodeSelector[pool]", "FieldValueDuplicate"},
	},
}, {
	// Duplicates of keys kubectl reads as one: 1 and 0x1 are both the key "1".
	name: "keys that kubectl reads as the same string",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  labels:
    1: a
    0x1: b
`,
	want: []loc{{7, "metadata.labels[1]", "FieldValueDuplicate"}},
}, {
	name: "wrong apiVersion",
	src: `
apiVersion: amlarc.azureml.com/v1
kind: InstanceType
metadata: {name: a}
`,
	want: []loc{{1, "apiVersion", "FieldValueNotSupported"}},
}, {
	name: "missing apiVersion",
	src: `
kind: InstanceType
metadata: {name: a}
`,
	want: []loc{{1, "apiVersion", "FieldValueRequired"}},
}, {
	name: "unknown kind of our group",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: Instancetype
metadata: {name: a}
`,
	want: []loc{{2, "kind", "FieldValueNotSupported"}},
}, {
	name: "our group without a kind",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
metadata: {name: a}
`,
	want: []loc{{1, "kind", "FieldValueRequired"}},
}, {
	// A value kubectl cannot send (.nan) refuses the document: one finding, at the value,
	// and nothing else of the document is read.
	name: "list items with wrong kind, and a value kubectl cannot send",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
items:
- kind: Pod
  metadata: {name: a}
- metadata:
    name: 7
  spec:
    nodeSelector:
      gpu: true
    resources:
      limits:
        cpu: [1]
        memory: .nan
- spec: [1]
`,
	want: []loc{{14, "", "SyntaxError"}},
}, {
	name: "list items with wrong kind, and types of values",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
items:
- kind: Pod
  metadata: {name: a}
- metadata:
    name: 7
  spec:
    nodeSelector:
      gpu: true
    resources:
      limits:
        cpu: [1]
        memory: "1"
- spec: [1]
`,
	want: []loc{
		{4, "items[0].kind", "FieldValueNotSupported"},
		{7, "items[1].metadata.name", "FieldValueTypeInvalid"},
		{10, "items[1].spec.nodeSelector[gpu]", "FieldValueTypeInvalid"},
		{13, "items[1].spec.resources.limits[cpu]", "FieldValueTypeInvalid"},
		{15, "items[2].spec", "FieldValueTypeInvalid"},
	},
}, {
	name: "list without items",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
`,
	want: []loc{{1, "items", "FieldValueRequired"}},
}, {
	// The syntax error ends its own document only: the third document is read (it used to
	// end the file).
	name: "syntax error between good documents",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: a}
---
a: b
 c: d
---
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: c, x: 1}
`,
	want: []loc{{6, "", "SyntaxError"}, {10, "metadata.x", "UnknownField"}},
}, {
	name: "unclosed flow",
	src: `
kind: InstanceType
spec: {nodeSelector: {a: b}
`,
	want: []loc{{2, "", "SyntaxError"}},
}, {
	// At the key where a "-" was expected.
	name: "block sequence broken by a key",
	src: `
a:
  - b
  c: d
`,
	want: []loc{{3, "", "SyntaxError"}},
}, {
	name: "tab indentation",
	src:  "\n" + typeHeader + "metadata:\n\tname: a\n",
	want: []loc{{4, "", "SyntaxError"}},
}, {
	// Every key azure-ai-ml refuses is one finding (resources.instance_type is not reported
	// twice); what its schemas leave open (tags, environment_variables) is not.
	name: "Azure ML deployments are strict as azure-ai-ml reads them",
	src: `
$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
endpoint_name: e
anything: {goes: here}
tags: {anything: goes}
environment_variables: {ANY: thing}
resources:
  requests: {cpu: "1"}
  instance_type: x
environment:
  image: a
  image: b
  imgae: c
`,
	want: []loc{
		{4, "anything", "UnknownField"},
		{9, "resources.instance_type", "UnknownField"},
		{12, "environment.image", "FieldValueDuplicate"},
		{13, "environment.imgae", "UnknownField"},
	},
}, {
	// A custom tag (!foo bar) leaves a string, as kubectl reads it: it used to be a finding.
	name: "a number as apiVersion is reported once; a custom tag is a string",
	src: `
apiVersion: 1
kind: InstanceType
metadata: {name: !foo bar}
`,
	want: []loc{{1, "apiVersion", "FieldValueTypeInvalid"}},
}, {
	name: "non-string instance type",
	src: `
endpoint_name: e
instance_type: 12
`,
	want: []loc{{2, "instance_type", "FieldValueTypeInvalid"}},
}, {
	// A job takes its resources from its instance type.
	name: "a job's requests and limits are unknown fields",
	src: `
command: python train.py
compute: azureml:k8s
resources:
  instance_type: small
  instance_count: 2
  requests: {cpu: "4"}
  limits:
    cpu: "4"
`,
	want: []loc{{6, "resources.requests", "UnknownField"}, {7, "resources.limits", "UnknownField"}},
}, {
	name: "two merge keys in one mapping",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
spec:
  resources:
    requests:
      <<: {cpu: "1"}
      <<: {cpu: "2"}
      memory: 1Gi
`,
	want: []loc{{8, "spec.resources.requests", "FieldValueDuplicate"}},
}, {
	// What kubectl refuses (a merge of no mapping, a tag that does not fit its value, a
	// key that is not a string, an alias inside its anchor, a value it cannot send)
	// refuses the whole document: one finding of the document, at the line of the node
	// (once each was a finding at its field, and the rest of the document was read).
	name: "a merge of a scalar",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  <<: 1
  name: m
`,
	want: []loc{{4, "", "SyntaxError"}},
}, {
	name: "a merge of an infinity",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
<<: .inf
`,
	want: []loc{{4, "", "SyntaxError"}},
}, {
	name: "a merge of a list holding a scalar",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: m
  <<: [{a: .inf}, .nan]
  x: [.inf]
`,
	want: []loc{{5, "", "SyntaxError"}},
}, {
	name: "an anchored infinity merged, and aliased",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
spec:
  <<: &a .inf
  x: *a
`,
	want: []loc{{5, "", "SyntaxError"}},
}, {
	// kubectl's reader drops a value a later key replaces before it makes JSON: an
	// infinity there is no problem.
	name: "an infinity in a value a later key replaces",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: m
  labels: {<<: {a: .inf}, a: "1"}
  annotations:
    b: [.nan]
    b: "2"
`,
	want: []loc{{8, "metadata.annotations[b]", "FieldValueDuplicate"}},
}, {
	// A tag that does not fit is refused by kubectl's YAML reader, in a value a later key
	// replaces too.
	name: "a bad tag in a value a later key replaces",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: m
  labels:
    a: {b: !!int x}
    a: "1"
`,
	want: []loc{{6, "", "SyntaxError"}},
}, {
	name: "an infinity under a null key",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
? null
: {b: .nan}
`,
	want: []loc{{4, "", "SyntaxError"}},
}, {
	name: "a cycle and an infinity in a value of the wrong type",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
spec:
  nodeSelector:
  - &a [*a]
  - .nan
`,
	want: []loc{{6, "", "SyntaxError"}},
}, {
	name: "an alias to an anchor of another document",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: &n a
---
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: *n
`,
	want: []loc{{9, "", "SyntaxError"}},
}, {
	name: "a separator kubectl refuses",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: a}
--- b: 2
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: b, x: 1}
`,
	want: []loc{{4, "", "SyntaxError"}, {7, "metadata.x", "UnknownField"}},
}, {
	name: "labels kubectl sends as booleans, numbers and null",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  labels: {a: yes, b: "yes", c: 010, d: ~, e: '1.5'}
  annotations: {a: on}
`,
	want: []loc{
		{5, "metadata.labels[a]", "FieldValueTypeInvalid"},
		{5, "metadata.labels[c]", "FieldValueTypeInvalid"},
		{5, "metadata.labels[d]", "FieldValueTypeInvalid"},
		{6, "metadata.annotations[a]", "FieldValueTypeInvalid"},
	},
}, {
	name: "a value kubectl cannot send",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: a}
spec:
  resources:
    limits: {cpu: .inf, memory: -.Inf}
`,
	want: []loc{{6, "", "SyntaxError"}},
}, {
	name: "a non-finite number where a string belongs",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  labels:
    k: .inf
`,
	want: []loc{{6, "", "SyntaxError"}},
}, {
	name: "keys kubectl refuses",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  labels:
    [x]: a
    ~: b
`,
	want: []loc{{6, "", "SyntaxError"}},
}, {
	name: "a JSON file: duplicate keys and wrong types",
	src: `
{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType",
 "metadata": {"name": "a", "name": "b", "labels": {"n": 1}}}
`,
	want: []loc{{2, "metadata.name", "FieldValueDuplicate"}, {2, "metadata.labels[n]", "FieldValueTypeInvalid"}},
}, {
	name: "a JSON syntax error after two documents",
	src: `
{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}}
{"kind": "InstanceType", "metadata": {"name": "b"}}
{bad
`,
	want: []loc{{2, "apiVersion", "FieldValueRequired"}, {3, "", "SyntaxError"}},
}, {
	name: "v1 List items are checked, other kinds in it only for what kubectl refuses",
	src: `
apiVersion: v1
kind: List
items:
- apiVersion: amlarc.azureml.com/v1alpha1
  kind: InstanceType
  metadata: {name: a, x: 1}
- apiVersion: v1
  kind: Service
  metadata: {name: s}
  spec: {ports: [], ports: [], weird: field}
- apiVersion: amlarc.azureml.com/v1alpha1
  kind: Bogus
extra: 1
`,
	want: []loc{
		{6, "items[0].metadata.x", "UnknownField"},
		{10, "items[1].spec.ports", "FieldValueDuplicate"},
		{12, "items[2].kind", "FieldValueNotSupported"},
		{13, "extra", "UnknownField"},
	},
}, {
	name: "metadata through encoding/json",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  generation: "3"
  finalizers: x
  uid: 5
  deletionGracePeriodSeconds: soon
`,
	want: []loc{
		{5, "metadata.generation", "FieldValueInvalid"},
		{6, "metadata.finalizers", "FieldValueTypeInvalid"},
		{7, "metadata.uid", "FieldValueTypeInvalid"},
		{8, "metadata.deletionGracePeriodSeconds", "FieldValueInvalid"},
	},
}}

func TestFindings(t *testing.T) {
	for _, tt := range findingTests {
		t.Run(tt.name, func(t *testing.T) {
			fs := readFile(t, "test.yaml", strings.TrimPrefix(tt.src, "\n"))
			if got := locs(fs); !slices.Equal(got, tt.want) {
				t.Errorf("Run(%q) findings = %v; want %v%s", tt.src, got, tt.want, messages(fs))
			}
		})
	}
}

// The detail of each kind of finding says what to do about it.
func TestFindingDetails(t *testing.T) {
	tests := []struct {
		src, field string
		want       []string // substrings of the detail
	}{
		{typeHeader + "metadata:\n  name: a\n  name: b\n", "metadata.name", []string{"first on line 4", "the last one is in effect"}},
		{typeHeader + "metadata: {name: a, colour: {}}\n", "metadata.colour", []string{`unknown field "colour"`, "known fields: name, generateName"}},
		{typeHeader + "metadata: {Name: a}\n", "metadata.Name", []string{`unknown field "Name"`, `did you mean "name"?`}},
		{typeHeader + "spec:\n  nodeSelector: {a: yes}\n", "spec.nodeSelector[a]", []string{"not a boolean", "kubectl sends as true", `quote it: "yes"`}},
		{typeHeader + "spec:\n  nodeSelector: {a: 010}\n", "spec.nodeSelector[a]", []string{"not a number", "kubectl sends as 8", `quote it: "010"`}},
		{typeHeader + "spec:\n  nodeSelector: {a: 1.50}\n", "spec.nodeSelector[a]", []string{"kubectl sends as 1.5", `quote it: "1.50"`}},
		{typeHeader + "spec:\n  nodeSelector: {a: ~}\n", "spec.nodeSelector[a]", []string{"not null", `quote it, "~", or remove the key`}},
		{typeHeader + "spec:\n  nodeSelector: {a: }\n", "spec.nodeSelector[a]", []string{"not null", "write a value, or remove the key"}},
		{typeHeader + "spec:\n  resources: {limits: {cpu: true}}\n", "spec.resources.limits[cpu]", []string{`a quantity such as "500m"`, "not a boolean"}},
		{typeHeader + "spec:\n  resources:\n    requests:\n      <<: {cpu: 1}\n      <<: {cpu: 2}\n", "spec.resources.requests", []string{"merge key (<<) set twice", "first on line 6", "<<: [*a, *b]"}},
		{"command: c\ncompute: k\nresources: {limits: {cpu: 1}}\n", "resources.limits", []string{`unknown field "limits"`, "from its instance type"}},
		{typeHeader + "metadata: {name: a, generation: soon}\n", "metadata.generation", []string{"must be an integer, not a string"}},
		// What kubectl refuses is a finding of the document (no field), saying why.
		{typeHeader + "metadata: {name: a}\nspec:\n  resources: {limits: {cpu: .nan}}\n", "", []string{".nan has no JSON form", "write a finite number"}},
		{"endpoint_name: e\nx: &a {k: *a}\n", "", []string{"an alias (*a) inside the node its anchor (&a) names", "kubectl refuses the document"}},
	}
	for _, tt := range tests {
		fs := readFile(t, "t.yaml", tt.src)
		var found *lint.Finding
		for _, x := range fs {
			if x.Err.Field == tt.field {
				found = &x
				break
			}
		}
		if found == nil {
			t.Errorf("Run(%q): no finding at %q:%s", tt.src, tt.field, messages(fs))
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(found.Err.Detail, w) {
				t.Errorf("Run(%q) finding at %q = %q; want it to say %q", tt.src, tt.field, found.Err.Detail, w)
			}
		}
	}
}

// A label written null says what kubectl sends only when that is news.
func TestNullDetailWording(t *testing.T) {
	fs := readFile(t, "t.yaml", typeHeader+"metadata: {name: a, labels: {a: null}}\n")
	if len(fs) != 1 {
		t.Fatalf("findings:%s; want one", messages(fs))
	}
	if strings.Contains(fs[0].Err.Detail, "sends null as null") {
		t.Errorf("finding %q says nothing new", fs[0].Err.Detail)
	}
}

// The value in effect is the last one written, as kubectl reads the file; each earlier
// key is a finding at the later one.
func TestDuplicateKeysLastInEffect(t *testing.T) {
	src := `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: first
  name: second
spec:
  nodeSelector: {pool: a, pool: b}
  resources:
    requests: {cpu: 1, memory: 1Gi}
    requests: {cpu: 2}
`
	r := lintFile(t, "d.yaml", src)
	it, ok := r.Catalog.Get("second")
	if !ok || it.Spec.NodeSelector["pool"] != "b" {
		t.Fatalf("catalog %v; want the last values, second and pool b", r.Catalog.All())
	}
	if got, want := amounts(it.Spec.Resources.Requests), map[string]string{"cpu": "2"}; !maps.Equal(got, want) {
		t.Errorf("requests = %v; want the last mapping whole, %v", got, want)
	}
	if got, want := locs(reading(r.Findings)), []loc{{5, "metadata.name", "FieldValueDuplicate"}, {7, "spec.nodeSelector[pool]", "FieldValueDuplicate"}, {10, "spec.resources.requests", "FieldValueDuplicate"}}; !slices.Equal(got, want) {
		t.Errorf("findings = %v; want %v%s", got, want, messages(r.Findings))
	}
	if o, _ := r.Origin("second"); o.Line != 5 {
		t.Errorf("Origin(second) on line %d; want 5, the key in effect", o.Line)
	}
}

// amounts renders a resource list as text, for comparing.
func amounts(l instancetype.ResourceList) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

// A finding renders as FILE:LINE: FIELD: MESSAGE [RULE], or FILE:LINE: MESSAGE [RULE] for
// one about the file or a document as a whole.
func TestFindingRendering(t *testing.T) {
	for _, tt := range []struct {
		src, want string
	}{
		{typeHeader + "metadata: {name: a, x: 1}\n",
			`test.yaml:3: metadata.x: unknown field "x"; known fields: name, generateName, namespace, selfLink, uid, resourceVersion, generation, creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, labels, annotations, ownerReferences, finalizers, managedFields [unknown-field]`},
		{"a: b\n[\n", "test.yaml:2: YAML syntax error: could not find expected ':' [syntax]"},
		{typeHeader + "metadata: {name: a}\nspec: {nodeSelector: {a: 1}}\n", `test.yaml:4: spec.nodeSelector[a]: Invalid value: "1": must be a string, not a number; quote it: "1" [wrong-type]`},
	} {
		fs := readFile(t, "test.yaml", tt.src)
		if len(fs) != 1 {
			t.Errorf("Run(%q) findings:%s; want 1", tt.src, messages(fs))
			continue
		}
		if got := fs[0].String(); got != tt.want {
			t.Errorf("Run(%q): String() = %q; want %q", tt.src, got, tt.want)
		}
	}
}

// TypeName, Message and String of each kind of finding that is not about a field's value,
// and of one that is.
func TestFindingTypes(t *testing.T) {
	one := func(name, src string, opts lint.Options, typ lint.FindingType) lint.Finding {
		t.Helper()
		r, err := lint.Run([]lint.Input{lint.Bytes(name, []byte(src))}, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range r.Findings {
			if f.Type == typ {
				return f
			}
		}
		t.Fatalf("Run(%.100q): findings%s; want one of type %s", src, messages(r.Findings), typ)
		return lint.Finding{}
	}
	unreadable := func() lint.Finding {
		fsys := unlistableFS{fstest.MapFS{"locked/a.yaml": {Data: []byte("a: 1\n")}, "b.yaml": {Data: []byte("a: 1\n")}}}
		r, err := lint.Run([]lint.Input{lint.FS(fsys, ".")}, lint.Options{})
		if err != nil || len(r.Findings) != 1 {
			t.Fatalf("Run: %v, %v; want one unreadable directory", findings(r), err)
		}
		return r.Findings[0]
	}
	tests := []struct {
		name      string
		f         lint.Finding
		typeName  string
		message   string // a prefix
		rendering string // a prefix
	}{
		{"unknown field", one("test.yaml", typeHeader+"metadata: {name: a}\nstatus: {}\n", lint.Options{}, lint.UnknownField),
			"UnknownField", `unknown field "status"`, `test.yaml:4: status: unknown field "status"`},
		{"syntax error", one("test.yaml", "a: [\n", lint.Options{}, lint.SyntaxError), "SyntaxError", "YAML syntax error: ", "test.yaml:1: YAML syntax error: "},
		{"input limit", one("t.yaml", "a: "+strings.Repeat("[", 10001)+"\n", lint.Options{}, lint.InputLimit), "InputLimit", "", "t.yaml:1: "},
		{"unreadable file", unreadable(), "UnreadableFile", "cannot read: permission denied", "locked:1: cannot read: permission denied"},
		{"too many findings", one("x.yaml", "a: [\n---\nb: [\n---\nc: [\n---\nd: [\n", lint.Options{MaxFindings: 1}, lint.TooManyFindings),
			"TooManyFindings", "3 more findings", "x.yaml:1: 3 more findings"},
		{"field value", one("x.yaml", instanceType("a", "    requests: {memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi}\n"), lint.Options{}, ""),
			"FieldValueRequired", "Required value", "x.yaml:7: spec.resources.requests[cpu]: Required value"},
	}
	for _, tt := range tests {
		if got := tt.f.TypeName(); got != tt.typeName {
			t.Errorf("%s: TypeName() = %q; want %q", tt.name, got, tt.typeName)
		}
		if got := tt.f.Message(); !strings.HasPrefix(got, tt.message) || got == "" {
			t.Errorf("%s: Message() = %q; want it to start %q", tt.name, got, tt.message)
		}
		if got := tt.f.String(); !strings.HasPrefix(got, tt.rendering) {
			t.Errorf("%s: String() = %q; want it to start %q", tt.name, got, tt.rendering)
		}
		// Typed findings keep a field.ErrorType that apierrors accepts.
		if tt.f.Err == nil || tt.f.Err.Type == "" {
			t.Errorf("%s: Err = %#v; want a field error with a type", tt.name, tt.f.Err)
		}
	}
	if f := tests[0].f; f.Err.Type != field.ErrorTypeForbidden {
		t.Errorf("unknown field: Err.Type = %s; want %s", f.Err.Type, field.ErrorTypeForbidden)
	}
}

// A reader is read as bytes are; one that fails is a finding that says why.
func TestReaderInput(t *testing.T) {
	data := typeHeader + "metadata: {name: a, x: 1}\n"
	r, err := lint.Run([]lint.Input{lint.Reader("r.yaml", strings.NewReader(data))}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := findings(r), findings(lintFile(t, "r.yaml", data)); !slices.Equal(a, b) || r.Catalog.Len() != 2 {
		t.Errorf("Reader: findings %v, %d in the catalog; want what Bytes gives, %v, and a", a, r.Catalog.Len(), b)
	}
	r, err = lint.Run([]lint.Input{lint.Reader("r.yaml", iotest.ErrReader(errors.New("boom")))}, lint.Options{})
	if err != nil || len(r.Findings) != 1 || r.Findings[0].Type != lint.UnreadableFile || !strings.Contains(r.Findings[0].Message(), "boom") {
		t.Errorf("a failing reader: %v, %v; want one UnreadableFile finding saying boom", findings(r), err)
	}
}

// A walk reads the files named .yaml, .yml and .json, in any case, and no other.
func TestManifestNames(t *testing.T) {
	fsys := fstest.MapFS{}
	want := 0
	for _, tt := range []struct {
		name string
		read bool
	}{
		{"a.yaml", true}, {"a.yml", true}, {"a.json", true}, {"A.YAML", true}, {"dir/x.Yml", true},
		{".yaml", true}, {"a.b.json", true},
		{"a.txt", false}, {"yaml", false}, {"a.yaml.bak", false}, {"a.yamll", false}, {"README.md", false},
		{"x.y/aml", false}, {"a.", false},
	} {
		fsys[tt.name] = &fstest.MapFile{Data: []byte("a: [\n")} // a syntax error in each file read
		if tt.read {
			want++
		}
	}
	r, err := lint.Run([]lint.Input{lint.FS(fsys, ".")}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		got = append(got, f.File)
	}
	slices.Sort(got)
	if r.Files != want || len(got) != want {
		t.Errorf("Run read %d files, with findings in %q; want the %d manifests", r.Files, got, want)
	}
}

// A file whose first character other than white space is "{" is read as kubectl reads it:
// a stream of JSON values, by JSON rules, or, when its first value (or second) is not
// JSON, as YAML.
func TestJSONStream(t *testing.T) {
	tests := []struct {
		name, src string
		docs      int // documents checked
		skipped   int
		want      []loc
	}{
		{"YAML flow in braces", "{apiVersion: amlarc.azureml.com/v1alpha1, kind: InstanceType, metadata: {name: yaml, x: 1}}\n", 1, 0, []loc{{1, "metadata.x", "UnknownField"}}},
		// A second value that is JSON, if no object, makes the stream JSON: the --- after it
		// is a JSON syntax error, where it is (once the rest was read as YAML).
		{"a second value JSON and no object: the rest is JSON", typeJSON + "\n[1]\n---\n" + typeHeader + "metadata: {name: b}\n", 1, 1, []loc{{3, "", "SyntaxError"}}},
		{"a JSON syntax error in the first value: YAML reads it", `{"a": 1,}`, 0, 1, nil},
		{"a JSON syntax error in the first value, YAML fails too", `{"a": [}`, 0, 0, []loc{{1, "", "SyntaxError"}}},
		// A value that is no object is read, and skipped, as any document that is no
		// Kubernetes object (once it was a syntax error).
		{"the third value is not an object", typeJSON + "\n" + typeJSON + "\n[1]\n", 2, 1, nil},
		{"a JSON syntax error after two values", typeJSON + "\n" + typeJSON + "\n{bad\n", 2, 0, []loc{{3, "", "SyntaxError"}}},
		// 010 is no JSON: kubectl reads the file as YAML, where it is 8.
		{"octal is no JSON", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "spec": {"resources": {"limits": {"cpu": 010}}}}`, 1, 0, nil},
		{"YAML 1.1 is no JSON: yes is a string", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a", "labels": {"a": "yes"}}}`, 1, 0, nil},
	}
	for _, tt := range tests {
		r := lintFile(t, "j.json", tt.src)
		if got := locs(reading(r.Findings)); r.Documents != tt.docs || len(r.Skipped) != tt.skipped || !slices.Equal(got, tt.want) {
			t.Errorf("%s: Run(%q) = %d documents checked, %d skipped, findings %v; want %d, %d, %v%s", tt.name, tt.src, r.Documents, len(r.Skipped), got, tt.docs, tt.skipped, tt.want, messages(r.Findings))
		}
	}
	r := lintFile(t, "j.json", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}, "spec": {"resources": {"limits": {"cpu": 010}}}}`)
	if it, ok := r.Catalog.Get("a"); !ok || it.Spec.Resources.Limits["cpu"].String() != "8" {
		t.Errorf("a JSON value that is not JSON: cpu %v; want 8, as kubectl reads it as YAML", it.Spec.Resources.Limits)
	}
}

// typeJSON is an InstanceType in JSON, on one line.
const typeJSON = `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}}`

// When the second JSON value fails, kubectl reads the rest as YAML from where the first
// ended, which may be on the same line. Positions on that line count the JSON's columns
// before it: two documents there that miss the same field are two findings at two places.
func TestYAMLAfterJSONOnOneLine(t *testing.T) {
	src := `{"kind": "InstanceType"}  {kind: InstanceType, metadata: {name: [x]}}` + "\n"
	var got []string
	for _, x := range readFile(t, "j.json", src) {
		got = append(got, fmt.Sprintf("%d:%d %s", x.Line, x.Column, x.Err.Field))
	}
	if want := []string{"1:1 apiVersion", "1:27 apiVersion", "1:59 metadata.name"}; !slices.Equal(got, want) {
		t.Errorf("Run(%q) findings at %q; want %q", src, got, want)
	}
}

// Documents are cut as kubectl cuts them: at lines that start with "---".
func TestDocumentsCutAsKubectl(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		names  []string // of the instance types read
		errors []loc
	}{
		{"separators with comments", typeHeader + "metadata: {name: a}\n--- # the second\n" + typeHeader + "metadata: {name: b}\n---\n---\n# only a comment\n", []string{"a", "b"}, nil},
		{"an indented --- is no separator", typeHeader + "metadata:\n  name: a\n  labels: {x: y}\n ---\n", nil, []loc{{6, "", "SyntaxError"}}},
		{"--- inside a block scalar ends the document, as kubectl cuts it", typeHeader + "metadata:\n  name: a\n  annotations:\n    text: |\n---\n" + typeHeader + "metadata: {name: b}\n", []string{"a", "b"}, nil},
		{"text after --- is refused, and the rest read", typeHeader + "metadata: {name: a}\n--- b\n" + typeHeader + "metadata: {name: b}\n", []string{"b"}, []loc{{4, "", "SyntaxError"}}},
		{"----", typeHeader + "metadata: {name: a}\n----\n" + typeHeader + "metadata: {name: b}\n", []string{"b"}, []loc{{4, "", "SyntaxError"}}},
		{"CRLF line breaks", strings.ReplaceAll(typeHeader+"metadata: {name: a}\n---\n"+typeHeader+"metadata:\n  name: b\n", "\n", "\r\n"), []string{"a", "b"}, nil},
		{"a document end marker", typeHeader + "metadata: {name: a}\n...\n---\n" + typeHeader + "metadata: {name: b}\n", []string{"a", "b"}, nil},
		{"a syntax error ends its document only", typeHeader + "metadata: {name: a}\n---\na: [\n---\n" + typeHeader + "metadata: {name: b}\n", []string{"a", "b"}, []loc{{5, "", "SyntaxError"}}},
		{"anchors are local to their document", typeHeader + "metadata: {name: &n a}\n---\n" + typeHeader + "metadata: {name: *n}\n---\n" + typeHeader + "metadata: {name: c}\n", []string{"a", "c"}, []loc{{7, "", "SyntaxError"}}},
	}
	for _, tt := range tests {
		r := lintFile(t, "d.yaml", tt.src)
		var names []string
		for it := range r.Catalog.All() {
			if it.Name != "defaultinstancetype" {
				names = append(names, it.Name)
			}
		}
		slices.Sort(names)
		if got := locs(reading(r.Findings)); !slices.Equal(names, tt.names) || !slices.Equal(got, tt.errors) {
			t.Errorf("%s: Run(%q) = %q, findings %v; want %q, %v%s", tt.name, tt.src, names, got, tt.names, tt.errors, messages(r.Findings))
		}
	}
	// CRLF: positions count lines as kubectl's reader does.
	fs := readFile(t, "d.yaml", "apiVersion: amlarc.azureml.com/v1alpha1\r\nkind: InstanceType\r\nmetadata:\r\n  name: a\r\n  x: 1\r\n")
	if got := locs(fs); !slices.Equal(got, []loc{{5, "metadata.x", "UnknownField"}}) {
		t.Errorf("CRLF: findings %v; want the unknown field on line 5", got)
	}
}

// Every non-empty document is accounted for, in YAML and JSON: checked, skipped, or a
// finding of its own when it cannot be read.
func TestEveryDocumentCounted(t *testing.T) {
	for _, tt := range []struct {
		src                      string
		checked, skipped, broken int
	}{
		{"a: 1\n---\nb: [\n---\n\n---\nc: 1\n", 0, 2, 1},
		{"a: 1\n---\n\t- x\n", 0, 1, 1},
		{`{"a": 1} {"b": [}`, 0, 1, 1},
		{`{"a": 1}`, 0, 1, 0},
		{typeHeader + "metadata: {name: a}\n---\n~\n---\n" + typeJSON + "\n", 2, 0, 0},
	} {
		r := lintFile(t, "c.yaml", tt.src)
		broken := 0
		for _, f := range r.Findings {
			if f.Type == lint.SyntaxError {
				broken++
			}
		}
		if r.Documents != tt.checked || len(r.Skipped) != tt.skipped || broken != tt.broken {
			t.Errorf("Run(%q): %d checked, %d skipped, %d that cannot be read; want %d, %d, %d%s", tt.src, r.Documents, len(r.Skipped), broken, tt.checked, tt.skipped, tt.broken, messages(r.Findings))
		}
	}
}

// A document's lines count from the start of the file, whatever came before it: comments,
// documents skipped, empty documents.
func TestPositionInLaterDocuments(t *testing.T) {
	r := lintFile(t, "l.yaml", `# a comment
---
apiVersion: v1
kind: Service
---

---
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: third
  x: 1
`)
	if fs := reading(r.Findings); !slices.Equal(locs(fs), []loc{{12, "metadata.x", "UnknownField"}}) || fs[0].Column != 3 {
		t.Errorf("findings%s; want the unknown field at 12:3", messages(r.Findings))
	}
	if o, _ := r.Origin("third"); o.Line != 11 || r.Documents != 1 {
		t.Errorf("third named on line %d, %d documents checked; want line 11, 1", o.Line, r.Documents)
	}
	if got := skips(r); !slices.Equal(got, []string{"l.yaml:3"}) {
		t.Errorf("skipped %q; want the Service on line 3", got)
	}
}

// JSON numbers beyond the range of a 64-bit float, which kubectl's decoder refuses
// (converting the object), are one finding, wherever they are: a resource amount, an
// unknown field, a label, a node's allocatable, a deployment's request.
func TestJSONNumbersBeyondFloat64(t *testing.T) {
	for _, tt := range []struct {
		name, src string
	}{
		{"a limit", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}, "spec": {"resources": {"requests": {"cpu": 1, "memory": "1Gi"}, "limits": {"cpu": -1e400, "memory": "2Gi"}}}}`},
		{"an unknown field", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}, "x": {"y": 1.8e308}}`},
		{"a label value", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a", "labels": {"k": 1e309}}}`},
		{"a node's allocatable", `{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": 1e999}}}`},
		{"a deployment's request", `{"endpoint_name": "e", "instance_type": "t", "resources": {"requests": {"cpu": 9e9999}}}`},
	} {
		fs := readFile(t, "n.json", tt.src)
		if len(fs) != 1 || !strings.Contains(fs[0].Message(), "range of a 64-bit float") {
			t.Errorf("%s: findings%s; want one saying the number is beyond the range of a 64-bit float", tt.name, messages(fs))
		}
	}
	// Underflow is no refusal: kubectl reads 1e-400 as 0.
	if fs := readFile(t, "u.json", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}, "spec": {"resources": {"limits": {"cpu": 1e-400}}}}`); len(fs) != 0 {
		t.Errorf("1e-400: findings%s; kubectl reads it as 0", messages(fs))
	}
}

// One mistake, one finding: a finding of validation at or below a path whose value
// decoding refused is left out, so that a value of the wrong shape is reported once, not
// also as the missing fields it would hold; what is beside it is still checked.
func TestRefusedValuesHaveOneFinding(t *testing.T) {
	const listHeader = "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n"
	tests := []struct {
		name, src string
		want      []loc
	}{
		{"name a number", typeHeader + "metadata: {name: 7}\nspec:\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: 1, memory: 1Gi}\n",
			[]loc{{3, "metadata.name", "FieldValueTypeInvalid"}}},
		{"limit a list", typeHeader + "metadata: {name: a}\nspec:\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: [1], memory: 1Gi}\n",
			[]loc{{7, "spec.resources.limits[cpu]", "FieldValueTypeInvalid"}}},
		{"deployment instance type a number", "endpoint_name: e\ninstance_type: 12\n",
			[]loc{{2, "instance_type", "FieldValueTypeInvalid"}}},
		{"deployment request a boolean", "endpoint_name: e\nresources:\n  requests: {cpu: yes, memory: 1Gi}\n",
			[]loc{{3, "resources.requests[cpu]", "FieldValueTypeInvalid"}}},
		{"limits a number", typeHeader + "metadata: {name: a}\nspec:\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: 5\n",
			[]loc{{7, "spec.resources.limits", "FieldValueTypeInvalid"}}},
		{"resources a list", typeHeader + "metadata: {name: a}\nspec:\n  resources: [1]\n",
			[]loc{{5, "spec.resources", "FieldValueTypeInvalid"}}},
		{"spec a string", typeHeader + "metadata: {name: a}\nspec: big\n",
			[]loc{{4, "spec", "FieldValueTypeInvalid"}}},
		{"metadata a list", typeHeader + "metadata: [a]\nspec:\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: 1, memory: 1Gi}\n",
			[]loc{{3, "metadata", "FieldValueTypeInvalid"}}},
		{"a list item's limits a number", listHeader + "- metadata: {name: a}\n  spec:\n    resources:\n      requests: {cpu: 1, memory: 1Gi}\n      limits: 5\n",
			[]loc{{8, "items[0].spec.resources.limits", "FieldValueTypeInvalid"}}},
		{"deployment requests a list", "endpoint_name: e\nresources:\n  requests: [1]\n",
			[]loc{{3, "resources.requests", "FieldValueTypeInvalid"}}},
		{"inline deployment requests a list", "deployments:\n- name: blue\n  resources:\n    requests: [1]\n",
			[]loc{{4, "deployments[0].resources.requests", "FieldValueTypeInvalid"}}},
		// What is beside a refused value is still checked.
		{"limits a number, requests zero", typeHeader + "metadata: {name: a}\nspec:\n  resources:\n    requests: {cpu: 0, memory: 1Gi}\n    limits: 5\n",
			[]loc{{6, "spec.resources.requests[cpu]", "FieldValueInvalid"}, {7, "spec.resources.limits", "FieldValueTypeInvalid"}}},
		{"deployment requests a list, instance type invalid", "endpoint_name: e\ninstance_type: Bad_Name\nresources:\n  requests: [1]\n",
			[]loc{{2, "instance_type", "FieldValueInvalid"}, {4, "resources.requests", "FieldValueTypeInvalid"}}},
	}
	for _, tt := range tests {
		r := lintFile(t, "t.yaml", tt.src)
		if got := locs(r.Findings); !slices.Equal(got, tt.want) {
			t.Errorf("%s: Run findings = %v; want %v%s", tt.name, got, tt.want, messages(r.Findings))
		}
	}
}

// A finding about a document as a whole has no field: it renders as FILE:LINE: MESSAGE,
// never with "<nil>".
func TestDocumentLevelFindingsHaveNoField(t *testing.T) {
	for _, src := range []string{
		typeHeader + "[x]: 1\n",
		typeHeader + "~: 1\n",
		typeHeader + "<<: 3\n",
		"endpoint_name: e\n? {a: 1}\n: x\n",
		"a: [\n",
	} {
		fs := readFile(t, "t.yaml", src)
		if len(fs) == 0 {
			t.Errorf("Run(%q): no finding", src)
		}
		for _, x := range fs {
			if x.Err.Field != "" || strings.Contains(x.String(), "<nil>") {
				t.Errorf("Run(%q) finding %q has field %q; want \"\"", src, x, x.Err.Field)
			}
		}
	}
}

// The reason a Kubernetes object is skipped names its kind and apiVersion, clipped: a
// kind of 60 KiB does not make every skip of the report 60 KiB. Documents of one kind
// share one reason.
func TestSkipReasonsClippedAndShared(t *testing.T) {
	long := strings.Repeat("K", 60<<10)
	r := lintFile(t, "a.yaml", "apiVersion: v1\nkind: "+long+"\n---\napiVersion: v1\nkind: "+long+"\n---\napiVersion: v1\nkind: Service\n")
	if len(r.Skipped) != 3 {
		t.Fatalf("skipped %d documents; want 3", len(r.Skipped))
	}
	a, b := r.Skipped[0].Reason, r.Skipped[1].Reason
	if len(a) > 400 || !strings.Contains(a, "(61440 bytes)") {
		t.Errorf("reason of %d bytes: %.200q", len(a), a)
	}
	if a != b || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Errorf("two documents of one kind have two reasons: %.100q, %.100q", a, b)
	}
	if got := r.Skipped[2].Reason; got != "a Service (v1), not an InstanceType" {
		t.Errorf("reason %q", got)
	}
}

// The manifests of the source document are read as they are written: the instance types
// with their selectors, requests and limits, the list's items where they are, the job and
// the deployments with what they name.
func TestExamplesRead(t *testing.T) {
	r, err := lint.Run([]lint.Input{lint.FS(examples.Manifests, ".")}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 0 || r.Files != 5 {
		t.Fatalf("findings%s, %d files; want none, 5", messages(r.Findings), r.Files)
	}
	it, _ := r.Catalog.Get("myinstancetypename")
	if it == nil || !maps.Equal(it.Spec.NodeSelector, map[string]string{"mylabel": "mylabelvalue"}) ||
		!maps.Equal(amounts(it.Spec.Resources.Limits), map[string]string{"cpu": "1", "nvidia.com/gpu": "1", "memory": "2Gi"}) ||
		!maps.Equal(amounts(it.Spec.Resources.Requests), map[string]string{"cpu": "700m", "memory": "1500Mi"}) {
		t.Errorf("myinstancetypename = %+v", it)
	}
	for _, tt := range []struct {
		name, file string
		line       int
	}{{"myinstancetypename", "my_instance_type.yaml", 4}, {"cpusmall", "my_instance_type_list.yaml", 5}, {"defaultinstancetype", "my_instance_type_list.yaml", 17}} {
		if o, ok := r.Origin(tt.name); !ok || o.File != tt.file || o.Line != tt.line {
			t.Errorf("Origin(%s) = %+v, %v; want %s:%d", tt.name, o, ok, tt.file, tt.line)
		}
	}
	if def, _ := r.Catalog.Get("defaultinstancetype"); def == nil || !maps.Equal(amounts(def.Spec.Resources.Limits), map[string]string{"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "0"}) {
		t.Errorf("the list's defaultinstancetype = %+v; want it to override the built-in one", def)
	}
	byFile := map[string]lint.Placement{}
	for _, p := range r.Placements {
		byFile[p.File] = p
	}
	if w, want := *byFile["job.yaml"].Workload, (workload.Workload{Kind: workload.ComputeJob, InstanceType: "myinstancetypename",
		Compute: "azureml:k8s-compute", ComputePath: field.NewPath("compute")}); !reflect.DeepEqual(w, want) {
		t.Errorf("job.yaml: %+v; want %+v", w, want)
	}
	dep := byFile["deployment_resources.yaml"].Workload
	if dep.Kind != workload.OnlineDeployment || dep.Name != "blue" || dep.InstanceType != "cpusmall" || dep.Resources == nil ||
		!maps.Equal(amounts(dep.Resources.Requests), map[string]string{"cpu": "0.1", "memory": "0.2Gi"}) ||
		!maps.Equal(amounts(dep.Resources.Limits), map[string]string{"cpu": "0.2", "memory": "0.5Gi"}) {
		t.Errorf("deployment_resources.yaml: %+v", dep)
	}
	if plain := byFile["deployment.yaml"].Workload; plain.Resources != nil || plain.MLflow || plain.InstanceType != "myinstancetypename" {
		t.Errorf("deployment.yaml: %+v; want no resources, not MLflow, myinstancetypename", plain)
	}
}

// Files in UTF-16 with a byte order mark (what PowerShell 5.1's > writes, with CRLF) are
// read as kubectl reads them, converted before documents are cut: every document checked,
// every finding on its line. UTF-32 and UTF-16 without a mark are one clear finding each.
func TestEncodings(t *testing.T) {
	const src = "apiVersion: amlarc.azureml.com/v1alpha1\r\nkind: InstanceType\r\nmetadata:\r\n  name: a\r\n" +
		"spec:\r\n  resources:\r\n    requests: {cpu: 1, memory: 1Gi}\r\n    limits: {cpu: 1, memory: 1Gi}\r\n" +
		"---\r\napiVersion: amlarc.azureml.com/v1alpha1\r\nkind: InstanceType\r\nmetadata:\r\n  name: b\r\nspec:\r\n  resources: [\r\n"
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"UTF-16LE", utf16Text(src, false)},
		{"UTF-16BE", utf16Text(src, true)},
		{"UTF-8 with a mark", append([]byte{0xef, 0xbb, 0xbf}, src...)},
	} {
		r := lintFile(t, "e.yaml", string(tt.data))
		if _, ok := r.Catalog.Get("a"); !ok || r.Documents != 1 || !slices.Equal(locs(r.Findings), []loc{{15, "", "SyntaxError"}}) {
			t.Errorf("%s: %d documents checked, findings%s; want a read, and a syntax error on line 15", tt.name, r.Documents, messages(r.Findings))
		}
	}
	// JSON behind a UTF-8 mark is JSON, as kubectl reads it.
	fs := readFile(t, "j.json", "\xef\xbb\xbf"+`{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "j"}, "x": 1}`)
	if len(fs) != 1 || fs[0].Type != lint.UnknownField {
		t.Errorf("JSON after a UTF-8 mark: findings%s; want the unknown field only", messages(fs))
	}
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"UTF-32BE", append([]byte{0, 0, 0xfe, 0xff}, 0, 0, 0, 'a'), "UTF-32 (big-endian"},
		{"UTF-32LE", append([]byte{0xff, 0xfe, 0, 0}, 'a', 0, 0, 0), "UTF-32 (little-endian"},
		{"UTF-16LE without a mark", utf16Text(src, false)[2:], "UTF-16 (little-endian) without a byte order mark"},
		{"UTF-16BE without a mark", utf16Text(src, true)[2:], "UTF-16 (big-endian) without a byte order mark"},
		{"UTF-32LE without a mark", utf32Text(src, false), "UTF-32 (little-endian) without a byte order mark"},
		{"UTF-32BE without a mark", utf32Text(src, true), "UTF-32 (big-endian) without a byte order mark"},
		{"UTF-32LE without a mark, one character", []byte{'a', 0, 0, 0}, "UTF-32 (little-endian) without a byte order mark"},
	} {
		r := lintFile(t, "e.yaml", string(tt.data))
		if len(r.Findings) != 1 || r.Findings[0].Type != lint.SyntaxError || !strings.Contains(r.Findings[0].Message(), tt.want) || r.Documents != 0 || len(r.Skipped) != 0 {
			t.Errorf("%s: findings%s, %d documents, skipped %v; want one syntax error saying %q, nothing read", tt.name, messages(r.Findings), r.Documents, r.Skipped, tt.want)
		}
	}
}

// utf16Text encodes s as UTF-16 with a byte order mark, in either byte order.
func utf16Text(s string, bigEndian bool) []byte {
	out := []byte{0xff, 0xfe}
	if bigEndian {
		out = []byte{0xfe, 0xff}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// utf32Text encodes s as UTF-32 without a byte order mark, in either byte order.
func utf32Text(s string, bigEndian bool) []byte {
	var out []byte
	for _, r := range s {
		if bigEndian {
			out = append(out, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
		} else {
			out = append(out, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
	}
	return out
}

// A syntax error is on the line where it is, whether the YAML reader's scanner or its
// parser finds it, and within the file when it is found at its end.
func TestSyntaxErrorLines(t *testing.T) {
	for _, tt := range []struct {
		data string
		line int
	}{
		{"a: 1\nb: &\n", 2},      // did not find expected alphabetic or numeric character (the scanner)
		{"a: 1\nb: !<\n", 2},     // did not find expected tag URI (the scanner)
		{"a: 1\nb: [1, 2\n", 2},  // did not find expected ',' or ']' (the parser, at the end)
		{"a:\n  - 1\n - 2\n", 3}, // did not find expected key (the parser)
		{"#           \n\n  - 0:\n     0: \n    0:\n     00:\n    0:\n\n    0: \"0\"& 00000000\u2717\u2717\u2717\u2717", 9},
		// At the end of a file without a line break.
		{"{", 1}, {"[", 1}, {"a: [1, 2", 1}, {"a: {b: 1", 1}, {"a: \"x", 1}, {"apiVersion: v1\nkind: [x", 2}, {"a: 1\nb: [1, 2", 2},
	} {
		fs := lintFile(t, "f.yaml", tt.data).Findings
		if len(fs) != 1 || fs[0].Line != tt.line || fs[0].Type != lint.SyntaxError {
			t.Errorf("Run(%q): findings%s; want one syntax error on line %d", tt.data, messages(fs), tt.line)
		}
	}
}

// An anchor whose own content holds an alias to it ("x: &a {k: *a}") has no end: kubectl
// refuses the document, and that is one finding of the document, at the alias (once it was
// at the alias's field).
func TestCyclicAliases(t *testing.T) {
	for _, tt := range []struct {
		data string
		line int
	}{
		{"endpoint_name: e\nx: &a {k: *a}\n", 2},
		{"command: c\ncompute: k\nx: &a [*a]\n", 3},
		{"apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: bomb\n  ownerReferences: &a [*a]\n", 5},
	} {
		fs := lintFile(t, "cyclic.yaml", tt.data).Findings
		if len(fs) != 1 || fs[0].Err.Field != "" || fs[0].Line != tt.line || !strings.Contains(fs[0].Message(), "an alias (*a) inside the node its anchor (&a) names") {
			t.Errorf("Run(%q): findings%s; want one about the cycle on line %d", tt.data, messages(fs), tt.line)
		}
	}
}

// kubectl's line reader loses a last line without a line break whose length is a multiple
// of 4,096 bytes: that is a finding at the line, where kubectl reads the file. An Azure ML
// file is read as the Azure ML CLI reads it, every line of it.
func TestLostLastLine(t *testing.T) {
	last := "  labels: {x: " + strings.Repeat("v", 4096-len("  labels: {x: }")) + "}"
	r := lintFile(t, "t.yaml", instanceType("a", okResources)+last)
	if fs := reading(r.Findings); len(fs) != 1 || fs[0].Line != 9 || !strings.Contains(fs[0].Message(), "kubectl ignores this line") {
		t.Errorf("an InstanceType whose last line is lost: findings%s; want one on line 9", messages(fs))
	}
	r = lintFile(t, "j.json", `{"kind": "InstanceType"}`+"\n"+"x: "+strings.Repeat("v", 4093))
	if fs := reading(r.Findings); !slices.Contains(locs(fs), loc{2, "", "SyntaxError"}) {
		t.Errorf("YAML after JSON whose last line is lost: findings%s; want one on line 2", messages(fs))
	}
	name := strings.Repeat("n", 4096-len("instance_type: "))
	r = lintFile(t, "d.yaml", "endpoint_name: e\ninstance_type: "+name)
	if len(r.Placements) != 1 || r.Placements[0].Workload.InstanceType != name {
		t.Errorf("an Azure ML deployment: placements %v; want its instance type read from its last line", works(r.Placements))
	}
	for _, f := range r.Findings {
		if strings.Contains(f.Message(), "kubectl ignores") {
			t.Errorf("an Azure ML deployment: finding %s; the Azure ML CLI reads every line", f)
		}
	}
}
