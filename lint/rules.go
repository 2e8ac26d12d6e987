package lint

import (
	"strings"

	"github.com/amlarc-go/instancetypes/internal/rules"
)

// Rule is one rule of the checks: its id, which every finding of it carries
// (Finding.Rule, the Origin of its field.Error) and which suppressions name, what
// it checks, and where the documentation explains it.
type Rule struct {
	// ID is the rule's id: R1 to R10 for the rules of the source document (R5, the built-in
	// default, makes no finding and has none), a name for the others (duplicate-key).
	ID string
	// Name is a name of the rule for people, in Pascal case, unlike its ID: the name of
	// the rule in SARIF (DuplicateKey, DeploymentWithinInstanceType).
	Name string
	// Summary is what the rule checks, in one line.
	Summary string
	// Doc is where the documentation explains the rule: a file of the repository and an
	// anchor, docs/rules.md#r9.
	Doc string
}

// DocsBase is the address the Doc of each rule is relative to: the repository's files on
// its default branch.
const DocsBase = "https://github.com/amlarc-go/instancetypes/blob/main/"

// HelpURI is the address of the rule's documentation.
func (r Rule) HelpURI() string { return DocsBase + r.Doc }

// The rules, in the order Rules lists them: the source document's, the other checks of
// instance types and workloads, decoding, the cluster, and the linter's own.
var registry = []Rule{
	{rules.R1, "InstanceTypeName", "an instance type's metadata.name is set, is an object name, and is unique", ""},
	{rules.R2, "InstanceTypeCPUAndMemory", "an instance type's cpu and memory requests and limits are set, quantities the CRD takes, above zero", ""},
	{rules.R3, "ExtendedResources", "an instance type's extended resources (nvidia.com/gpu) are whole numbers, not negative, in limits only; at most 16 resources", ""},
	{rules.R4, "NodeSelectorLabels", "a nodeSelector's keys and values are valid labels, at most 64 of them", ""},
	{rules.R6, "InstanceTypeOfWorkload", "the instance type a workload names has the form of a name and is in the catalog", ""},
	{rules.R7, "ExtensionNodeSelector", "an instance type's nodeSelector agrees with the extension's (and, strictly, is a subset of it)", ""},
	{rules.R8, "DeploymentResources", "a deployment's own resources: cpu and memory requests set, memory at least 1M, limits when a GPU is asked for", ""},
	{rules.R9, "DeploymentWithinInstanceType", "a deployment's limits stay within its instance type's, its requests within the effective limits", ""},
	{rules.R10, "MLflowMinimums", "an MLflow model deployment requests at least 2 cpu and 4G of memory", ""},
	{rules.RequestAboveLimit, "RequestAboveLimit", "an instance type's cpu or memory request is not above its own limit", ""},
	{rules.ResourceName, "ResourceName", "a resource is cpu, memory or a fully qualified extended resource (nvidia.com/gpu)", ""},
	{rules.Placeholder, "PlaceholderNotFilledIn", "a workload's instance type, compute and resources are filled in, not placeholders (<name>, $VAR, ${VAR}, {{ }}, ${{parent.inputs.x}})", ""},
	{rules.Metadata, "ObjectMetadata", "an instance type's metadata (labels, annotations, finalizers, generateName, owner references) is what the API server accepts", ""},
	{rules.Syntax, "SyntaxError", "the file is YAML or JSON that kubectl reads; a script or notebook that uses azure-ai-ml is Python that parses", ""},
	{rules.UnknownField, "UnknownField", "every field is one the schema has (strict decoding; in Azure ML files, a key azure-ai-ml accepts)", ""},
	{rules.DuplicateKey, "DuplicateKey", "no key is written twice in one mapping, nor two merge keys", ""},
	{rules.WrongType, "WrongType", "every value has the type its field takes (a string where a string belongs)", ""},
	{rules.KubectlRefuses, "KubectlRefuses", "no value kubectl cannot send (.inf, a key that is not a string, an alias into itself)", ""},
	{rules.Kind, "APIVersionAndKind", "a document of the API group is an InstanceType or an InstanceTypeList, with its apiVersion and items", ""},
	{rules.LegacyForm, "LegacyForm", "a job in the older form names one instance type, not two", ""},
	{rules.LegacyComputeForm, "LegacyComputeForm", "a job's compute is a string, not the older form {target, instance_type} the Azure ML CLI v2 refuses", ""},
	{rules.AzureMLResourceName, "AzureMLResourceName", "an Azure ML deployment's resources name only cpu, memory, gpu and nvidia.com/gpu", ""},
	{rules.AzureMLResourceType, "AzureMLResourceType", "an Azure ML deployment's resources are strings, as the Azure ML CLI requires", ""},
	{rules.GPUGivenTwice, "GPUGivenTwice", "an Azure ML deployment's requests or limits give gpu and nvidia.com/gpu, one resource, once", ""},
	{rules.InputLimit, "InputLimit", "the input is within the reader's limits (file size, nodes, depth, aliases)", ""},
	{rules.Unreadable, "UnreadableFile", "every file can be read", ""},
	{rules.Nodes, "ClusterNodes", "the cluster's nodes (--nodes) can be used: allocatable quantities, one node per name", ""},
	{rules.ComputeNotFound, "ComputeNotFound", "with --computes, the compute target a workload names is among them", ""},
	{rules.ComputeType, "ComputeType", "a compute target's type is one Azure ML knows: kubernetes, amlcompute, computeinstance, virtualmachine, synapsespark", ""},
	{rules.ComputeConflict, "ComputeConflict", "a compute target given more than once (compute files, --computes) has one type", ""},
	{rules.Fit, "NodeFit", "an instance type, and a workload with resources of its own, fits some schedulable node", ""},
	{rules.Stranded, "StrandedResources", "an instance type leaves at most half of each resource stranded on some node it may use (with --nodes)", ""},
	{rules.TooManyFindings, "TooManyFindings", "the findings of a file beyond the most reported are counted", ""},
	{rules.Suppression, "SuppressionComment", "a suppression comment names known rules and suppresses something", ""},
	{rules.Config, "ConfigSetting", "every setting of the config file (.instancetype.yaml) can be used", ""},
}

func init() {
	for i := range registry {
		registry[i].Doc = "docs/rules.md#" + strings.ToLower(registry[i].ID)
	}
}

// Rules returns every rule, in a fixed order. The slice is the caller's.
func Rules() []Rule { return append([]Rule(nil), registry...) }

// LookupRule returns the rule whose id is id, told regardless of case (r9 is R9), and
// whether there is one.
func LookupRule(id string) (Rule, bool) {
	for _, r := range registry {
		if strings.EqualFold(r.ID, id) {
			return r, true
		}
	}
	return Rule{}, false
}
