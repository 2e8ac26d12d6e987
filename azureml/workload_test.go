package azureml

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/source"
	"github.com/amlarc-go/instancetypes/workload"
)

const (
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
)

// oneResult reads src as the command reads an Azure ML file, and returns its one document
// and what Read made of it.
func oneResult(t *testing.T, src string) (*read, *source.Document, *Result) {
	t.Helper()
	f := readFile([]byte(src), false)
	if len(f.results) != 1 {
		t.Fatalf("read %q: %d documents (skipped %q); want 1", src, len(f.results), f.skipped)
	}
	return f, f.docs[0], f.results[0]
}

// Read reads what resolution needs of each workload: its kind, name (name before
// display_name, wherever each is written), instance type, compute and where it is written,
// whether its model is MLflow.
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
		{"command: c\ncompute: k\ndisplay_name: shown\n", workload.Workload{Kind: workload.ComputeJob, Name: "shown", Compute: "k", ComputePath: compute}},
		{"command: c\ncompute: k\ndisplay_name: shown\nname: real\n", workload.Workload{Kind: workload.ComputeJob, Name: "real", Compute: "k", ComputePath: compute}},
		{"command: c\ncompute: k\nname: real\ndisplay_name: shown\n", workload.Workload{Kind: workload.ComputeJob, Name: "real", Compute: "k", ComputePath: compute}},
		{"command: c\ncompute: azureml:/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/computes/k\n", workload.Workload{Kind: workload.ComputeJob,
			Compute: "azureml:/subscriptions/s/resourceGroups/rg/providers/Microsoft.MachineLearningServices/workspaces/ws/computes/k", ComputePath: compute}},
	}
	for _, tt := range tests {
		f, _, res := oneResult(t, tt.src)
		if len(res.Workloads) != 1 {
			t.Fatalf("Read(%q): %d workloads; want 1", tt.src, len(res.Workloads))
		}
		if got := *res.Workloads[0].Workload; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Read(%q) = %+v; want %+v", tt.src, got, tt.want)
		}
		if len(f.findings) != 0 {
			t.Errorf("Read(%q) findings:%s; want none", tt.src, f.messages())
		}
	}

	// The older form is read (its target is the compute), and reported: the CLI v2
	// refuses it.
	f, _, res := oneResult(t, "command: c\ncompute: {target: azureml:k, instance_type: old}\n")
	want := workload.Workload{Kind: workload.ComputeJob, InstanceType: "old", LegacyCompute: true, Compute: "azureml:k", ComputePath: compute.Child("target")}
	if got := *res.Workloads[0].Workload; !reflect.DeepEqual(got, want) {
		t.Errorf("the older form = %+v; want %+v", got, want)
	}
	if len(f.findings) != 1 || f.findings[0].Origin != "legacy-compute-form" || f.findings[0].Field != "compute" || f.findings[0].Line != 2 ||
		!strings.Contains(f.findings[0].Detail, "write compute: azureml:k and resources: {instance_type: old}") {
		t.Errorf("the older form: findings%s; want one at compute, line 2, giving today's form", f.messages())
	}
}

// The older form of a job names its instance type in compute: the workload says where,
// and carries a note on today's form.
func TestLegacyJob(t *testing.T) {
	_, doc, res := oneResult(t, legacyJob)
	w := res.Workloads[0]
	if !w.Workload.LegacyCompute {
		t.Errorf("LegacyCompute = false; want true")
	}
	if p := w.Workload.InstanceTypePath(w.Path).String(); p != "compute.instance_type" {
		t.Errorf("InstanceTypePath = %s; want compute.instance_type", p)
	}
	if !strings.Contains(w.Note, "compute with target and instance_type") || !strings.Contains(w.Note, "resources.instance_type") {
		t.Errorf("Note = %q; want it to name the older form and today's", w.Note)
	}
	if p := doc.PositionOf("compute.instance_type"); p != (source.Position{Line: 8, Column: 3}) {
		t.Errorf("PositionOf(compute.instance_type) = %v; want {8 3}", p)
	}

	// Today's form has no note, and LegacyCompute false.
	_, _, res = oneResult(t, commandJob)
	if w := res.Workloads[0]; w.Note != "" || w.Workload.LegacyCompute {
		t.Errorf("today's job: note %q, LegacyCompute %v; want none", w.Note, w.Workload.LegacyCompute)
	}
}

// An endpoint written with its deployments inline: each is a deployment at
// deployments[i], with a note on today's form.
func TestLegacyEndpoint(t *testing.T) {
	_, doc, res := oneResult(t, legacyEndpoint)
	if len(res.Workloads) != 2 {
		t.Fatalf("%d workloads; want 2", len(res.Workloads))
	}
	for i, w := range res.Workloads {
		if w.Path.String() != fmt.Sprintf("deployments[%d]", i) || w.Kind != KindDeployment || w.Workload.Kind != workload.OnlineDeployment {
			t.Errorf("workload %d at %s, of a %s, %s; want a deployment at deployments[%d]", i, w.Path, w.Kind, w.Workload.Kind, i)
		}
	}
	green := res.Workloads[1]
	if !green.Workload.MLflow || green.Workload.Resources == nil || green.Workload.Resources.Requests["memory"].String() != "4Gi" {
		t.Errorf("deployments[1] = %+v; want an MLflow deployment with its resources", green.Workload)
	}
	if !strings.Contains(green.Note, "deployments inline") {
		t.Errorf("Note = %q; want it to name the older form", green.Note)
	}
	for _, tt := range []struct {
		path string
		want source.Position
	}{
		{"deployments[0]", source.Position{Line: 10, Column: 5}},
		{"deployments[0].instance_type", source.Position{Line: 12, Column: 5}},
		{"deployments[1].resources.requests[cpu]", source.Position{Line: 21, Column: 18}},
		{"deployments[1].resources.limits[cpu]", source.Position{Line: 20, Column: 5}},
		{"deployments[1].instance_type", source.Position{Line: 16, Column: 5}},
		{"deployments[2].instance_type", source.Position{Line: 9, Column: 1}},
		{"deployments[1].model.type", source.Position{Line: 18, Column: 7}},
		{"deployments[0].scale_settings.scale_typ", source.Position{Line: 13, Column: 5}},
	} {
		if got := doc.PositionOf(tt.path); got != tt.want {
			t.Errorf("PositionOf(%s) = %v; want %v", tt.path, got, tt.want)
		}
	}

	// Findings inside a deployment are at its path.
	f, _, _ := oneResult(t, "deployments:\n- name: a\n  resources: {requests: {cpus: \"1\"}, x: 1}\n  instance_type: [a]\n")
	var got []string
	for _, x := range f.findings {
		got = append(got, fmt.Sprintf("%d: %s %s %s", x.Line, x.Field, string(x.Type), x.Origin))
	}
	want := []string{
		"3: deployments[0].resources.requests[cpus] FieldValueNotSupported azureml-resource-name",
		"3: deployments[0].resources.x FieldValueForbidden unknown-field",
		"4: deployments[0].instance_type FieldValueTypeInvalid wrong-type",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings %q; want %q", got, want)
	}
}
