package manifest_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// scanFile holds a document of every kind, with mistakes for validation to report, and
// documents that are skipped or refused.
const scanFile = `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: small
spec:
  nodeSelector: {pool: cpu, zone: yes}
  resources:
    requests: {cpu: 100m, memory: 1Gi}
    limits: {cpu: "1", memory: 2Gi}
---
apiVersion: v1
kind: Service
---
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
items:
- metadata: {name: gpu}
  spec:
    nodeSelector: {pool: gpu}
    resources:
      requests: {cpu: "1", memory: 4Gi}
      limits: {cpu: "2", memory: 8Gi, nvidia.com/gpu: 1}
- metadata:
    name: Bad_Name
  spec: {resources: {requests: {cpu: "0"}}, extra: 1}
---
a: [
---
$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
endpoint_name: e
model:
  type: mlflow_model
  path: m
instance_type: small
resources:
  requests:
    cpu: "2"
    memory: 3Gi
  limits:
    cpu: "4"
    nvidia.com/gpu: 1
environment:
  image: x
---
command: python train.py
compute: azureml:k8s
resources:
  instance_type: gpu-typo
---
settings: {default_compute: azureml:k8s}
jobs:
  prep: &step
    command: x
    resources:
      instance_type: nosuch
  train:
    <<: *step
    name: train
    resources: {instance_type: gpu}
---
deployments:
- &dep
  name: a
  instance_type: small
  resources: {requests: {cpu: 3, memory: 100}}
- *dep
- name: c
  model: {type: mlflow_model}
---
command: python train.py
compute:
  target: azureml:k8s
  instance_type: Standard_D2
`

// TestScanReleasesTrees: Scan hands fn each recognised document, keeps none, and the
// documents fn keeps still place every finding a check of their workloads makes, and the
// names of their instance types, where Parse's documents place them.
func TestScanReleasesTrees(t *testing.T) {
	data := []byte(scanFile)
	parsed := manifest.Parse("s.yaml", data)
	var kept []*manifest.Document
	var during []manifest.Finding // the documents' findings, located while their trees live
	scanned := manifest.Scan("s.yaml", data, func(d *manifest.Document) {
		kept = append(kept, d)
		during = append(during, d.Locate(d.Errors)...)
	})

	if len(scanned.Documents) != 0 {
		t.Errorf("Scan kept %d documents; want none", len(scanned.Documents))
	}
	if scanned.Checked != len(kept) || scanned.Checked != parsed.Checked || parsed.Checked != len(parsed.Documents) || len(kept) != 7 {
		t.Fatalf("Scan: Checked %d, fn called %d times; Parse: Checked %d, %d documents; want 7 each", scanned.Checked, len(kept), parsed.Checked, len(parsed.Documents))
	}
	if scanned.Count != parsed.Count || !slices.Equal(scanned.Skipped, parsed.Skipped) || messages(scanned.Errors) != messages(parsed.Errors) {
		t.Errorf("Scan and Parse differ: Count %d, %d; skipped %v, %v; errors:%s\n---%s", scanned.Count, parsed.Count, scanned.Skipped, parsed.Skipped, messages(scanned.Errors), messages(parsed.Errors))
	}
	if got, want := messages(scanned.Findings()), messages(scanned.Errors); got != want {
		t.Errorf("Scan's File.Findings:%s; want only its Errors (fn has the documents'):%s", got, want)
	}
	var parsedDocs []manifest.Finding
	for _, d := range parsed.Documents {
		parsedDocs = append(parsedDocs, d.Locate(d.Errors)...)
	}
	manifest.SortFindings(during)
	manifest.SortFindings(parsedDocs)
	if a, b := messages(during), messages(parsedDocs); a != b || len(during) == 0 {
		t.Errorf("documents' findings in fn:%s\nwith Parse:%s", a, b)
	}

	var types []*instancetype.InstanceType
	for _, d := range parsed.Documents {
		for _, it := range d.InstanceTypes {
			types = append(types, it.Object)
		}
	}
	catalog := resolve.NewCatalog(types...)
	checked := 0
	for i, pd := range parsed.Documents {
		sd := kept[i]
		if sd.Kind != pd.Kind || sd.Line != pd.Line || sd.Index != pd.Index {
			t.Fatalf("document %d: Scan %s line %d index %d; Parse %s line %d index %d", i, sd.Kind, sd.Line, sd.Index, pd.Kind, pd.Line, pd.Index)
		}
		for j, it := range pd.InstanceTypes {
			p := it.Path.Child("metadata", "name").String()
			if got, want := sd.Position(p), pd.Position(p); got != want {
				t.Errorf("document %d: after Scan Position(%s) = %v; Parse's = %v", i, p, got, want)
			}
			if sd.InstanceTypes[j].Object.Name != it.Object.Name {
				t.Errorf("document %d item %d: Scan %q, Parse %q", i, j, sd.InstanceTypes[j].Object.Name, it.Object.Name)
			}
		}
		for j, w := range pd.Workloads {
			_, errs := validate.Resolve(catalog, w.Object, w.Path, resolve.Options{NodeSelector: map[string]string{"pool": "other"}})
			sw := sd.Workloads[j]
			_, serrs := validate.Resolve(catalog, sw.Object, sw.Path, resolve.Options{NodeSelector: map[string]string{"pool": "other"}})
			checked += len(errs)
			if got, want := messages(sd.Locate(serrs)), messages(pd.Locate(errs)); got != want {
				t.Errorf("document %d workload %s: after Scan:%s\nwith Parse:%s", i, w.Path, got, want)
			}
			// Every field of the workload that a check may report on.
			res := w.Object.ResourcesPath(w.Path)
			paths := []string{w.Object.InstanceTypePath(w.Path).String(), res.String()}
			for _, list := range []string{"requests", "limits"} {
				paths = append(paths, res.Child(list).String())
				for _, name := range []string{"cpu", "memory", "nvidia.com/gpu"} {
					paths = append(paths, res.Child(list).Key(name).String())
				}
			}
			for _, p := range paths {
				if strings.HasPrefix(p, "deployments[1]") {
					continue // an alias: see TestScanAliasedDeployment
				}
				if got, want := sd.Position(p), pd.Position(p); got != want {
					t.Errorf("document %d: after Scan Position(%s) = %v; Parse's = %v", i, p, got, want)
				}
			}
		}
	}
	if checked < 8 {
		t.Errorf("validation found %d problems in the workloads; the test wants more to compare", checked)
	}
}

// After Scan, a path that was not recorded maps to its nearest recorded parent, or to the
// document's first line.
func TestScanNearestRecordedParent(t *testing.T) {
	data := []byte(scanFile)
	var kept []*manifest.Document
	manifest.Scan("s.yaml", data, func(d *manifest.Document) { kept = append(kept, d) })
	byKind := map[manifest.Kind]*manifest.Document{}
	for _, d := range kept {
		if byKind[d.Kind] == nil {
			byKind[d.Kind] = d
		}
	}
	tests := []struct {
		kind manifest.Kind
		path string
		want manifest.Position
	}{
		{manifest.KindInstanceType, "metadata.name", manifest.Position{Line: 4, Column: 3}},
		{manifest.KindInstanceType, "metadata.name.deeper", manifest.Position{Line: 4, Column: 3}},
		{manifest.KindInstanceType, "spec.nodeSelector[pool]", manifest.Position{Line: 6, Column: 18}},
		{manifest.KindInstanceType, "spec.nodeSelector[pool].x", manifest.Position{Line: 6, Column: 18}},
		{manifest.KindInstanceType, "spec.nodeSelector[rack]", manifest.Position{Line: 6, Column: 3}}, // missing: the selector
		{manifest.KindInstanceType, "", manifest.Position{Line: 1, Column: 1}},
		{manifest.KindInstanceTypeList, "items[1].metadata.name", manifest.Position{Line: 24, Column: 5}},
		{manifest.KindInstanceTypeList, "items[1].spec", manifest.Position{Line: 25, Column: 3}},
		{manifest.KindInstanceTypeList, "items[2]", manifest.Position{Line: 16, Column: 1}}, // no such item: the list
		{manifest.KindDeployment, "resources.requests[cpu]", manifest.Position{Line: 38, Column: 5}},
		{manifest.KindDeployment, "resources.requests[nvidia.com/gpu]", manifest.Position{Line: 37, Column: 3}},
		{manifest.KindDeployment, "resources.limits[memory]", manifest.Position{Line: 40, Column: 3}},
		{manifest.KindDeployment, "resources.limits[nvidia.com/gpu]", manifest.Position{Line: 42, Column: 5}},
		{manifest.KindDeployment, "resources.limits[nvidia.com/gpu].x", manifest.Position{Line: 42, Column: 5}},
		{manifest.KindDeployment, "model.type", manifest.Position{Line: 33, Column: 3}},
		{manifest.KindDeployment, "environment.image", manifest.Position{Line: 43, Column: 1}}, // only checked: its section
		{manifest.KindJob, "resources.instance_type", manifest.Position{Line: 49, Column: 3}},
		{manifest.KindJob, "resources.shm_size", manifest.Position{Line: 48, Column: 1}},
		{manifest.KindPipelineJob, "jobs.prep.resources.instance_type", manifest.Position{Line: 56, Column: 7}},
		{manifest.KindPipelineJob, "jobs.train.resources.instance_type", manifest.Position{Line: 60, Column: 17}},
		{manifest.KindPipelineJob, "jobs.train.name", manifest.Position{Line: 59, Column: 5}},
		{manifest.KindPipelineJob, "jobs.train.resources.requests[cpu]", manifest.Position{Line: 60, Column: 5}},
		{manifest.KindPipelineJob, "jobs.nosuch", manifest.Position{Line: 52, Column: 1}},
		{manifest.KindEndpoint, "deployments[0].resources.requests[cpu]", manifest.Position{Line: 66, Column: 26}},
		{manifest.KindEndpoint, "deployments[2].model.type", manifest.Position{Line: 69, Column: 11}},
		{manifest.KindEndpoint, "deployments[2].instance_type", manifest.Position{Line: 68, Column: 3}},
	}
	for _, tt := range tests {
		d := byKind[tt.kind]
		if d == nil {
			t.Fatalf("no %s document", tt.kind)
		}
		if got := d.Position(tt.path); got != tt.want {
			t.Errorf("%s after Scan: Position(%q) = %v; want %v", tt.kind, tt.path, got, tt.want)
		}
	}
}

// An alias as an item of an endpoint's deployments: its findings are placed at the alias,
// whether the tree is alive or not.
func TestScanAliasedDeployment(t *testing.T) {
	data := []byte("deployments:\n- &dep\n  name: a\n  resources: {requests: {cpu: 1}}\n- *dep\n")
	parsed := oneDocument(t, manifest.Parse("e.yaml", data))
	var scanned *manifest.Document
	manifest.Scan("e.yaml", data, func(d *manifest.Document) { scanned = d })
	for _, p := range []string{"deployments[1]", "deployments[1].instance_type", "deployments[1].resources.requests[memory]"} {
		if got, want := scanned.Position(p), parsed.Position(p); got != want {
			t.Errorf("after Scan Position(%s) = %v; Parse's = %v", p, got, want)
		}
	}
	// The workload is placed where the alias is written.
	for _, d := range []*manifest.Document{parsed, scanned} {
		if len(d.Workloads) != 2 || d.Workloads[1].Line != 5 {
			t.Errorf("workloads %+v; want the second on line 5", d.Workloads)
		}
	}
}

// Scan with a nil fn only counts.
func TestScanNilFunc(t *testing.T) {
	f := manifest.Scan("s.yaml", []byte(scanFile), nil)
	if f.Checked != 7 || len(f.Documents) != 0 || len(f.Errors) != 1 || len(f.Skipped) != 1 {
		t.Errorf("Scan(nil) = Checked %d, %d documents, errors:%s, skipped %v; want 7, 0, one syntax error, one Service", f.Checked, len(f.Documents), messages(f.Errors), f.Skipped)
	}
}

// Refused reports the paths whose value decoding refused, and those below them: a
// validator's finding there says the same again.
func TestRefused(t *testing.T) {
	d := oneDocument(t, parse(`
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: 7
  generation: soon
  labels:
    <<: 1
spec:
  nodeSelector: {a: yes, b: ok}
  resources:
    requests: {cpu: [1], memory: .inf}
    limits: [1]
`))
	for path, want := range map[string]bool{
		"metadata.name":                   true,
		"metadata.generation":             true,
		"metadata.labels":                 true,
		"spec.nodeSelector[a]":            true,
		"spec.resources.requests[cpu]":    true,
		"spec.resources.requests[memory]": true,
		"spec.resources.limits":           true,
		"metadata":                        false,
		"spec.nodeSelector[b]":            false,
		"spec.nodeSelector":               false,
		"spec.resources.requests":         false,
		"spec.resources.limits[cpu]":      true,
		"spec.resources.limits[0].x":      true,
		"":                                false,
	} {
		if got := d.Refused(path); got != want {
			t.Errorf("Refused(%q) = %v; want %v", path, got, want)
		}
	}
}

// One mistake, one finding: lint drops a validator's finding at or below a path whose
// value decoding refused, so that a value of the wrong shape is reported once, not also as
// the missing fields it would hold.
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
		{"limit infinite", typeHeader + "metadata: {name: a}\nspec:\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: .inf, memory: 1Gi}\n",
			[]loc{{7, "spec.resources.limits[cpu]", "FieldValueInvalid"}}},
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
		r, err := lint.Run([]lint.Input{lint.Bytes("t.yaml", []byte(tt.src))}, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := locs(r.Findings); !slices.Equal(got, tt.want) {
			t.Errorf("%s: lint.Run findings = %v; want %v%s", tt.name, got, tt.want, messages(r.Findings))
		}
	}
}

// jsonNames lists the JSON names of a struct's fields, those of inlined structs included:
// written here apart from the package's own reflection, so that the two can disagree.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if name == "" && f.Anonymous {
			out = append(out, jsonNames(f.Type)...)
			continue
		}
		out = append(out, name)
	}
	return out
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

// The known fields are those of the Go types' JSON tags: every one decodes, to what
// sigs.k8s.io/yaml (kubectl's reading) decodes into the same types.
func TestKnownFieldsFromJSONTags(t *testing.T) {
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

	f := manifest.Parse("full.yaml", []byte(fullInstanceType))
	if fs := f.Findings(); len(fs) != 0 {
		t.Fatalf("Parse findings:%s; want none", messages(fs))
	}
	got := oneDocument(t, f).InstanceTypes[0].Object
	var want instancetype.InstanceType
	if err := sigsyaml.UnmarshalStrict([]byte(fullInstanceType), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("Parse = %+v\nsigs.k8s.io/yaml = %+v", got, &want)
	}

	// The list's own fields.
	list := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nmetadata: {resourceVersion: \"1\", continue: next, remainingItemCount: 3, selfLink: /x}\nitems: []\n"
	var lm map[string]any
	if err := sigsyaml.Unmarshal([]byte(list), &lm); err != nil {
		t.Fatal(err)
	}
	for _, name := range jsonNames(reflect.TypeFor[metav1.ListMeta]()) {
		if _, ok := sub(lm, "metadata")[name]; !ok && name != "shardInfo" {
			t.Errorf("the test list does not set ListMeta.%s: add it", name)
		}
	}
	if fs := manifest.Parse("list.yaml", []byte(list)).Findings(); len(fs) != 0 {
		t.Errorf("Parse(list) findings:%s; want none", messages(fs))
	}

	// A field of no type is unknown at every level.
	for _, path := range []string{"bogus", "metadata.bogus", "spec.bogus", "spec.resources.bogus"} {
		src := fullInstanceType + strings.Repeat("  ", strings.Count(path, ".")) + path[strings.LastIndexByte(path, '.')+1:] + ": 1\n"
		// Append the key at the end of its mapping: every mapping on the path ends the file.
		if path == "metadata.bogus" {
			src = strings.Replace(fullInstanceType, "  name: full\n", "  name: full\n  bogus: 1\n", 1)
		}
		if path == "spec.bogus" {
			src = fullInstanceType + "  bogus: 1\n"
		}
		if path == "bogus" {
			src = fullInstanceType + "bogus: 1\n"
		}
		f := manifest.Parse("full.yaml", []byte(src))
		if got := locs(f.Findings()); len(got) != 1 || got[0].field != path || got[0].typ != "UnknownField" {
			t.Errorf("Parse(full + %s) findings = %v; want one UnknownField at %s", path, got, path)
		}
	}
}

// Strict decoding reaches inside the fields read through encoding/json too.
func TestUnknownFieldsInsideMetadataLists(t *testing.T) {
	for _, src := range []string{
		typeHeader + "metadata:\n  name: a\n  ownerReferences: [{apiVersion: v1, kind: X, name: o, uid: u, bogus: 1}]\n",
		typeHeader + "metadata:\n  name: a\n  managedFields: [{manager: m, mangler: 2}]\n",
	} {
		f := manifest.Parse("t.yaml", []byte(src))
		fs := f.Findings()
		if len(fs) != 1 || fs[0].Type != manifest.UnknownField {
			t.Errorf("Parse(%q) findings:%s; want one UnknownField", src, messages(fs))
		}
	}
}

// A finding at the document as a whole has no field, as Finding documents: "" renders as
// FILE:LINE: MESSAGE, never "<nil>".
func TestDocumentLevelFindingsHaveNoField(t *testing.T) {
	for _, src := range []string{
		typeHeader + "[x]: 1\n",
		typeHeader + "~: 1\n",
		typeHeader + "<<: 3\n",
		"endpoint_name: e\n? {a: 1}\n: x\n",
	} {
		f := manifest.Parse("t.yaml", []byte(src))
		fs := f.Findings()
		if len(fs) == 0 {
			t.Errorf("Parse(%q): no finding", src)
		}
		for _, x := range fs {
			if x.Err.Field == "<nil>" || strings.Contains(x.String(), "<nil>") {
				t.Errorf("Parse(%q) finding %q has field %q; want \"\"", src, x, x.Err.Field)
			}
		}
	}
}

// The reason a Kubernetes object is skipped names its kind and apiVersion, clipped: a
// kind of 60 KiB does not make every skip of the report 60 KiB. Documents of one kind
// share one reason.
func TestSkipReasonsClippedAndShared(t *testing.T) {
	long := strings.Repeat("K", 60<<10)
	f := manifest.Parse("a.yaml", []byte("apiVersion: v1\nkind: "+long+"\n---\napiVersion: v1\nkind: "+long+"\n---\napiVersion: v1\nkind: Service\n"))
	if len(f.Skipped) != 3 {
		t.Fatalf("skipped %d documents; want 3", len(f.Skipped))
	}
	a, b := f.Skipped[0].Reason, f.Skipped[1].Reason
	if len(a) > 400 || !strings.Contains(a, "(61440 bytes)") {
		t.Errorf("reason of %d bytes: %.200q", len(a), a)
	}
	if a != b || unsafe.StringData(a) != unsafe.StringData(b) {
		t.Errorf("two documents of one kind have two reasons: %.100q, %.100q", a, b)
	}
	if got := f.Skipped[2].Reason; got != "a Service (v1), not an InstanceType" {
		t.Errorf("reason %q", got)
	}
}
