package pysdk

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/instancetype"
)

// summary renders a result one line per workload, value and skip, for comparisons.
func summary(r *Result) string {
	var b strings.Builder
	for _, it := range r.Workloads {
		w := it.Workload
		fmt.Fprintf(&b, "%s %s @%d:%d", it.Class, w.Kind, it.Pos.Line, it.Pos.Column)
		if it.Pos.Cell != 0 {
			fmt.Fprintf(&b, " cell %d:%d", it.Pos.Cell, it.Pos.CellLine)
		}
		if it.Standalone {
			b.WriteString(" standalone")
		}
		if w.Name != "" {
			fmt.Fprintf(&b, " name=%s", w.Name)
		}
		if w.Compute != "" {
			fmt.Fprintf(&b, " compute=%s", w.Compute)
		}
		if w.InstanceType != "" {
			fmt.Fprintf(&b, " type=%s", w.InstanceType)
		}
		if w.MLflow {
			b.WriteString(" mlflow")
		}
		if w.Resources != nil {
			fmt.Fprintf(&b, " requests=%s limits=%s", list(w.Resources.Requests), list(w.Resources.Limits))
		}
		b.WriteString("\n")
		var paths []string
		for p := range it.At {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		for _, p := range paths {
			a := it.At[p]
			fmt.Fprintf(&b, "  %s @%d:%d", p, a.Line, a.Column)
			if a.Cell != 0 {
				fmt.Fprintf(&b, " cell %d:%d", a.Cell, a.CellLine)
			}
			b.WriteString("\n")
		}
		for _, u := range it.Unknown {
			fmt.Fprintf(&b, "  ? %q %s @%d:%d\n", u.Path, u.Why, u.Pos.Line, u.Pos.Column)
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skip %s @%d: %s\n", s.Class, s.Pos.Line, s.Reason)
	}
	return b.String()
}

func list(l instancetype.ResourceList) string {
	var parts []string
	for _, k := range []instancetype.ResourceName{"cpu", "memory", instancetype.ResourceNvidiaGPU} {
		if a, ok := l[k]; ok {
			parts = append(parts, string(k)+":"+a.String())
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// The source document's three Python examples, as written there.
const (
	docCommand = `from azure.ai.ml import Environment, command

# define the command
command_job = command(
    command="python -c \"print('Hello world!')\"",
    environment=Environment(image="python:3.12-slim"),
    compute="<Kubernetes-compute_target_name>",
    instance_type="<instance type name>"
)
`
	docDeployment = `from azure.ai.ml import KubernetesOnlineDeployment,Model,Environment,CodeConfiguration

model = Model(path="./model/sklearn_mnist_model.pkl")
env = Environment(
    conda_file="./model/conda.yml",
    image="mcr.microsoft.com/azureml/openmpi3.1.2-ubuntu18.04:latest",
)

# define the deployment
blue_deployment = KubernetesOnlineDeployment(
    name="blue",
    endpoint_name="<endpoint name>",
    model=model,
    environment=env,
    code_configuration=CodeConfiguration(
        code="./script/", scoring_script="score.py"
    ),
    instance_count=1,
    instance_type="<instance type name>",
)
`
	docResources = `from azure.ai.ml import (
    KubernetesOnlineDeployment,
    Model,
    Environment,
    CodeConfiguration,
    ResourceSettings,
    ResourceRequirementsSettings
)

model = Model(path="./model/sklearn_mnist_model.pkl")
env = Environment(
    conda_file="./model/conda.yml",
    image="mcr.microsoft.com/azureml/openmpi3.1.2-ubuntu18.04:latest",
)

requests = ResourceSettings(cpu="0.1", memory="0.2G")
limits = ResourceSettings(cpu="0.2", memory="0.5G", gpu="1")
resources = ResourceRequirementsSettings(requests=requests, limits=limits)

# define the deployment
blue_deployment = KubernetesOnlineDeployment(
    name="blue",
    endpoint_name="<endpoint name>",
    model=model,
    environment=env,
    code_configuration=CodeConfiguration(
        code="./script/", scoring_script="score.py"
    ),
    resources=resources,
    instance_count=1,
    instance_type="<instance type name>",
)
`
)

var scriptTests = []struct {
	name, src, want string
}{
	{"document: command", docCommand, `command CommandJob @4:15 compute=<Kubernetes-compute_target_name> type=<instance type name>
  compute @7:13
  resources.instance_type @8:19
`},
	{"document: deployment", docDeployment, `KubernetesOnlineDeployment KubernetesOnlineDeployment @10:19 name=blue type=<instance type name>
  instance_type @19:19
  name @11:10
`},
	{"document: resources", docResources, `KubernetesOnlineDeployment KubernetesOnlineDeployment @21:19 name=blue type=<instance type name> requests={cpu:0.1,memory:0.2G} limits={cpu:0.2,memory:0.5G,nvidia.com/gpu:1}
  instance_type @31:19
  name @22:10
  resources.limits[cpu] @17:31
  resources.limits[memory] @17:45
  resources.limits[nvidia.com/gpu] @17:57
  resources.requests[cpu] @16:33
  resources.requests[memory] @16:47
`},
	{"numbers as azure-ai-ml sends them", `from azure.ai.ml.entities import KubernetesOnlineDeployment as KOD, ResourceRequirementsSettings, ResourceSettings
d = KOD(name="n", instance_type="big", resources=ResourceRequirementsSettings(
    requests=ResourceSettings(cpu=1, memory="2Gi"),
    limits=ResourceSettings(cpu=0.5, memory=None, gpu=0x1)))
`, `KubernetesOnlineDeployment KubernetesOnlineDeployment @2:5 name=n type=big requests={cpu:1,memory:2Gi} limits={cpu:0.5,nvidia.com/gpu:1}
  instance_type @2:33
  name @2:14
  resources.limits[cpu] @4:33
  resources.limits[nvidia.com/gpu] @4:55
  resources.requests[cpu] @3:35
  resources.requests[memory] @3:45
`},
	{"positional ResourceSettings, attribute calls", `from azure.ai import ml
import azure.ai.ml.entities as entities
d = ml.entities.KubernetesOnlineDeployment(instance_type="t",
    resources=entities.ResourceRequirementsSettings(entities.ResourceSettings("1", "2G"), entities.ResourceSettings("2", "4G", "1")))
`, `KubernetesOnlineDeployment KubernetesOnlineDeployment @3:5 type=t requests={cpu:1,memory:2G} limits={cpu:2,memory:4G,nvidia.com/gpu:1}
  instance_type @3:58
  resources.limits[cpu] @4:117
  resources.limits[memory] @4:122
  resources.limits[nvidia.com/gpu] @4:128
  resources.requests[cpu] @4:79
  resources.requests[memory] @4:84
`},
	{"not literal: counted, never read", `import os
from azure.ai.ml import command
from azure.ai.ml.entities import JobResourceConfiguration
def make(instance):
    return command(compute="k8s", instance_type=instance)
t = "a"
t = "b"
job = command(compute=os.environ["COMPUTE"], instance_type=f"gpu-{t}", resources=JobResourceConfiguration(instance_type=t))
`, `command CommandJob @5:12 compute=k8s
  compute @5:28
  ? "resources.instance_type" a name not bound by an assignment (a parameter, an import, a loop or with target...) @5:49
command CommandJob @8:7
  ? "compute" a subscript @8:23
  ? "resources.instance_type" a name bound 2 times @8:121
  ? "resources.instance_type" an f-string @8:60
`},
	{"serverless, local, managed and compute-less batch are skipped", `from azure.ai.ml import command
from azure.ai.ml.entities import ManagedOnlineDeployment, BatchDeployment
a = command(instance_type="Standard_E4s_v3")
b = command(compute="azureml:serverless", instance_type="Standard_E4s_v3")
c = command(compute="local")
d = ManagedOnlineDeployment(instance_type="Standard_DS3_v2")
e = BatchDeployment(name="b")
`, `skip command @3: a job that names no compute: serverless (its instance_type an Azure VM size), or a pipeline's step on the pipeline's default compute
skip command @4: a serverless job (compute: "azureml:serverless"): its instance_type is an Azure VM size, not an InstanceType
skip command @5: a job that runs locally (compute: local)
skip ManagedOnlineDeployment @6: a managed online deployment: it runs on Azure VMs, not on Kubernetes
skip BatchDeployment @7: a batch deployment that names no compute target
`},
	{"batch deployment with job resources; instance_type= wins over resources=", `from azure.ai.ml.entities import BatchDeployment, ModelBatchDeployment, JobResourceConfiguration
from azure.ai.ml import command
res = JobResourceConfiguration(instance_type="cpu-small", instance_count=2)
b = BatchDeployment(name="b", compute="azureml:k8s", resources=res)
m = ModelBatchDeployment(name="m", compute="k8s", resources={"instance_type": "gpu-a10"})
j = command(compute="k8s", resources=res, instance_type="gpu-a100")
`, `BatchDeployment CommandJob @4:5 name=b compute=azureml:k8s type=cpu-small
  compute @4:39
  name @4:26
  resources.instance_type @3:46
ModelBatchDeployment CommandJob @5:5 name=m compute=k8s type=gpu-a10
  compute @5:44
  name @5:31
  resources.instance_type @5:79
command CommandJob @6:5 compute=k8s type=gpu-a100
  compute @6:21
  resources.instance_type @6:57
`},
	{"MLflow: inline, through a name, AssetTypes", `from azure.ai.ml.entities import KubernetesOnlineDeployment, Model
from azure.ai.ml.constants import AssetTypes
m = Model(path="model", type=AssetTypes.MLFLOW_MODEL)
a = KubernetesOnlineDeployment(name="a", model=m)
b = KubernetesOnlineDeployment(name="b", model=Model(path="x", type="mlflow_model"))
c = KubernetesOnlineDeployment(name="c", model=Model(path="x", type="custom_model"))
d = KubernetesOnlineDeployment(name="d", model="azureml:my-model:1")
`, `KubernetesOnlineDeployment KubernetesOnlineDeployment @4:5 name=a mlflow
  model.type @3:30
  name @4:37
KubernetesOnlineDeployment KubernetesOnlineDeployment @5:5 name=b mlflow
  model.type @5:69
  name @5:37
KubernetesOnlineDeployment KubernetesOnlineDeployment @6:5 name=c
  model.type @6:69
  name @6:37
KubernetesOnlineDeployment KubernetesOnlineDeployment @7:5 name=d
  name @7:37
`},
	{"changed after: unknown as a whole; a name changed is not followed", `from azure.ai.ml import command
from azure.ai.ml.entities import ResourceSettings, ResourceRequirementsSettings, KubernetesOnlineDeployment
job = command(compute="k8s", instance_type="a")
job.resources.instance_type = "b"
requests = ResourceSettings(cpu="1", memory="1G")
requests.cpu = "2"
d = KubernetesOnlineDeployment(instance_type="t", resources=ResourceRequirementsSettings(requests=requests))
`, `command CommandJob @3:7 compute=k8s type=a
  compute @3:23
  resources.instance_type @3:44
  ? "" bound to job, whose object is changed once (an attribute or index assigned, or set_resources called) @3:7
KubernetesOnlineDeployment KubernetesOnlineDeployment @7:5 type=t requests={} limits={}
  instance_type @7:46
  ? "resources.requests" a name bound 2 times @7:99
`},
	{"a name bound again: each call read on its own; set_resources changes the object", `from azure.ai.ml import command
job = command(compute="k8s", instance_type="cpu-small")
job = command(compute="k8s", instance_type="gpu-a100")
other = command(compute="k8s", instance_type="x")
other.set_resources(instance_type="y")
third = command(compute="k8s", instance_type="z")
third.instance_count = 2
third.display_name = "not what is read"
serverless = command(instance_type="Standard_E4s_v3")
serverless.compute = "k8s"
`, `command CommandJob @2:7 compute=k8s type=cpu-small
  compute @2:23
  resources.instance_type @2:44
command CommandJob @3:7 compute=k8s type=gpu-a100
  compute @3:23
  resources.instance_type @3:44
command CommandJob @4:9 compute=k8s type=x
  compute @4:25
  resources.instance_type @4:46
  ? "" bound to other, whose object is changed once (an attribute or index assigned, or set_resources called) @4:9
command CommandJob @6:9 compute=k8s type=z
  compute @6:25
  resources.instance_type @6:46
command CommandJob @9:14 type=Standard_E4s_v3
  resources.instance_type @9:36
  ? "" bound to serverless, whose object is changed once (an attribute or index assigned, or set_resources called) @9:14
`},
	{"bindings: annotated, chained; full module path; positional and walrus not read", `import azure.ai.ml
t: str = "gpu-a100"
a = b = "k8s"
j1 = azure.ai.ml.command(compute=a, instance_type=t)
j2 = azure.ai.ml.command("python train.py", compute=b, instance_type=(w := "x"))
`, `command CommandJob @4:6 compute=k8s type=gpu-a100
  compute @3:9
  resources.instance_type @2:10
command CommandJob @5:6 compute=k8s
  compute @3:9
  ? "*" a positional argument not read @5:26
  ? "resources.instance_type" an assignment expression @5:71
`},
	{"not azure-ai-ml: not read", `from mylib import command
def KubernetesOnlineDeployment(**kw): pass
a = command(compute="k8s", instance_type="x")
b = KubernetesOnlineDeployment(instance_type="y")
`, ``},
	{"star import", `from azure.ai.ml.entities import *
from azure.ai.ml import command
j = command(compute="k8s", **{"instance_type": "x"})
r = JobResourceConfiguration(instance_type="y")
`, `command CommandJob @3:5 compute=k8s
  compute @3:21
  ? "**" keyword arguments unpacked from a mapping @3:30
JobResourceConfiguration CommandJob @4:5 standalone type=y
  resources.instance_type @4:44
`},
}

func TestReadScript(t *testing.T) {
	for _, tt := range scriptTests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ReadScript([]byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(res); got != tt.want {
				t.Errorf("ReadScript:\n%s\nwant:\n%s", got, tt.want)
			}
			// Every unknown of a workload is counted.
			n := 0
			for _, w := range res.Workloads {
				n += len(w.Unknown)
			}
			if len(res.NotLiteral) < n {
				t.Errorf("NotLiteral has %d values; the workloads' Unknown %d", len(res.NotLiteral), n)
			}
		})
	}
}

func TestReadScriptSyntaxError(t *testing.T) {
	if res, err := ReadScript([]byte("command(compute=\n")); err == nil || res != nil {
		t.Errorf("ReadScript = %v, %v; want nil and a syntax error", res, err)
	}
}
