package manifest_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/validate"
)

// Parse reads a file's documents; decoding problems and validation findings both come out
// at their lines.
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
	fmt.Println(len(f.Documents), "of", f.Count, "documents recognised")
	for _, x := range f.Findings() {
		fmt.Println(x)
	}
	d := f.Documents[0]
	for _, x := range d.Locate(validate.InstanceType(d.InstanceTypes[0], d.ItemPath(0), validate.Options{})) {
		fmt.Println(x)
	}
	// Output:
	// 1 of 2 documents recognised
	// gpu.yaml:6: spec.nodeselector: Unsupported value: "nodeselector": supported values: "nodeSelector", "resources"
	// gpu.yaml:9: spec.resources.limits[cpu]: Invalid value: "0": must be greater than zero
}

// Position maps a field path back to its line, or to the nearest existing parent's line
// for a field that is missing.
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
