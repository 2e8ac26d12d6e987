package lint_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"k8s.io/apimachinery/pkg/util/validation/field"

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
	{"batch deployment by its compute alone (azure-ai-ml's dump())", "name: b\nendpoint_name: e\ncompute: azureml:k8s\nresources: {instance_type: s, instance_count: 2}\n", "BatchDeployment", "", []work{{"<nil>", 1, "BatchDeployment", workload.ComputeJob, "b", "s"}}},
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
	{"serverless command step standing alone", "type: command\ncomponent: {command: echo}\n", "", "a serverless job", nil},
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

// A command step standing alone (what azure-ai-ml's dump() writes for a command()
// builder) is a command job, as load_job reads it by its type, whose component key it
// refuses; a stray compute in an online deployment is the mistake, not a batch deployment.
func TestRecognitionWithAFinding(t *testing.T) {
	for _, tt := range []struct {
		name, src, kind, finding string
		work                     []work
	}{
		{"command step standing alone", "type: command\ncomponent: {command: echo}\ncompute: azureml:k8s\nresources: {instance_type: big}\n",
			"CommandJob", `x.yaml:2: component: unknown field "component": a pipeline step's key, not a job's`,
			[]work{{"<nil>", 1, "CommandJob", workload.ComputeJob, "", "big"}}},
		{"online deployment with a stray compute", "name: b\nendpoint_name: e\ncompute: azureml:k8s\ninstance_type: s\n",
			"KubernetesOnlineDeployment", `x.yaml:3: compute: unknown field "compute"`,
			[]work{{"<nil>", 1, "KubernetesOnlineDeployment", workload.OnlineDeployment, "b", "s"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := lintFile(t, "x.yaml", tt.src)
			fs := reading(r.Findings)
			if len(fs) != 1 || fs[0].Rule() != "unknown-field" || !strings.HasPrefix(fs[0].String(), tt.finding) {
				t.Errorf("Run(%q) findings:%s; want one, %s...", tt.src, messages(fs), tt.finding)
			}
			if r.Documents != 1 || len(r.Placements) != 1 || string(r.Placements[0].DocumentKind) != tt.kind {
				t.Fatalf("Run(%q): %d documents, placements %+v; want one %s", tt.src, r.Documents, r.Placements, tt.kind)
			}
			if got := works(r.Placements); !slices.Equal(got, tt.work) {
				t.Errorf("Run(%q) placements = %+v; want %+v", tt.src, got, tt.work)
			}
		})
	}
}

// Every document of a file is counted once: checked (Report.Documents), or skipped with
// its reason, each at its own line.
func TestCountAndChecked(t *testing.T) {
	var b strings.Builder
	checked, skipped, placed := 0, 0, 0
	for _, tt := range recognitionTests {
		if strings.Contains(tt.src, "{{") || strings.HasPrefix(tt.src, "{") || strings.HasPrefix(tt.src, "[") {
			continue // a whole file of its own
		}
		b.WriteString(tt.src)
		b.WriteString("\n---\n")
		if tt.kind == "" {
			skipped++
		} else {
			checked++
		}
		placed += len(tt.work)
	}
	r := lintFile(t, "all.yaml", b.String())
	lines := map[int]bool{}
	for _, s := range r.Skipped {
		lines[s.Line] = true
	}
	if r.Documents != checked || len(r.Skipped) != skipped || len(lines) != skipped || len(r.Placements) != placed || r.Workloads != placed {
		t.Errorf("Run: %d documents checked, %d skipped on %d lines, %d placements of %d workloads; want %d checked, %d skipped, %d placed",
			r.Documents, len(r.Skipped), len(lines), len(r.Placements), r.Workloads, checked, skipped, placed)
	}
}
func TestPipelineSteps(t *testing.T) {
	tests := []struct {
		name string
		src  string
		work []work
		skip []lint.Skip
	}{{
		name: "default compute: every step is a workload, one that names no instance type too",
		src:  pipelineJob,
		work: []work{
			{"jobs.prep", 9, "PipelineJob", workload.ComputeJob, "", "cpu-small"},
			{"jobs.train", 17, "PipelineJob", workload.ComputeJob, "", "gpu-a100"},
			{"jobs.report", 26, "PipelineJob", workload.ComputeJob, "", ""},
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
		work: []work{{"jobs.a", 5, "PipelineJob", workload.ComputeJob, "", "small"}},
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
			{"jobs.train", 9, "PipelineJob", workload.ComputeJob, "", "gpu"},
			{"jobs.old", 16, "PipelineJob", workload.ComputeJob, "", "legacy"},
		},
		skip: []lint.Skip{
			{File: "p.yaml", Line: 5, Reason: `pipeline step "prep" is serverless (no compute, and no settings.default_compute): its instance_type is an Azure VM size`},
			{File: "p.yaml", Line: 14, Reason: `pipeline step "report" is serverless (no compute, and no settings.default_compute)`},
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
			{"jobs.plain", 4, "PipelineJob", workload.ComputeJob, "", ""},
			{"jobs.own", 6, "PipelineJob", workload.ComputeJob, "", ""},
			{"jobs.bound", 9, "PipelineJob", workload.ComputeJob, "", ""},
		},
		skip: []lint.Skip{
			{File: "p.yaml", Line: 12, Reason: `pipeline step "local" runs locally (compute: local)`},
			{File: "p.yaml", Line: 15, Reason: `pipeline step "cloud" is serverless (compute: azureml:serverless)`},
			{File: "p.yaml", Line: 18, Reason: `pipeline step "spark" is a Spark step: it runs on serverless Spark compute or an attached Synapse Spark pool, never on Kubernetes`},
			{File: "p.yaml", Line: 21, Reason: `pipeline step "sub" is a pipeline component (type: pipeline): its own steps run, not it`},
			{File: "p.yaml", Line: 24, Reason: `pipeline step "copy" is a data transfer step (type: data_transfer): it moves data, with no instance type`},
			{File: "p.yaml", Line: 27, Reason: `pipeline step "load" is a data import step (type: import): it moves data, with no instance type`},
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
		work: []work{{"jobs.s", 4, "PipelineJob", workload.ComputeJob, "step-one", "small"}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lintFile(t, "p.yaml", tt.src)
			var fs []lint.Finding
			for _, x := range reading(r.Findings) {
				if x.Rule() != "legacy-compute-form" {
					fs = append(fs, x)
				}
			}
			if len(fs) != 0 {
				t.Errorf("findings:%s", messages(fs))
			}
			if r.Documents != 1 {
				t.Errorf("%d documents checked; want 1", r.Documents)
			}
			if got := works(r.Placements); !slices.Equal(got, tt.work) {
				t.Errorf("placements = %+v; want %+v", got, tt.work)
			}
			if !slices.Equal(r.Skipped, tt.skip) {
				t.Errorf("skipped = %v; want %v", r.Skipped, tt.skip)
			}
		})
	}

	// Findings in steps are at their paths below jobs.NAME.
	fs := readFile(t, "p.yaml", `settings: {default_compute: azureml:k8s}
jobs:
  prep:
    command: x
    resources:
      instance_type: 12
      limits: {cpu: 1}
`)
	if got, want := locs(fs), []loc{{6, "jobs.prep.resources.instance_type", "FieldValueTypeInvalid"}, {7, "jobs.prep.resources.limits", "UnknownField"}}; !slices.Equal(got, want) {
		t.Fatalf("findings = %v; want %v%s", got, want, messages(fs))
	}
	if c := fs[0].Column; c != 7 {
		t.Errorf("jobs.prep.resources.instance_type: finding at column %d; want 7", c)
	}
}

// A v1 List, as kubectl get -o yaml prints one: its InstanceType items are read at
// items[i], its other items skipped, each with why, at its line; a Node among them is
// read, and skipped with the document (nodes are for Options.Nodes).
func TestV1List(t *testing.T) {
	r := lintFile(t, "l.yaml", v1List)
	if fs := reading(r.Findings); len(fs) != 0 {
		t.Errorf("findings:%s", messages(fs))
	}
	if r.Documents != 1 || r.Catalog.Len() != 3 {
		t.Errorf("%d documents checked, %d instance types in the catalog; want 1, and small, big and the default", r.Documents, r.Catalog.Len())
	}
	for _, tt := range []struct {
		name string
		line int // of its metadata.name
	}{{"small", 9}, {"big", 27}} {
		if o, ok := r.Origin(tt.name); !ok || o.File != "l.yaml" || o.Line != tt.line {
			t.Errorf("Origin(%s) = %+v, %v; want l.yaml:%d", tt.name, o, ok, tt.line)
		}
	}
	if it, ok := r.Catalog.Get("small"); !ok || it.Spec.Resources.Limits["memory"].String() != "2Gi" {
		t.Errorf("small = %+v, %v; want its limits read", it, ok)
	}
	// The reasons, up to what they advise.
	want := []lint.Skip{
		{File: "l.yaml", Line: 1, Reason: "a Node: give nodes with --nodes"},
		{File: "l.yaml", Line: 14, Reason: "items[1]: a Service (v1), not an InstanceType"},
		{File: "l.yaml", Line: 17, Reason: "items[2]: an InstanceTypeList inside a List: write it in a file of its own to have it checked"},
	}
	ok := len(r.Skipped) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = r.Skipped[i].File == want[i].File && r.Skipped[i].Line == want[i].Line && strings.HasPrefix(r.Skipped[i].Reason, want[i].Reason)
	}
	if !ok {
		t.Errorf("skipped = %v; want %v", r.Skipped, want)
	}
}

// A walk reads the manifests (.yaml, .yml, .json), checks the Azure ML and InstanceType
// documents, and skips the others with a reason and no finding.
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
		t.Errorf("Run findings:%s; want none", messages(r.Findings))
	}
	if r.Files != 9 || r.Documents != 1 {
		t.Errorf("Run read %d files, checked %d documents; want 9 (README.md is no manifest) and 1", r.Files, r.Documents)
	}
	if got, want := skips(r), []string{"array.json:1", "config.json:1", "deploy.yml:1", "managed.yaml:1", "scalar.yaml:1", "svc.yaml:1"}; !slices.Equal(got, want) {
		t.Errorf("skipped = %q; want %q", got, want)
	}

	r, err = lint.Run([]lint.Input{lint.FS(fsys, "README.md")}, lint.Options{})
	if err != nil || r.Files != 1 || len(r.Findings) != 1 || r.Findings[0].Type != lint.SyntaxError {
		t.Errorf("Run(README.md) = %v, %v; want one syntax error: a file named is read whatever its name", findings(r), err)
	}
	if _, err := lint.Run([]lint.Input{lint.FS(fsys, "missing.yaml")}, lint.Options{}); err == nil {
		t.Error("Run(missing.yaml): no error")
	}
}

// A job that names its instance type both in today's form (resources.instance_type, where
// Azure ML's job schema puts it) and in the older one (compute.instance_type): today's is in
// effect, wherever each is written, and is where findings about it are placed; when the two
// differ, the older one, ignored, is a finding at compute.instance_type. Each case is in the
// older form too, which is one finding more, at compute.
func TestJobNamingTwoInstanceTypes(t *testing.T) {
	// A catalog without the names: the finding that the name in effect is not found is
	// at its path.
	catalog := instanceType("zzz", okResources)
	for _, tt := range []struct {
		src   string
		name  string // the name in effect
		want  string // the path of the name in effect
		line  int
		finds []loc // the findings of reading
	}{
		{"command: c\ncompute: {target: k, instance_type: a}\nresources: {instance_type: b}\n", "b", "resources.instance_type", 3,
			[]loc{{2, "compute", "FieldValueInvalid"}, {2, "compute.instance_type", "FieldValueInvalid"}}},
		{"command: c\nresources: {instance_type: b}\ncompute: {target: k, instance_type: a}\n", "b", "resources.instance_type", 2,
			[]loc{{3, "compute", "FieldValueInvalid"}, {3, "compute.instance_type", "FieldValueInvalid"}}},
		// The same name twice is no conflict.
		{"command: c\ncompute: {target: k, instance_type: b}\nresources: {instance_type: b}\n", "b", "resources.instance_type", 3,
			[]loc{{2, "compute", "FieldValueInvalid"}}},
		// A null resources.instance_type names none: the older form's is in effect.
		{"command: c\nresources: {instance_type: null}\ncompute: {target: k, instance_type: a}\n", "a", "compute.instance_type", 3,
			[]loc{{3, "compute", "FieldValueInvalid"}}},
		{"command: c\nresources: {instance_count: 2}\ncompute:\n  target: k\n  instance_type: a\n", "a", "compute.instance_type", 5,
			[]loc{{3, "compute", "FieldValueInvalid"}}},
		// A refused value has its own finding, and no second one.
		{"command: c\nresources: {instance_type: 12}\ncompute: {target: k, instance_type: a}\n", "", "resources.instance_type", 2,
			[]loc{{2, "resources.instance_type", "FieldValueTypeInvalid"}, {3, "compute", "FieldValueInvalid"}}},
		{"command: c\nresources: {instance_type: b}\ncompute: {target: k, instance_type: [a]}\n", "b", "resources.instance_type", 2,
			[]loc{{3, "compute", "FieldValueInvalid"}, {3, "compute.instance_type", "FieldValueTypeInvalid"}}},
	} {
		r := run(t, lint.Options{MaxFindings: -1}, "j.yaml", tt.src, "t.yaml", catalog)
		if len(r.Placements) != 1 || r.Placements[0].Workload.InstanceType != tt.name {
			t.Errorf("Run(%q): placements %+v; want one of instance type %q", tt.src, works(r.Placements), tt.name)
		}
		var notFound []loc
		var others []lint.Finding
		for _, x := range r.Findings {
			if x.Err.Type == field.ErrorTypeNotFound {
				notFound = append(notFound, locs([]lint.Finding{x})...)
			} else {
				others = append(others, x)
			}
		}
		if want := []loc{{tt.line, tt.want, "FieldValueNotFound"}}; tt.name != "" && !slices.Equal(notFound, want) {
			t.Errorf("Run(%q): not found %v; want %v", tt.src, notFound, want)
		}
		if got := locs(others); !slices.Equal(got, tt.finds) {
			t.Errorf("Run(%q) findings = %v; want %v%s", tt.src, got, tt.finds, messages(others))
		}
	}

	// The finding says which name is in effect; the check looks that one up, where it is
	// written.
	src := "command: c\ncompute: {target: k, instance_type: a}\nresources: {instance_type: b}\n"
	r := run(t, lint.Options{}, "j.yaml", src, "t.yaml", instanceType("a", okResources))
	if got, want := locs(r.Findings), []loc{{2, "compute", "FieldValueInvalid"}, {2, "compute.instance_type", "FieldValueInvalid"}, {3, "resources.instance_type", "FieldValueNotFound"}}; !slices.Equal(got, want) {
		t.Errorf("Run findings = %v; want %v%s", got, want, messages(r.Findings))
	}
	if len(r.Findings) == 3 && (!strings.Contains(r.Findings[1].Message(), `"a"`) || !strings.Contains(r.Findings[1].Message(), `resources.instance_type names "b"`)) {
		t.Errorf("finding %q; want it to say that \"a\" is ignored for \"b\"", r.Findings[1].Message())
	}
}

// A recognised workload document whose workloads are written in the wrong shape checks
// nothing: that must be a finding, at the section, saying what shape it must have, not
// silence, and nothing more of the section. A null section holds nothing, and is no
// finding.
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
		fs := lintFile(t, "w.yaml", tt.src).Findings
		if got := locs(fs); !slices.Equal(got, tt.want) {
			t.Errorf("Run(%q) findings = %v; want %v%s", tt.src, got, tt.want, messages(fs))
			continue
		}
		if len(fs) > 0 && !strings.Contains(fs[0].Message(), tt.says) {
			t.Errorf("Run(%q) finding %q; want it to say %q", tt.src, fs[0].Message(), tt.says)
		}
	}
}

// A file is skipped as a Helm template for its template actions; a comment that mentions
// one does not make a manifest a template.
func TestHelmTemplateInAComment(t *testing.T) {
	src := "# rendered with: helm template {{ .Release.Name }}\n" + typeHeader + "metadata: {name: Bad_Name, x: 1}\n"
	r := lintFile(t, "c.yaml", src)
	if r.Documents != 1 || len(r.Skipped) != 0 || len(r.Findings) == 0 {
		t.Errorf("Run(%q): %d documents checked, skipped %v, findings %v; want the InstanceType checked", src, r.Documents, r.Skipped, findings(r))
	}
}

// A file is a template, skipped whole at the line of its first action, when it holds a Go
// template action as Helm's are written; not for one in a comment, another tool's template
// in a quoted string or a block scalar, or an Azure ML expression.
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
		// chart's templates/ is known by its path.
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
		r := lintFile(t, "t.yaml", src)
		skipped := len(r.Skipped) == 1 && strings.Contains(r.Skipped[0].Reason, "template")
		if skipped != tt.skip {
			t.Errorf("Run(%q): skipped as a template: %v; want %v (skipped %v)", tt.line, skipped, tt.skip, r.Skipped)
		}
		if want := 6 + strings.Count(tt.line, "\n"); skipped && r.Skipped[0].Line != want {
			t.Errorf("Run(%q): skipped on line %d; want %d", tt.line, r.Skipped[0].Line, want)
		}
		if skipped && (r.Documents != 0 || len(r.Findings) != 0) {
			t.Errorf("Run(%q): a template, and %d documents checked, findings %v; want none", tt.line, r.Documents, findings(r))
		}
	}
}
