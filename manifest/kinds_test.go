package manifest_test

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/workload"
)

// work is what a test expects of one workload item.
type work struct {
	path         string // Item.Path.String(): <nil>, jobs.prep, deployments[0]
	line         int
	kind         manifest.Kind // Item.Kind
	wkind        workload.Kind
	name         string
	instanceType string
	legacy       bool // a Note is set
}

func works(items []manifest.Item[*workload.Workload]) []work {
	var out []work
	for _, it := range items {
		out = append(out, work{it.Path.String(), it.Line, it.Kind, it.Object.Kind, it.Object.Name, it.Object.InstanceType, it.Note != ""})
	}
	return out
}

// Realistic small files of every family of Azure ML YAML this package reads.
const (
	onlineDeployment = `$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
type: kubernetes
endpoint_name: my-endpoint
model:
  path: ../../model-1/model/
code_configuration:
  code: ../../model-1/onlinescoring/
  scoring_script: score.py
environment:
  conda_file: ../../model-1/environment/conda.yaml
  image: mcr.microsoft.com/azureml/openmpi4.1.0-ubuntu20.04:latest
request_settings:
  request_timeout_ms: 3000
resources:
  requests:
    cpu: "0.5"
    memory: 1Gi
  limits:
    cpu: "1"
instance_type: cpu-small
instance_count: 1
`
	commandJob = `$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json
command: python train.py --epochs ${{inputs.epochs}}
code: src
inputs:
  epochs: 10
environment: azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu@latest
compute: azureml:k8s-compute
resources:
  instance_type: gpu-a100
display_name: train-on-kubernetes
experiment_name: kubernetes-training
`
	sweepJob = `$schema: https://azuremlschemas.azureedge.net/latest/sweepJob.schema.json
type: sweep
trial:
  command: python train.py --lr ${{search_space.learning_rate}}
  code: src
  environment: azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu@latest
compute: azureml:k8s-compute
resources:
  instance_type: cpu-small
sampling_algorithm: random
search_space:
  learning_rate:
    type: uniform
    min_value: 0.01
    max_value: 0.9
objective:
  goal: maximize
  primary_metric: accuracy
limits:
  max_total_trials: 20
`
	pipelineJob = `$schema: https://azuremlschemas.azureedge.net/latest/pipelineJob.schema.json
type: pipeline
display_name: train-and-score
settings:
  default_compute: azureml:k8s-compute
  continue_on_step_failure: false
jobs:
  prep:
    type: command
    command: python prep.py --out ${{outputs.prepped}}
    environment: azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu@latest
    outputs:
      prepped:
    resources:
      instance_type: cpu-small
  train:
    type: command
    command: python train.py --data ${{inputs.data}}
    environment: azureml:AzureML-pytorch-1.10-ubuntu18.04-py38-cuda11-gpu@latest
    inputs:
      data: ${{parent.jobs.prep.outputs.prepped}}
    compute: azureml:gpu-k8s
    resources:
      instance_type: gpu-a100
  report:
    type: command
    command: python report.py
    environment: azureml:AzureML-sklearn-1.0-ubuntu20.04-py38-cpu@latest
`
	legacyJob = `# The older form of a job on Kubernetes.
command: python train.py
code:
  local_path: src
environment: azureml:AzureML-Minimal:1
compute:
  target: azureml:k8s-compute
  instance_type: gpu-a100
`
	legacyEndpoint = `# The older form of an online endpoint, with its deployments inline.
name: my-endpoint
type: online
auth_mode: key
compute: azureml:k8s-compute
traffic:
  blue: 90
  green: 10
deployments:
  - name: blue
    model: azureml:my-model:1
    instance_type: cpu-small
    scale_settings:
      scale_type: manual
      instance_count: 1
  - name: green
    model:
      type: mlflow_model
      path: model
    resources:
      requests: {cpu: "2", memory: 4Gi}
`
	modelBatchDeployment = `$schema: https://azuremlschemas.azureedge.net/latest/modelBatchDeployment.schema.json
name: mnist-k8s-dpl
endpoint_name: mnist-batch
type: model
model: azureml:mnist-classifier-torch:1
code_configuration:
  code: code
  scoring_script: batch_driver.py
compute: azureml:k8s-compute
resources:
  instance_count: 2
  instance_type: cpu-small
settings:
  max_concurrency_per_instance: 2
  mini_batch_size: 10
  output_action: append_row
`
	automlJob = `$schema: https://azuremlsdk2.blob.core.windows.net/preview/0.0.1/autoMLJob.schema.json
type: automl
experiment_name: dpv2-cli-automl-classifier-experiment
compute: azureml:k8s-compute
task: classification
primary_metric: accuracy
target_column_name: "y"
training_data:
  path: "./training-mltable-folder"
  type: mltable
limits:
  timeout_minutes: 180
resources:
  instance_type: cpu-small
`
	githubWorkflow = `name: deploy-model
on:
  workflow_dispatch:
  push:
    branches: [main]
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: az ml online-deployment create -f deployment.yml
`
	promptPipeline = `$schema: https://azuremlschemas.azureedge.net/latest/pipelineJob.schema.json
type: pipeline
settings:
  default_compute: azureml:k8s-compute
inputs:
  greeting: "Hello {{ name }}, here is your answer:"
jobs:
  answer:
    type: command
    command: python answer.py --prompt ${{inputs.prompt}}
    inputs:
      prompt: |
        You are a helpful assistant.
        {{ context }}
        Question: {{ question }}
    resources:
      instance_type: gpu-a10
`
	v1List = `apiVersion: v1
kind: List
metadata:
  resourceVersion: ""
items:
- apiVersion: amlarc.azureml.com/v1alpha1
  kind: InstanceType
  metadata:
    name: small
  spec:
    resources:
      requests: {cpu: 100m, memory: 1Gi}
      limits: {cpu: "1", memory: 2Gi}
- apiVersion: v1
  kind: Service
  metadata: {name: s}
- apiVersion: amlarc.azureml.com/v1alpha1
  kind: InstanceTypeList
  items: []
- apiVersion: v1
  kind: Node
  metadata: {name: node-1, labels: {pool: cpu}}
  status: {allocatable: {cpu: "4", memory: 16Gi}}
- apiVersion: amlarc.azureml.com/v1alpha1
  kind: InstanceType
  metadata:
    name: big
`
)

// recognitionTests are documents and what they are recognised as, or why they are skipped.
var recognitionTests = []struct {
	name string
	src  string
	kind manifest.Kind // "" for a skipped document
	skip string        // a substring of the reason
	work []work        // the workloads, when kind is one
}{
	// Instance types.
	{"InstanceType", typeHeader + "metadata: {name: a}\n", manifest.KindInstanceType, "", nil},
	{"InstanceTypeList", "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems: []\n", manifest.KindInstanceTypeList, "", nil},
	{"InstanceType in JSON", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "j"}}`, manifest.KindInstanceType, "", nil},
	{"v1 List", "apiVersion: v1\nkind: List\nitems: []\n", manifest.KindList, "", nil},

	// Deployments.
	{"online deployment", onlineDeployment, manifest.KindDeployment, "", []work{{"<nil>", 1, manifest.KindDeployment, workload.OnlineDeployment, "blue", "cpu-small", false}}},
	{"deployment by $schema, any case and host", "$schema: https://x/v2/KubernetesOnlineDeployment.schema.json\ninstance_type: a\n", manifest.KindDeployment, "", []work{{"<nil>", 1, manifest.KindDeployment, workload.OnlineDeployment, "", "a", false}}},
	{"deployment by $schema without .schema", "$schema: kubernetesOnlineDeployment.json\n", manifest.KindDeployment, "", []work{{"<nil>", 1, manifest.KindDeployment, workload.OnlineDeployment, "", "", false}}},
	{"deployment by shape", "name: green\nendpoint_name: e\nmodel: azureml:m:1\ninstance_type: gpu\n", manifest.KindDeployment, "", []work{{"<nil>", 1, manifest.KindDeployment, workload.OnlineDeployment, "green", "gpu", false}}},
	{"deployment by type: kubernetes", "# comment\ntype: kubernetes\nmodel: azureml:m:1\n", manifest.KindDeployment, "", []work{{"<nil>", 2, manifest.KindDeployment, workload.OnlineDeployment, "", "", false}}},
	{"managed deployment by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/managedOnlineDeployment.schema.json\nname: x\nendpoint_name: y\ninstance_type: Standard_DS3_v2\n", "", "a managed online deployment: it runs on Azure VMs", nil},
	{"managed deployment by its VM size", "name: red\nendpoint_name: e\nmodel: azureml:m:1\ninstance_type: Standard_F2s_v2\n", "", `its instance_type "Standard_F2s_v2" is an Azure VM size`, nil},
	{"managed deployment by type", "type: managed\nendpoint_name: e\n", "", "a managed online deployment", nil},
	{"managed endpoint by type", "type: managed\nname: e\n", "", "a managed online endpoint", nil},
	{"batch deployment by $schema, no compute", "$schema: https://azuremlschemas.azureedge.net/latest/batchDeployment.schema.json\nendpoint_name: b\n", "", "a batch deployment that names no compute target", nil},
	{"batch deployment by shape", "name: mnist\nendpoint_name: mnist-batch\ncompute: azureml:batch-cluster\nmini_batch_size: 10\noutput_action: append_row\n", manifest.KindBatchDeployment, "", []work{{"<nil>", 1, manifest.KindBatchDeployment, workload.ComputeJob, "mnist", "", false}}},
	{"model batch deployment", modelBatchDeployment, manifest.KindBatchDeployment, "", []work{{"<nil>", 1, manifest.KindBatchDeployment, workload.ComputeJob, "mnist-k8s-dpl", "cpu-small", false}}},
	{"model batch deployment by type", "name: b\nendpoint_name: e\ntype: model\ncompute: azureml:k8s\nresources: {instance_type: s}\n", manifest.KindBatchDeployment, "", []work{{"<nil>", 1, manifest.KindBatchDeployment, workload.ComputeJob, "b", "s", false}}},
	{"pipeline component batch deployment", "$schema: https://azuremlschemas.azureedge.net/latest/pipelineComponentBatchDeployment.schema.json\nname: p\nendpoint_name: e\ntype: pipeline\ncomponent: azureml:c:1\n", "", "a pipeline component batch deployment", nil},
	{"pipeline component batch deployment by type", "name: p\nendpoint_name: e\ntype: pipeline\ncomponent: azureml:c:1\n", "", "a pipeline component batch deployment", nil},

	// Endpoints.
	{"legacy endpoint with inline deployments", legacyEndpoint, manifest.KindEndpoint, "", []work{
		{"deployments[0]", 10, manifest.KindDeployment, workload.OnlineDeployment, "blue", "cpu-small", true},
		{"deployments[1]", 16, manifest.KindDeployment, workload.OnlineDeployment, "green", "", true},
	}},
	{"endpoint by $schema with deployments", "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineEndpoint.schema.json\ndeployments:\n- name: a\n", manifest.KindEndpoint, "", []work{{"deployments[0]", 3, manifest.KindDeployment, workload.OnlineDeployment, "a", "", true}}},
	{"endpoint by type: kubernetes with deployments", "type: kubernetes\ndeployments: []\n", manifest.KindEndpoint, "", nil},
	{"endpoint by $schema without deployments", "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineEndpoint.schema.json\nname: e\ncompute: azureml:k8s\nauth_mode: key\n", "", "an online endpoint: it names no deployments", nil},
	{"endpoint by auth_mode", "name: e\nauth_mode: key\n", "", "an Azure ML online endpoint: it names no deployments", nil},
	{"endpoint by type: kubernetes", "type: kubernetes\nname: e\ncompute: azureml:k8s\nauth_mode: key\n", "", "an Azure ML Kubernetes online endpoint (it has auth_mode): it names no deployments", nil},
	{"endpoint by type: kubernetes and traffic", "name: e\ntype: kubernetes\ntraffic: {blue: 100}\n", "", "an Azure ML Kubernetes online endpoint (it has traffic)", nil},
	{"endpoint or compute that names nothing", "type: kubernetes\ndescription: x\n", "", "names nothing", nil},
	{"Kubernetes compute of a name and a type", "name: k8s\ntype: kubernetes\n", manifest.KindCompute, "", nil},
	{"compute of a misspelt type", "name: k8s\ntype: kuberentes\n", manifest.KindCompute, "", nil},
	{"compute of a misspelt type by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesCompute.schema.json\nname: k8s\ntype: kuberentes\n", manifest.KindCompute, "", nil},
	{"a deployment of a misspelt type", "name: blue\ntype: kuberentes\nendpoint_name: e\ninstance_type: a\n", manifest.KindDeployment, "", []work{{"<nil>", 1, manifest.KindDeployment, workload.OnlineDeployment, "blue", "a", false}}},
	{"something else of a type far from a compute's", "name: x\ntype: uri_folder\n", "", "not an InstanceType", nil},
	{"Kubernetes compute with identity", "name: k8s\ntype: kubernetes\nidentity:\n  type: system_assigned\n", manifest.KindCompute, "", nil},
	{"Kubernetes compute target", "type: kubernetes\nname: k8s\nresource_id: /subscriptions/x\n", manifest.KindCompute, "", nil},
	{"compute by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/amlCompute.schema.json\nname: cpu-cluster\ntype: amlcompute\n", manifest.KindCompute, "", nil},
	{"compute instance by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/computeInstance.schema.json\nname: dev\ntype: computeinstance\n", manifest.KindCompute, "", nil},
	{"compute by type", "name: pool\ntype: SynapseSpark\n", manifest.KindCompute, "", nil},
	{"compute list in JSON", `[{"name": "k8s", "type": "kubernetes"}, {"name": "cpu", "type": "amlcompute"}]`, manifest.KindComputeList, "", nil},
	{"compute list in YAML", "- name: k8s\n  type: kubernetes\n- name: old\n  type: '*** unsupported compute type ***'\n", manifest.KindComputeList, "", nil},
	{"a list of other things", "- name: j\n  type: command\n", "", "a list, not a Kubernetes object", nil},

	// Jobs.
	{"command job", commandJob, manifest.KindJob, "", []work{{"<nil>", 1, manifest.KindJob, workload.ComputeJob, "train-on-kubernetes", "gpu-a100", false}}},
	{"command job by shape", "command: echo\ncompute: azureml:k8s\nresources: {instance_type: big}\n", manifest.KindJob, "", []work{{"<nil>", 1, manifest.KindJob, workload.ComputeJob, "", "big", false}}},
	{"legacy command job", legacyJob, manifest.KindJob, "", []work{{"<nil>", 2, manifest.KindJob, workload.ComputeJob, "", "gpu-a100", true}}},
	{"serverless job", "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ncommand: python hello.py\nresources:\n  instance_type: Standard_E4s_v3\n", "", "a serverless job (it names no compute)", nil},
	{"serverless job by shape", "command: python hello.py\n", "", "a serverless job", nil},
	{"local job", "command: python hello.py\ncompute: local\n", "", "a job that runs locally", nil},
	{"serverless job by compute", "command: python hello.py\ncompute: azureml:serverless\nresources: {instance_type: Standard_E4s_v3}\n", "", "a serverless job (compute: azureml:serverless)", nil},
	{"serverless job by bare compute", "command: python hello.py\ncompute: serverless\n", "", "a serverless job (compute: serverless)", nil},
	{"Spark job by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/sparkJob.schema.json\ntype: spark\nresources: {instance_type: standard_e4s_v3}\n", "", "a Spark job", nil},
	{"Spark job by type", "type: spark\ncompute: azureml:k8s\nresources: {instance_type: standard_e4s_v3}\n", "", "never on Kubernetes", nil},
	{"AutoML job", automlJob, manifest.KindAutoMLJob, "", []work{{"<nil>", 1, manifest.KindAutoMLJob, workload.ComputeJob, "", "cpu-small", false}}},
	{"AutoML job by type", "type: automl\ntask: regression\ncompute: azureml:k8s\nresources: {instance_type: s}\n", manifest.KindAutoMLJob, "", []work{{"<nil>", 1, manifest.KindAutoMLJob, workload.ComputeJob, "", "s", false}}},
	{"serverless AutoML job", "type: automl\ntask: regression\n", "", "a serverless job", nil},
	{"GitHub workflow", githubWorkflow, "", "a GitHub Actions workflow", nil},
	{"GitHub workflow by runs-on", "jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: []\n", "", "a GitHub Actions workflow", nil},
	{"sweep job", sweepJob, manifest.KindSweepJob, "", []work{{"<nil>", 1, manifest.KindSweepJob, workload.ComputeJob, "", "cpu-small", false}}},
	{"sweep job by shape", "trial: {command: x}\nsampling_algorithm: grid\ncompute: azureml:k8s\nresources: {instance_type: s}\n", manifest.KindSweepJob, "", []work{{"<nil>", 1, manifest.KindSweepJob, workload.ComputeJob, "", "s", false}}},
	{"serverless sweep job", "type: sweep\ntrial: {command: x}\n", "", "a serverless job", nil},
	{"pipeline job", pipelineJob, manifest.KindPipelineJob, "", []work{
		{"jobs.prep", 9, manifest.KindPipelineJob, workload.ComputeJob, "", "cpu-small", false},
		{"jobs.train", 17, manifest.KindPipelineJob, workload.ComputeJob, "", "gpu-a100", false},
		{"jobs.report", 26, manifest.KindPipelineJob, workload.ComputeJob, "", "", false},
	}},
	{"pipeline job by shape", "jobs: {}\n", manifest.KindPipelineJob, "", nil},
	{"pipeline job by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/pipelineJob.schema.json\n", manifest.KindPipelineJob, "", nil},

	// Components and other Azure ML files.
	{"component by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/commandComponent.schema.json\nname: train\ncommand: python train.py\n", "", "an Azure ML component", nil},
	{"component by shape", "name: train\nversion: 1\ncommand: python train.py\n", "", "an Azure ML component", nil},
	{"another Azure ML file", "$schema: https://azuremlschemas.azureedge.net/latest/data.schema.json\nname: d\n", "", "an Azure ML data file, which names no instance type", nil},
	{"an empty $schema", "$schema: /\n", "", "a $schema that names no Azure ML schema", nil},

	// Everything else.
	{"Service", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}], weird: field}\n", "", "a Service (v1), not an InstanceType", nil},
	{"apps/v1 Deployment", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n", "", "a Deployment (apps/v1), not an InstanceType", nil},
	{"only an apiVersion", "apiVersion: v9\n", "", "a Kubernetes object, not an InstanceType", nil},
	{"Node", "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {allocatable: {cpu: \"4\"}}\n", manifest.KindNode, "", nil},
	{"a scalar", "just a string\n", "", "a string, not a Kubernetes object", nil},
	{"a list", "- a\n- b\n", "", "a list, not a Kubernetes object", nil},
	{"a JSON list", "[1, 2, 3]", "", "a list, not a Kubernetes object", nil},
	{"some config", "some: config\nlist: [1, 2]\n", "", "not an InstanceType, nor an Azure ML deployment or job", nil},
	{"JSON config", `{"some": "config", "list": [1, 2]}`, "", "not an InstanceType, nor an Azure ML deployment or job", nil},
	{"Helm template", "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: {{ .Values.name }}\n", "", "holds Go template actions", nil},
	{"a prompt template is content", promptPipeline, manifest.KindPipelineJob, "", []work{{"jobs.answer", 9, manifest.KindPipelineJob, workload.ComputeJob, "", "gpu-a10", false}}},
}

func TestRecognition(t *testing.T) {
	for _, tt := range recognitionTests {
		t.Run(tt.name, func(t *testing.T) {
			f := manifest.Parse("x.yaml", []byte(tt.src))
			var fs []manifest.Finding
			for _, x := range f.Findings() {
				// The older form is read, and reported; so is a misspelt compute type.
				if x.Err.Origin != "legacy-compute-form" && x.Err.Origin != "compute-type" {
					fs = append(fs, x)
				}
			}
			if len(fs) != 0 {
				t.Errorf("Parse findings:%s; want none", messages(fs))
			}
			if tt.kind == "" {
				if len(f.Documents) != 0 || len(f.Skipped) != 1 || !strings.Contains(f.Skipped[0].Reason, tt.skip) {
					t.Fatalf("Parse(%q) = %d documents, skipped %v; want it skipped because %q", tt.src, len(f.Documents), f.Skipped, tt.skip)
				}
				return
			}
			d := oneDocument(t, f)
			if d.Kind != tt.kind || len(f.Skipped) != 0 {
				t.Errorf("Parse(%q) kind = %s, skipped %v; want %s", tt.src, d.Kind, f.Skipped, tt.kind)
			}
			if got := works(d.Workloads); !slices.Equal(got, tt.work) {
				t.Errorf("Parse(%q) workloads = %+v; want %+v", tt.src, got, tt.work)
			}
		})
	}
}

// Every document is counted, recognised or not; Checked counts the recognised.
func TestCountAndChecked(t *testing.T) {
	var b strings.Builder
	for _, tt := range recognitionTests {
		if strings.Contains(tt.src, "{{") || strings.HasPrefix(tt.src, "{") || strings.HasPrefix(tt.src, "[") {
			continue // a whole file of its own
		}
		b.WriteString(tt.src)
		b.WriteString("\n---\n")
	}
	f := manifest.Parse("all.yaml", []byte(b.String()))
	if f.Count != len(f.Documents)+len(f.Skipped) || f.Checked != len(f.Documents) || len(f.Documents) < 10 || len(f.Skipped) < 10 {
		t.Errorf("Parse: Count %d, Checked %d, %d documents, %d skipped; want Count = documents + skipped, Checked = documents", f.Count, f.Checked, len(f.Documents), len(f.Skipped))
	}
	for i, d := range f.Documents {
		if i > 0 && d.Index <= f.Documents[i-1].Index {
			t.Errorf("document %d has index %d after %d", i, d.Index, f.Documents[i-1].Index)
		}
	}
}

func TestWorkloadFields(t *testing.T) {
	compute := field.NewPath("compute")
	tests := []struct {
		src  string
		want workload.Workload
	}{
		{"endpoint_name: e\nmodel: {type: mlflow_model, path: m}\nresources: ~\n", workload.Workload{Kind: workload.OnlineDeployment, MLflow: true}},
		{"endpoint_name: e\nmodel: azureml:m:1\n", workload.Workload{Kind: workload.OnlineDeployment}},
		{"endpoint_name: e\nmodel: {type: custom_model}\n", workload.Workload{Kind: workload.OnlineDeployment}},
		{"command: c\ncompute: k\nresources: {instance_type: big, instance_count: 2, shm_size: 2g}\n", workload.Workload{Kind: workload.ComputeJob, InstanceType: "big", Compute: "k", ComputePath: compute}},
		// name wins over display_name, wherever it is written.
		{"command: c\ncompute: k\ndisplay_name: shown\n", workload.Workload{Kind: workload.ComputeJob, Name: "shown", Compute: "k", ComputePath: compute}},
		{"command: c\ncompute: k\ndisplay_name: shown\nname: real\n", workload.Workload{Kind: workload.ComputeJob, Name: "real", Compute: "k", ComputePath: compute}},
		{"command: c\ncompute: k\nname: real\ndisplay_name: shown\n", workload.Workload{Kind: workload.ComputeJob, Name: "real", Compute: "k", ComputePath: compute}},
		{"command: c\ncompute: azureml:/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/computes/k\n", workload.Workload{Kind: workload.ComputeJob,
			Compute: "azureml:/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/computes/k", ComputePath: compute}},
	}
	// The older form is read (its target is the compute), and reported: the CLI v2 refuses it.
	f := manifest.Parse("w.yaml", []byte("command: c\ncompute: {target: azureml:k, instance_type: old}\n"))
	want := workload.Workload{Kind: workload.ComputeJob, InstanceType: "old", LegacyCompute: true, Compute: "azureml:k", ComputePath: compute.Child("target")}
	if got := *oneDocument(t, f).Workloads[0].Object; !reflect.DeepEqual(got, want) {
		t.Errorf("older form = %+v; want %+v", got, want)
	}
	if fs := f.Findings(); len(fs) != 1 || fs[0].Err.Origin != "legacy-compute-form" || fs[0].Err.Field != "compute" ||
		!strings.Contains(fs[0].Message(), "write compute: azureml:k and resources: {instance_type: old}") {
		t.Errorf("older form findings:%s; want one at compute giving today's form", messages(fs))
	}
	for _, tt := range tests {
		f := manifest.Parse("w.yaml", []byte(tt.src))
		d := oneDocument(t, f)
		if len(d.Workloads) != 1 {
			t.Fatalf("Parse(%q): %d workloads", tt.src, len(d.Workloads))
		}
		if got := *d.Workloads[0].Object; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v; want %+v", tt.src, got, tt.want)
		}
		if fs := f.Findings(); len(fs) != 0 {
			t.Errorf("Parse(%q) findings:%s", tt.src, messages(fs))
		}
	}
}

func TestPipelineSteps(t *testing.T) {
	tests := []struct {
		name string
		src  string
		work []work
		skip []manifest.Skip
	}{{
		name: "default compute: every step is a workload, one that names no instance type too",
		src:  pipelineJob,
		work: []work{
			{"jobs.prep", 9, manifest.KindPipelineJob, workload.ComputeJob, "", "cpu-small", false},
			{"jobs.train", 17, manifest.KindPipelineJob, workload.ComputeJob, "", "gpu-a100", false},
			{"jobs.report", 26, manifest.KindPipelineJob, workload.ComputeJob, "", "", false},
		},
	}, {
		name: "a pipeline's compute is every step's",
		src: `type: pipeline
compute: azureml:k8s
jobs:
  a:
    command: x
    resources: {instance_type: small}
`,
		work: []work{{"jobs.a", 5, manifest.KindPipelineJob, workload.ComputeJob, "", "small", false}},
	}, {
		name: "serverless: steps without compute are skipped, steps with it are read",
		src: `$schema: https://azuremlschemas.azureedge.net/latest/pipelineJob.schema.json
type: pipeline
jobs:
  prep:
    command: python prep.py
    resources:
      instance_type: Standard_D2_v2
  train:
    command: python train.py
    compute: azureml:gpu-k8s
    resources:
      instance_type: gpu
  report:
    command: python report.py
  old:
    command: python old.py
    compute:
      target: azureml:k8s
      instance_type: legacy
`,
		work: []work{
			{"jobs.train", 9, manifest.KindPipelineJob, workload.ComputeJob, "", "gpu", false},
			{"jobs.old", 16, manifest.KindPipelineJob, workload.ComputeJob, "", "legacy", true},
		},
		skip: []manifest.Skip{
			{Line: 5, Reason: `pipeline step "prep" is serverless (no compute, and no settings.default_compute): its instance_type is an Azure VM size`},
			{Line: 14, Reason: `pipeline step "report" is serverless (no compute, and no settings.default_compute)`},
		},
	}, {
		name: "steps that name no instance type: placed when on a compute target, else skipped",
		src: `settings: {default_compute: azureml:k8s}
jobs:
  plain:
    command: x
  own:
    command: x
    compute: azureml:cpu-cluster
  bound:
    command: x
    compute: ${{parent.inputs.compute}}
  local:
    command: x
    compute: local
  cloud:
    command: x
    compute: azureml:serverless
  spark:
    type: spark
    entry: {file: w.py}
  sub:
    type: pipeline
    component: ./sub.yml
  copy:
    type: data_transfer
    task: copy_data
  load:
    type: import
`,
		work: []work{
			{"jobs.plain", 4, manifest.KindPipelineJob, workload.ComputeJob, "", "", false},
			{"jobs.own", 6, manifest.KindPipelineJob, workload.ComputeJob, "", "", false},
			{"jobs.bound", 9, manifest.KindPipelineJob, workload.ComputeJob, "", "", false},
		},
		skip: []manifest.Skip{
			{Line: 12, Reason: `pipeline step "local" runs locally (compute: local)`},
			{Line: 15, Reason: `pipeline step "cloud" is serverless (compute: azureml:serverless)`},
			{Line: 18, Reason: `pipeline step "spark" is a Spark step: it runs on serverless Spark compute or an attached Synapse Spark pool, never on Kubernetes`},
			{Line: 21, Reason: `pipeline step "sub" is a pipeline component (type: pipeline): its own steps run, not it`},
			{Line: 24, Reason: `pipeline step "copy" is a data transfer step (type: data_transfer): it moves data, with no instance type`},
			{Line: 27, Reason: `pipeline step "load" is a data import step (type: import): it moves data, with no instance type`},
		},
	}, {
		name: "a step's name field is its name",
		src: `settings: {default_compute: azureml:k8s}
jobs:
  s:
    name: step-one
    command: x
    resources: {instance_type: small}
`,
		work: []work{{"jobs.s", 4, manifest.KindPipelineJob, workload.ComputeJob, "step-one", "small", false}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := manifest.Parse("p.yaml", []byte(tt.src))
			var fs []manifest.Finding
			for _, x := range f.Findings() {
				if x.Err.Origin != "legacy-compute-form" {
					fs = append(fs, x)
				}
			}
			if len(fs) != 0 {
				t.Errorf("findings:%s", messages(fs))
			}
			d := oneDocument(t, f)
			if got := works(d.Workloads); !slices.Equal(got, tt.work) {
				t.Errorf("workloads = %+v; want %+v", got, tt.work)
			}
			if !slices.Equal(f.Skipped, tt.skip) {
				t.Errorf("skipped = %v; want %v", f.Skipped, tt.skip)
			}
		})
	}

	// Findings in steps are at their paths below jobs.NAME.
	f := manifest.Parse("p.yaml", []byte(`settings: {default_compute: azureml:k8s}
jobs:
  prep:
    command: x
    resources:
      instance_type: 12
      limits: {cpu: 1}
`))
	if got, want := locs(f.Findings()), []loc{{6, "jobs.prep.resources.instance_type", "FieldValueTypeInvalid"}, {7, "jobs.prep.resources.limits", "UnknownField"}}; !slices.Equal(got, want) {
		t.Errorf("findings = %v; want %v", got, want)
	}
	d := oneDocument(t, f)
	if p := d.Position("jobs.prep.resources.instance_type"); p != (manifest.Position{Line: 6, Column: 7}) {
		t.Errorf("Position(jobs.prep.resources.instance_type) = %v; want {6 7}", p)
	}
}

// The older form of a job names its instance type in compute: the workload says where,
// and carries a note on today's form.
func TestLegacyJob(t *testing.T) {
	f := manifest.Parse("j.yaml", []byte(legacyJob))
	d := oneDocument(t, f)
	w := d.Workloads[0]
	if !w.Object.LegacyCompute {
		t.Errorf("LegacyCompute = false; want true")
	}
	if p := w.Object.InstanceTypePath(w.Path).String(); p != "compute.instance_type" {
		t.Errorf("InstanceTypePath = %s; want compute.instance_type", p)
	}
	if !strings.Contains(w.Note, "compute with target and instance_type") || !strings.Contains(w.Note, "resources.instance_type") {
		t.Errorf("Note = %q; want it to name the older form and today's", w.Note)
	}
	if p := d.Position("compute.instance_type"); p != (manifest.Position{Line: 8, Column: 3}) {
		t.Errorf("Position(compute.instance_type) = %v; want {8 3}", p)
	}

	// Today's form has no note, and LegacyCompute false.
	w = oneDocument(t, manifest.Parse("j.yaml", []byte(commandJob))).Workloads[0]
	if w.Note != "" || w.Object.LegacyCompute {
		t.Errorf("today's job: note %q, LegacyCompute %v; want none", w.Note, w.Object.LegacyCompute)
	}
}

// An endpoint written with its deployments inline: each is a deployment at deployments[i].
func TestLegacyEndpoint(t *testing.T) {
	f := manifest.Parse("e.yaml", []byte(legacyEndpoint))
	d := oneDocument(t, f)
	if len(d.Workloads) != 2 {
		t.Fatalf("%d workloads; want 2", len(d.Workloads))
	}
	green := d.Workloads[1]
	if !green.Object.MLflow || green.Object.Resources == nil || amounts(green.Object.Resources.Requests)["memory"] != "4Gi" {
		t.Errorf("deployments[1] = %+v; want an MLflow deployment with its resources", green.Object)
	}
	if !strings.Contains(green.Note, "deployments inline") {
		t.Errorf("Note = %q; want it to name the older form", green.Note)
	}
	for path, want := range map[string]manifest.Position{
		"deployments[0]":                          {Line: 10, Column: 5},
		"deployments[0].instance_type":            {Line: 12, Column: 5},
		"deployments[1].resources.requests[cpu]":  {Line: 21, Column: 18},
		"deployments[1].resources.limits[cpu]":    {Line: 20, Column: 5},
		"deployments[1].instance_type":            {Line: 16, Column: 5},
		"deployments[2].instance_type":            {Line: 9, Column: 1},
		"deployments[1].model.type":               {Line: 18, Column: 7},
		"deployments[0].scale_settings.scale_typ": {Line: 13, Column: 5},
	} {
		if got := d.Position(path); got != want {
			t.Errorf("Position(%s) = %v; want %v", path, got, want)
		}
	}
	// Findings inside a deployment are at its path.
	f = manifest.Parse("e.yaml", []byte("deployments:\n- name: a\n  resources: {requests: {cpus: \"1\"}, x: 1}\n  instance_type: [a]\n"))
	if got, want := locs(f.Findings()), []loc{{3, "deployments[0].resources.requests[cpus]", "FieldValueNotSupported"}, {3, "deployments[0].resources.x", "UnknownField"}, {4, "deployments[0].instance_type", "FieldValueTypeInvalid"}}; !slices.Equal(got, want) {
		t.Errorf("findings = %v; want %v", got, want)
	}
}

// A v1 List, as kubectl get -o yaml prints one: its InstanceType items are read at
// items[i], its other items skipped, each with why, at its line.
func TestV1List(t *testing.T) {
	f := manifest.Parse("l.yaml", []byte(v1List))
	if fs := f.Findings(); len(fs) != 0 {
		t.Errorf("findings:%s", messages(fs))
	}
	d := oneDocument(t, f)
	if d.Kind != manifest.KindList {
		t.Errorf("kind = %s; want List", d.Kind)
	}
	var got []string
	for _, it := range d.InstanceTypes {
		got = append(got, it.Path.String()+" "+it.Object.Name+" "+string(it.Kind)+" "+strconv.Itoa(it.Line))
	}
	if want := []string{"items[0] small InstanceType 6", "items[4] big InstanceType 24"}; !slices.Equal(got, want) {
		t.Errorf("instance types = %q; want %q", got, want)
	}
	if g := amounts(d.InstanceTypes[0].Object.Spec.Resources.Limits); g["memory"] != "2Gi" {
		t.Errorf("items[0] limits = %v", g)
	}
	if p := d.Position("items[4].metadata.name"); p != (manifest.Position{Line: 27, Column: 5}) {
		t.Errorf("Position(items[4].metadata.name) = %v; want {27 5}", p)
	}
	// The Node is read, for lint's Options.Nodes (which skips Nodes met among manifests).
	if len(d.Nodes) != 1 || d.Nodes[0].Path.String() != "items[3]" || d.Nodes[0].Line != 20 || d.Nodes[0].Object.Name != "node-1" {
		t.Errorf("nodes = %+v; want node-1 at items[3], line 20", d.Nodes)
	}
	// The reasons, up to what they advise.
	want := []manifest.Skip{
		{Line: 14, Reason: "items[1]: a Service (v1), not an InstanceType"},
		{Line: 17, Reason: "items[2]: an InstanceTypeList inside a List: write it in a file of its own to have it checked"},
	}
	ok := len(f.Skipped) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = f.Skipped[i].Line == want[i].Line && strings.HasPrefix(f.Skipped[i].Reason, want[i].Reason)
	}
	if !ok {
		t.Errorf("skipped = %v; want %v", f.Skipped, want)
	}
}

// Directory walks live in package lint now (manifest.ParseFS is gone): a walk reads the
// manifests (.yaml, .yml, .json), checks the Azure ML and InstanceType documents, and skips
// the others with a reason and no finding.
func TestUnrelatedKindsAreSkipped(t *testing.T) {
	fsys := fstest.MapFS{
		"svc.yaml":     {Data: []byte("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}], weird: field}\n")},
		"deploy.yml":   {Data: []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: 1\n")},
		"managed.yaml": {Data: []byte("$schema: https://azuremlschemas.azureedge.net/latest/managedOnlineDeployment.schema.json\nname: x\nendpoint_name: y\n")},
		"config.json":  {Data: []byte(`{"some": "config", "list": [1, 2]}`)},
		"array.json":   {Data: []byte(`[1, 2, 3]`)},
		"scalar.yaml":  {Data: []byte("just a string\n")},
		"empty.yaml":   {Data: []byte("")},
		"comments.yml": {Data: []byte("# nothing here\n---\n---\n")},
		"README.md":    {Data: []byte("not: [yaml")},
		"sub/it.yaml":  {Data: []byte("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: a}\nspec:\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: 1, memory: 1Gi}\n")},
	}
	r, err := lint.Run([]lint.Input{lint.FS(fsys, ".")}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 0 {
		t.Errorf("lint.Run findings:%s; want none", messages(r.Findings))
	}
	if r.Files != 9 || r.Documents != 1 {
		t.Errorf("lint.Run read %d files, checked %d documents; want 9 (README.md is no manifest) and 1", r.Files, r.Documents)
	}
	var skipped []string
	for _, s := range r.Skipped {
		skipped = append(skipped, s.File+":"+strconv.Itoa(s.Line))
	}
	if want := []string{"array.json:1", "config.json:1", "deploy.yml:1", "managed.yaml:1", "scalar.yaml:1", "svc.yaml:1"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped = %q; want %q", skipped, want)
	}

	r, err = lint.Run([]lint.Input{lint.FS(fsys, "README.md")}, lint.Options{})
	if err != nil || r.Files != 1 || len(r.Findings) != 1 || r.Findings[0].Type != manifest.SyntaxError {
		t.Errorf("lint.Run(README.md) = %v, %v; want one syntax error: a file named is read whatever its name", r, err)
	}
	if _, err := lint.Run([]lint.Input{lint.FS(fsys, "missing.yaml")}, lint.Options{}); err == nil {
		t.Error("lint.Run(missing.yaml): no error")
	}
}

// A job that names its instance type both in today's form (resources.instance_type, where
// Azure ML's job schema puts it) and in the older one (compute.instance_type): today's is in
// effect, wherever each is written, and is where findings about it are placed; when the two
// differ, the older one, ignored, is a finding at compute.instance_type.
func TestJobNamingTwoInstanceTypes(t *testing.T) {
	for _, tt := range []struct {
		src    string
		name   string // the name in effect
		want   string // the path of the name in effect
		line   int
		legacy bool  // the workload is in the older form (a Note)
		finds  []loc // Parse's findings
	}{
		{"command: c\ncompute: {target: k, instance_type: a}\nresources: {instance_type: b}\n", "b", "resources.instance_type", 3, false,
			[]loc{{2, "compute.instance_type", "FieldValueInvalid"}}},
		{"command: c\nresources: {instance_type: b}\ncompute: {target: k, instance_type: a}\n", "b", "resources.instance_type", 2, false,
			[]loc{{3, "compute.instance_type", "FieldValueInvalid"}}},
		// The same name twice is no conflict.
		{"command: c\ncompute: {target: k, instance_type: b}\nresources: {instance_type: b}\n", "b", "resources.instance_type", 3, false, nil},
		// A null resources.instance_type names none: the older form's is in effect.
		{"command: c\nresources: {instance_type: null}\ncompute: {target: k, instance_type: a}\n", "a", "compute.instance_type", 3, true, nil},
		{"command: c\nresources: {instance_count: 2}\ncompute:\n  target: k\n  instance_type: a\n", "a", "compute.instance_type", 5, true, nil},
		// A refused value has its own finding, and no second one.
		{"command: c\nresources: {instance_type: 12}\ncompute: {target: k, instance_type: a}\n", "", "resources.instance_type", 2, false,
			[]loc{{2, "resources.instance_type", "FieldValueTypeInvalid"}}},
		{"command: c\nresources: {instance_type: b}\ncompute: {target: k, instance_type: [a]}\n", "b", "resources.instance_type", 2, false,
			[]loc{{3, "compute.instance_type", "FieldValueTypeInvalid"}}},
	} {
		f := manifest.Parse("j.yaml", []byte(tt.src))
		d := oneDocument(t, f)
		w := d.Workloads[0]
		p := w.Object.InstanceTypePath(w.Path)
		if w.Object.InstanceType != tt.name || p.String() != tt.want || d.Position(p.String()).Line != tt.line || (w.Note != "") != tt.legacy {
			t.Errorf("Parse(%q): instance type %q at %s line %d, note %q; want %q at %s line %d, legacy %v",
				tt.src, w.Object.InstanceType, p, d.Position(p.String()).Line, w.Note, tt.name, tt.want, tt.line, tt.legacy)
		}
		// Each is in the older form too, which is one finding more, at compute.
		want := append([]loc{{1 + strings.Count(tt.src[:strings.Index(tt.src, "compute:")], "\n"), "compute", "FieldValueInvalid"}}, tt.finds...)
		slices.SortStableFunc(want, func(a, b loc) int { return a.line - b.line })
		if got := locs(f.Findings()); !slices.Equal(got, want) {
			t.Errorf("Parse(%q) findings = %v; want %v%s", tt.src, got, want, messages(f.Findings()))
		}
	}

	// The finding says which name is in effect; lint looks that one up, where it is written.
	src := "command: c\ncompute: {target: k, instance_type: a}\nresources: {instance_type: b}\n"
	f := manifest.Parse("j.yaml", []byte(src))
	if fs := f.Findings(); len(fs) != 2 || !strings.Contains(fs[1].Message(), `"a"`) || !strings.Contains(fs[1].Message(), `resources.instance_type names "b"`) {
		t.Errorf("Parse(%q) findings:%s; want one saying that \"a\" is ignored for \"b\"", src, messages(fs))
	}
	catalog := typeHeader + "metadata: {name: a}\nspec:\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: 1, memory: 1Gi}\n"
	r, err := lint.Run([]lint.Input{lint.Bytes("j.yaml", []byte(src)), lint.Bytes("t.yaml", []byte(catalog))}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := locs(r.Findings), []loc{{2, "compute", "FieldValueInvalid"}, {2, "compute.instance_type", "FieldValueInvalid"}, {3, "resources.instance_type", "FieldValueNotFound"}}; !slices.Equal(got, want) {
		t.Errorf("lint.Run findings = %v; want %v%s", got, want, messages(r.Findings))
	}
}

// A recognised workload document whose workloads are written in the wrong shape checks
// nothing: that must be a finding, at the section, saying what shape it must have, not
// silence. A null section holds nothing, and is no finding.
func TestWorkloadSectionOfTheWrongShape(t *testing.T) {
	const pipeline = "type: pipeline\nsettings: {default_compute: k}\n"
	for _, tt := range []struct {
		src  string
		want []loc
		says string // what the message says of the shape wanted
	}{
		{pipeline + "jobs:\n- command: x\n  resources: {instance_type: small}\n", []loc{{3, "jobs", "FieldValueTypeInvalid"}}, "must be a mapping of step names to jobs, not a list"},
		{pipeline + "jobs: train\n", []loc{{3, "jobs", "FieldValueTypeInvalid"}}, "must be a mapping of step names to jobs, not a string"},
		{"jobs: [a]\n", []loc{{1, "jobs", "FieldValueTypeInvalid"}}, "must be a mapping of step names to jobs"},
		{pipeline + "jobs:\n  train: 5\n  prep: {command: x, resources: {instance_type: small}}\n", []loc{{4, "jobs.train", "FieldValueTypeInvalid"}}, "must be a mapping, not a number"},
		{pipeline + "jobs:\n  train: {command: x, resources: small}\n", []loc{{4, "jobs.train.resources", "FieldValueTypeInvalid"}}, "must be a mapping, not a string"},
		{"deployments:\n  blue: {instance_type: small}\n", []loc{{1, "deployments", "FieldValueTypeInvalid"}}, "must be a list of deployments, not a mapping"},
		{"type: kubernetes\ndeployments: 5\n", []loc{{2, "deployments", "FieldValueTypeInvalid"}}, "must be a list of deployments, not a number"},
		{"deployments:\n- 5\n", []loc{{2, "deployments[0]", "FieldValueTypeInvalid"}}, "must be a mapping, not a number"},
		{"command: c\ncompute: [k]\nresources: {instance_type: small}\n", []loc{{2, "compute", "FieldValueTypeInvalid"}}, "must be a compute target's name, not a list"},
		{"command: c\ncompute: k\nresources: [small]\n", []loc{{3, "resources", "FieldValueTypeInvalid"}}, "must be a mapping, not a list"},
		{pipeline + "jobs:\n", nil, ""},
		{pipeline + "jobs:\n  train: null\n", nil, ""},
		{"type: kubernetes\ndeployments: null\n", nil, ""},
	} {
		f := manifest.Parse("w.yaml", []byte(tt.src))
		oneDocument(t, f)
		fs := f.Findings()
		if got := locs(fs); !slices.Equal(got, tt.want) {
			t.Errorf("Parse(%q) findings = %v; want %v%s", tt.src, got, tt.want, messages(fs))
			continue
		}
		if len(fs) > 0 && !strings.Contains(fs[0].Message(), tt.says) {
			t.Errorf("Parse(%q) finding %q; want it to say %q", tt.src, fs[0].Message(), tt.says)
		}
		// lint reports the one finding, and nothing more of the section.
		r, err := lint.Run([]lint.Input{lint.Bytes("w.yaml", []byte(tt.src))}, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := locs(r.Findings); !slices.Equal(got, tt.want) {
			t.Errorf("lint.Run(%q) findings = %v; want %v%s", tt.src, got, tt.want, messages(r.Findings))
		}
	}
}

// A file is skipped as a Helm template for its template actions; a comment that mentions
// one does not make a manifest a template.
func TestHelmTemplateInAComment(t *testing.T) {
	src := "# rendered with: helm template {{ .Release.Name }}\n" + typeHeader + "metadata: {name: Bad_Name, x: 1}\n"
	f := manifest.Parse("c.yaml", []byte(src))
	if len(f.Documents) != 1 {
		t.Errorf("Parse(%q): %d documents, skipped %v; want the InstanceType checked", src, len(f.Documents), f.Skipped)
	}
}

// A file is a template, skipped whole, when it holds a Go template action as Helm's are
// written; not for one in a comment, another tool's template in a quoted string, or an
// Azure ML expression.
func TestTemplateFiles(t *testing.T) {
	for _, tt := range []struct {
		line string
		skip bool
	}{
		{"  name: {{ .Values.name }}", true},
		{"  name: {{.Values.name}}", true},
		{"{{- if .Values.enabled }}", true},
		{"  labels: {{ include \"chart.labels\" . | nindent 4 }}", true},
		// Quoted, or in a block scalar, it is content that YAML reads (a prompt template): a
		// chart's templates/ is known by its path (package lint).
		{"  name: \"{{ .Values.name }}\"", false},
		{"  name: '{{- $name }}'", false},
		{"  a: \"{{ include \\\"x\\\" . }}\"", false},
		{"  prompt: |\n      {{ .Values.x }}\n      Question: {{ q }}", false},
		{"  prompt: >-\n      {{ context }}", false},
		{"  - |\n      {{ context }}", false},
		{"  cmd: echo {{ x }} done", false},
		{"  - {{ .Values.item }}", true},
		{"  list: [a, {{ .Values.b }}]", true},
		{"  prompt: |\n      text\n  after: {{ .Values.x }}", true},
		{"  a: \"multi\n      {{ line }} string\"", false},
		{"  name: {{ x }}", true}, // unquoted, it is no YAML kubectl could read either
		{"# helm template {{ .Release.Name }}", false},
		{"  name: a # {{ .Values.name }}", false},
		{"  description: \"{{inputs.parameters.x}}\"", false},
		{"  summary: '{{ $value }} is high'", false},
		{"  summary: \"alert: {{ humanize .Value }}\"", false},
		{"  cmd: python x.py ${{inputs.data}}", false},
		{"  it's: \"{{ workflow.name }}\"", false},
		{"  a: {b: c}", false},
	} {
		src := typeHeader + "metadata:\n  name: a\n  annotations:\n  " + tt.line + "\n"
		f := manifest.Parse("t.yaml", []byte(src))
		skipped := len(f.Skipped) == 1 && strings.Contains(f.Skipped[0].Reason, "template")
		if skipped != tt.skip {
			t.Errorf("Parse(%q): skipped as a template: %v; want %v (skipped %v)", tt.line, skipped, tt.skip, f.Skipped)
		}
		if skipped && f.Skipped[0].Line != 6+strings.Count(tt.line, "\n") {
			t.Errorf("Parse(%q): skipped on line %d; want 6", tt.line, f.Skipped[0].Line)
		}
	}
}
