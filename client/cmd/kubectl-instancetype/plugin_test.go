package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/quantity"
)

func testNodes() []capacity.Node {
	res := func(kv ...string) map[instancetype.ResourceName]quantity.Quantity {
		m := map[instancetype.ResourceName]quantity.Quantity{}
		for i := 0; i < len(kv); i += 2 {
			m[instancetype.ResourceName(kv[i])] = quantity.MustParse(kv[i+1])
		}
		return m
	}
	return []capacity.Node{
		{Node: cluster.Node{Name: "cpu-0", Labels: map[string]string{"agentpool": "cpu"}, Allocatable: res("cpu", "3860m", "memory", "12Gi", "pods", "110")}},
		{Node: cluster.Node{Name: "cpu-1", Labels: map[string]string{"agentpool": "cpu"}, Allocatable: res("cpu", "3860m", "memory", "12Gi"), Unschedulable: true}},
		{Node: cluster.Node{Name: "gpu-0", Labels: map[string]string{"agentpool": "gpu", "x": "y"}, Allocatable: res("cpu", "23660m", "memory", "200Gi", "nvidia.com/gpu", "4"),
			Taints: []cluster.Taint{{Key: "sku", Value: "gpu", Effect: cluster.NoSchedule}, {Key: "spot", Effect: cluster.PreferNoSchedule}}}},
	}
}

const gpuType = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"gpu"},
"spec":{"nodeSelector":{"agentpool":"gpu"},"resources":{"requests":{"cpu":"1","memory":"1Gi"},"limits":{"cpu":"1","memory":"1Gi","nvidia.com/gpu":1}}}}`

// The nodes as the plugin hands them to lint, decoded (lint.NodeObjects), are used as they
// are: no finding, every node, its taints, cordon and allocatable used by the fit check.
func TestNodesHandedToLint(t *testing.T) {
	var nodes []cluster.Node
	for _, n := range testNodes() {
		nodes = append(nodes, n.Node)
	}
	r, err := lint.Run([]lint.Input{lint.Bytes(clusterTypePrefix+"gpu", []byte(gpuType))}, lint.Options{
		Nodes: []lint.Input{lint.NodeObjects(clusterNodes, nodes)},
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Nodes != 3 {
		t.Errorf("%d nodes read back; want 3", r.Nodes)
	}
	// gpu matches gpu-0 only, which its NoSchedule taint excludes.
	if len(r.Findings) != 1 || r.Findings[0].File != "cluster:instancetypes/gpu" || !strings.Contains(r.Findings[0].Message(), "sku=gpu:NoSchedule on gpu-0") {
		t.Fatalf("findings %v; want gpu excluded by the taint of gpu-0", r.Findings)
	}
	res, _ := r.Fit(instancetype.DefaultName)
	if res.Matching != 3 || res.Candidates != 1 || res.Cordoned != 1 || res.Tainted != 1 {
		t.Errorf("default's fit %+v; want 3 matching, 1 candidate, 1 cordoned, 1 tainted", res)
	}
}

func TestWriteText(t *testing.T) {
	r := &capacity.Report{Capacity: []capacity.TypeCapacity{
		{InstanceType: "defaultinstancetype", Fits: 237, LimitedBy: "memory", Pools: []capacity.PoolCapacity{{Pool: "cpupool", Nodes: 2, Fits: 41, LimitedBy: "memory"}, {Pool: "", Nodes: 1, Fits: 196, LimitedBy: "pods"}}},
		{InstanceType: "spot", Pools: []capacity.PoolCapacity{}},
	}}
	var b bytes.Buffer
	if err := writeText(&b, r); err != nil {
		t.Fatal(err)
	}
	want := `INSTANCE TYPE        FITS  LIMITED BY  POOL             NODES  POOL FITS  POOL LIMITED BY
defaultinstancetype  237   memory      cpupool          2      41         memory
                                       (no pool label)  1      196        pods
spot                 0     -           -                0      -          -
`
	if b.String() != want {
		t.Errorf("writeText:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	if err := writeJSON(&b, &capacity.Report{Capacity: r.Capacity[1:], Nodes: 3}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(b.String()), ""); got != `{"capacity":[{"instanceType":"spot","fits":0,"limitedBy":"","pools":[]}],"nodes":3,"pods":0}` {
		t.Errorf("writeJSON = %s", got)
	}
}

func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := newPlugin().main(args, cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return code, out.String(), errOut.String()
}

// Usage errors of capacity come before any connection; help needs none.
func TestCapacityUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"capacity", "x"}, `takes no arguments, got "x"`},
		{[]string{"capacity", "-oyaml"}, `invalid output format "yaml"`},
		{[]string{"capacity", "--node-selector", "pool"}, `invalid --node-selector: "pool" is not key=value`},
		{[]string{"capacity", "--frobnicate"}, "flag provided but not defined: -frobnicate"},
		{[]string{"capacity", "--tolerate", "a b"}, `invalid --tolerate "a b": `},
		{[]string{"capacity", "--tolerate", "sku=gpu:NoExec"}, `invalid --tolerate "sku=gpu:NoExec": `},
	} {
		code, _, errOut := run(tc.args...)
		if code != cli.ExitUsage || !strings.HasPrefix(errOut, "kubectl instancetype capacity: ") || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v = %d, %q; want exit 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
	for _, args := range [][]string{{"capacity", "--help"}, {"help", "capacity"}} {
		if code, out, _ := run(args...); code != 0 || !strings.HasPrefix(out, "Usage: kubectl instancetype capacity") || !strings.Contains(out, "--context string") || !strings.Contains(out, "--tolerate KEY[=VALUE][:EFFECT]") {
			t.Errorf("%v = %d\n%s", args, code, out)
		}
	}
	if code, out, _ := run("help", "validate"); code != 0 || !strings.Contains(out, "kubectl instancetype validate") || !strings.Contains(out, "cluster:instancetypes/NAME") || !strings.Contains(out, "--kubeconfig string") {
		t.Errorf("help validate = %d\n%s", code, out)
	}
	if code, out, _ := run("help"); code != 0 || out != usage {
		t.Errorf("help = %d\n%s", code, out)
	}
	if code, _, errOut := run("capacity", "--chunk-size", "0", "--server", "https://127.0.0.1:1"); code != cli.ExitUsage || !strings.Contains(errOut, "invalid --chunk-size 0") {
		t.Errorf("--chunk-size 0 = %d, %q", code, errOut)
	}
}
