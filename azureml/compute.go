package azureml

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/internal/rules"
	"github.com/amlarc-go/instancetypes/internal/strict"
)

// Compute is an Azure ML compute target as a compute file (az ml compute create --file)
// or az ml compute list -o json|yaml describes it: its name, its type, and, when its id is
// an ARM id of a workspace's compute, the resource group and workspace it belongs to.
type Compute struct {
	// Name is its name field.
	Name string
	// Type is its type field, lower-cased as azure-ai-ml compares it: kubernetes,
	// amlcompute, computeinstance, virtualmachine, synapsespark, or what az ml compute list
	// prints for a type the SDK does not support ("*** unsupported compute type ***"). Any
	// other (a misspelt kubernetes) is a finding of decoding (rule compute-type), and the
	// compute's type is not known (KnownType).
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

// KnownType reports a compute target whose type is one of those azure-ai-ml loads, or the
// one az ml compute list prints for the others: a compute that is surely Kubernetes, or
// surely not. A compute of another type (a misspelt kubernetes, which the Azure ML CLI
// refuses) may be either.
func (c Compute) KnownType() bool { return isComputeType(c.Type) }

// computeTypes are the compute types azure-ai-ml loads (ComputeType; az ml compute list
// prints them so), and the one az ml compute list prints for the others (AKS inference
// clusters, Databricks, HDInsight, …), which are no Kubernetes compute either.
var computeTypes = [...]string{ComputeKubernetes, "amlcompute", "computeinstance", "virtualmachine", "synapsespark", unsupportedComputeType}

// unsupportedComputeType is the type az ml compute list prints for a compute target the
// SDK does not support.
const unsupportedComputeType = "*** unsupported compute type ***"

// loadableComputeTypes are the types a compute file may have: those azure-ai-ml loads.
var loadableComputeTypes = computeTypes[:len(computeTypes)-1]

// nearComputeType reports a type within a typo of one azure-ai-ml loads: kuberentes.
func nearComputeType(t string) bool {
	return !isComputeType(t) && strict.Closest(strings.ToLower(t), loadableComputeTypes) != ""
}

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

// compute decodes the compute target v at p: its name, type and id; the rest is not read.
func compute(d *strict.Decoder, v any, p *field.Path) Compute {
	var c Compute
	m, ok := d.Mapping(v, p)
	if !ok {
		return c
	}
	if v, ok := m["name"]; ok {
		c.Name = d.Str(v, p.Child("name"), false)
	}
	if v, ok := m["type"]; ok {
		written := d.Str(v, p.Child("type"), false)
		c.Type = strings.ToLower(written)
		if c.Type != "" && !isComputeType(c.Type) {
			e := field.NotSupported(p.Child("type"), clip.String(written), loadableComputeTypes)
			if s := strict.Closest(c.Type, loadableComputeTypes); s != "" {
				e.Detail += "; did you mean " + strconv.Quote(s) + "?"
			}
			e.Detail += " (the Azure ML CLI refuses any other type; the workloads on this compute are checked as on a compute of unknown type)"
			e.Origin = rules.ComputeType
			d.Errs = append(d.Errs, e)
		}
	}
	if v, ok := m["id"]; ok {
		r := ParseCompute(d.Str(v, p.Child("id"), false))
		c.ResourceGroup, c.Workspace = r.ResourceGroup, r.Workspace
	}
	return c
}

// computeList reports a list whose every item is a compute target, as az ml compute list
// -o json or -o yaml prints them: a mapping with a name and a type, one of the compute
// types unless anyType.
func computeList(l []any, anyType bool) bool {
	if len(l) == 0 {
		return false
	}
	for _, e := range l {
		if !computeShape(e, anyType) {
			return false
		}
	}
	return true
}

// computeShape reports a mapping with a name and a type, one of the compute types unless
// anyType.
func computeShape(v any, anyType bool) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	name, hasName := m["name"]
	t, hasType := m["type"]
	return hasName && isScalar(name) && hasType && isScalar(t) && (anyType || isComputeType(scalarText(t)))
}

// RecogniseCompute tells what a document of a file given as compute targets is: what
// Recognise makes a compute target or a list of them, and, of any type, a mapping with a
// name and a type, or a list of them (a type that is none of the compute types is a
// finding of decoding). Anything else is skipped, with why.
func RecogniseCompute(v any) (Kind, string) {
	if kind, _ := Recognise(v); kind == KindCompute || kind == KindComputeList {
		return kind, ""
	}
	if l, ok := v.([]any); ok && computeList(l, true) {
		return KindComputeList, ""
	}
	if computeShape(v, true) {
		return KindCompute, ""
	}
	return "", "not a compute target (a name and a type), nor a list of them"
}

// computeSchema reports the name of a compute file's $schema (amlCompute,
// kubernetesCompute, computeInstance, vmCompute, …), lower-cased.
func computeSchema(name string) bool {
	return strings.HasSuffix(name, "compute") || name == "computeinstance"
}

// isScalar reports a value that is no collection: a string, number, boolean or null.
func isScalar(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return false
	}
	return true
}

// scalarText is the text of a scalar value ("" for null or a collection).
func scalarText(v any) string {
	if v == nil || !isScalar(v) {
		return ""
	}
	return strict.JSONText(v)
}

// kindName names the kind of a value, as findings do.
func kindName(v any) string { return strict.KindName(v) }
