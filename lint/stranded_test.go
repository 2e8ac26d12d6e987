package lint_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// strandNodes are a CPU pool of 4 cores and 16Gi and a GPU pool of 24 cores, 200Gi and one
// GPU a node.
const strandNodes = `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: c0, labels: {agentpool: cpu}}, status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}}
- {apiVersion: v1, kind: Node, metadata: {name: c1, labels: {agentpool: cpu}}, status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}}
- {apiVersion: v1, kind: Node, metadata: {name: g0, labels: {agentpool: gpu}}, status: {allocatable: {cpu: "24", memory: 200Gi, nvidia.com/gpu: "1", pods: "110"}}}
`

func typeOn(name, pool, cpu, memory, gpu string) string {
	s := instanceType(name, "    requests: {cpu: \""+cpu+"\", memory: "+memory+"}\n    limits: {cpu: \""+cpu+"\", memory: "+memory+gpu+"}\n")
	if pool != "" {
		s += "  nodeSelector: {agentpool: " + pool + "}\n"
	}
	return s
}

var strandedTests = []struct {
	name string
	typ  string
	want []string // field: start of the detail
}{
	{"a GPU type asking a third of the node's cores strands the rest", typeOn("g", "gpu", "8", "64Gi", ", nvidia.com/gpu: 1"), []string{
		"spec.resources.requests[cpu]: leaves 66% of the cpu of every node it may use stranded (1 node, counting Azure ML's overhead): on g0 (pool gpu), 1 pod fits, limited by nvidia.com/gpu, leaving 15980m of 23990m; each pod could ask up to 23980m",
		"spec.resources.requests[memory]: leaves 67% of the memory",
	}},
	{"a GPU type sized for the node: nothing to say", typeOn("g", "gpu", "23", "190Gi", ", nvidia.com/gpu: 1"), nil},
	{"a quarter node: nothing to say", typeOn("q", "cpu", "980m", "3900Mi", ""), nil},
	{"3 of 4 cores: 25% of the cpu, but 80% of the memory", typeOn("three", "cpu", "3", "3Gi", ""), []string{
		"spec.resources.requests[memory]: leaves 80% of the memory of every node it may use stranded (2 nodes",
	}},
	{"a CPU-only type on the GPU pool alone leaves its GPUs idle", typeOn("c", "gpu", "23", "190Gi", ""), []string{
		"spec.nodeSelector: leaves 100% of the nvidia.com/gpu of every node it may use stranded",
	}},
	{"on every pool, some node uses each resource", typeOn("any", "", "3", "12Gi", ""), nil},
	{"no node fits it: rule fit, not this", typeOn("big", "cpu", "5", "1Gi", ""), nil},
}

func TestStranded(t *testing.T) {
	opts := lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte(strandNodes))}}
	for _, tt := range strandedTests {
		r := run(t, opts, "t.yaml", tt.typ)
		var got []string
		for _, f := range r.Findings {
			if f.Rule() == "stranded" {
				got = append(got, f.Err.Field+": "+f.Err.Detail)
			}
		}
		ok := len(got) == len(tt.want)
		for i := range got {
			ok = ok && strings.HasPrefix(got[i], tt.want[i])
		}
		if !ok {
			t.Errorf("%s: findings\n%s\nwant\n%s", tt.name, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
	// --ignore stranded turns it off; the instance types of the catalog are not checked.
	r := run(t, lint.Options{Nodes: opts.Nodes, Ignore: []lint.Ignore{{Rule: "stranded"}}}, "t.yaml", strandedTests[0].typ)
	if len(r.Findings) != 0 || r.SuppressedCount != 2 {
		t.Errorf("--ignore stranded: findings %v, %d suppressed", findings(r), r.SuppressedCount)
	}
	o := opts
	o.Catalog = []lint.Input{lint.Bytes("catalog.yaml", []byte(strandedTests[0].typ))}
	if r := run(t, o, "t.yaml", typeOn("q", "cpu", "980m", "3900Mi", "")); slices.ContainsFunc(r.Findings, func(f lint.Finding) bool { return f.Rule() == "stranded" }) {
		t.Errorf("a catalog's instance type: %v", findings(r))
	}
}
