package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

// planGoldenTests are plan and suggest on the example cluster, their whole output (and
// standard error) pinned in testdata/golden.
var planGoldenTests = []goldenTest{
	{"plan-cluster.txt", []string{"plan", "--nodes", "examples/cluster/nodes.yaml", "--catalog", "examples/cluster/instancetypes.yaml", "examples/manifests"}, cli.ExitOK},
	{"plan-cluster-tolerate.txt", []string{"plan", "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule", "--catalog", "examples/cluster/instancetypes.yaml", "examples/manifests"}, cli.ExitOK},
	{"plan-cluster-job.txt", []string{"plan", "--workload", "job", "--overhead-node", "none", "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule", "examples/cluster/instancetypes.yaml"}, cli.ExitOK},
	{"plan-cluster.json", []string{"plan", "-o", "json", "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule", "examples/cluster/instancetypes.yaml"}, cli.ExitOK},
	{"plan-pool-label.txt", []string{"plan", "--pool-label", "kubernetes.io/os", "--overhead-pod", "cpu=100m,memory=1Gi", "--nodes", "examples/cluster/nodes.yaml", "examples/manifests"}, cli.ExitOK},
	{"suggest-cluster.yaml", []string{"suggest", "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule"}, cli.ExitOK},
	{"suggest-cluster-job.json", []string{"suggest", "-o", "json", "--workload", "job", "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule"}, cli.ExitOK},
}

func TestPlanGolden(t *testing.T) {
	dir := workdir(t)
	for _, tt := range planGoldenTests {
		t.Run(tt.name, func(t *testing.T) {
			r := runCommand(t, dir, "", tt.args...)
			if r.code != tt.code {
				t.Errorf("exit code %d; want %d; stderr:\n%s", r.code, tt.code, r.stderr)
			}
			if filepath.Ext(tt.name) == ".json" && !json.Valid([]byte(r.stdout)) {
				t.Errorf("not JSON:\n%s", r.stdout)
			}
			for _, line := range strings.Split(r.stdout, "\n") {
				if strings.HasPrefix(tt.name, "plan") && filepath.Ext(tt.name) == ".txt" && utf8.RuneCountInString(line) > 120 {
					t.Errorf("a line of %d columns: %q", utf8.RuneCountInString(line), line)
				}
			}
			golden(t, tt.name, r.stdout+"--- stderr\n"+r.stderr)
		})
	}
}

// TestPlanJSONContract checks plan -o json against DESIGN §3: the keys of the report, of
// each entry and of the overhead, in that order.
func TestPlanJSONContract(t *testing.T) {
	dir := workdir(t)
	r := runCommand(t, dir, "", "plan", "-o", "json", "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule", "examples/cluster/instancetypes.yaml")
	var v struct {
		Plan     []map[string]any          `json:"plan"`
		Overhead map[string]map[string]any `json:"overhead"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || r.code != cli.ExitOK {
		t.Fatalf("exit %d, %v:\n%s", r.code, err, r.stdout)
	}
	var top map[string]any
	json.Unmarshal([]byte(r.stdout), &top)
	if keys := sortedKeys(top); !slices.Equal(keys, []string{"overhead", "plan"}) {
		t.Errorf("keys %v", keys)
	}
	if len(v.Plan) == 0 {
		t.Fatal("no plan")
	}
	for _, e := range v.Plan {
		if keys := sortedKeys(e); !slices.Equal(keys, []string{"fits", "instanceType", "limitedBy", "nodes", "perNode", "pool", "stranded"}) {
			t.Errorf("entry keys %v", keys)
		}
	}
	// The order of the keys is the contract's.
	first := r.stdout[strings.Index(r.stdout, "{\n      \"instanceType\""):]
	last := 0
	for _, k := range []string{`"instanceType"`, `"pool"`, `"nodes"`, `"perNode"`, `"fits"`, `"limitedBy"`, `"stranded"`} {
		i := strings.Index(first, k)
		if i < last {
			t.Errorf("%s out of order", k)
		}
		last = i
	}
	if got, want := v.Overhead, map[string]map[string]any{"perNode": {"cpu": "10m", "memory": "100Mi"}, "perPod": {"cpu": "10m", "memory": "100Mi"}}; !jsonEqual(got, want) {
		t.Errorf("overhead %v; want %v", got, want)
	}
	r = runCommand(t, dir, "", "plan", "-o", "json", "--workload", "job", "--overhead-node", "none", "--nodes", "examples/cluster/nodes.yaml", "examples/cluster/instancetypes.yaml")
	if !strings.Contains(r.stdout, `"overhead": {
    "perNode": {},
    "perPod": {}
  }`) {
		t.Errorf("no overhead: %s", r.stdout)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TestSuggestValidates runs suggest's output through validate, and through plan: each
// suggested type packs as its annotation says, with no GPU left over.
func TestSuggestValidates(t *testing.T) {
	dir := workdir(t)
	for _, workload := range []string{"deployment", "job"} {
		r := runCommand(t, dir, "", "suggest", "--workload", workload, "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule")
		if r.code != cli.ExitOK || !strings.Contains(r.stdout, "gpupool-1gpu") || !strings.Contains(r.stdout, "cpupool-quarter") {
			t.Fatalf("suggest: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		path := filepath.Join(dir, "suggested-"+workload+".yaml")
		if err := os.WriteFile(path, []byte(r.stdout), 0o644); err != nil {
			t.Fatal(err)
		}
		if v := runCommand(t, dir, "", "validate", "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule", path); v.code != cli.ExitOK {
			t.Errorf("validate of the suggestions: exit %d\n%s%s", v.code, v.stdout, v.stderr)
		}
		p := runCommand(t, dir, "", "plan", "-o", "json", "--workload", workload, "--nodes", "examples/cluster/nodes.yaml", "--tolerate", "sku=gpu:NoSchedule", path)
		var rep struct {
			Plan []struct {
				InstanceType string            `json:"instanceType"`
				PerNode      int               `json:"perNode"`
				Stranded     map[string]string `json:"stranded"`
			} `json:"plan"`
		}
		if err := json.Unmarshal([]byte(p.stdout), &rep); err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"whole": 1, "half": 2, "quarter": 4, "1gpu": 1}
		seen := 0
		for _, e := range rep.Plan {
			if e.InstanceType == "defaultinstancetype" {
				continue
			}
			seen++
			size := e.InstanceType[strings.LastIndexByte(e.InstanceType, '-')+1:]
			if e.PerNode != want[size] {
				t.Errorf("%s (%s): %d per node; want %d", e.InstanceType, workload, e.PerNode, want[size])
			}
			if g, ok := e.Stranded["nvidia.com/gpu"]; ok && g != "0" {
				t.Errorf("%s (%s): %s GPUs stranded", e.InstanceType, workload, g)
			}
		}
		if seen != 7 { // three pools: system, cpupool (three sizes each), gpupool (one GPU a node)
			t.Errorf("%d suggestions planned; want 7:\n%s", seen, p.stdout)
		}
	}
}

// The config file gives plan and suggest their nodes and tolerations, as it gives validate
// its; the flags replace its settings.
func TestPlanConfigFile(t *testing.T) {
	dir := workdir(t)
	conf := filepath.Join(dir, "team")
	if err := os.MkdirAll(conf, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conf, ".instancetype.yaml"), []byte("nodes: [../examples/cluster/nodes.yaml]\ntolerations: [sku=gpu]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runCommand(t, conf, "", "plan", "../examples/cluster/instancetypes.yaml")
	if r.code != cli.ExitOK || !strings.Contains(r.stdout, "gpu-a100                  gpupool") {
		t.Errorf("plan with the config file's nodes and tolerations: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCommand(t, conf, "", "plan", "--tolerate", "other", "../examples/cluster/instancetypes.yaml")
	if r.code != cli.ExitOK || strings.Contains(r.stdout, "gpupool") || !strings.Contains(r.stderr, "gpu-a100: no schedulable node admits it") {
		t.Errorf("--tolerate replaces the config file's: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCommand(t, conf, "", "suggest")
	if r.code != cli.ExitOK || !strings.Contains(r.stdout, "gpupool-1gpu") {
		t.Errorf("suggest with the config file's nodes: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCommand(t, conf, "", "suggest", "--config", "/dev/null")
	if r.code != cli.ExitUsage || !strings.Contains(r.stderr, "no nodes") {
		t.Errorf("suggest with an empty config file: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

func TestPlanUsageErrors(t *testing.T) {
	dir := workdir(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "examples/manifests"}, "no nodes"},
		{[]string{"suggest"}, "no nodes"},
		{[]string{"suggest", "--nodes", "examples/cluster/nodes.yaml", "examples/manifests"}, "takes no PATH"},
		{[]string{"plan", "--nodes", "examples/cluster/nodes.yaml", "-o", "yaml", "x"}, `invalid output format "yaml"`},
		{[]string{"suggest", "--nodes", "examples/cluster/nodes.yaml", "-o", "text"}, `invalid output format "text"`},
		{[]string{"plan", "--nodes", "n", "--workload", "batch", "x"}, `invalid --workload "batch"`},
		{[]string{"plan", "--nodes", "n", "--overhead-node", "cpus=1", "x"}, `invalid --overhead-node: resource "cpus"`},
		{[]string{"plan", "--nodes", "n", "--overhead-pod", "cpu=-1", "x"}, "invalid --overhead-pod: cpu: -1 is below zero"},
		{[]string{"plan", "--nodes", "n", "--pool-label", "bad key!", "x"}, "invalid --pool-label"},
		{[]string{"plan", "--nodes", "n", "--tolerate", "=x", "x"}, "invalid --tolerate"},
		{[]string{"plan", "--nodes", "missing.yaml", "x"}, "no such file"},
	} {
		r := runCommand(t, dir, "", tt.args...)
		if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.want) || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", tt.args, r.code, r.stdout, r.stderr, tt.want)
		}
	}
}
