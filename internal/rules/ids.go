package rules

// The rule ids findings carry, in the Origin of their field.Error: set where each error is
// made (package validate and resolve for the rules of the source document, decode, azureml and source for
// the classes of decoding problems, fit for the fit check, lint for suppressions and the
// config file). Package lint registers each with a description (lint.Rules); a test there
// fails on an id that is made but not registered, and on one registered but never made.
//
// R5 (the built-in defaultinstancetype, which a custom one overrides) is a behaviour, not
// a check: no finding carries it.
const (
	// R1: an instance type's metadata.name: required, an object name, unique.
	R1 = "R1"
	// R2: an instance type's cpu and memory requests and limits: required, quantities,
	// above zero.
	R2 = "R2"
	// R3: extended resources (nvidia.com/gpu): whole numbers, not negative, in limits only.
	R3 = "R3"
	// R4: a nodeSelector's keys and values are labels.
	R4 = "R4"
	// R6: the instance type a workload names: the form of the name, and that the catalog
	// has it.
	R6 = "R6"
	// R7: an instance type's nodeSelector beside the extension's: no conflicting key (and,
	// with the strict subset rule, nothing the extension lacks).
	R7 = "R7"
	// R8: a deployment's own resources section.
	R8 = "R8"
	// R9: a deployment's limits within its instance type's, and requests within the
	// effective limits.
	R9 = "R9"
	// R10: an MLflow model deployment requests at least 2 cpu and 4G of memory.
	R10 = "R10"

	// Metadata: an instance type's metadata labels, as the API server checks them.
	Metadata = "metadata"
	// RequestAboveLimit: an instance type's cpu or memory request above its own limit.
	RequestAboveLimit = "request-above-limit"
	// ResourceName: a resource name that is neither cpu, memory nor an extended resource.
	ResourceName = "resource-name"
	// Placeholder: a value of a workload the checks read (its instance type, its compute,
	// a deployment's resources) that is a placeholder not filled in: <name>, $VAR,
	// ${VAR}, {{ … }}, ${{parent.inputs.x}}.
	Placeholder = "placeholder"

	// Syntax: text that is not YAML or JSON kubectl reads (lint.SyntaxError).
	Syntax = "syntax"
	// UnknownField: a field the schema does not have (lint.UnknownField).
	UnknownField = "unknown-field"
	// DuplicateKey: a key written twice in one mapping, or two merge keys.
	DuplicateKey = "duplicate-key"
	// WrongType: a value of the wrong type (a number where a string belongs, a list where
	// a mapping does).
	WrongType = "wrong-type"
	// KubectlRefuses: a value kubectl cannot send, for which it refuses the document
	// (.inf, a key that is not a string, an alias into itself, a bad merge).
	KubectlRefuses = "kubectl-refuses"
	// Kind: a document's apiVersion and kind, and what its kind requires (a list's items).
	Kind = "kind"
	// LegacyForm: what the older Azure ML forms make ambiguous (an instance type named in
	// both compute and resources).
	LegacyForm = "legacy-form"
	// LegacyComputeForm: a job's compute in the older form (compute: {target,
	// instance_type}), which the Azure ML CLI v2 refuses.
	LegacyComputeForm = "legacy-compute-form"
	// AzureMLResourceName: a name in an Azure ML deployment's resources other than cpu,
	// memory, gpu and nvidia.com/gpu, which the Azure ML CLI refuses.
	AzureMLResourceName = "azureml-resource-name"
	// AzureMLResourceType: a number in an Azure ML deployment's resources, where the Azure
	// ML CLI takes only strings.
	AzureMLResourceType = "azureml-resource-type"
	// GPUGivenTwice: both gpu and nvidia.com/gpu in one of an Azure ML deployment's
	// resource lists, which are one resource.
	GPUGivenTwice = "gpu-given-twice"
	// InputLimit: input beyond one of the reader's limits (lint.InputLimit).
	InputLimit = "input-limit"
	// Unreadable: a file that cannot be read (lint.UnreadableFile).
	Unreadable = "unreadable"
	// TooManyFindings: the count of a file's findings beyond the most reported
	// (lint.TooManyFindings).
	TooManyFindings = "too-many-findings"
	// Nodes: a node of the cluster's (--nodes) that cannot be used as given.
	Nodes = "nodes"

	// ComputeNotFound: a compute target that the computes given (--computes) lack.
	ComputeNotFound = "compute-not-found"
	// ComputeType: a compute target of a type Azure ML does not know (a misspelt
	// kubernetes), which the Azure ML CLI refuses.
	ComputeType = "compute-type"
	// ComputeConflict: one compute target given twice, with two types.
	ComputeConflict = "compute-conflict"

	// Fit: an instance type or workload that fits no node (package fit).
	Fit = "fit"
	// Stranded: an instance type that leaves more than half of a resource stranded on
	// every node it may use (package plan).
	Stranded = "stranded"

	// Suppression: a suppression comment that names no rule, an unknown one, or
	// suppresses nothing.
	Suppression = "suppression"
	// Config: a setting of the config file (.instancetype.yaml) that cannot be used.
	Config = "config"
)
