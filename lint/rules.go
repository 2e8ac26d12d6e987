package lint

import (
	"strings"

	"github.com/amlarc-go/instancetypes/internal/rules"
)

// Rule is one rule of the checks: its id, which every finding of it carries
// (manifest.Finding.Rule, the Origin of its field.Error) and which suppressions name, what
// it checks, and where the documentation explains it.
type Rule struct {
	// ID is the rule's id: R1 to R10 for the rules of the source document (R5, the built-in
	// default, makes no finding and has none), a name for the others (duplicate-key).
	ID string
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
	{rules.R1, "an instance type's metadata.name is set, is an object name, and is unique", ""},
	{rules.R2, "an instance type's cpu and memory requests and limits are set, quantities, above zero", ""},
	{rules.R3, "an instance type's extended resources (nvidia.com/gpu) are whole numbers, not negative, in limits only", ""},
	{rules.R4, "a nodeSelector's keys and values are valid labels", ""},
	{rules.R6, "the instance type a workload names has the form of a name and is in the catalog", ""},
	{rules.R7, "an instance type's nodeSelector agrees with the extension's (and, strictly, is a subset of it)", ""},
	{rules.R8, "a deployment's own resources: cpu and memory requests set, memory at least 1M, limits when a GPU is asked for", ""},
	{rules.R9, "a deployment's limits stay within its instance type's, its requests within the effective limits", ""},
	{rules.R10, "an MLflow model deployment requests at least 2 cpu and 4G of memory", ""},
	{rules.RequestAboveLimit, "an instance type's cpu or memory request is not above its own limit", ""},
	{rules.ResourceName, "a resource is cpu, memory or a fully qualified extended resource (nvidia.com/gpu)", ""},
	{rules.Metadata, "an instance type's metadata labels are valid, as the API server checks them", ""},
	{rules.Syntax, "the file is YAML or JSON that kubectl reads", ""},
	{rules.UnknownField, "every field is one the schema has (strict decoding)", ""},
	{rules.DuplicateKey, "no key is written twice in one mapping, nor two merge keys", ""},
	{rules.WrongType, "every value has the type its field takes (a string where a string belongs)", ""},
	{rules.KubectlRefuses, "no value kubectl cannot send (.inf, a key that is not a string, an alias into itself)", ""},
	{rules.Kind, "a document of the API group is an InstanceType or an InstanceTypeList, with its apiVersion and items", ""},
	{rules.LegacyForm, "a job in the older form names one instance type, not two", ""},
	{rules.InputLimit, "the input is within the reader's limits (file size, nodes, depth, aliases)", ""},
	{rules.Unreadable, "every file can be read", ""},
	{rules.Nodes, "the cluster's nodes (--nodes) can be used: allocatable quantities, one node per name", ""},
	{rules.Fit, "an instance type, and a workload with resources of its own, fits some schedulable node", ""},
	{rules.TooManyFindings, "the findings of a file beyond the most reported are counted", ""},
	{rules.Suppression, "a suppression comment names known rules and suppresses something", ""},
	{rules.Config, "every setting of the config file (.instancetype.yaml) can be used", ""},
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
