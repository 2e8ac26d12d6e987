package lint_test

import (
	"k8s.io/apimachinery/pkg/util/validation/field"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// deployment is a Kubernetes online deployment document.
func deployment(lines string) string {
	return "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json\nname: blue\nendpoint_name: e\n" + lines
}

// gpuType is an instance type with a GPU, for workloads to name.
var gpuType = instanceType("gpu", "    requests: {cpu: 500m, memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi, nvidia.com/gpu: 1}\n")

// nodesFile is a node list of one node of 4 cpu and 16Gi in pool cpu.
const nodesFile = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata: {name: n1, labels: {pool: cpu}}
  status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
`

// ruleCases make findings of each rule: every registered rule has one here, and each
// must make a finding of its rule.
var ruleCases = []struct {
	rule  string
	files []string // name, contents, ...
	opts  func(t *testing.T) lint.Options
}{
	{"R1", []string{"a.yaml", instanceType("Bad_Name", okResources)}, nil},
	{"R2", []string{"a.yaml", instanceType("a", "    requests: {cpu: \"0\", memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi}\n")}, nil},
	{"R3", []string{"a.yaml", instanceType("a", "    requests: {cpu: 500m, memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi, nvidia.com/gpu: \"1.5\"}\n")}, nil},
	{"R4", []string{"a.yaml", instanceType("a", okResources) + "  nodeSelector: {pool: \"bad value!\"}\n"}, nil},
	{"R6", []string{"a.yaml", deployment("instance_type: missing\n"), "t.yaml", gpuType}, nil},
	{"R7", []string{"a.yaml", instanceType("a", okResources) + "  nodeSelector: {pool: gpu}\n"},
		func(*testing.T) lint.Options { return lint.Options{NodeSelector: map[string]string{"pool": "cpu"}} }},
	{"R8", []string{"a.yaml", deployment("instance_type: gpu\nresources:\n  requests: {cpu: 500m}\n"), "t.yaml", gpuType}, nil},
	{"R9", []string{"a.yaml", deployment("instance_type: gpu\nresources:\n  requests: {cpu: 500m, memory: 1Gi}\n  limits: {cpu: \"2\", memory: 1Gi}\n"), "t.yaml", gpuType}, nil},
	{"R10", []string{"a.yaml", deployment("instance_type: gpu\nmodel: {type: mlflow_model, path: m}\n"), "t.yaml", gpuType}, nil},
	{"request-above-limit", []string{"a.yaml", instanceType("a", "    requests: {cpu: \"2\", memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi}\n")}, nil},
	{"resource-name", []string{"a.yaml", instanceType("a", "    requests: {cpu: 500m, memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi, cpus: \"1\"}\n")}, nil},
	{"placeholder", []string{"a.yaml", deployment("instance_type: ${INSTANCE_TYPE}\n"), "t.yaml", gpuType}, nil},
	{"metadata", []string{"a.yaml", strings.Replace(instanceType("a", okResources), "  name: a\n", "  name: a\n  labels: {\"bad key!\": x}\n", 1)}, nil},
	{"syntax", []string{"a.yaml", "a: [1\n"}, nil},
	{"unknown-field", []string{"a.yaml", instanceType("a", okResources) + "status: {}\n"}, nil},
	{"duplicate-key", []string{"a.yaml", instanceType("a", okResources) + "kind: InstanceType\n"}, nil},
	{"wrong-type", []string{"a.yaml", strings.Replace(instanceType("a", okResources), "name: a", "name: 12", 1)}, nil},
	{"kubectl-refuses", []string{"a.yaml", instanceType("a", "    requests: {cpu: .inf, memory: 1Gi}\n    limits: {cpu: \"1\", memory: 2Gi}\n")}, nil},
	{"kind", []string{"a.yaml", "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypo\n"}, nil},
	{"legacy-form", []string{"a.yaml", "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ncommand: x\ncompute: {target: k8s, instance_type: gpu}\nresources: {instance_type: other}\n", "t.yaml", gpuType}, nil},
	{"legacy-compute-form", []string{"a.yaml", "$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ncommand: x\ncompute: {target: k8s, instance_type: gpu}\n", "t.yaml", gpuType}, nil},
	{"azureml-resource-name", []string{"a.yaml", deployment("instance_type: gpu\nresources:\n  requests: {cpu: 500m, memory: 1Gi, cpus: \"1\"}\n"), "t.yaml", gpuType}, nil},
	{"azureml-resource-type", []string{"a.yaml", deployment("instance_type: gpu\nresources:\n  requests: {cpu: 1, memory: 1Gi}\n"), "t.yaml", gpuType}, nil},
	{"gpu-given-twice", []string{"a.yaml", deployment("instance_type: gpu\nresources:\n  requests: {cpu: 500m, memory: 1Gi}\n  limits: {cpu: \"1\", memory: 2Gi, gpu: \"1\", nvidia.com/gpu: \"1\"}\n"), "t.yaml", gpuType}, nil},
	{"input-limit", []string{"a.yaml", "a: [" + strings.Repeat("[", 10001) + "\n"}, nil},
	{"unreadable", nil, nil}, // a dangling symlink in a walk: see TestEveryRuleIsMade
	{"nodes", []string{"a.yaml", instanceType("a", okResources)}, func(*testing.T) lint.Options {
		return lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte(nodesFile+"- apiVersion: v1\n  kind: Node\n  metadata: {name: n2}\n"))}}
	}},
	{"compute-not-found", []string{"a.yaml", jobOn + "azureml:k9s\n", "t.yaml", small}, func(*testing.T) lint.Options {
		return lint.Options{Computes: []lint.Input{lint.Bytes("computes.json", []byte(computeList))}}
	}},
	{"compute-type", []string{"c.yaml", "name: k8s\ntype: kuberentes\n"}, nil},
	{"compute-conflict", []string{"c.yaml", "name: k8s\ntype: kubernetes\n", "d.yaml", "name: k8s\ntype: amlcompute\n"}, nil},
	{"fit", []string{"a.yaml", instanceType("a", "    requests: {cpu: \"8\", memory: 1Gi}\n    limits: {cpu: \"8\", memory: 2Gi}\n")}, func(*testing.T) lint.Options {
		return lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte(nodesFile))}}
	}},
	// 3 of a node's 4 cores: one pod a node, 25% of the cpu stranded, and 81% of the memory.
	{"stranded", []string{"a.yaml", instanceType("a", "    requests: {cpu: \"3\", memory: 3Gi}\n    limits: {cpu: \"3\", memory: 3Gi}\n")}, func(*testing.T) lint.Options {
		return lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte(nodesFile))}}
	}},
	{"too-many-findings", []string{"a.yaml", "a: [1\n---\nb: [2\n"}, func(*testing.T) lint.Options { return lint.Options{MaxFindings: 1} }},
	{"suppression", []string{"a.yaml", instanceType("a", okResources) + "# instancetype:ignore R9\n"}, nil},
	// The command reads its config file (cmd/instancetype/cli, whose tests make each of
	// its findings); lint reports them among the run's.
	{"config", nil, func(t *testing.T) lint.Options {
		e := field.Invalid(field.NewPath("exclude").Index(0), "[", "not a pattern: syntax error in pattern").WithOrigin("config")
		return lint.Options{ConfigFindings: []lint.Finding{{File: lint.ConfigName, Position: lint.Position{Line: 1, Column: 1}, Err: e}}}
	}},
}

// TestEveryRuleIsMade runs a case of each registered rule: each makes a finding of its
// rule, every finding of every case is of a registered rule, and no rule is registered
// that no case makes.
func TestEveryRuleIsMade(t *testing.T) {
	covered := map[string]bool{}
	for _, tt := range ruleCases {
		covered[tt.rule] = true
		t.Run(tt.rule, func(t *testing.T) {
			var opts lint.Options
			if tt.opts != nil {
				opts = tt.opts(t)
			}
			var in []lint.Input
			for i := 0; i+1 < len(tt.files); i += 2 {
				in = append(in, lint.Bytes(tt.files[i], []byte(tt.files[i+1])))
			}
			if tt.rule == "unreadable" {
				dir := t.TempDir()
				os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(instanceType("a", okResources)), 0o644)
				if err := os.Symlink("nowhere.yaml", filepath.Join(dir, "b.yaml")); err != nil {
					t.Skip("no symlinks:", err)
				}
				in = append(in, lint.Path(dir))
			}
			if len(in) == 0 {
				in = []lint.Input{lint.Bytes("ok.yaml", []byte(instanceType("ok", okResources)))}
			}
			r, err := lint.Run(in, opts)
			if err != nil {
				t.Fatal(err)
			}
			made := false
			for _, f := range r.Findings {
				if _, ok := lint.LookupRule(f.Rule()); !ok {
					t.Errorf("finding of an unregistered rule %q: %s", f.Rule(), f)
				}
				made = made || f.Rule() == tt.rule
			}
			if !made {
				t.Errorf("no finding of %s; findings:\n%s", tt.rule, strings.Join(renderAll(r.Findings), "\n"))
			}
		})
	}
	for _, r := range lint.Rules() {
		if !covered[r.ID] {
			t.Errorf("rule %s is registered but no case makes it", r.ID)
		}
	}
}

func renderAll(fs []lint.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.String())
	}
	return out
}

// TestCorporaFindingsAreRegistered reads every manifest the repository's tests use (the
// examples, the command's inputs, the reader's oracle corpus), with and without the
// cluster's catalog and nodes: every finding has a registered rule.
func TestCorporaFindingsAreRegistered(t *testing.T) {
	var in []lint.Input
	for _, dir := range []string{"../examples", "../cmd/instancetype/testdata/azureml", "../cmd/instancetype/testdata/inputs", "../cmd/instancetype/testdata/aml", "../cmd/instancetype/testdata/placeholders", "../source/testdata/kubectl"} {
		in = append(in, lint.Path(dir))
	}
	cluster := lint.Options{
		Catalog:      []lint.Input{lint.Path("../examples/cluster/instancetypes.yaml")},
		Nodes:        []lint.Input{lint.Path("../examples/cluster/nodes.yaml")},
		NodeSelector: map[string]string{"mylabel": "other"},
		StrictSubset: true,
	}
	for _, opts := range []lint.Options{{}, cluster} {
		r, err := lint.Run(in, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Findings) < 20 {
			t.Fatalf("only %d findings in the corpora", len(r.Findings))
		}
		for _, f := range r.Findings {
			if _, ok := lint.LookupRule(f.Rule()); !ok {
				t.Errorf("finding of an unregistered rule %q: %s", f.Rule(), f)
			}
		}
	}
}

// TestRulesDocumented: each rule's Doc is a heading of docs/rules.md, and each rule
// heading there is a rule (R5 aside, which makes no finding).
func TestRulesDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	headings := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^## (\S+)$`).FindAllStringSubmatch(string(data), -1) {
		headings[strings.ToLower(m[1])] = true
		if _, ok := lint.LookupRule(m[1]); !ok {
			t.Errorf("docs/rules.md has a heading %q that is no rule", m[1])
		}
	}
	seen := map[string]bool{}
	for _, r := range lint.Rules() {
		file, anchor, _ := strings.Cut(r.Doc, "#")
		if file != "docs/rules.md" || !headings[anchor] {
			t.Errorf("rule %s: Doc %q is no heading of docs/rules.md", r.ID, r.Doc)
		}
		if r.Summary == "" || strings.HasSuffix(r.Summary, ".") || r.HelpURI() != lint.DocsBase+r.Doc {
			t.Errorf("rule %s: summary %q, help %q", r.ID, r.Summary, r.HelpURI())
		}
		if !regexp.MustCompile(`^[A-Z][A-Za-z0-9]+$`).MatchString(r.Name) || strings.EqualFold(r.Name, r.ID) {
			t.Errorf("rule %s: name %q; want Pascal case, unlike the id (SARIF)", r.ID, r.Name)
		}
		if seen[strings.ToLower(r.ID)] {
			t.Errorf("rule %s registered twice", r.ID)
		}
		seen[strings.ToLower(r.ID)] = true
	}
	if r, ok := lint.LookupRule("r9"); !ok || r.ID != "R9" {
		t.Errorf("LookupRule(r9) = %v, %v", r, ok)
	}
	if _, ok := lint.LookupRule("R5"); ok {
		t.Errorf("R5 is registered: it makes no finding")
	}
	rules := lint.Rules()
	rules[0].ID = "changed"
	if lint.Rules()[0].ID == "changed" {
		t.Errorf("Rules returns the registry itself")
	}
}

// TestAzureMLResourceTypeNotRestated: a value of an Azure ML deployment's resources that
// azure-ai-ml refuses for its type (null, a number, a boolean) has that one finding; no
// rule of validation restates it at its path (memory: null is no "Required value" too).
func TestAzureMLResourceTypeNotRestated(t *testing.T) {
	doc := deployment("type: kubernetes\ninstance_type: gpu\nresources:\n  requests: {cpu: \"1\", memory: null}\n  limits: {cpu: 1.5, memory: on}\n")
	r, err := lint.Run([]lint.Input{lint.Bytes("d.yaml", []byte(doc)), lint.Bytes("t.yaml", []byte(gpuType))}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := map[string][]string{}
	for _, f := range r.Findings {
		at[f.Err.Field] = append(at[f.Err.Field], f.Rule())
	}
	for _, path := range []string{"resources.requests[memory]", "resources.limits[cpu]", "resources.limits[memory]"} {
		if got := at[path]; len(got) != 1 || got[0] != "azureml-resource-type" {
			t.Errorf("%s: findings of %v; want one of azureml-resource-type\n%s", path, got, strings.Join(renderAll(r.Findings), "\n"))
		}
	}
}
