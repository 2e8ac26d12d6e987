package source

import (
	"testing"
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

// PositionOf places a field path at its node where the path leads, and at the nearest node
// on the way where it leads nowhere: a missing field at its mapping, a path below a
// scalar at the scalar, a path through an alias or a merge where the key in effect is
// written.
func TestPositionOfNearest(t *testing.T) {
	var docs []*Document
	Scan([]byte(mixedFile), Options{}, func(d *Document) bool { docs = append(docs, d); return true })
	if len(docs) != 9 {
		t.Fatalf("%d documents; want 9", len(docs))
	}
	const (
		instanceType = 0
		list         = 2
		deployment   = 4
		job          = 5
		pipeline     = 6
		endpoint     = 7
	)
	tests := []struct {
		doc  int
		path string
		want Position
	}{
		{instanceType, "metadata.name", Position{4, 3}},
		{instanceType, "metadata.name.deeper", Position{4, 3}},
		{instanceType, "spec.nodeSelector[pool]", Position{6, 18}},
		{instanceType, "spec.nodeSelector[pool].x", Position{6, 18}},
		{instanceType, "spec.nodeSelector[rack]", Position{6, 3}}, // missing: the selector
		{instanceType, "", Position{1, 1}},
		{list, "items[1].metadata.name", Position{24, 5}},
		{list, "items[1].spec.resources.requests[cpu]", Position{25, 33}},
		{list, "items[2]", Position{16, 1}}, // no such item: the list
		{deployment, "resources.requests[cpu]", Position{38, 5}},
		{deployment, "resources.requests[nvidia.com/gpu]", Position{37, 3}},
		{deployment, "resources.limits[memory]", Position{40, 3}},
		{deployment, "resources.limits[nvidia.com/gpu]", Position{42, 5}},
		{deployment, "resources.limits[nvidia.com/gpu].x", Position{42, 5}},
		{deployment, "model.type", Position{33, 3}},
		{deployment, "environment.image", Position{44, 3}},
		{job, "resources.instance_type", Position{49, 3}},
		{job, "resources.shm_size", Position{48, 1}},
		{pipeline, "jobs.prep.resources.instance_type", Position{56, 7}},
		// A key a merge brings is placed where the mapping merged writes it.
		{pipeline, "jobs.train.resources.instance_type", Position{60, 17}},
		{pipeline, "jobs.train.command", Position{54, 5}},
		{pipeline, "jobs.train.name", Position{59, 5}},
		{pipeline, "jobs.train.resources.requests[cpu]", Position{60, 5}},
		{pipeline, "jobs.nosuch", Position{52, 1}},
		{endpoint, "deployments[0].resources.requests[cpu]", Position{66, 26}},
		// An alias as an item is placed at the alias; a path below it where the value it
		// names is written, as a key a merge brings is.
		{endpoint, "deployments[1]", Position{67, 3}},
		{endpoint, "deployments[1].instance_type", Position{65, 3}},
		{endpoint, "deployments[2].model.type", Position{69, 11}},
		{endpoint, "deployments[2].instance_type", Position{68, 3}},
	}
	for _, tt := range tests {
		if got := docs[tt.doc].PositionOf(tt.path); got != tt.want {
			t.Errorf("document %d: PositionOf(%q) = %v; want %v", tt.doc, tt.path, got, tt.want)
		}
	}
}

// The table of the old reader's TestPosition: a list's paths, present and missing, and
// paths that are no paths.
func TestPositionOfPaths(t *testing.T) {
	var d *Document
	Scan([]byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
items:
  - metadata:
      name: cpusmall
    spec:
      nodeSelector:
        my.domain/pool: x
        "a].b": y
        "a].b[0]": z
      resources:
        requests:
          cpu: "100m"
        limits:
          nvidia.com/gpu: 0
`), Options{}, func(x *Document) bool { d = x; return false })
	tests := []struct {
		path string
		want Position
	}{
		{"", Position{1, 1}},
		{"<nil>", Position{1, 1}},
		{"items", Position{3, 1}},
		{"items[0]", Position{4, 5}},
		{"items[0].metadata.name", Position{5, 7}},
		{"items[0].spec.nodeSelector[my.domain/pool]", Position{8, 9}},
		// A key may hold "]" and "[": the reading of the brackets that leads somewhere.
		{"items[0].spec.nodeSelector[a].b]", Position{9, 9}},
		{"items[0].spec.nodeSelector[a].b[0]]", Position{10, 9}},
		{"items[0].spec.resources.limits[nvidia.com/gpu]", Position{15, 11}},
		// Missing nodes: the nearest existing parent.
		{"items[0].spec.resources.requests[memory]", Position{12, 9}},
		{"items[0].spec.resources.limits[cpu]", Position{14, 9}},
		{"items[3].metadata.name", Position{3, 1}},
		{"items[x]", Position{3, 1}},
		{"items[-1]", Position{3, 1}},
		{"items[0].metadata.name.deeper", Position{5, 7}},
		{"items[0].metadata[name", Position{5, 7}}, // an unclosed bracket holds the rest
		{"nothing.at.all", Position{1, 1}},
		{"[", Position{1, 1}},
		{"]", Position{1, 1}},
		{".", Position{1, 1}},
		{"items[99999999999999999999]", Position{3, 1}},
		{"metadata..name", Position{1, 1}},
	}
	for _, tt := range tests {
		if got := d.PositionOf(tt.path); got != tt.want {
			t.Errorf("PositionOf(%q) = %v; want %v", tt.path, got, tt.want)
		}
	}
}
