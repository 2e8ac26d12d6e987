package manifest_test

import (
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/workload"
)

// readExample parses one file of examples.Manifests.
func readExample(t *testing.T, name string) *manifest.File {
	t.Helper()
	data, err := fs.ReadFile(examples.Manifests, name)
	if err != nil {
		t.Fatal(err)
	}
	return manifest.Parse(name, data)
}

// oneDocument returns the only document of f, failing the test if it has another number.
func oneDocument(t *testing.T, f *manifest.File) *manifest.Document {
	t.Helper()
	if len(f.Documents) != 1 {
		t.Fatalf("Parse(%s): %d documents; want 1 (findings:%s; skipped: %v)", f.Name, len(f.Documents), messages(f.Findings()), f.Skipped)
	}
	return f.Documents[0]
}

func TestExamplesDecode(t *testing.T) {
	names, err := fs.Glob(examples.Manifests, "*.yaml")
	if err != nil || len(names) < 5 {
		t.Fatalf("examples.Manifests: %v, %v; want the five manifests of the source document", names, err)
	}
	for _, name := range names {
		if fs := readExample(t, name).Findings(); len(fs) != 0 {
			t.Errorf("Parse(%s) findings:%s; want none", name, messages(fs))
		}
	}

	d := oneDocument(t, readExample(t, "my_instance_type.yaml"))
	if d.Kind != manifest.KindInstanceType || len(d.InstanceTypes) != 1 || len(d.Workloads) != 0 {
		t.Fatalf("my_instance_type.yaml: kind %s, %d instance types, %d workloads; want one InstanceType", d.Kind, len(d.InstanceTypes), len(d.Workloads))
	}
	item := d.InstanceTypes[0]
	if item.Path != nil || item.Line != 1 || item.Kind != manifest.KindInstanceType || item.Note != "" {
		t.Errorf("my_instance_type.yaml: item at %v line %d kind %s note %q; want <nil> line 1 InstanceType", item.Path, item.Line, item.Kind, item.Note)
	}
	got := item.Object
	if got.Name != "myinstancetypename" || got.APIVersion != instancetype.APIVersion || got.Kind != "InstanceType" {
		t.Errorf("my_instance_type.yaml: %q %q %q", got.Name, got.APIVersion, got.Kind)
	}
	if want := map[string]string{"mylabel": "mylabelvalue"}; !reflect.DeepEqual(got.Spec.NodeSelector, want) {
		t.Errorf("nodeSelector = %v; want %v", got.Spec.NodeSelector, want)
	}
	if g, want := amounts(got.Spec.Resources.Limits), map[string]string{"cpu": "1", "nvidia.com/gpu": "1", "memory": "2Gi"}; !reflect.DeepEqual(g, want) {
		t.Errorf("limits = %v; want %v", g, want)
	}
	if g, want := amounts(got.Spec.Resources.Requests), map[string]string{"cpu": "700m", "memory": "1500Mi"}; !reflect.DeepEqual(g, want) {
		t.Errorf("requests = %v; want %v", g, want)
	}
	for name, a := range got.Spec.Resources.Limits {
		if !a.IsValid() {
			t.Errorf("limits[%s] = %q is not a valid amount", name, a)
		}
	}

	list := oneDocument(t, readExample(t, "my_instance_type_list.yaml"))
	if list.Kind != manifest.KindInstanceTypeList || len(list.InstanceTypes) != 2 {
		t.Fatalf("my_instance_type_list.yaml: kind %s, %d instance types; want an InstanceTypeList of 2", list.Kind, len(list.InstanceTypes))
	}
	for i, want := range []struct {
		path, name string
		line       int
	}{{"items[0]", "cpusmall", 4}, {"items[1]", instancetype.DefaultName, 16}} {
		it := list.InstanceTypes[i]
		if it.Path.String() != want.path || it.Line != want.line || it.Kind != manifest.KindInstanceType || it.Object.Name != want.name {
			t.Errorf("list item %d: %s line %d kind %s name %q; want %s line %d InstanceType %q", i, it.Path, it.Line, it.Kind, it.Object.Name, want.path, want.line, want.name)
		}
	}
	if g, want := amounts(list.InstanceTypes[1].Object.Spec.Resources.Limits), map[string]string{"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "0"}; !reflect.DeepEqual(g, want) {
		t.Errorf("items[1] limits = %v; want %v", g, want)
	}

	job := oneDocument(t, readExample(t, "job.yaml"))
	if job.Kind != manifest.KindJob || len(job.Workloads) != 1 {
		t.Fatalf("job.yaml: kind %s, %d workloads", job.Kind, len(job.Workloads))
	}
	if w, want := *job.Workloads[0].Object, (workload.Workload{Kind: workload.ComputeJob, InstanceType: "myinstancetypename", Compute: "azureml:<Kubernetes-compute_target_name>", ComputePath: field.NewPath("compute")}); !reflect.DeepEqual(w, want) {
		t.Errorf("job.yaml workload = %+v; want %+v", w, want)
	}

	dep := oneDocument(t, readExample(t, "deployment_resources.yaml")).Workloads[0].Object
	if dep.Kind != workload.OnlineDeployment || dep.Name != "blue" || dep.InstanceType != "cpusmall" || dep.Resources == nil {
		t.Fatalf("deployment_resources.yaml workload = %+v", dep)
	}
	if g, want := amounts(dep.Resources.Requests), map[string]string{"cpu": "0.1", "memory": "0.2Gi"}; !reflect.DeepEqual(g, want) {
		t.Errorf("deployment requests = %v; want %v", g, want)
	}
	if g, want := amounts(dep.Resources.Limits), map[string]string{"cpu": "0.2", "memory": "0.5Gi"}; !reflect.DeepEqual(g, want) {
		t.Errorf("deployment limits = %v; want %v", g, want)
	}

	plain := oneDocument(t, readExample(t, "deployment.yaml")).Workloads[0].Object
	if plain.Resources != nil || plain.MLflow || plain.InstanceType != "myinstancetypename" {
		t.Errorf("deployment.yaml workload = %+v; want no resources, not MLflow, myinstancetypename", plain)
	}
}

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
	// A duplicate no longer hides a finding about the value in effect.
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
		{5, "metadata.name", "FieldValueDuplicate"},
		{5, "metadata.name", "FieldValueTypeInvalid"},
		{9, "spec.nodeSelector[pool]", "FieldValueDuplicate"},
		{9, "spec.nodeSelector[pool]", "FieldValueTypeInvalid"},
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
        memory: .nan
- spec: [1]
`,
	want: []loc{
		{4, "items[0].kind", "FieldValueNotSupported"},
		{7, "items[1].metadata.name", "FieldValueTypeInvalid"},
		{10, "items[1].spec.nodeSelector[gpu]", "FieldValueTypeInvalid"},
		{13, "items[1].spec.resources.limits[cpu]", "FieldValueTypeInvalid"},
		{14, "items[1].spec.resources.limits[memory]", "FieldValueInvalid"},
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
	name: "block sequence broken by a key",
	src: `
a:
  - b
  c: d
`,
	want: []loc{{2, "", "SyntaxError"}},
}, {
	name: "tab indentation",
	src:  "\n" + typeHeader + "metadata:\n\tname: a\n",
	want: []loc{{4, "", "SyntaxError"}},
}, {
	name: "deployment resources are strict, the rest is not",
	src: `
$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
endpoint_name: e
anything: {goes: here}
resources:
  requests: {cpu: "1"}
  instance_type: x
environment:
  image: a
  image: b
`,
	want: []loc{
		{7, "resources.instance_type", "UnknownField"},
		{10, "environment.image", "FieldValueDuplicate"},
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
	name: "a merge of a scalar",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  <<: 1
  name: m
`,
	want: []loc{{4, "metadata", "FieldValueInvalid"}},
}, {
	// kubectl's reader stops at the merge: what the scalar holds is not read, so the
	// infinity is not a second finding (once it was, at the document, with no field).
	name: "a merge of an infinity",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
<<: .inf
`,
	want: []loc{{4, "", "FieldValueInvalid"}},
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
	want: []loc{{5, "metadata", "FieldValueInvalid"}, {6, "metadata.x", "UnknownField"}, {6, "metadata.x[0]", "FieldValueInvalid"}},
}, {
	name: "an anchored infinity merged, and aliased where kubectl stops first",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
spec:
  <<: &a .inf
  x: *a
`,
	want: []loc{{5, "spec", "FieldValueInvalid"}, {6, "spec.x", "UnknownField"}},
}, {
	// kubectl's reader drops a value a later key replaces before it makes JSON: an
	// infinity there is no problem (once it was a syntax error at the document).
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
	// A tag that does not fit is refused by kubectl's YAML reader, which reads the
	// replaced value all the same: it is reported at the entry's path.
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
	want: []loc{{6, "metadata.labels[a]", "FieldValueInvalid"}, {7, "metadata.labels[a]", "FieldValueDuplicate"}},
}, {
	// kubectl refuses the null key: what its value holds is not read past it.
	name: "an infinity under a null key",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
? null
: {b: .nan}
`,
	want: []loc{{4, "", "FieldValueInvalid"}},
}, {
	// What kubectl refuses inside a value of the wrong type, which the walk does not
	// enter, is reported where it is written (once it was at the document, no field).
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
	want: []loc{{5, "spec.nodeSelector", "FieldValueTypeInvalid"}, {6, "spec.nodeSelector[0][0]", "FieldValueInvalid"}, {7, "spec.nodeSelector[1]", "FieldValueInvalid"}},
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
	want: []loc{{6, "spec.resources.limits[cpu]", "FieldValueInvalid"}, {6, "spec.resources.limits[memory]", "FieldValueInvalid"}},
}, {
	name: "one mistake, one finding: a non-finite number where a string belongs",
	src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  labels:
    k: .inf
`,
	want: []loc{{6, "metadata.labels[k]", "FieldValueTypeInvalid"}},
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
	want: []loc{{6, "metadata.labels", "FieldValueTypeInvalid"}, {7, "metadata.labels", "FieldValueInvalid"}},
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
		{6, "metadata.finalizers", "FieldValueInvalid"},
		{7, "metadata.uid", "FieldValueInvalid"},
		{8, "metadata.deletionGracePeriodSeconds", "FieldValueInvalid"},
	},
}}

func TestFindings(t *testing.T) {
	for _, tt := range findingTests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(tt.src)
			if got := locs(f.Findings()); !slices.Equal(got, tt.want) {
				t.Errorf("Parse(%q) findings = %v; want %v%s", tt.src, got, tt.want, messages(f.Findings()))
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
		{typeHeader + "metadata: {name: a}\nspec:\n  resources: {limits: {cpu: .nan}}\n", "spec.resources.limits[cpu]", []string{"must be a finite number", "no JSON form"}},
		{"endpoint_name: e\nx: &a {k: *a}\n", "x.k", []string{"an alias to a node that contains it", `anchor "a"`}},
	}
	for _, tt := range tests {
		f := manifest.Parse("t.yaml", []byte(tt.src))
		var found *manifest.Finding
		for _, x := range f.Findings() {
			if x.Err.Field == tt.field {
				found = &x
				break
			}
		}
		if found == nil {
			t.Errorf("Parse(%q): no finding at %s:%s", tt.src, tt.field, messages(f.Findings()))
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(found.Err.Detail, w) {
				t.Errorf("Parse(%q) finding at %s = %q; want it to say %q", tt.src, tt.field, found.Err.Detail, w)
			}
		}
	}
}

// TestNullDetailWording: a label written null says what kubectl sends only when that is
// news.
func TestNullDetailWording(t *testing.T) {
	f := manifest.Parse("t.yaml", []byte(typeHeader+"metadata: {name: a, labels: {a: null}}\n"))
	for _, x := range f.Findings() {
		if strings.Contains(x.Err.Detail, "sends null as null") {
			t.Errorf("Parse: %q says nothing new", x.Err.Detail)
		}
	}
}

// The value in effect is the last one written, as kubectl reads the file.
func TestDuplicatesLastInEffect(t *testing.T) {
	f := parse(`
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: first
  name: second
spec:
  nodeSelector: {pool: a, pool: b}
  resources:
    requests: {cpu: 1, memory: 1Gi}
    requests: {cpu: 2}
`)
	it := oneDocument(t, f).InstanceTypes[0].Object
	if it.Name != "second" || it.Spec.NodeSelector["pool"] != "b" {
		t.Errorf("name %q, pool %q; want the last values, second and b", it.Name, it.Spec.NodeSelector["pool"])
	}
	if got, want := amounts(it.Spec.Resources.Requests), map[string]string{"cpu": "2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("requests = %v; want the last mapping whole, %v", got, want)
	}
	if got, want := locs(f.Findings()), []loc{{5, "metadata.name", "FieldValueDuplicate"}, {7, "spec.nodeSelector[pool]", "FieldValueDuplicate"}, {10, "spec.resources.requests", "FieldValueDuplicate"}}; !slices.Equal(got, want) {
		t.Errorf("findings = %v; want %v", got, want)
	}
	if p := f.Documents[0].Position("metadata.name"); p.Line != 5 {
		t.Errorf("Position(metadata.name) = %v; want line 5, the key in effect", p)
	}
}

// TestKeysReadAsNumbers: kubectl makes strings of keys that are numbers; two keys that make
// the same string are a duplicate.
func TestKeysReadAsNumbers(t *testing.T) {
	f := parse(`
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  labels:
    1: a
    0x1: b
    true: c
`)
	it := oneDocument(t, f).InstanceTypes[0].Object
	if want := map[string]string{"1": "b", "true": "c"}; !reflect.DeepEqual(it.Labels, want) {
		t.Errorf("labels = %v; want %v (keys as kubectl makes strings of them, the last in effect)", it.Labels, want)
	}
	if got, want := locs(f.Findings()), []loc{{7, "metadata.labels[1]", "FieldValueDuplicate"}}; !slices.Equal(got, want) {
		t.Errorf("findings = %v; want %v%s", got, want, messages(f.Findings()))
	}
}

// Scalars are read as kubectl reads them, by YAML 1.1: a quantity written as a number is the
// JSON number kubectl sends. These pin the decisions of "We read what kubectl sends"; the
// old reading (YAML 1.2) kept 010 as 10 and took yes for a string.
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
		{".5", "0.5", ""},
		{"0.5", "0.5", ""},
		{"1.5e3", "1500", ""},
		{"0.1e-2", "0.001", ""},
		{"1e400", "1e400", ""}, // no float64: kubectl sends the text
		{`"010"`, "010", ""},
		{"'0x10'", "0x10", ""},
		{"!!str 12", "12", ""},
		{"!!binary MTAw", "100", ""},
		{"2Gi", "2Gi", ""},
		{"~", "", ""},
		{"null", "", ""},
		{"", "", ""},
		{".inf", "", "FieldValueInvalid"},
		{"-.Inf", "", "FieldValueInvalid"},
		{".NaN", "", "FieldValueInvalid"},
		{"yes", "", "FieldValueTypeInvalid"},
		{"true", "", "FieldValueTypeInvalid"},
		{"[1]", "", "FieldValueTypeInvalid"},
		{"{a: 1}", "", "FieldValueTypeInvalid"},
		{`!!int "x"`, "x", "FieldValueInvalid"},
	}
	for _, tt := range tests {
		src := typeHeader + "metadata: {name: a}\nspec:\n  resources:\n    limits:\n      memory: " + tt.yaml + "\n"
		f := manifest.Parse("t.yaml", []byte(src))
		d := oneDocument(t, f)
		got := d.InstanceTypes[0].Object.Spec.Resources.Limits["memory"]
		if got.String() != tt.want {
			t.Errorf("Parse(memory: %s) = %q; want %q", tt.yaml, got, tt.want)
		}
		if tt.want == "" && got.IsSet() {
			t.Errorf("Parse(memory: %s) is set; want unset", tt.yaml)
		}
		var types []string
		for _, x := range f.Findings() {
			types = append(types, x.TypeName())
		}
		if want := []string{tt.bad}; (tt.bad == "" && len(types) != 0) || (tt.bad != "" && !slices.Equal(types, want)) {
			t.Errorf("Parse(memory: %s) findings %v; want %q%s", tt.yaml, types, tt.bad, messages(f.Findings()))
		}
		if tt.bad != "" && !d.Refused("spec.resources.limits[memory]") {
			t.Errorf("Parse(memory: %s): Refused(spec.resources.limits[memory]) = false; want true", tt.yaml)
		}
	}
}

// Labels (strings) that kubectl would send as another type are findings; quoting fixes them.
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
		src := typeHeader + "metadata: {name: a}\nspec:\n  nodeSelector:\n    k: " + tt.yaml + "\n"
		f := manifest.Parse("t.yaml", []byte(src))
		got := oneDocument(t, f).InstanceTypes[0].Object.Spec.NodeSelector["k"]
		fs := f.Findings()
		if got != tt.want || (len(fs) == 0) != tt.ok {
			t.Errorf("Parse(k: %s) = %q with findings:%s; want %q, ok %v", tt.yaml, got, messages(fs), tt.want, tt.ok)
		}
		if !tt.ok && (len(fs) != 1 || fs[0].Err.Type != field.ErrorTypeTypeInvalid || fs[0].Err.Field != "spec.nodeSelector[k]" || fs[0].Line != 6) {
			t.Errorf("Parse(k: %s) findings:%s; want one TypeInvalid at spec.nodeSelector[k], line 6", tt.yaml, messages(fs))
		}
	}
}

// Anchors, aliases and merge keys, as yaml.v2 (kubectl's reading) applies them.
func TestAnchorsAliasesAndMerges(t *testing.T) {
	f := parse(`
apiVersion: amlarc.azureml.com/v1alpha1
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
	if fs := f.Findings(); len(fs) != 0 {
		t.Fatalf("findings:%s; want none", messages(fs))
	}
	d := oneDocument(t, f)
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
		r := d.InstanceTypes[tt.item].Object.Spec.Resources
		if got := amounts(r.Requests); !reflect.DeepEqual(got, tt.requests) {
			t.Errorf("items[%d] requests = %v; want %v", tt.item, got, tt.requests)
		}
		if got := amounts(r.Limits); !reflect.DeepEqual(got, tt.limits) {
			t.Errorf("items[%d] limits = %v; want %v", tt.item, got, tt.limits)
		}
		p := "items[" + string(rune('0'+tt.item)) + "].spec.resources.limits"
		if got := d.Position(p + "[cpu]").Line; got != tt.limitCPU {
			t.Errorf("Position(%s[cpu]) on line %d; want %d, where the key in effect is written", p, got, tt.limitCPU)
		}
		if got := d.Position(p + "[memory]").Line; got != tt.limitMem {
			t.Errorf("Position(%s[memory]) on line %d; want %d, where the key in effect is written", p, got, tt.limitMem)
		}
	}
}

// Two merge keys in one mapping: both apply, the later winning; the Duplicate is at the
// mapping.
func TestTwoMergeKeys(t *testing.T) {
	f := parse(`
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: m}
spec:
  resources:
    requests:
      <<: {cpu: "1", memory: 1Gi}
      <<: {cpu: "2"}
`)
	r := oneDocument(t, f).InstanceTypes[0].Object.Spec.Resources
	if got, want := amounts(r.Requests), map[string]string{"cpu": "2", "memory": "1Gi"}; !reflect.DeepEqual(got, want) {
		t.Errorf("requests = %v; want %v", got, want)
	}
	fs := f.Findings()
	if len(fs) != 1 || fs[0].Err.Type != field.ErrorTypeDuplicate || fs[0].Err.Field != "spec.resources.requests" || fs[0].Line != 8 {
		t.Errorf("findings:%s; want one Duplicate at spec.resources.requests, line 8", messages(fs))
	}
}

func TestPosition(t *testing.T) {
	f := parse(`
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
items:
  - metadata:
      name: cpusmall
    spec:
      nodeSelector:
        my.domain/pool: x
      resources:
        requests:
          cpu: "100m"
        limits:
          nvidia.com/gpu: 0
`)
	d := oneDocument(t, f)
	tests := []struct {
		path string
		want manifest.Position
	}{
		{"", manifest.Position{Line: 1, Column: 1}},
		{"<nil>", manifest.Position{Line: 1, Column: 1}},
		{"items", manifest.Position{Line: 3, Column: 1}},
		{"items[0]", manifest.Position{Line: 4, Column: 5}},
		{"items[0].metadata.name", manifest.Position{Line: 5, Column: 7}},
		{"items[0].spec.nodeSelector[my.domain/pool]", manifest.Position{Line: 8, Column: 9}},
		{"items[0].spec.resources.limits[nvidia.com/gpu]", manifest.Position{Line: 13, Column: 11}},
		// Missing nodes: the nearest existing parent.
		{"items[0].spec.resources.requests[memory]", manifest.Position{Line: 10, Column: 9}},
		{"items[0].spec.resources.limits[cpu]", manifest.Position{Line: 12, Column: 9}},
		{"items[3].metadata.name", manifest.Position{Line: 3, Column: 1}},
		{"items[x]", manifest.Position{Line: 3, Column: 1}},
		{"items[-1]", manifest.Position{Line: 3, Column: 1}},
		{"items[0].metadata.name.deeper", manifest.Position{Line: 5, Column: 7}},
		{"items[0].metadata[name", manifest.Position{Line: 4, Column: 5}}, // no such key: metadata
		{"nothing.at.all", manifest.Position{Line: 1, Column: 1}},
	}
	for _, tt := range tests {
		if got := d.Position(tt.path); got != tt.want {
			t.Errorf("Position(%q) = %v; want %v", tt.path, got, tt.want)
		}
	}
}

// A document's lines count from the start of the file, whatever came before it.
func TestPositionInLaterDocuments(t *testing.T) {
	f := parse(`
# a comment
---
apiVersion: v1
kind: Service
---

---
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: third
`)
	d := oneDocument(t, f)
	if d.Line != 8 || d.Index != 1 || f.Count != 2 {
		t.Errorf("document on line %d, index %d, of %d; want line 8, index 1 (empty documents are not counted), of 2", d.Line, d.Index, f.Count)
	}
	if got := d.Position("metadata.name"); got != (manifest.Position{Line: 11, Column: 3}) {
		t.Errorf("Position(metadata.name) = %v; want {11 3}", got)
	}
	if len(f.Skipped) != 1 || f.Skipped[0].Line != 3 {
		t.Errorf("skipped %v; want the Service on line 3", f.Skipped)
	}
}

func TestFindingRendering(t *testing.T) {
	f := parse(typeHeader + "metadata: {name: a, x: 1}\n")
	fs := f.Findings()
	if len(fs) != 1 {
		t.Fatalf("findings:%s; want 1", messages(fs))
	}
	want := `test.yaml:3: metadata.x: unknown field "x"; known fields: name, generateName, namespace, selfLink, uid, resourceVersion, generation, creationTimestamp, deletionTimestamp, deletionGracePeriodSeconds, labels, annotations, ownerReferences, finalizers, managedFields`
	if got := fs[0].String(); got != want {
		t.Errorf("String() = %q; want %q", got, want)
	}

	f = parse("a: b\n[\n")
	if len(f.Errors) != 1 {
		t.Fatalf("Parse(a: b, [) errors:%s; want 1", messages(f.Errors))
	}
	if got, want := f.Errors[0].String(), "test.yaml:2: YAML syntax error: could not find expected ':'"; got != want {
		t.Errorf("String() = %q; want %q", got, want)
	}
	if got, want := f.Errors[0].Message(), "YAML syntax error: could not find expected ':'"; got != want {
		t.Errorf("Message() = %q; want %q", got, want)
	}

	f = parse(typeHeader + "metadata: {name: a}\nspec: {nodeSelector: {a: 1}}\n")
	fs = f.Findings()
	if len(fs) != 1 {
		t.Fatalf("findings:%s; want 1", messages(fs))
	}
	want = `test.yaml:4: spec.nodeSelector[a]: Invalid value: "1": must be a string, not a number; quote it: "1"`
	if got := fs[0].String(); got != want {
		t.Errorf("String() = %q; want %q", got, want)
	}
}

// TypeName, Message and String of each kind of finding.
func TestFindingTypes(t *testing.T) {
	unknown := oneDocument(t, parse(typeHeader+"metadata: {name: a}\nstatus: {}\n"))
	syntax := parse("a: [\n").Errors
	limit := manifest.Parse("t.yaml", []byte("["+strings.Repeat("1,", manifest.MaxNodes/2)+"1]")).Errors
	if len(unknown.Errors) != 1 || len(syntax) != 1 || len(limit) != 1 {
		t.Fatalf("findings: %v, %v, %v; want one of each", unknown.Errors, syntax, limit)
	}
	tests := []struct {
		name      string
		f         manifest.Finding
		typeName  string
		message   string // a prefix
		rendering string // a prefix
	}{
		{"unknown field", unknown.Locate(unknown.Errors)[0], "UnknownField", `unknown field "status"`, `test.yaml:4: status: unknown field "status"`},
		{"syntax error", syntax[0], "SyntaxError", "YAML syntax error: ", "test.yaml:1: YAML syntax error: "},
		{"input limit", limit[0], "InputLimit", "document too large: about ", "t.yaml:1: document too large"},
		{"unreadable file", manifest.FileProblem("d/x.yaml", 0, manifest.UnreadableFile, "cannot read: permission denied"), "UnreadableFile", "cannot read: permission denied", "d/x.yaml:1: cannot read: permission denied"},
		{"too many findings", manifest.FileProblem("x.yaml", 7, manifest.TooManyFindings, "3 more findings"), "TooManyFindings", "3 more findings", "x.yaml:7: 3 more findings"},
		{"field value", manifest.Finding{File: "x.yaml", Position: manifest.Position{Line: 2, Column: 1}, Err: field.Required(field.NewPath("spec"), "set it")}, "FieldValueRequired", "Required value: set it", "x.yaml:2: spec: Required value: set it"},
		{"field error about the document", manifest.Finding{File: "x.yaml", Position: manifest.Position{Line: 1}, Err: &field.Error{Type: field.ErrorTypeInvalid, BadValue: "v", Detail: "wrong"}}, "FieldValueInvalid", "wrong", "x.yaml:1: wrong"},
	}
	for _, tt := range tests {
		if got := tt.f.TypeName(); got != tt.typeName {
			t.Errorf("%s: TypeName() = %q; want %q", tt.name, got, tt.typeName)
		}
		if got := tt.f.Message(); !strings.HasPrefix(got, tt.message) {
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
	if unknown.Errors[0].Type != field.ErrorTypeForbidden {
		t.Errorf("unknown field: Err.Type = %s; want %s", unknown.Errors[0].Type, field.ErrorTypeForbidden)
	}
}

func TestSortFindings(t *testing.T) {
	at := func(file string, line, col int, detail string) manifest.Finding {
		return manifest.Finding{File: file, Position: manifest.Position{Line: line, Column: col}, Err: field.Invalid(nil, nil, detail)}
	}
	fs := []manifest.Finding{at("b", 1, 1, "1"), at("a", 2, 1, "2"), at("a", 1, 5, "3"), at("a", 1, 2, "4"), at("a", 1, 2, "5"), at("a", 10, 1, "6")}
	manifest.SortFindings(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Err.Detail)
	}
	if want := []string{"4", "5", "3", "2", "6", "1"}; !slices.Equal(got, want) {
		t.Errorf("SortFindings order = %v; want %v (file, line, column, then as given)", got, want)
	}
}

func TestMetadataViaJSON(t *testing.T) {
	f := parse(`
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: a
  namespace: ns
  generation: 3
  creationTimestamp: "2024-01-02T03:04:05Z"
  finalizers: [x]
  labels: {app: ml}
  annotations: {note: "1"}
  deletionGracePeriodSeconds: soon
`)
	if got, want := locs(f.Findings()), []loc{{11, "metadata.deletionGracePeriodSeconds", "FieldValueInvalid"}}; !slices.Equal(got, want) {
		t.Fatalf("findings = %v; want %v", got, want)
	}
	m := f.Documents[0].InstanceTypes[0].Object.ObjectMeta
	if m.Namespace != "ns" || m.Generation != 3 || m.CreationTimestamp.Year() != 2024 || !slices.Equal(m.Finalizers, []string{"x"}) ||
		!reflect.DeepEqual(m.Labels, map[string]string{"app": "ml"}) || !reflect.DeepEqual(m.Annotations, map[string]string{"note": "1"}) {
		t.Errorf("metadata = %+v", m)
	}
	if !f.Documents[0].Refused("metadata.deletionGracePeriodSeconds") {
		t.Error("Refused(metadata.deletionGracePeriodSeconds) = false; want true")
	}
}

func TestRead(t *testing.T) {
	data := []byte(typeHeader + "metadata: {name: a, x: 1}\n")
	f, err := manifest.Read("r.yaml", strings.NewReader(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	want := manifest.Parse("r.yaml", data)
	if a, b := messages(f.Findings()), messages(want.Findings()); a != b || len(f.Documents) != 1 || f.Documents[0].InstanceTypes[0].Object.Name != "a" {
		t.Errorf("Read = %d documents, findings:%s; want what Parse gives:%s", len(f.Documents), a, b)
	}
	boom := errors.New("boom")
	if _, err := manifest.Read("r.yaml", iotest.ErrReader(boom)); !errors.Is(err, boom) {
		t.Errorf("Read(failing reader) error = %v; want %v", err, boom)
	}
}

func TestIsManifestName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"a.yaml", true}, {"a.yml", true}, {"a.json", true}, {"A.YAML", true}, {"dir/x.Yml", true},
		{".yaml", true}, {"a.b.json", true},
		{"a.txt", false}, {"yaml", false}, {"a.yaml.bak", false}, {"a.yamll", false}, {"README.md", false},
		{"a.yaml/", false}, {"x.y/aml", false}, {"", false}, {"a.", false},
	}
	for _, tt := range tests {
		if got := manifest.IsManifestName(tt.name); got != tt.want {
			t.Errorf("IsManifestName(%q) = %v; want %v", tt.name, got, tt.want)
		}
	}
}

// A file whose first character other than white space is "{" is read as kubectl reads it:
// a stream of JSON values, by JSON rules, or, when its first value (or second) is not a
// JSON object, as YAML.
func TestJSONStream(t *testing.T) {
	f := manifest.Parse("j.json", []byte(` 
{"apiVersion": "amlarc.azureml.com\/v1alpha1", "kind": "InstanceType",
 "metadata": {"name": "j\u00e9", "labels": {"pair": "\ud83d\ude00", "lone": "\ud83d", "tab": "a\tb"}},
 "spec": {"resources": {"requests": {"cpu": 1.50, "memory": 1e3}}}}
{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "second"}}`))
	if fs := f.Findings(); len(fs) != 0 {
		t.Errorf("findings:%s; want none", messages(fs))
	}
	if len(f.Documents) != 2 || f.Count != 2 {
		t.Fatalf("%d documents of %d; want 2", len(f.Documents), f.Count)
	}
	first := f.Documents[0].InstanceTypes[0].Object
	if first.APIVersion != instancetype.APIVersion || first.Name != "jé" {
		t.Errorf("apiVersion %q, name %q; want escapes decoded", first.APIVersion, first.Name)
	}
	if want := map[string]string{"pair": "😀", "lone": "\uFFFD", "tab": "a\tb"}; !reflect.DeepEqual(first.Labels, want) {
		t.Errorf("labels = %q; want %q", first.Labels, want)
	}
	// Numbers are sent as written: JSON has no YAML 1.1.
	if got, want := amounts(first.Spec.Resources.Requests), map[string]string{"cpu": "1.50", "memory": "1e3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("requests = %v; want %v", got, want)
	}
	if d := f.Documents[1]; d.Line != 5 || d.Index != 1 || d.Position("metadata.name") != (manifest.Position{Line: 5, Column: 84}) {
		t.Errorf("second document on line %d, index %d, name at %v; want line 5, index 1, {5 84}", d.Line, d.Index, d.Position("metadata.name"))
	}
	if d := f.Documents[0]; d.Position("spec.resources.requests[memory]") != (manifest.Position{Line: 4, Column: 51}) {
		t.Errorf("Position(spec.resources.requests[memory]) = %v; want {4 51}", d.Position("spec.resources.requests[memory]"))
	}

	tests := []struct {
		name, src string
		docs      int // documents recognised
		skipped   int
		want      []loc
	}{
		{"YAML flow in braces", "{apiVersion: amlarc.azureml.com/v1alpha1, kind: InstanceType, metadata: {name: yaml, x: 1}}\n", 1, 0, []loc{{1, "metadata.x", "UnknownField"}}},
		{"a second value not an object: the rest is YAML", typeJSON + "\n[1]\n---\n" + typeHeader + "metadata: {name: b}\n", 2, 1, nil},
		{"a JSON syntax error in the first value: YAML reads it", `{"a": 1,}`, 0, 1, nil},
		{"a JSON syntax error in the first value, YAML fails too", `{"a": [}`, 0, 0, []loc{{1, "", "SyntaxError"}}},
		{"the third value is not an object", typeJSON + "\n" + typeJSON + "\n[1]\n", 2, 0, []loc{{3, "", "SyntaxError"}}},
		// 010 is no JSON: kubectl reads the file as YAML, where it is 8.
		{"octal is no JSON", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "spec": {"resources": {"limits": {"cpu": 010}}}}`, 1, 0, nil},
		{"YAML 1.1 is no JSON: yes is a string", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a", "labels": {"a": "yes"}}}`, 1, 0, nil},
	}
	for _, tt := range tests {
		f := manifest.Parse("j.json", []byte(tt.src))
		if got := locs(f.Findings()); len(f.Documents) != tt.docs || len(f.Skipped) != tt.skipped || !slices.Equal(got, tt.want) {
			t.Errorf("%s: Parse(%q) = %d documents, %d skipped, findings %v; want %d, %d, %v%s", tt.name, tt.src, len(f.Documents), len(f.Skipped), got, tt.docs, tt.skipped, tt.want, messages(f.Findings()))
		}
	}
}

func TestJSONFallbackReadsYAML11(t *testing.T) {
	src := `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "spec": {"resources": {"limits": {"cpu": 010}}}}`
	d := oneDocument(t, manifest.Parse("j.json", []byte(src)))
	if got := d.InstanceTypes[0].Object.Spec.Resources.Limits["cpu"].String(); got != "8" {
		t.Errorf("Parse(%q) cpu = %q; want 8: kubectl falls back to YAML, where 010 is octal", src, got)
	}
}

// TestYAMLAfterJSONOnOneLine: when the second JSON value fails, kubectl reads the rest as
// YAML from where the first ended, which may be on the same line. Positions on that line
// count the JSON's columns before it: two documents there that miss the same field are two
// findings at two places (FuzzParse found them reported as one finding twice, at 1:1).
func TestYAMLAfterJSONOnOneLine(t *testing.T) {
	src := `{"kind": "InstanceType"}  {kind: InstanceType, metadata: {name: [x]}}` + "\n"
	f := manifest.Parse("j.json", []byte(src))
	var got []string
	for _, x := range f.Findings() {
		got = append(got, fmt.Sprintf("%d:%d %s", x.Line, x.Column, x.Err.Field))
	}
	want := []string{"1:1 apiVersion", "1:27 apiVersion", "1:59 metadata.name"}
	if !slices.Equal(got, want) {
		t.Errorf("Parse(%q) findings at %q; want %q%s", src, got, want, messages(f.Findings()))
	}
	if len(f.Documents) != 2 {
		t.Fatalf("%d documents; want 2", len(f.Documents))
	}
	if d := f.Documents[1]; d.Line != 1 || d.Position("metadata") != (manifest.Position{Line: 1, Column: 48}) {
		t.Errorf("second document on line %d, metadata at %v; want line 1, {1 48}", d.Line, d.Position("metadata"))
	}
}

// typeJSON is an InstanceType in JSON, on one line.
const typeJSON = `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}}`

// Documents are cut as kubectl cuts them: at lines that start with "---".
func TestDocumentsCutAsKubectl(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		names  []string // of the instance types read, in order
		errors []loc
	}{
		{"separators with comments", typeHeader + "metadata: {name: a}\n--- # the second\n" + typeHeader + "metadata: {name: b}\n---\n---\n# only a comment\n", []string{"a", "b"}, nil},
		{"an indented --- is no separator", typeHeader + "metadata:\n  name: a\n  labels: {x: y}\n ---\n", nil, []loc{{6, "", "SyntaxError"}}},
		{"--- inside a block scalar ends the document, as kubectl cuts it", typeHeader + "metadata:\n  name: a\n  annotations:\n    text: |\n---\n" + typeHeader + "metadata: {name: b}\n", []string{"a", "b"}, nil},
		{"text after --- is refused, and the rest read", typeHeader + "metadata: {name: a}\n--- b\n" + typeHeader + "metadata: {name: b}\n", []string{"a", "b"}, []loc{{4, "", "SyntaxError"}}},
		{"----", typeHeader + "metadata: {name: a}\n----\n" + typeHeader + "metadata: {name: b}\n", []string{"a", "b"}, []loc{{4, "", "SyntaxError"}}},
		{"CRLF line breaks", strings.ReplaceAll(typeHeader+"metadata: {name: a}\n---\n"+typeHeader+"metadata:\n  name: b\n", "\n", "\r\n"), []string{"a", "b"}, nil},
		{"a document end marker", typeHeader + "metadata: {name: a}\n...\n---\n" + typeHeader + "metadata: {name: b}\n", []string{"a", "b"}, nil},
		{"a syntax error ends its document only", typeHeader + "metadata: {name: a}\n---\na: [\n---\n" + typeHeader + "metadata: {name: b}\n", []string{"a", "b"}, []loc{{5, "", "SyntaxError"}}},
		{"anchors are local to their document", typeHeader + "metadata: {name: &n a}\n---\n" + typeHeader + "metadata: {name: *n}\n---\n" + typeHeader + "metadata: {name: c}\n", []string{"a", "c"}, []loc{{7, "", "SyntaxError"}}},
	}
	for _, tt := range tests {
		f := manifest.Parse("d.yaml", []byte(tt.src))
		var names []string
		for _, d := range f.Documents {
			for _, it := range d.InstanceTypes {
				names = append(names, it.Object.Name)
			}
		}
		if got := locs(f.Findings()); !slices.Equal(names, tt.names) || !slices.Equal(got, tt.errors) {
			t.Errorf("%s: Parse(%q) = %q, findings %v; want %q, %v%s", tt.name, tt.src, names, got, tt.names, tt.errors, messages(f.Findings()))
		}
	}
	// CRLF: positions count lines as kubectl's reader does.
	f := manifest.Parse("d.yaml", []byte("apiVersion: amlarc.azureml.com/v1alpha1\r\nkind: InstanceType\r\nmetadata:\r\n  name: a\r\n  x: 1\r\n"))
	if got := locs(f.Findings()); !slices.Equal(got, []loc{{5, "metadata.x", "UnknownField"}}) {
		t.Errorf("CRLF: findings %v; want the unknown field on line 5", got)
	}
}

// An unknown field close to a known one gets a did-you-mean, as closestField's doc promises:
// "equal but for case, or the only one within a small edit distance".
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
			src = typeHeader + "metadata: {name: a, " + tt.key + ": x}\n"
		case "spec":
			src = typeHeader + "metadata: {name: a}\nspec: {" + tt.key + ": {}}\n"
		default:
			src = typeHeader + "metadata: {name: a}\nspec: {resources: {" + tt.key + ": {}}}\n"
		}
		fs := manifest.Parse("t.yaml", []byte(src)).Findings()
		if tt.want == "" {
			if len(fs) != 1 || strings.Contains(fs[0].Message(), "did you mean") || !strings.Contains(fs[0].Message(), "known fields: ") {
				t.Errorf("Parse(%s: %s) findings:%s; want one listing the known fields", tt.field, tt.key, messages(fs))
			}
			continue
		}
		if len(fs) != 1 || !strings.Contains(fs[0].Message(), `did you mean "`+tt.want+`"?`) {
			t.Errorf("Parse(%s: %s) findings:%s; want one suggesting %q", tt.field, tt.key, messages(fs), tt.want)
		}
	}
}

// Messages of values read through encoding/json name the JSON type as a user knows it.
func TestJSONTypeWording(t *testing.T) {
	f := manifest.Parse("t.yaml", []byte(typeHeader+"metadata:\n  name: a\n  ownerReferences: [[1]]\n  managedFields: [{fieldsType: {}}]\n"))
	for _, x := range f.Findings() {
		if strings.Contains(x.Message(), " a array") || strings.Contains(x.Message(), " a object") {
			t.Errorf("finding %s", x)
		}
	}
	if len(f.Findings()) != 2 {
		t.Errorf("findings:%s; want 2", messages(f.Findings()))
	}
}

// Count counts every non-empty document, those with a syntax error too, in YAML and JSON.
func TestCountIncludesUnreadableDocuments(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want int
	}{
		{"a: 1\n---\nb: [\n---\n\n---\nc: 1\n", 3},
		{"a: 1\n---\n\t- x\n", 2},
		{`{"a": 1} {"b": [}`, 2},
		{`{"a": 1}`, 1},
	} {
		if got := manifest.Parse("c.yaml", []byte(tt.src)).Count; got != tt.want {
			t.Errorf("Parse(%q).Count = %d; want %d", tt.src, got, tt.want)
		}
	}
}

// JSON numbers beyond the range of a 64-bit float, which kubectl's decoder refuses, are a
// finding wherever they are: a resource amount, an unknown field, a node's allocatable.
func TestJSONNumbersBeyondFloat64(t *testing.T) {
	const float = "range of a 64-bit float"
	for _, tt := range []struct {
		name, src, field, want string
	}{
		{"a limit", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}, "spec": {"resources": {"requests": {"cpu": 1, "memory": "1Gi"}, "limits": {"cpu": -1e400, "memory": "2Gi"}}}}`, "spec.resources.limits[cpu]", float},
		{"an unknown field", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}, "x": {"y": 1.8e308}}`, "x.y", float},
		// One finding for one mistake, saying how to fix it there: quote it.
		{"a label value", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a", "labels": {"k": 1e309}}}`, "metadata.labels[k]", `must be a string, not a number; quote it: "1e309"`},
		{"a node's allocatable", `{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}, "status": {"allocatable": {"cpu": 1e999}}}`, "status.allocatable[cpu]", float},
		{"a deployment's request", `{"endpoint_name": "e", "instance_type": "t", "resources": {"requests": {"cpu": 9e9999}}}`, "resources.requests[cpu]", float},
	} {
		f := manifest.Parse("n.json", []byte(tt.src))
		n := 0
		for _, x := range f.Findings() {
			if strings.Contains(x.Message(), float) || strings.Contains(x.Message(), tt.want) {
				n++
				if x.Err.Field != tt.field || !strings.Contains(x.Message(), tt.want) {
					t.Errorf("%s: %s; want it at %s, saying %q", tt.name, x, tt.field, tt.want)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: findings%s; want one at %s saying %q", tt.name, messages(f.Findings()), tt.field, tt.want)
		}
	}
	// Underflow is no refusal: kubectl reads 1e-400 as 0.
	f := manifest.Parse("u.json", []byte(`{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}, "x": 1e-400}`))
	for _, x := range f.Findings() {
		if strings.Contains(x.Message(), "64-bit float") {
			t.Errorf("1e-400: %s; kubectl reads it as 0", x)
		}
	}
}

// A key set twice is found in a mapping of any size: a few keys are compared with each
// other, many by their sorted hashes (a duplicate among 40 or 4,000 keys, first, last or
// in the middle), and many distinct keys are no finding.
func TestDuplicatesInLargeMappings(t *testing.T) {
	for _, n := range []int{3, 16, 17, 40, 4000} {
		for _, dup := range []int{-1, 0, n / 2, n - 1} {
			var b strings.Builder
			b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: m\n  labels:\n")
			for i := range n {
				fmt.Fprintf(&b, "    k%d: v\n", i)
			}
			if dup >= 0 {
				fmt.Fprintf(&b, "    k%d: again\n", dup)
			}
			var want []loc
			if dup >= 0 {
				want = []loc{{6 + n, fmt.Sprintf("metadata.labels[k%d]", dup), "FieldValueDuplicate"}}
			}
			f := manifest.Parse("m.yaml", []byte(b.String()))
			var got []loc
			for _, l := range locs(f.Findings()) {
				if l.typ == "FieldValueDuplicate" {
					got = append(got, l)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("%d keys, k%d again: duplicate findings %v; want %v", n, dup, got, want)
			}
			if labels := oneDocument(t, f).InstanceTypes[0].Object.Labels; len(labels) != n || dup >= 0 && labels[fmt.Sprintf("k%d", dup)] != "again" {
				t.Errorf("%d keys, k%d again: %d labels, k%d = %q; want %d, the last value in effect", n, dup, len(labels), dup, labels[fmt.Sprintf("k%d", max(dup, 0))], n)
			}
		}
	}
}
