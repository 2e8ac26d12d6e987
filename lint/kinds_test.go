package lint_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/workload"
)

// work is what a test expects of one workload's placement.
type work struct {
	path         string // Placement.Path.String(): <nil>, jobs.prep, deployments[0]
	line         int
	kind         string // Placement.DocumentKind
	wkind        workload.Kind
	name         string
	instanceType string
}

func works(ps []lint.Placement) []work {
	var out []work
	for _, p := range ps {
		out = append(out, work{p.Path.String(), p.Line, string(p.DocumentKind), p.Workload.Kind, p.Workload.Name, p.Workload.InstanceType})
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
	kind string // the document's kind, as the report names it; "" for a skipped document
	skip string // a substring of the reason
	work []work // the workloads, when kind is one
}{
	// Instance types.
	{"InstanceType", typeHeader + "metadata: {name: a}\n", "InstanceType", "", nil},
	{"InstanceTypeList", "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems: []\n", "InstanceTypeList", "", nil},
	{"InstanceType in JSON", `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "j"}}`, "InstanceType", "", nil},
	{"v1 List", "apiVersion: v1\nkind: List\nitems: []\n", "List", "", nil},

	// Deployments.
	{"online deployment", onlineDeployment, "KubernetesOnlineDeployment", "", []work{{"<nil>", 1, "KubernetesOnlineDeployment", workload.OnlineDeployment, "blue", "cpu-small"}}},
	{"deployment by $schema, any case and host", "$schema: https://x/v2/KubernetesOnlineDeployment.schema.json\ninstance_type: a\n", "KubernetesOnlineDeployment", "", []work{{"<nil>", 1, "KubernetesOnlineDeployment", workload.OnlineDeployment, "", "a"}}},
	{"deployment by $schema without .schema", "$schema: kubernetesOnlineDeployment.json\n", "KubernetesOnlineDeployment", "", []work{{"<nil>", 1, "KubernetesOnlineDeployment", workload.OnlineDeployment, "", ""}}},
	{"deployment by shape", "name: green\nendpoint_name: e\nmodel: azureml:m:1\ninstance_type: gpu\n", "KubernetesOnlineDeployment", "", []work{{"<nil>", 1, "KubernetesOnlineDeployment", workload.OnlineDeployment, "green", "gpu"}}},
	{"deployment by type: kubernetes", "# comment\ntype: kubernetes\nmodel: azureml:m:1\n", "KubernetesOnlineDeployment", "", []work{{"<nil>", 2, "KubernetesOnlineDeployment", workload.OnlineDeployment, "", ""}}},
	{"managed deployment by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/managedOnlineDeployment.schema.json\nname: x\nendpoint_name: y\ninstance_type: Standard_DS3_v2\n", "", "a managed online deployment: it runs on Azure VMs", nil},
	{"managed deployment by its VM size", "name: red\nendpoint_name: e\nmodel: azureml:m:1\ninstance_type: Standard_F2s_v2\n", "", `its instance_type "Standard_F2s_v2" is an Azure VM size`, nil},
	{"managed deployment by type", "type: managed\nendpoint_name: e\n", "", "a managed online deployment", nil},
	{"managed endpoint by type", "type: managed\nname: e\n", "", "a managed online endpoint", nil},
	{"batch deployment by $schema, no compute", "$schema: https://azuremlschemas.azureedge.net/latest/batchDeployment.schema.json\nendpoint_name: b\n", "", "a batch deployment that names no compute target", nil},
	{"batch deployment by shape", "name: mnist\nendpoint_name: mnist-batch\ncompute: azureml:batch-cluster\nmini_batch_size: 10\noutput_action: append_row\n", "BatchDeployment", "", []work{{"<nil>", 1, "BatchDeployment", workload.ComputeJob, "mnist", ""}}},
	{"model batch deployment", modelBatchDeployment, "BatchDeployment", "", []work{{"<nil>", 1, "BatchDeployment", workload.ComputeJob, "mnist-k8s-dpl", "cpu-small"}}},
	{"model batch deployment by type", "name: b\nendpoint_name: e\ntype: model\ncompute: azureml:k8s\nresources: {instance_type: s}\n", "BatchDeployment", "", []work{{"<nil>", 1, "BatchDeployment", workload.ComputeJob, "b", "s"}}},
	{"pipeline component batch deployment", "$schema: https://azuremlschemas.azureedge.net/latest/pipelineComponentBatchDeployment.schema.json\nname: p\nendpoint_name: e\ntype: pipeline\ncomponent: azureml:c:1\n", "", "a pipeline component batch deployment", nil},
	{"pipeline component batch deployment by type", "name: p\nendpoint_name: e\ntype: pipeline\ncomponent: azureml:c:1\n", "", "a pipeline component batch deployment", nil},

	// Endpoints.
	{"legacy endpoint with inline deployments", legacyEndpoint, "KubernetesOnlineEndpoint", "", []work{
		{"deployments[0]", 10, "KubernetesOnlineDeployment", workload.OnlineDeployment, "blue", "cpu-small"},
		{"deployments[1]", 16, "KubernetesOnlineDeployment", workload.OnlineDeployment, "green", ""},
	}},
	{"endpoint by $schema with deployments", "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineEndpoint.schema.json\ndeployments:\n- name: a\n", "KubernetesOnlineEndpoint", "", []work{{"deployments[0]", 3, "KubernetesOnlineDeployment", workload.OnlineDeployment, "a", ""}}},
	{"endpoint by type: kubernetes with deployments", "type: kubernetes\ndeployments: []\n", "KubernetesOnlineEndpoint", "", nil},
	{"endpoint by $schema without deployments", "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineEndpoint.schema.json\nname: e\ncompute: azureml:k8s\nauth_mode: key\n", "", "an online endpoint: it names no deployments", nil},
	{"endpoint by auth_mode", "name: e\nauth_mode: key\n", "", "an Azure ML online endpoint: it names no deployments", nil},
	{"endpoint by type: kubernetes", "type: kubernetes\nname: e\ncompute: azureml:k8s\nauth_mode: key\n", "", "an Azure ML Kubernetes online endpoint (it has auth_mode): it names no deployments", nil},
	{"endpoint by type: kubernetes and traffic", "name: e\ntype: kubernetes\ntraffic: {blue: 100}\n", "", "an Azure ML Kubernetes online endpoint (it has traffic)", nil},
	{"endpoint or compute that names nothing", "type: kubernetes\ndescription: x\n", "", "names nothing", nil},
	{"Kubernetes compute of a name and a type", "name: k8s\ntype: kubernetes\n", "Compute", "", nil},
	{"compute of a misspelt type", "name: k8s\ntype: kuberentes\n", "Compute", "", nil},
	{"compute of a misspelt type by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesCompute.schema.json\nname: k8s\ntype: kuberentes\n", "Compute", "", nil},
	{"a deployment of a misspelt type", "name: blue\ntype: kuberentes\nendpoint_name: e\ninstance_type: a\n", "KubernetesOnlineDeployment", "", []work{{"<nil>", 1, "KubernetesOnlineDeployment", workload.OnlineDeployment, "blue", "a"}}},
	{"something else of a type far from a compute's", "name: x\ntype: uri_folder\n", "", "not an InstanceType", nil},
	{"Kubernetes compute with identity", "name: k8s\ntype: kubernetes\nidentity:\n  type: system_assigned\n", "Compute", "", nil},
	{"Kubernetes compute target", "type: kubernetes\nname: k8s\nresource_id: /subscriptions/x\n", "Compute", "", nil},
	{"compute by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/amlCompute.schema.json\nname: cpu-cluster\ntype: amlcompute\n", "Compute", "", nil},
	{"compute instance by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/computeInstance.schema.json\nname: dev\ntype: computeinstance\n", "Compute", "", nil},
	{"compute by type", "name: pool\ntype: SynapseSpark\n", "Compute", "", nil},
	{"compute list in JSON", `[{"name": "k8s", "type": "kubernetes"}, {"name": "cpu", "type": "amlcompute"}]`, "ComputeList", "", nil},
	{"compute list in YAML", "- name: k8s\n  type: kubernetes\n- name: old\n  type: '*** unsupported compute type ***'\n", "ComputeList", "", nil},
	{"a list of other things", "- name: j\n  type: command\n", "", "a list, not a Kubernetes object", nil},

	// Jobs.
	{"command job", commandJob, "CommandJob", "", []work{{"<nil>", 1, "CommandJob", workload.ComputeJob, "train-on-kubernetes", "gpu-a100"}}},
	{"command job by shape", "command: echo\ncompute: azureml:k8s\nresources: {instance_type: big}\n", "CommandJob", "", []work{{"<nil>", 1, "CommandJob", workload.ComputeJob, "", "big"}}},
	{"legacy command job", legacyJob, "CommandJob", "", []work{{"<nil>", 2, "CommandJob", workload.ComputeJob, "", "gpu-a100"}}},
	{"serverless job", "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ncommand: python hello.py\nresources:\n  instance_type: Standard_E4s_v3\n", "", "a serverless job (it names no compute)", nil},
	{"serverless job by shape", "command: python hello.py\n", "", "a serverless job", nil},
	{"local job", "command: python hello.py\ncompute: local\n", "", "a job that runs locally", nil},
	{"serverless job by compute", "command: python hello.py\ncompute: azureml:serverless\nresources: {instance_type: Standard_E4s_v3}\n", "", "a serverless job (compute: azureml:serverless)", nil},
	{"serverless job by bare compute", "command: python hello.py\ncompute: serverless\n", "", "a serverless job (compute: serverless)", nil},
	{"Spark job by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/sparkJob.schema.json\ntype: spark\nresources: {instance_type: standard_e4s_v3}\n", "", "a Spark job", nil},
	{"Spark job by type", "type: spark\ncompute: azureml:k8s\nresources: {instance_type: standard_e4s_v3}\n", "", "never on Kubernetes", nil},
	{"AutoML job", automlJob, "AutoMLJob", "", []work{{"<nil>", 1, "AutoMLJob", workload.ComputeJob, "", "cpu-small"}}},
	{"AutoML job by type", "type: automl\ntask: regression\ncompute: azureml:k8s\nresources: {instance_type: s}\n", "AutoMLJob", "", []work{{"<nil>", 1, "AutoMLJob", workload.ComputeJob, "", "s"}}},
	{"serverless AutoML job", "type: automl\ntask: regression\n", "", "a serverless job", nil},
	{"GitHub workflow", githubWorkflow, "", "a GitHub Actions workflow", nil},
	{"GitHub workflow by runs-on", "jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps: []\n", "", "a GitHub Actions workflow", nil},
	{"sweep job", sweepJob, "SweepJob", "", []work{{"<nil>", 1, "SweepJob", workload.ComputeJob, "", "cpu-small"}}},
	{"sweep job by shape", "trial: {command: x}\nsampling_algorithm: grid\ncompute: azureml:k8s\nresources: {instance_type: s}\n", "SweepJob", "", []work{{"<nil>", 1, "SweepJob", workload.ComputeJob, "", "s"}}},
	{"serverless sweep job", "type: sweep\ntrial: {command: x}\n", "", "a serverless job", nil},
	{"pipeline job", pipelineJob, "PipelineJob", "", []work{
		{"jobs.prep", 9, "PipelineJob", workload.ComputeJob, "", "cpu-small"},
		{"jobs.train", 17, "PipelineJob", workload.ComputeJob, "", "gpu-a100"},
		{"jobs.report", 26, "PipelineJob", workload.ComputeJob, "", ""},
	}},
	{"pipeline job by shape", "jobs: {}\n", "PipelineJob", "", nil},
	{"pipeline job by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/pipelineJob.schema.json\n", "PipelineJob", "", nil},

	// Components and other Azure ML files.
	{"component by $schema", "$schema: https://azuremlschemas.azureedge.net/latest/commandComponent.schema.json\nname: train\ncommand: python train.py\n", "", "an Azure ML component", nil},
	{"component by shape", "name: train\nversion: 1\ncommand: python train.py\n", "", "an Azure ML component", nil},
	{"another Azure ML file", "$schema: https://azuremlschemas.azureedge.net/latest/data.schema.json\nname: d\n", "", "an Azure ML data file, which names no instance type", nil},
	{"an empty $schema", "$schema: /\n", "", "a $schema that names no Azure ML schema", nil},

	// Everything else.
	{"Service", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}], weird: field}\n", "", "a Service (v1), not an InstanceType", nil},
	{"apps/v1 Deployment", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n", "", "a Deployment (apps/v1), not an InstanceType", nil},
	{"only an apiVersion", "apiVersion: v9\n", "", "a Kubernetes object, not an InstanceType", nil},
	// A Node among the inputs is read with Options.Nodes, not checked.
	{"Node", "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {allocatable: {cpu: \"4\"}}\n", "", "a Node: give nodes with --nodes", nil},
	{"a scalar", "just a string\n", "", "a string, not a Kubernetes object", nil},
	{"a list", "- a\n- b\n", "", "a list, not a Kubernetes object", nil},
	{"a JSON list", "[1, 2, 3]", "", "a list, not a Kubernetes object", nil},
	{"some config", "some: config\nlist: [1, 2]\n", "", "not an InstanceType, nor an Azure ML deployment or job", nil},
	{"JSON config", `{"some": "config", "list": [1, 2]}`, "", "not an InstanceType, nor an Azure ML deployment or job", nil},
	{"Helm template", "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: {{ .Values.name }}\n", "", "holds Go template actions", nil},
	{"a prompt template is content", promptPipeline, "PipelineJob", "", []work{{"jobs.answer", 9, "PipelineJob", workload.ComputeJob, "", "gpu-a10"}}},
}

// Each file is recognised, and checked or skipped with why: a workload's placement says
// where it is and what it names. Only the findings of reading count here; those of the
// rules are for other tests (the instance types above have no resources).
func TestRecognition(t *testing.T) {
	for _, tt := range recognitionTests {
		t.Run(tt.name, func(t *testing.T) {
			r := lintFile(t, "x.yaml", tt.src)
			var fs []lint.Finding
			for _, x := range reading(r.Findings) {
				// The older form is read, and reported; so is a misspelt compute type.
				if x.Rule() != "legacy-compute-form" && x.Rule() != "compute-type" {
					fs = append(fs, x)
				}
			}
			if len(fs) != 0 {
				t.Errorf("Run(%q) findings:%s; want none", tt.src, messages(fs))
			}
			if tt.kind == "" {
				if r.Documents != 0 || len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0].Reason, tt.skip) || r.Skipped[0].Line < 1 {
					t.Fatalf("Run(%q): %d documents checked, skipped %v; want it skipped because %q", tt.src, r.Documents, r.Skipped, tt.skip)
				}
				return
			}
			if r.Documents != 1 || len(r.Skipped) != 0 {
				t.Errorf("Run(%q): %d documents checked, skipped %v; want one %s checked", tt.src, r.Documents, r.Skipped, tt.kind)
			}
			if got := works(r.Placements); !slices.Equal(got, tt.work) {
				t.Errorf("Run(%q) placements = %+v; want %+v", tt.src, got, tt.work)
			}
			for _, p := range r.Placements {
				if k := string(p.DocumentKind); k != tt.kind && !(tt.kind == "KubernetesOnlineEndpoint" && k == "KubernetesOnlineDeployment") {
					t.Errorf("Run(%q): a placement of a %s; want one of the %s", tt.src, k, tt.kind)
				}
			}
		})
	}
}
