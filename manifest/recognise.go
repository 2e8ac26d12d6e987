package manifest

import (
	pathpkg "path"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
)

// recognise tells what a document is: one of our kinds, or "" and why it is skipped. A
// document of our API group with a kind we do not know is a problem.
func recognise(n *yaml.Node) (kind Kind, skip string, problem *field.Error) {
	if n.Kind == yaml.SequenceNode && recogniseComputeList(n, false) {
		return KindComputeList, "", nil
	}
	if n.Kind != yaml.MappingNode {
		return "", "a " + strings.TrimPrefix(kindName(n), "a ") + ", not a Kubernetes object or an Azure ML file", nil
	}
	budget := MaxNodes
	get := func(key string) (k, v *yaml.Node) { return lookup(n, key, &budget) }
	scalar := func(key string) (string, bool) {
		k, v := get(key)
		if k == nil || v.Kind != yaml.ScalarNode || isNull(v) {
			return "", k != nil
		}
		return v.Value, true
	}
	has := func(key string) bool { k, _ := get(key); return k != nil }

	apiVersion, hasAPIVersion := scalar("apiVersion")
	kindName, hasKind := scalar("kind")
	switch {
	case kindName == instancetype.Kind:
		return KindInstanceType, "", nil
	case kindName == instancetype.ListKind:
		return KindInstanceTypeList, "", nil
	case strings.HasPrefix(apiVersion, instancetype.GroupName+"/"):
		if !hasKind {
			return "", "", field.Required(field.NewPath("kind"), "an "+instancetype.GroupName+" document must be an InstanceType or an InstanceTypeList").WithOrigin(rules.Kind)
		}
		return "", "", field.NotSupported(field.NewPath("kind"), clip.String(kindName), []string{instancetype.Kind, instancetype.ListKind}).WithOrigin(rules.Kind)
	case kindName == "List" && apiVersion == "v1":
		return KindList, "", nil
	case kindName == "Node" && apiVersion == "v1":
		return KindNode, "", nil
	case !hasKind && (apiVersion == "v2" || apiVersion == "v1") && has("name") && has("version") && !has("metadata"):
		return "", "a Helm chart's Chart.yaml, not a manifest", nil
	case hasAPIVersion || hasKind:
		return "", objectSkipReason(kindName, apiVersion), nil
	}

	if schema, ok := scalar("$schema"); ok {
		return recogniseSchema(schema, has, scalar)
	}
	typ, _ := scalar("type")
	switch typ {
	case "pipeline":
		if has("endpoint_name") {
			return "", pipelineBatchSkip, nil
		}
		return KindPipelineJob, "", nil
	case "sweep":
		return recogniseJob(KindSweepJob, has, scalar)
	case "automl":
		return recogniseJob(KindAutoMLJob, has, scalar)
	case "spark":
		return "", sparkSkip, nil
	case "model":
		if has("endpoint_name") {
			return recogniseBatch(has, scalar)
		}
	case "managed":
		if has("endpoint_name") {
			return "", "a managed online deployment: it runs on Azure VMs, not on Kubernetes", nil
		}
		return "", "a managed online endpoint: it runs on Azure VMs, not on Kubernetes", nil
	case "kubernetes":
		if has("endpoint_name") || has("model") || has("instance_type") {
			return KindDeployment, "", nil
		}
		if has("deployments") {
			return KindEndpoint, "", nil
		}
		// A Kubernetes compute file may hold a name and its type alone (an attached
		// cluster's resource_id, namespace and identity are optional): it is a compute
		// unless it has what only an online endpoint has.
		if key := endpointKey(has); key != "" && !has("resource_id") && !has("namespace") {
			return "", "an Azure ML Kubernetes online endpoint (it has " + key + "): it names no deployments", nil
		}
		if has("name") {
			return KindCompute, "", nil
		}
		return "", "an Azure ML Kubernetes online endpoint or compute that names nothing", nil
	}
	if isComputeType(typ) && has("name") && endpointKey(has) == "" {
		return KindCompute, "", nil
	}
	// A misspelt compute type (kuberentes) in a file that is nothing else: a compute
	// target, whose type decoding reports.
	if nearComputeType(typ) && has("name") && endpointKey(has) == "" && workloadKey(has) == "" {
		return KindCompute, "", nil
	}
	switch {
	case has("endpoint_name"):
		if key := batchKey(has); key != "" {
			return recogniseBatch(has, scalar)
		}
		if it, _ := scalar("instance_type"); rules.IsVMSize(it) {
			return "", "a managed online deployment: its instance_type " + clip.Quote(it) + " is an Azure VM size and nothing marks it for Kubernetes", nil
		}
		return KindDeployment, "", nil
	case has("jobs") && githubWorkflow(n):
		return "", "a GitHub Actions workflow (on:, jobs.*.runs-on), not an Azure ML file", nil
	case has("jobs"):
		return KindPipelineJob, "", nil
	case has("trial") && has("sampling_algorithm"):
		return recogniseJob(KindSweepJob, has, scalar)
	case has("command"):
		if !has("compute") && has("version") {
			return "", "an Azure ML component: the job that uses it is checked", nil
		}
		return recogniseJob(KindJob, has, scalar)
	case has("deployments"):
		return KindEndpoint, "", nil
	case has("auth_mode"):
		return "", "an Azure ML online endpoint: it names no deployments", nil
	}
	return "", "not an InstanceType, nor an Azure ML deployment or job", nil
}

// recogniseSchema recognises an Azure ML file by its $schema: the name of the schema
// file, whatever the host and the version path before it.
func recogniseSchema(schema string, has func(string) bool, scalar func(string) (string, bool)) (Kind, string, *field.Error) {
	name := strings.ToLower(pathpkg.Base(schema))
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".json"), ".schema")
	switch name {
	case "kubernetesonlinedeployment":
		return KindDeployment, "", nil
	case "managedonlinedeployment":
		return "", "a managed online deployment: it runs on Azure VMs, not on Kubernetes", nil
	case "batchdeployment", "modelbatchdeployment":
		return recogniseBatch(has, scalar)
	case "pipelinecomponentbatchdeployment":
		return "", pipelineBatchSkip, nil
	case "commandjob":
		return recogniseJob(KindJob, has, scalar)
	case "sweepjob":
		return recogniseJob(KindSweepJob, has, scalar)
	case "automljob":
		return recogniseJob(KindAutoMLJob, has, scalar)
	case "sparkjob":
		return "", sparkSkip, nil
	case "pipelinejob":
		return KindPipelineJob, "", nil
	case "kubernetesonlineendpoint", "managedonlineendpoint":
		if has("deployments") {
			return KindEndpoint, "", nil
		}
		return "", "an online endpoint: it names no deployments", nil
	}
	if computeSchema(name) {
		return KindCompute, "", nil
	}
	if strings.HasSuffix(name, "component") {
		return "", "an Azure ML component: the job that uses it is checked", nil
	}
	if name == "" || name == "." || name == "/" {
		return "", "a $schema that names no Azure ML schema", nil
	}
	return "", "an Azure ML " + name + " file, which names no instance type", nil
}

// sparkSkip is why a Spark job is skipped.
const sparkSkip = "a Spark job: it runs on serverless Spark compute or an attached Synapse Spark pool, never on Kubernetes"

// pipelineBatchSkip is why a pipeline component batch deployment is skipped.
const pipelineBatchSkip = "a pipeline component batch deployment: it names no instance type of its own (its component's steps do)"

// recogniseJob recognises a command, sweep or AutoML job: one that runs on a compute target
// is checked; one on the serverless compute (no compute, or compute: azureml:serverless) or
// run locally is skipped.
func recogniseJob(kind Kind, has func(string) bool, scalar func(string) (string, bool)) (Kind, string, *field.Error) {
	if !has("compute") {
		return "", "a serverless job (it names no compute): its instance_type is an Azure VM size, not an InstanceType", nil
	}
	c, _ := scalar("compute")
	switch r := ParseCompute(c); {
	case r.Local:
		return "", "a job that runs locally (compute: local)", nil
	case r.Serverless:
		return "", "a serverless job (compute: " + clip.String(c) + "): its instance_type is an Azure VM size, not an InstanceType", nil
	}
	return kind, "", nil
}

// recogniseBatch recognises a batch deployment: one on a compute target is checked, as a
// job is; one that names no compute is skipped.
func recogniseBatch(has func(string) bool, scalar func(string) (string, bool)) (Kind, string, *field.Error) {
	c, _ := scalar("compute")
	if r := ParseCompute(c); r.Name == "" && !r.Expression {
		return "", "a batch deployment that names no compute target", nil
	}
	return KindBatchDeployment, "", nil
}

// githubWorkflow reports a GitHub Actions workflow: a mapping with jobs and an on key
// (which YAML 1.1 reads as the boolean true), or a job that sets runs-on.
func githubWorkflow(n *yaml.Node) bool {
	budget := MaxNodes
	if k, _ := lookup(n, "true", &budget); k != nil {
		return true
	}
	if k, _ := lookup(n, "on", &budget); k != nil {
		return true
	}
	_, jobs := lookup(n, "jobs", &budget)
	if jobs == nil || jobs.Kind != yaml.MappingNode {
		return false
	}
	for i := 1; i < len(jobs.Content); i += 2 {
		if j := deref(jobs.Content[i]); j != nil && j.Kind == yaml.MappingNode {
			if k, _ := lookup(j, "runs-on", &budget); k != nil {
				return true
			}
		}
	}
	return false
}

// endpointKey returns a key that an online endpoint has and a compute target does not, or
// "".
func endpointKey(has func(string) bool) string {
	for _, k := range [...]string{"auth_mode", "compute", "traffic", "mirror_traffic", "scoring_uri", "openapi_uri"} {
		if has(k) {
			return k
		}
	}
	return ""
}

// workloadKey returns a key that a deployment, a job or an endpoint has and a compute
// target does not, or "".
func workloadKey(has func(string) bool) string {
	for _, k := range [...]string{"endpoint_name", "model", "instance_type", "deployments", "jobs", "command", "trial", "resources", "environment", "code", "component", "task", "entry", "inputs", "outputs"} {
		if has(k) {
			return k
		}
	}
	return ""
}

// batchKey returns a key that only batch deployments have, or "".
func batchKey(has func(string) bool) string {
	for _, k := range [...]string{"mini_batch_size", "output_action", "output_file_name", "retry_settings", "error_threshold", "max_concurrency_per_instance", "logging_level", "job_definition"} {
		if has(k) {
			return k
		}
	}
	return ""
}

// skipReasons holds the reasons objectSkipReason has made, by kind and apiVersion, so
// that the thousands of documents of a kubectl get -o yaml share a few strings (a report
// keeps every skipped document's reason). It holds at most maxSkipReasons.
var skipReasons struct {
	sync.Mutex
	m map[[2]string]string
}

const maxSkipReasons = 512

// objectSkipReason is why a Kubernetes object of kind and apiVersion is skipped: "a
// Service (v1), not an InstanceType".
func objectSkipReason(kind, apiVersion string) string {
	key := [2]string{kind, apiVersion}
	skipReasons.Lock()
	defer skipReasons.Unlock()
	if r, ok := skipReasons.m[key]; ok {
		return r
	}
	what := "a Kubernetes object"
	if kind != "" {
		what = article(clip.String(kind))
		if apiVersion != "" {
			what += " (" + clip.String(apiVersion) + ")"
		}
	}
	r := what + ", not an InstanceType"
	if skipReasons.m == nil {
		skipReasons.m = map[[2]string]string{}
	}
	if len(skipReasons.m) < maxSkipReasons {
		skipReasons.m[[2]string{strings.Clone(kind), strings.Clone(apiVersion)}] = r
	}
	return r
}
