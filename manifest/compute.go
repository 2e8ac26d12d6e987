package manifest

import (
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Compute is an Azure ML compute target as a compute file (az ml compute create --file)
// or az ml compute list -o json|yaml describes it: its name, its type, and, when its id is
// an ARM id of a workspace's compute, the resource group and workspace it belongs to.
type Compute struct {
	// Name is its name field.
	Name string
	// Type is its type field, lower-cased as azure-ai-ml compares it: kubernetes,
	// amlcompute, computeinstance, virtualmachine, synapsespark, or what az ml compute list
	// prints for a type the SDK does not support ("*** unsupported compute type ***").
	Type string
	// ResourceGroup and Workspace are those of its id, "" when it has none.
	ResourceGroup, Workspace string
}

// ComputeKubernetes is the type of a Kubernetes compute target (an AKS or Azure
// Arc-enabled cluster with the Azure ML extension): the only one whose workloads run as
// pods, with instance types.
const ComputeKubernetes = "kubernetes"

// Kubernetes reports a Kubernetes compute target.
func (c Compute) Kubernetes() bool { return c.Type == ComputeKubernetes }

// computeTypes are the compute types azure-ai-ml loads (ComputeType; az ml compute list
// prints them so), and the one az ml compute list prints for the others (AKS inference
// clusters, Databricks, HDInsight, …), which are no Kubernetes compute either.
var computeTypes = [...]string{ComputeKubernetes, "amlcompute", "computeinstance", "virtualmachine", "synapsespark", "*** unsupported compute type ***"}

// isComputeType reports a type field naming a compute target, in any case.
func isComputeType(t string) bool {
	for _, c := range computeTypes {
		if strings.EqualFold(t, c) {
			return true
		}
	}
	return false
}

// ComputeRef is what a workload's compute field (or a pipeline's settings.default_compute)
// names, as azure-ai-ml reads it: a compute target by name, the serverless compute, local
// execution, or an expression bound when the pipeline runs.
type ComputeRef struct {
	// Name is the compute target's name: NAME for azureml:NAME, NAME, and the ARM ids
	// (azureml:/subscriptions/…/computes/NAME, azureml://…/computes/NAME); "" otherwise.
	Name string
	// ResourceGroup and Workspace are those of an ARM id, "" when the reference is a name.
	ResourceGroup, Workspace string
	// Serverless: serverless or azureml:serverless, Azure ML's serverless compute (Azure
	// VMs, not Kubernetes).
	Serverless bool
	// Local: local, a job run where the CLI runs.
	Local bool
	// Expression: a binding such as ${{parent.inputs.compute}}, known when the job runs.
	Expression bool
}

// ParseCompute reads the value of a compute field, as written. An empty value names
// nothing (the zero ComputeRef).
func ParseCompute(s string) ComputeRef {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return ComputeRef{}
	case strings.Contains(s, "${{"):
		return ComputeRef{Expression: true}
	case strings.EqualFold(s, "local"):
		return ComputeRef{Local: true}
	}
	name := strings.TrimPrefix(s, "azureml:")
	if strings.EqualFold(name, "serverless") {
		return ComputeRef{Serverless: true}
	}
	if !strings.Contains(name, "/") {
		return ComputeRef{Name: name}
	}
	// An ARM id, written with one slash or azureml's two: the segments after
	// resourceGroups, workspaces and computes, case-insensitively, as ARM compares them.
	r := ComputeRef{}
	segs := strings.Split(strings.Trim(name, "/"), "/")
	for i := 0; i+1 < len(segs); i++ {
		switch strings.ToLower(segs[i]) {
		case "resourcegroups":
			r.ResourceGroup = segs[i+1]
		case "workspaces":
			r.Workspace = segs[i+1]
		case "computes":
			r.Name = segs[i+1]
		}
	}
	if r.Name == "" {
		r.Name = segs[len(segs)-1] // as azure-ai-ml takes it: the id's last segment
	}
	return r
}

// compute decodes the compute target n at the current path: its name, type and id; the
// rest is only checked for duplicate keys and what kubectl would refuse.
func (d *decoder) compute(n *yaml.Node) Compute {
	var c Compute
	d.object(n, func(key string, _, v *yaml.Node) {
		switch key {
		case "name":
			c.Name = d.str(v, false)
		case "type":
			c.Type = strings.ToLower(d.str(v, false))
		case "id":
			r := ParseCompute(d.str(v, false))
			c.ResourceGroup, c.Workspace = r.ResourceGroup, r.Workspace
		default:
			d.checkTree(v)
		}
	})
	return c
}

// computeList decodes a list of compute targets, as az ml compute list prints it, calling
// add with each and its path.
func (d *decoder) computeList(n *yaml.Node, add func(Compute, *field.Path, *yaml.Node, field.ErrorList)) {
	d.items(n, func(_ int, written, e *yaml.Node) {
		from := len(d.errs)
		c := d.compute(e)
		add(c, d.path.build(), written, d.since(from))
	})
}

// recogniseComputeList reports a list whose every item is a compute target, as az ml
// compute list -o json or -o yaml prints them.
func recogniseComputeList(n *yaml.Node) bool {
	if len(n.Content) == 0 {
		return false
	}
	budget := MaxNodes
	for _, e := range n.Content {
		e = deref(e)
		if e == nil || e.Kind != yaml.MappingNode {
			return false
		}
		k, name := lookup(e, "name", &budget)
		_, t := lookup(e, "type", &budget)
		if k == nil || name.Kind != yaml.ScalarNode || t == nil || t.Kind != yaml.ScalarNode || !isComputeType(t.Value) {
			return false
		}
	}
	return true
}

// computeSchema reports the name of a compute file's $schema (amlCompute,
// kubernetesCompute, computeInstance, vmCompute, …), lower-cased.
func computeSchema(name string) bool {
	return strings.HasSuffix(name, "compute") || name == "computeinstance"
}
