package azureml_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/azureml"
	"github.com/amlarc-go/instancetypes/source"
)

// Recognise tells an Azure ML file by its $schema or its shape, and Read reads the
// workloads it holds as the Azure ML CLI reads them: each pipeline step on a compute
// target, with its instance type; a serverless step is skipped, with why.
func ExampleRead() {
	data := []byte(`$schema: https://azuremlschemas.azureedge.net/latest/pipelineJob.schema.json
type: pipeline
settings:
  default_compute: azureml:k8s-compute
jobs:
  prep:
    command: python prep.py
    compute: azureml:serverless
  train:
    command: python train.py
    resources:
      instance_type: gpu-small
`)
	source.Scan(data, source.Options{Reader: source.Plain}, func(d *source.Document) bool {
		kind, why := azureml.Recognise(d.Value)
		if kind == "" {
			fmt.Println("skipped:", why)
			return true
		}
		r := azureml.Read(d, kind)
		for _, w := range r.Workloads {
			fmt.Printf("%s %s: %s on %s (line %d)\n", kind, w.Path, w.Workload.InstanceType, w.Workload.Compute, d.ValuePositionOf(w.Path.String()).Line)
		}
		for _, s := range r.Skipped {
			fmt.Println(s.Reason)
		}
		return true
	})
	// Output:
	// PipelineJob jobs.train: gpu-small on azureml:k8s-compute (line 10)
	// pipeline step "prep" is serverless (compute: azureml:serverless)
}

// The compute a job names, in any of its spellings, and the serverless compute.
func ExampleParseCompute() {
	for _, c := range []string{
		"azureml:k8s-compute",
		"k8s-compute",
		"azureml:/subscriptions/s/resourceGroups/ml-rg/providers/Microsoft.MachineLearningServices/workspaces/ml-ws/computes/k8s-compute",
		"azureml:serverless",
	} {
		r := azureml.ParseCompute(c)
		fmt.Printf("%q %q %q %v\n", r.Name, r.ResourceGroup, r.Workspace, r.Serverless)
	}
	// Output:
	// "k8s-compute" "" "" false
	// "k8s-compute" "" "" false
	// "k8s-compute" "ml-rg" "ml-ws" false
	// "" "" "" true
}

// UnknownFields reports the keys azure-ai-ml refuses in an Azure ML file, at any depth,
// each with the key most likely meant; tags take any name. Read reports them too.
func ExampleUnknownFields() {
	data := []byte(`$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
endpoint_name: my-endpoint
model: azureml:my-model:1
instance_tpye: gpu-small
code_configuration:
  code: ./src
  scoring_scirpt: score.py
tags:
  team: vision
`)
	source.Scan(data, source.Options{Reader: source.Plain}, func(d *source.Document) bool {
		kind, _ := azureml.Recognise(d.Value)
		for _, e := range azureml.UnknownFields(kind, d.Value) {
			fmt.Printf("line %d: %s: %s\n", d.PositionOf(e.Field).Line, e.Field, e.Detail)
		}
		return true
	})
	// Output:
	// line 8: code_configuration.scoring_scirpt: unknown field "scoring_scirpt"; did you mean "scoring_script"? (the Azure ML CLI refuses it: "Unknown field")
	// line 5: instance_tpye: unknown field "instance_tpye"; did you mean "instance_type"? (the Azure ML CLI refuses it: "Unknown field")
}
