package manifest_test

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
)

// loc is what a test expects of one finding.
type loc struct {
	line  int
	field string
	typ   field.ErrorType
}

func locs(fs []manifest.Finding) []loc {
	out := make([]loc, 0, len(fs))
	for _, f := range fs {
		out = append(out, loc{f.Line, f.Err.Field, f.Err.Type})
	}
	return out
}

func parse(t *testing.T, src string) *manifest.File {
	t.Helper()
	return manifest.Parse("test.yaml", []byte(strings.TrimPrefix(src, "\n")))
}

func amounts(l instancetype.ResourceList) map[string]string {
	out := map[string]string{}
	for k, v := range l {
		out[string(k)] = v.String()
	}
	return out
}

func TestExamplesDecode(t *testing.T) {
	files, err := manifest.ParseFS(os.DirFS("../examples"), ".")
	require.NoError(t, err)
	byName := map[string]*manifest.File{}
	for _, f := range files {
		assert.Empty(t, f.Findings(), f.Name)
		byName[f.Name] = f
	}

	it := byName["my_instance_type.yaml"].Documents[0]
	require.Equal(t, manifest.KindInstanceType, it.Kind)
	require.Len(t, it.InstanceTypes, 1)
	got := it.InstanceTypes[0]
	assert.Equal(t, "myinstancetypename", got.Name)
	assert.Equal(t, instancetype.APIVersion, got.APIVersion)
	assert.Equal(t, map[string]string{"mylabel": "mylabelvalue"}, got.Spec.NodeSelector)
	assert.Equal(t, map[string]string{"cpu": "1", "nvidia.com/gpu": "1", "memory": "2Gi"}, amounts(got.Spec.Resources.Limits))
	assert.Equal(t, map[string]string{"cpu": "700m", "memory": "1500Mi"}, amounts(got.Spec.Resources.Requests))
	for _, a := range got.Spec.Resources.Limits {
		assert.True(t, a.IsValid())
	}

	list := byName["my_instance_type_list.yaml"].Documents[0]
	require.Equal(t, manifest.KindInstanceTypeList, list.Kind)
	require.Len(t, list.InstanceTypes, 2)
	assert.Same(t, &list.List.Items[1], list.InstanceTypes[1])
	assert.Equal(t, "cpusmall", list.InstanceTypes[0].Name)
	assert.Equal(t, instancetype.DefaultName, list.InstanceTypes[1].Name)
	assert.Equal(t, map[string]string{"cpu": "1", "memory": "1Gi", "nvidia.com/gpu": "0"}, amounts(list.InstanceTypes[1].Spec.Resources.Limits))
	assert.Equal(t, "items[1]", list.ItemPath(1).String())

	job := byName["job.yaml"].Documents[0].Workload
	assert.Equal(t, resolve.Workload{Kind: resolve.Job, InstanceType: "myinstancetypename"}, *job)

	dep := byName["deployment_resources.yaml"].Documents[0].Workload
	assert.Equal(t, resolve.Deployment, dep.Kind)
	assert.Equal(t, "blue", dep.Name)
	assert.Equal(t, "cpusmall", dep.InstanceType)
	require.NotNil(t, dep.Resources)
	assert.Equal(t, map[string]string{"cpu": "0.1", "memory": "0.2Gi"}, amounts(dep.Resources.Requests))
	assert.Equal(t, map[string]string{"cpu": "0.2", "memory": "0.5Gi"}, amounts(dep.Resources.Limits))

	plain := byName["deployment.yaml"].Documents[0].Workload
	assert.Nil(t, plain.Resources)
	assert.False(t, plain.MLflow)
}

func TestFindings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []loc
	}{{
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
			{5, "metadata.lables", field.ErrorTypeNotSupported},
			{7, "spec.nodeselector", field.ErrorTypeNotSupported},
			{9, "spec.resources.request", field.ErrorTypeNotSupported},
			{11, "extra", field.ErrorTypeNotSupported},
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
			{5, "metadata.name", field.ErrorTypeDuplicate},
			{10, "spec.nodeSelector[pool]", field.ErrorTypeDuplicate},
			{14, "spec.resources.limits[cpu]", field.ErrorTypeDuplicate},
		},
	}, {
		name: "wrong apiVersion",
		src: `
apiVersion: amlarc.azureml.com/v1
kind: InstanceType
metadata: {name: a}
`,
		want: []loc{{1, "apiVersion", field.ErrorTypeNotSupported}},
	}, {
		name: "missing apiVersion",
		src: `
kind: InstanceType
metadata: {name: a}
`,
		want: []loc{{1, "apiVersion", field.ErrorTypeRequired}},
	}, {
		name: "unknown kind of our group",
		src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: Instancetype
metadata: {name: a}
`,
		want: []loc{{2, "kind", field.ErrorTypeNotSupported}},
	}, {
		name: "our group without a kind",
		src: `
apiVersion: amlarc.azureml.com/v1alpha1
metadata: {name: a}
`,
		want: []loc{{1, "kind", field.ErrorTypeRequired}},
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
			{4, "items[0].kind", field.ErrorTypeNotSupported},
			{7, "items[1].metadata.name", field.ErrorTypeTypeInvalid},
			{10, "items[1].spec.nodeSelector[gpu]", field.ErrorTypeTypeInvalid},
			{13, "items[1].spec.resources.limits[cpu]", field.ErrorTypeTypeInvalid},
			{14, "items[1].spec.resources.limits[memory]", field.ErrorTypeInvalid},
			{15, "items[2].spec", field.ErrorTypeTypeInvalid},
		},
	}, {
		name: "list without items",
		src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
`,
		want: []loc{{1, "items", field.ErrorTypeRequired}},
	}, {
		name: "syntax error after a good document",
		src: `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: a}
---
a: b
 c: d
`,
		want: []loc{{6, "", field.ErrorTypeInvalid}},
	}, {
		name: "unclosed flow",
		src: `
kind: InstanceType
spec: {nodeSelector: {a: b}
`,
		want: []loc{{2, "", field.ErrorTypeInvalid}},
	}, {
		name: "block sequence broken by a key",
		src: `
a:
  - b
  c: d
`,
		want: []loc{{2, "", field.ErrorTypeInvalid}},
	}, {
		name: "deployment resources are strict, the rest is not",
		src: `
$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
endpoint_name: e
anything: {goes: here}
resources:
  requests: {cpu: 1}
  instance_type: x
environment:
  image: a
  image: b
`,
		want: []loc{
			{7, "resources.instance_type", field.ErrorTypeNotSupported},
			{10, "environment.image", field.ErrorTypeDuplicate},
		},
	}, {
		name: "a number as apiVersion is reported once; a custom tag is not a string",
		src: `
apiVersion: 1
kind: InstanceType
metadata: {name: !foo bar}
`,
		want: []loc{
			{1, "apiVersion", field.ErrorTypeTypeInvalid},
			{3, "metadata.name", field.ErrorTypeTypeInvalid},
		},
	}, {
		name: "non-string instance type",
		src: `
endpoint_name: e
instance_type: 12
`,
		want: []loc{{2, "instance_type", field.ErrorTypeTypeInvalid}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.src)
			assert.Equal(t, tt.want, locs(f.Findings()))
		})
	}
}

func TestSyntaxErrorKeepsEarlierDocuments(t *testing.T) {
	f := parse(t, `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: a}
---
: : :
  - [
`)
	require.Len(t, f.Documents, 1)
	assert.Equal(t, "a", f.Documents[0].InstanceTypes[0].Name)
	require.Len(t, f.Errors, 1)
	assert.Contains(t, f.Errors[0].String(), "test.yaml:")
	assert.Contains(t, f.Errors[0].String(), "YAML syntax error")
}

func TestUnrelatedKindsAreSkipped(t *testing.T) {
	fsys := fstest.MapFS{
		"svc.yaml":     {Data: []byte("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}], weird: field}\n")},
		"deploy.yml":   {Data: []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 1\n  replicas: 2\n")},
		"managed.yaml": {Data: []byte("$schema: https://azuremlschemas.azureedge.net/latest/managedOnlineDeployment.schema.json\nname: x\nendpoint_name: y\n")},
		"config.json":  {Data: []byte(`{"some": "config", "list": [1, 2]}`)},
		"array.json":   {Data: []byte(`[1, 2, 3]`)},
		"scalar.yaml":  {Data: []byte("just a string\n")},
		"empty.yaml":   {Data: []byte("")},
		"comments.yml": {Data: []byte("# nothing here\n---\n---\n")},
		"README.md":    {Data: []byte("not: [yaml")},
		"sub/it.yaml":  {Data: []byte("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a}\n")},
	}
	files, err := manifest.ParseFS(fsys, ".")
	require.NoError(t, err)
	var names []string
	docs := 0
	for _, f := range files {
		names = append(names, f.Name)
		assert.Empty(t, f.Findings(), f.Name)
		docs += len(f.Documents)
	}
	assert.Equal(t, []string{"array.json", "comments.yml", "config.json", "deploy.yml", "empty.yaml", "managed.yaml", "scalar.yaml", "sub/it.yaml", "svc.yaml"}, names)
	assert.Equal(t, 1, docs)

	one, err := manifest.ParseFS(fsys, "README.md")
	require.NoError(t, err)
	require.Len(t, one, 1, "a file named explicitly is read whatever its extension")
	assert.NotEmpty(t, one[0].Findings())

	_, err = manifest.ParseFS(fsys, "missing.yaml")
	assert.Error(t, err)
}

func TestRecognition(t *testing.T) {
	tests := []struct {
		src  string
		kind manifest.Kind
	}{
		{"$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ncommand: x\n", manifest.KindJob},
		{"$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json\n", manifest.KindDeployment},
		{"$schema: https://x/latest/KubernetesOnlineDeployment.schema.json\n", manifest.KindDeployment},
		{"endpoint_name: e\n", manifest.KindDeployment},
		{"command: echo\nresources: {instance_type: big}\n", manifest.KindJob},
		{"apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems: []\n", manifest.KindInstanceTypeList},
		{`{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "j"}}`, manifest.KindInstanceType},
	}
	for _, tt := range tests {
		f := manifest.Parse("x", []byte(tt.src))
		require.Len(t, f.Documents, 1, tt.src)
		assert.Equal(t, tt.kind, f.Documents[0].Kind, tt.src)
		assert.Empty(t, f.Findings(), tt.src)
	}
	job := manifest.Parse("x", []byte("command: echo\nresources: {instance_type: big, instance_count: 2}\n")).Documents[0].Workload
	assert.Equal(t, "big", job.InstanceType)
	dep := manifest.Parse("x", []byte("endpoint_name: e\nmodel: {type: mlflow_model, path: m}\nresources: ~\n")).Documents[0].Workload
	assert.True(t, dep.MLflow)
	assert.Nil(t, dep.Resources)
	dep = manifest.Parse("x", []byte("endpoint_name: e\nmodel: azureml:m:1\n")).Documents[0].Workload
	assert.False(t, dep.MLflow)
}

func TestQuantitiesAsYAMLNumbers(t *testing.T) {
	f := parse(t, `
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: a}
spec:
  resources:
    requests: {cpu: 1, memory: 1e9, nvidia.com/gpu: null}
    limits: {cpu: 0.5, memory: 0x10, "amd.com/gpu": ~, x: "", y: "1"}
`)
	require.Empty(t, f.Findings())
	r := f.Documents[0].InstanceTypes[0].Spec.Resources
	assert.Equal(t, map[string]string{"cpu": "1", "memory": "1000000000", "nvidia.com/gpu": ""}, amounts(r.Requests))
	assert.Equal(t, map[string]string{"cpu": "0.5", "memory": "16", "amd.com/gpu": "", "x": "", "y": "1"}, amounts(r.Limits))
	assert.False(t, r.Requests["nvidia.com/gpu"].IsSet(), "null is unset")
	assert.True(t, r.Limits["x"].IsSet(), `"" is set`)
	assert.False(t, r.Limits["x"].IsValid())
}

func TestAnchorsAliasesAndMerges(t *testing.T) {
	f := parse(t, `
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
`)
	require.Empty(t, f.Findings())
	b := f.Documents[0].InstanceTypes[1].Spec.Resources
	assert.Equal(t, map[string]string{"cpu": "1", "memory": "1Gi"}, amounts(b.Requests))
	assert.Equal(t, map[string]string{"cpu": "4", "memory": "1Gi"}, amounts(b.Limits))
	assert.Equal(t, 15, f.Documents[0].Position("items[1].spec.resources.limits[cpu]").Line)
	assert.Equal(t, 7, f.Documents[0].Position("items[1].spec.resources.limits[memory]").Line, "a merged key is found where it is written")
}

func TestPosition(t *testing.T) {
	f := parse(t, `
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
	d := f.Documents[0]
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
		{"items[0].metadata.name.deeper", manifest.Position{Line: 5, Column: 7}},
		{"items[0].metadata[name", manifest.Position{Line: 5, Column: 7}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, d.Position(tt.path), tt.path)
	}
}

func TestFindingRendering(t *testing.T) {
	f := parse(t, "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a, x: 1}\n")
	fs := f.Findings()
	require.Len(t, fs, 1)
	assert.Equal(t, `test.yaml:3: metadata.x: Unsupported value: "x": supported values: "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields"`, fs[0].String())

	f = parse(t, "a: b\n[\n")
	require.Len(t, f.Errors, 1)
	assert.Equal(t, "test.yaml:2: YAML syntax error: could not find expected ':'", f.Errors[0].String())
	assert.Equal(t, "YAML syntax error: could not find expected ':'", f.Errors[0].Message())
}

func TestMetadataViaJSON(t *testing.T) {
	f := parse(t, `
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
	require.Equal(t, []loc{{11, "metadata.deletionGracePeriodSeconds", field.ErrorTypeInvalid}}, locs(f.Findings()))
	m := f.Documents[0].InstanceTypes[0].ObjectMeta
	assert.Equal(t, "ns", m.Namespace)
	assert.EqualValues(t, 3, m.Generation)
	assert.Equal(t, 2024, m.CreationTimestamp.Year())
	assert.Equal(t, []string{"x"}, m.Finalizers)
	assert.Equal(t, map[string]string{"app": "ml"}, m.Labels)
	assert.Equal(t, map[string]string{"note": "1"}, m.Annotations)
}
