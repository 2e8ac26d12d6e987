package azureml

import (
	pathpkg "path"
	"strings"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
)

// Kind is what an Azure ML document is, of those this package reads.
type Kind string

// The kinds of Azure ML document this package reads.
const (
	// KindDeployment is a Kubernetes online deployment.
	KindDeployment Kind = "KubernetesOnlineDeployment"
	// KindEndpoint is an online endpoint written with its deployments inline, an older
	// form; each deployment is a workload.
	KindEndpoint Kind = "KubernetesOnlineEndpoint"
	// KindJob is a command job on a compute target.
	KindJob Kind = "CommandJob"
	// KindPipelineJob is a pipeline job; each step on a compute target is a workload,
	// whether it names an instance type or not.
	KindPipelineJob Kind = "PipelineJob"
	// KindSweepJob is a sweep job.
	KindSweepJob Kind = "SweepJob"
	// KindAutoMLJob is an AutoML job (type: automl) on a compute target.
	KindAutoMLJob Kind = "AutoMLJob"
	// KindBatchDeployment is a batch deployment on a compute target: a workload that
	// names its instance type in resources.instance_type, as a job does.
	KindBatchDeployment Kind = "BatchDeployment"
	// KindCompute is a compute target (a compute file, or the output of az ml compute
	// show); KindComputeList a list of them, as az ml compute list prints it.
	KindCompute     Kind = "Compute"
	KindComputeList Kind = "ComputeList"
)

// Recognise tells what an Azure ML document, whose value is v as read (a document with
// neither apiVersion nor kind: see decode.Recognise for those), is: one of this package's
// kinds, or "" and why it is skipped (a managed online deployment, a serverless job, a
// component, a GitHub workflow, anything else). A file is recognised by its $schema (the
// schema's file name, whatever the host and version path), or, without one, by its shape,
// as the Azure ML CLI v2 reads it.
func Recognise(v any) (kind Kind, skip string) {
	if l, ok := v.([]any); ok && computeList(l, false) {
		return KindComputeList, ""
	}
	m, ok := v.(map[string]any)
	if !ok {
		return "", kindName(v) + ", not a Kubernetes object or an Azure ML file"
	}
	has := func(key string) bool { _, ok := m[key]; return ok }
	scalar := func(key string) string { return scalarText(m[key]) }
	typ := scalar("type")
	if s, ok := m["$schema"]; ok {
		if kind, skip, ok := deploymentByType(scalarText(s), typ); ok {
			return kind, skip
		}
		return recogniseSchema(scalarText(s), m)
	}
	switch typ {
	case "pipeline":
		if has("endpoint_name") {
			return "", pipelineBatchSkip
		}
		return KindPipelineJob, ""
	case "sweep":
		return recogniseJob(KindSweepJob, m)
	case "automl":
		return recogniseJob(KindAutoMLJob, m)
	case "spark":
		return "", sparkSkip
	case "command":
		// A command job without a command of its own: a pipeline's command step standing
		// alone (what azure-ai-ml's dump() writes for a command() builder, its component
		// inline). load_job reads it by its type as a command job (and refuses the
		// component key, which UnknownFields reports).
		if !has("command") && (has("component") || has("compute") || has("resources")) {
			return recogniseJob(KindJob, m)
		}
	case "model":
		if has("endpoint_name") {
			return recogniseBatch(m)
		}
	case "managed":
		if has("endpoint_name") {
			return "", "a managed online deployment: it runs on Azure VMs, not on Kubernetes"
		}
		return "", "a managed online endpoint: it runs on Azure VMs, not on Kubernetes"
	case "kubernetes":
		if has("endpoint_name") || has("model") || has("instance_type") {
			return KindDeployment, ""
		}
		if has("deployments") {
			return KindEndpoint, ""
		}
		// A deployment whose endpoint is given on the command line (az ml
		// online-deployment create --endpoint-name): it has what only a workload has.
		if workloadKey(m) != "" {
			return KindDeployment, ""
		}
		// A Kubernetes compute file may hold a name and its type alone (an attached
		// cluster's resource_id, namespace and identity are optional): it is a compute
		// unless it has what only an online endpoint has.
		if key := endpointKey(m); key != "" && !has("resource_id") && !has("namespace") {
			return "", "an Azure ML Kubernetes online endpoint (it has " + key + "): it names no deployments"
		}
		if has("name") {
			return KindCompute, ""
		}
		return "", "an Azure ML Kubernetes online endpoint or compute that names nothing"
	}
	if isComputeType(typ) && has("name") && endpointKey(m) == "" {
		return KindCompute, ""
	}
	// A misspelt compute type (kuberentes) in a file that is nothing else: a compute
	// target, whose type decoding reports.
	if nearComputeType(typ) && has("name") && endpointKey(m) == "" && workloadKey(m) == "" {
		return KindCompute, ""
	}
	switch {
	case has("endpoint_name"):
		// A compute is a batch deployment's (what azure-ai-ml's dump() writes for a
		// BatchDeployment has no other mark), unless a key only an online deployment has
		// says the compute is the mistake.
		if batchKey(m) != "" || (has("compute") || has("component")) && onlineKey(m) == "" {
			return recogniseBatch(m)
		}
		if it := scalar("instance_type"); rules.IsVMSize(it) {
			return "", "a managed online deployment: its instance_type " + clip.Quote(it) + " is an Azure VM size and nothing marks it for Kubernetes"
		}
		return KindDeployment, ""
	case has("jobs") && githubWorkflow(m):
		return "", "a GitHub Actions workflow (on:, jobs.*.runs-on), not an Azure ML file"
	case has("jobs"):
		return KindPipelineJob, ""
	case has("trial") && has("sampling_algorithm"):
		return recogniseJob(KindSweepJob, m)
	case has("command"):
		if !has("compute") && has("version") {
			return "", "an Azure ML component: the job that uses it is checked"
		}
		return recogniseJob(KindJob, m)
	case has("deployments"):
		return KindEndpoint, ""
	case has("auth_mode"):
		return "", "an Azure ML online endpoint: it names no deployments"
	}
	return "", "not an InstanceType, nor an Azure ML deployment or job"
}

// schemaName is the name of the schema file a $schema names, lower-cased, without its
// host, version path and .schema.json.
func schemaName(schema string) string {
	name := strings.ToLower(pathpkg.Base(schema))
	return strings.TrimSuffix(strings.TrimSuffix(name, ".json"), ".schema")
}

// recogniseSchema recognises an Azure ML file by its $schema: the name of the schema
// file, whatever the host and the version path before it.
func recogniseSchema(schema string, m map[string]any) (Kind, string) {
	name := schemaName(schema)
	_, deployments := m["deployments"]
	switch name {
	case "kubernetesonlinedeployment":
		return KindDeployment, ""
	case "managedonlinedeployment":
		return "", managedSkip
	case "batchdeployment", "modelbatchdeployment":
		return recogniseBatch(m)
	case "pipelinecomponentbatchdeployment":
		return "", pipelineBatchSkip
	case "commandjob":
		return recogniseJob(KindJob, m)
	case "sweepjob":
		return recogniseJob(KindSweepJob, m)
	case "automljob":
		return recogniseJob(KindAutoMLJob, m)
	case "sparkjob":
		return "", sparkSkip
	case "pipelinejob":
		return KindPipelineJob, ""
	case "kubernetesonlineendpoint", "managedonlineendpoint":
		if deployments {
			return KindEndpoint, ""
		}
		return "", "an online endpoint: it names no deployments"
	}
	if computeSchema(name) {
		return KindCompute, ""
	}
	if strings.HasSuffix(name, "component") {
		return "", "an Azure ML component: the job that uses it is checked"
	}
	if name == "" || name == "." || name == "/" {
		return "", "a $schema that names no Azure ML schema"
	}
	return "", "an Azure ML " + name + " file, which names no instance type"
}

// deploymentByType recognises an online deployment file whose $schema names an online
// deployment's schema and whose type says which: type decides, as azure-ai-ml's
// load_online_deployment decides (type: kubernetes is read by the Kubernetes deployment's
// schema, type: managed by the managed one's), whatever $schema says. ok is false for a
// file of another schema, or with no such type: $schema decides then.
func deploymentByType(schema, typ string) (kind Kind, skip string, ok bool) {
	switch schemaName(schema) {
	case "kubernetesonlinedeployment", "managedonlinedeployment":
	default:
		return "", "", false
	}
	switch typ {
	case "kubernetes":
		return KindDeployment, "", true
	case "managed":
		return "", managedSkip, true
	}
	return "", "", false
}

// managedSkip is why a managed online deployment is skipped.
const managedSkip = "a managed online deployment: it runs on Azure VMs, not on Kubernetes"

// sparkSkip is why a Spark job is skipped.
const sparkSkip = "a Spark job: it runs on serverless Spark compute or an attached Synapse Spark pool, never on Kubernetes"

// pipelineBatchSkip is why a pipeline component batch deployment is skipped.
const pipelineBatchSkip = "a pipeline component batch deployment: it names no instance type of its own (its component's steps do)"

// recogniseJob recognises a command, sweep or AutoML job: one that runs on a compute target
// is checked; one on the serverless compute (no compute, or compute: azureml:serverless) or
// run locally is skipped.
func recogniseJob(kind Kind, m map[string]any) (Kind, string) {
	c, ok := m["compute"]
	if !ok {
		return "", "a serverless job (it names no compute): its instance_type is an Azure VM size, not an InstanceType"
	}
	switch r := ParseCompute(scalarText(c)); {
	case r.Local:
		return "", "a job that runs locally (compute: local)"
	case r.Serverless:
		return "", "a serverless job (compute: " + clip.String(scalarText(c)) + "): its instance_type is an Azure VM size, not an InstanceType"
	}
	return kind, ""
}

// recogniseBatch recognises a batch deployment: one on a compute target is checked, as a
// job is; one that names no compute is skipped.
func recogniseBatch(m map[string]any) (Kind, string) {
	if r := ParseCompute(scalarText(m["compute"])); r.Name == "" && !r.Expression {
		return "", "a batch deployment that names no compute target"
	}
	return KindBatchDeployment, ""
}

// githubWorkflow reports a GitHub Actions workflow: a mapping with jobs and an on key
// (which YAML 1.1 reads as the boolean true), or a job that sets runs-on.
func githubWorkflow(m map[string]any) bool {
	_, on := m["on"]
	_, onTrue := m["true"]
	if on || onTrue {
		return true
	}
	jobs, _ := m["jobs"].(map[string]any)
	for _, j := range jobs {
		if j, ok := j.(map[string]any); ok {
			if _, ok := j["runs-on"]; ok {
				return true
			}
		}
	}
	return false
}

// endpointKey returns a key that an online endpoint has and a compute target does not, or
// "".
func endpointKey(m map[string]any) string {
	return firstKey(m, "auth_mode", "compute", "traffic", "mirror_traffic", "scoring_uri", "openapi_uri")
}

// workloadKey returns a key that a deployment, a job or an endpoint has and a compute
// target does not, or "".
func workloadKey(m map[string]any) string {
	return firstKey(m, "endpoint_name", "model", "instance_type", "deployments", "jobs", "command", "trial", "resources", "environment", "code", "component", "task", "entry", "inputs", "outputs")
}

// batchKey returns a key that only batch deployments have, or "".
func batchKey(m map[string]any) string {
	return firstKey(m, "mini_batch_size", "output_action", "output_file_name", "retry_settings", "error_threshold", "max_concurrency_per_instance", "logging_level", "job_definition")
}

// onlineKey is a key of m that an online deployment has and a batch deployment has not.
func onlineKey(m map[string]any) string {
	return firstKey(m, "instance_type", "instance_count", "app_insights_enabled", "liveness_probe", "readiness_probe",
		"request_settings", "scale_settings", "data_collector", "model_mount_path", "egress_public_network_access")
}

func firstKey(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return k
		}
	}
	return ""
}
