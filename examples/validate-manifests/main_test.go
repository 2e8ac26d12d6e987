package main

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/validate"
)

const want = `broken/deployments.yaml:7: instance_type: Not found: "cpusmal": did you mean "cpusmall"?
broken/deployments.yaml:10: instance_type: Invalid value: "defaultinstancetype": an MLflow model deployment needs a cpu request of at least 2, but instance type "defaultinstancetype" (the default, as instance_type is not set) requests 1; choose an instance type that requests more, or set resources.requests.cpu
broken/deployments.yaml:10: instance_type: Invalid value: "defaultinstancetype": an MLflow model deployment needs a memory request of at least 4G (4 GB), but instance type "defaultinstancetype" (the default, as instance_type is not set) requests 1Gi; choose an instance type that requests more, or set resources.requests.memory
broken/instance_types.yaml:13: items[0].spec.resources.requests[memory]: Invalid value: "64Gi": must be less than or equal to memory limit of 32Gi
broken/instance_types.yaml:14: items[0].spec.resources.requests[nvidia.com/gpu]: Forbidden: extended resources are set in limits only: remove nvidia.com/gpu from requests; limits sets it
broken/instance_types.yaml:15: items[0].spec.resources.limits[cpu]: Required value: set it to a quantity such as "500m" or "2"
broken/instance_types.yaml:16: items[0].spec.resources.limits[cpus]: Unsupported value: "cpus": supported values: "cpu", "memory", or a fully qualified extended resource such as "nvidia.com/gpu"; did you mean "cpu"?
broken/instance_types.yaml:20: items[1].metadata.name: Invalid value: "Tiny_Type": must be a DNS-1123 subdomain: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, such as "gpu-small"; did you mean "tiny-type"?
broken/instance_types.yaml:24: items[1].spec.resources.requests[cpu]: Invalid value: "0": must be greater than zero
9 problems in 2 files; 7 files, 8 documents checked
`

func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(&out); err != nil {
		t.Fatalf("run: %v", err)
	}
	if got := out.String(); got != want {
		t.Errorf("run output:\n%s\nwant:\n%s", got, want)
	}
}

// The source document's manifests alone are clean.
func TestSeedClean(t *testing.T) {
	var out strings.Builder
	if err := lint(&out, validate.Options{}, examples.Manifests); err != nil {
		t.Fatalf("lint: %v", err)
	}
	if got, want := out.String(), "0 problems in 0 files; 5 files, 5 documents checked\n"; got != want {
		t.Errorf("lint(examples.Manifests) = %q; want %q", got, want)
	}
}

// An instance type defined again in another input is a duplicate, reported at the first
// definition, which is not in effect, with the place of the last, which is.
func TestDuplicateAcrossInputs(t *testing.T) {
	again := fstest.MapFS{"again.yaml": {Data: []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: cpusmall
spec:
  resources:
    requests: {cpu: 100m, memory: 100Mi}
    limits: {cpu: "1", memory: 1Gi}
`)}}
	var out strings.Builder
	if err := lint(&out, validate.Options{}, examples.Manifests, again); err != nil {
		t.Fatalf("lint: %v", err)
	}
	want := `my_instance_type_list.yaml:5: items[0].metadata.name: Duplicate value: "cpusmall": instance type names must be unique; this definition is not in effect: the one at again.yaml:4 replaces it, as the last one applied wins: rename or remove one of them
1 problem in 1 file; 6 files, 6 documents checked
`
	if got := out.String(); got != want {
		t.Errorf("lint output:\n%s\nwant:\n%s", got, want)
	}
}
