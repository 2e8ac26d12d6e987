package lint_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// mixedFile holds a document of every kind, with mistakes for validation to report, and
// documents that are skipped or refused.
const mixedFile = `apiVersion: amlarc.azureml.com/v1alpha1
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

// A file of every kind of document: each finding, of decoding and of the rules, those of
// the workloads found once the catalog is formed among them, is at its line and column;
// every document is counted, checked or skipped; every workload is placed where it is.
// (The old reader's TestScanReleasesTrees and TestScanAliasedDeployment: positions after
// the documents' values are let go.)
func TestMixedFile(t *testing.T) {
	r := run(t, lint.Options{NodeSelector: map[string]string{"pool": "other"}, MaxFindings: -1}, "s.yaml", mixedFile)
	var got []string
	for _, f := range r.Findings {
		got = append(got, fmt.Sprintf("%d:%d %s %s %s", f.Line, f.Column, f.Err.Field, f.TypeName(), f.Rule()))
	}
	want := []string{
		"6:18 spec.nodeSelector[pool] FieldValueInvalid R7",
		"6:29 spec.nodeSelector[zone] FieldValueTypeInvalid wrong-type",
		"19:20 items[0].spec.nodeSelector[pool] FieldValueInvalid R7",
		"24:5 items[1].metadata.name FieldValueInvalid R1",
		"25:10 items[1].spec.resources.limits[cpu] FieldValueRequired R2",
		"25:10 items[1].spec.resources.limits[memory] FieldValueRequired R2",
		"25:22 items[1].spec.resources.requests[memory] FieldValueRequired R2",
		"25:33 items[1].spec.resources.requests[cpu] FieldValueInvalid R2",
		"25:45 items[1].spec.extra UnknownField unknown-field",
		"27:4  SyntaxError syntax", // at the [ that nothing follows
		"35:1 instance_type FieldValueInvalid R7",
		"39:5 resources.requests[memory] FieldValueInvalid R9",
		"39:5 resources.requests[memory] FieldValueInvalid R10",
		"40:3 resources.limits[memory] FieldValueRequired R8",
		"41:5 resources.limits[cpu] FieldValueInvalid R9",
		// The number refused: the GPU limit is not checked against the instance type's.
		"42:5 resources.limits[nvidia.com/gpu] FieldValueTypeInvalid azureml-resource-type",
		"49:3 resources.instance_type FieldValueNotFound R6",
		"56:7 jobs.prep.resources.instance_type FieldValueNotFound R6",
		// A step that merges another's keeps its own resources.
		"60:17 jobs.train.resources.instance_type FieldValueInvalid R7",
		// A deployment written as an alias of another: its findings, where the values are.
		"65:3 deployments[0].instance_type FieldValueInvalid R7",
		"65:3 deployments[1].instance_type FieldValueInvalid R7",
		"66:26 deployments[0].resources.requests[cpu] FieldValueTypeInvalid azureml-resource-type",
		"66:26 deployments[1].resources.requests[cpu] FieldValueTypeInvalid azureml-resource-type",
		"66:34 deployments[0].resources.requests[memory] FieldValueTypeInvalid azureml-resource-type",
		"66:34 deployments[1].resources.requests[memory] FieldValueTypeInvalid azureml-resource-type",
		"68:3 deployments[2].instance_type FieldValueInvalid R10",
		"68:3 deployments[2].instance_type FieldValueInvalid R10",
		"72:1 compute FieldValueInvalid legacy-compute-form",
		"74:3 compute.instance_type FieldValueInvalid R6",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
	var placed []string
	for _, p := range r.Placements {
		placed = append(placed, fmt.Sprintf("%d %s %s %s", p.Line, p.Path, p.DocumentKind, p.InstanceType))
	}
	if want := []string{
		"29 <nil> KubernetesOnlineDeployment small",
		"46 <nil> CommandJob gpu-typo",
		"53 jobs.prep PipelineJob nosuch",
		"58 jobs.train PipelineJob gpu",
		"63 deployments[0] KubernetesOnlineDeployment small",
		"67 deployments[1] KubernetesOnlineDeployment small", // at the alias
		"68 deployments[2] KubernetesOnlineDeployment defaultinstancetype",
		"71 <nil> CommandJob Standard_D2",
	}; !slices.Equal(placed, want) {
		t.Errorf("placements\n\t%s\nwant\n\t%s", strings.Join(placed, "\n\t"), strings.Join(want, "\n\t"))
	}
	if got := skips(r); r.Documents != 7 || r.Workloads != 8 || !slices.Equal(got, []string{"s.yaml:11"}) {
		t.Errorf("%d documents checked, %d workloads, skipped %q; want 7, 8, the Service on line 11", r.Documents, r.Workloads, got)
	}
}
