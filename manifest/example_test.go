package manifest_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// Parse reads a file's documents as kubectl reads them; decoding problems and validation
// findings both come out at their lines.
func ExampleParse() {
	data := []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: gpu
spec:
  nodeselector: {pool: gpu}
  resources:
    requests: {cpu: "1", memory: 4Gi}
    limits: {cpu: "0", memory: 4Gi, nvidia.com/gpu: 1}
---
apiVersion: v1
kind: Service
metadata: {name: skipped}
`)
	f := manifest.Parse("gpu.yaml", data)
	fmt.Println(len(f.Documents), "of", f.Count, "documents checked")
	for _, s := range f.Skipped {
		fmt.Printf("gpu.yaml:%d: skipped: %s\n", s.Line, s.Reason)
	}
	for _, x := range f.Findings() {
		fmt.Println(x)
	}
	d := f.Documents[0]
	for _, it := range d.InstanceTypes {
		for _, x := range d.Locate(validate.InstanceType(it.Object, it.Path, resolve.Options{})) {
			fmt.Println(x)
		}
	}
	// Output:
	// 1 of 2 documents checked
	// gpu.yaml:11: skipped: a Service (v1), not an InstanceType
	// gpu.yaml:6: spec.nodeselector: unknown field "nodeselector"; did you mean "nodeSelector"?
	// gpu.yaml:9: spec.resources.limits[cpu]: Invalid value: "0": must be greater than zero
}

// Scan reads a large file one document at a time: fn sees each document while its tree is
// alive, and the File keeps none of them. A document fn keeps still places the names of its
// instance types and the fields of its workloads that checks report on.
func ExampleScan() {
	data := []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: small}
spec:
  nodeSelector: {pool: on}
---
$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
command: python train.py
compute: azureml:k8s
resources:
  instance_type: small
`)
	var jobs []*manifest.Document
	f := manifest.Scan("big.yaml", data, func(d *manifest.Document) {
		for _, x := range d.Locate(d.Errors) {
			fmt.Println(x)
		}
		if len(d.Workloads) > 0 {
			jobs = append(jobs, d)
		}
	})
	fmt.Println(f.Checked, "documents checked,", len(f.Documents), "kept")
	job := jobs[0]
	w := job.Workloads[0]
	fmt.Println(w.Object.Kind, w.Object.InstanceType, "at", job.Position(w.Object.InstanceTypePath(w.Path).String()))
	// Output:
	// big.yaml:5: spec.nodeSelector[pool]: Invalid value: "on": must be a string, not a boolean, which kubectl sends as true; quote it: "on"
	// 2 documents checked, 0 kept
	// CommandJob small at {11 3}
}

// Position maps a field path back to its line and column, or to the nearest existing
// parent's for a field that is missing.
func ExampleDocument_Position() {
	f := manifest.Parse("list.yaml", []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceTypeList
items:
  - metadata: {name: small}
    spec:
      resources:
        limits:
          cpu: "1"
`))
	d := f.Documents[0]
	fmt.Println(d.Position("items[0].spec.resources.limits[cpu]"))
	fmt.Println(d.Position("items[0].spec.resources.requests[cpu]"))
	// Output:
	// {8 11}
	// {6 7}
}

// The compute a job names, in any of its spellings, and the serverless compute.
func ExampleParseCompute() {
	for _, c := range []string{
		"azureml:k8s-compute",
		"k8s-compute",
		"azureml:/subscriptions/s/resourceGroups/ml-rg/providers/Microsoft.MachineLearningServices/workspaces/ml-ws/computes/k8s-compute",
		"azureml:serverless",
	} {
		r := manifest.ParseCompute(c)
		fmt.Printf("%q %q %q %v\n", r.Name, r.ResourceGroup, r.Workspace, r.Serverless)
	}
	// Output:
	// "k8s-compute" "" "" false
	// "k8s-compute" "" "" false
	// "k8s-compute" "ml-rg" "ml-ws" false
	// "" "" "" true
}

// The suppression comments of a file, and what each applies to: a document, a line.
func ExampleSuppressions() {
	data := []byte(`# instancetype:ignore R10
$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
description: "a # instancetype:ignore R1 in a string is text"
instance_type: gpu   # instancetype:ignore R9, R6 -- until the pool grows
`)
	for _, s := range manifest.Suppressions(data) {
		fmt.Printf("line %d: %v, for lines %d to %d\n", s.Line, s.Rules, s.From, s.To)
	}
	// Output:
	// line 1: [R10], for lines 1 to 5
	// line 5: [R9 R6], for lines 5 to 5
}
