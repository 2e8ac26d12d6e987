package integration_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/amlarc-go/instancetypes/client/capacity"
	"github.com/amlarc-go/instancetypes/instancetype"
)

var (
	pluginOnce sync.Once
	pluginDir  string
	pluginPath string
	pluginErr  error
)

// plugin builds kubectl-instancetype once, into a temporary directory, which TestMain
// removes (removePlugin).
func plugin(t *testing.T) string {
	t.Helper()
	pluginOnce.Do(func() {
		dir, err := os.MkdirTemp("", "kubectl-instancetype")
		if err != nil {
			pluginErr = err
			return
		}
		pluginDir = dir
		pluginPath = filepath.Join(dir, "kubectl-instancetype")
		cmd := exec.Command("go", "build", "-o", pluginPath, "./cmd/kubectl-instancetype")
		cmd.Dir = ".." // the client module
		if out, err := cmd.CombinedOutput(); err != nil {
			pluginErr = errors.New("building kubectl-instancetype: " + err.Error() + "\n" + string(out))
		}
	})
	if pluginErr != nil {
		t.Fatal(pluginErr)
	}
	return pluginPath
}

// removePlugin removes what plugin made; TestMain calls it.
func removePlugin() {
	if pluginDir != "" {
		os.RemoveAll(pluginDir)
	}
}

// runPlugin runs the plugin with the kubeconfig file and args, in dir, and returns its
// exit code, standard output and standard error.
func runPlugin(t *testing.T, kubeconfig, dir string, args ...string) (int, string, string) {
	t.Helper()
	// The plugin is built before the step's time starts: the first build (17 s on a busy
	// machine, more with -race) is no part of the step that the time bounds.
	bin := plugin(t)
	cmd := exec.CommandContext(stepContext(t), bin, args...)
	cmd.Dir = dir
	home := t.TempDir()
	cmd.Env = []string{"KUBECONFIG=" + kubeconfig, "HOME=" + home, "PATH=" + os.Getenv("PATH")}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String(), errOut.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, out.String(), errOut.String()
}

// adminKubeconfig writes the admin kubeconfig of env to a file.
func adminKubeconfig(t *testing.T, env interface{ KubeConfigBytes() []byte }) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(file, env.KubeConfigBytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}

type kubeconfigOf struct{ b []byte }

func (k kubeconfigOf) KubeConfigBytes() []byte { return k.b }

// clusterKubeconfig starts the test cluster and returns the admin kubeconfig file.
func clusterKubeconfig(t *testing.T) (string, *testCluster) {
	t.Helper()
	_, c := startCluster(t)
	return adminKubeconfig(t, kubeconfigOf{clusterEnv.Env().KubeConfig}), c
}

func decodeReport(t *testing.T, out string) *capacity.Report {
	t.Helper()
	var r capacity.Report
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("capacity -o json: %v\n%s", err, out)
	}
	return &r
}

// The plugin as a process, with a kubeconfig pointing at the API server: capacity in JSON
// is the naive model's answer, page by page; in text, one line per instance type and pool.
func TestPluginCapacity(t *testing.T) {
	kc, c := clusterKubeconfig(t)
	code, out, errOut := runPlugin(t, kc, t.TempDir(), "capacity", "-o", "json", "--chunk-size", "5")
	if code != 0 {
		t.Fatalf("capacity -o json: exit %d\n%s", code, errOut)
	}
	if got, want := decodeReport(t, out), c.naive(c.naiveTypes(true), true); !reflect.DeepEqual(got, want) {
		t.Fatalf("capacity -o json:\n%s\nnaive model:\n%s", show(got), show(want))
	}
	if errOut != "" {
		t.Errorf("capacity -o json: stderr %q", errOut)
	}
	for _, key := range []string{`"capacity": [`, `"instanceType": "gpu"`, `"limitedBy": "nvidia.com/gpu"`, `"pools": [`, `"pool": "gpupool"`, `"nodes": 9`, `"pods": 43`} {
		if !strings.Contains(out, key) {
			t.Errorf("capacity -o json lacks %s:\n%s", key, out)
		}
	}

	code, out, errOut = runPlugin(t, kc, t.TempDir(), "capacity")
	if code != 0 {
		t.Fatalf("capacity: exit %d\n%s", code, errOut)
	}
	want := c.naive(c.naiveTypes(true), true)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "INSTANCE TYPE") {
		t.Fatalf("capacity: no header:\n%s", out)
	}
	rows := 0
	for _, tc := range want.Capacity {
		rows += max(1, len(tc.Pools))
	}
	if len(lines) != 1+rows {
		t.Errorf("capacity: %d lines; want a header and %d rows:\n%s", len(lines), rows, out)
	}
	for _, tc := range want.Capacity {
		found := false
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) >= 3 && f[0] == tc.InstanceType && f[1] == itoa(tc.Fits) && (f[2] == string(tc.LimitedBy) || tc.LimitedBy == "" && f[2] == "-") {
				found = true
			}
		}
		if !found {
			t.Errorf("capacity: no line %s %d %s:\n%s", tc.InstanceType, tc.Fits, tc.LimitedBy, out)
		}
	}
	if errOut != "6 instance types of 9 nodes, 43 pods counted\n" {
		t.Errorf("capacity: stderr %q", errOut)
	}
}

func itoa(n int64) string {
	return strings.TrimSpace(strings.ReplaceAll(string(must(json.Marshal(n))), "\n", ""))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// deployments writes two Kubernetes online deployments into a directory: blue on gpu,
// green on an instance type the cluster lacks.
func deployments(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, it := range map[string]string{"blue": "gpu", "green": "gpu-xl"} {
		text := "$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json\nname: " + name +
			"\nendpoint_name: e\ninstance_type: " + it + "\n"
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// validate, resolve and list: the cluster as catalog and nodes; with no PATH, the
// cluster's own instance types checked against its nodes.
func TestPluginValidateResolveList(t *testing.T) {
	kc, c := clusterKubeconfig(t)
	dir := deployments(t)

	// No PATH: the cluster's instance types, as inputs: huge fits no node, spot only a
	// tainted one, and gpu (2 cores and 8Gi a GPU) leaves most of each GPU node's cores and
	// memory idle (rule stranded).
	code, out, errOut := runPlugin(t, kc, dir, "validate")
	if code != 1 {
		t.Fatalf("validate: exit %d\n%s%s", code, out, errOut)
	}
	want := []string{
		"cluster:instancetypes/gpu:", "spec.resources.requests[cpu]: Invalid value: \"2\": leaves 66% of the cpu of every node it may use stranded",
		"spec.resources.requests[memory]: Invalid value: \"8Gi\": leaves 83% of the memory",
		"cluster:instancetypes/huge:", "spec.resources.requests[cpu]: Invalid value: \"1k\": no candidate node has that much cpu",
		"cluster:instancetypes/spot:", "spec.nodeSelector: Invalid value: \"kubernetes.azure.com/agentpool=spot\"", "sku=gpu:NoSchedule on aks-spot-0",
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("validate lacks %q:\n%s", w, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 4 {
		t.Errorf("validate: %d findings; want 4:\n%s", n, out)
	}
	if want := "4 problems in 3 files; 5 files, 5 documents checked against 9 nodes\n"; errOut != want {
		t.Errorf("validate: stderr %q; want %q", errOut, want)
	}

	// instancetype's CI formats and suppressions, for free: a GitHub annotation for huge,
	// spot's finding suppressed by its rule and path (and gpu's by theirs); SARIF with the
	// rule of each result.
	code, out, errOut = runPlugin(t, kc, dir, "validate", "-o", "github", "--ignore", "fit=*/spot", "--ignore", "stranded")
	if code != 1 || !strings.HasPrefix(out, "::error file=cluster%3Ainstancetypes/huge,line=") || strings.Count(out, "\n") != 1 ||
		!strings.Contains(errOut, "3 findings suppressed") {
		t.Errorf("validate -o github --ignore: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runPlugin(t, kc, dir, "validate", "-o", "sarif")
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &sarif); code != 1 || err != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 4 ||
		sarif.Runs[0].Results[0].RuleID != "stranded" || sarif.Runs[0].Results[2].RuleID != "fit" { // gpu's two, then huge's and spot's
		t.Errorf("validate -o sarif: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if code, out, _ := runPlugin(t, kc, dir, "rules"); code != 0 || !strings.HasPrefix(out, "R1 ") {
		t.Errorf("rules: exit %d\n%s", code, out)
	}

	// PATHs: checked against the cluster's catalog.
	code, out, errOut = runPlugin(t, kc, dir, "validate", ".", "-o", "json")
	if code != 1 {
		t.Fatalf("validate .: exit %d\n%s%s", code, out, errOut)
	}
	var v struct {
		Findings []struct{ File, Field, Type, Message string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || len(v.Findings) != 1 {
		t.Fatalf("validate . -o json: %v\n%s", err, out)
	}
	if f := v.Findings[0]; f.File != "green.yaml" || f.Field != "instance_type" || f.Type != "FieldValueNotFound" ||
		!strings.Contains(f.Message, `did you mean "gpu"?`) {
		t.Errorf("validate .: finding %+v; want gpu-xl not found, gpu suggested from the cluster's names", f)
	}

	code, out, errOut = runPlugin(t, kc, dir, "resolve", "-o", "json", "blue.yaml")
	if code != 0 {
		t.Fatalf("resolve: exit %d\n%s%s", code, out, errOut)
	}
	var r struct {
		Placements []struct {
			InstanceType string            `json:"instanceType"`
			NodeSelector map[string]string `json:"nodeSelector"`
			Resolved     bool              `json:"resolved"`
			Fits         *int              `json:"fits"`
		} `json:"placements"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Placements) != 1 {
		t.Fatalf("resolve -o json: %v\n%s", err, out)
	}
	if p := r.Placements[0]; p.InstanceType != "gpu" || !p.Resolved || p.NodeSelector[capacity.AKSPoolLabel] != "gpupool" || p.Fits == nil || *p.Fits != 2 {
		t.Errorf("resolve: %+v; want gpu, resolved, on both GPU nodes", p)
	}

	// list: the cluster's instance types are the catalog, not checked.
	code, out, errOut = runPlugin(t, kc, dir, "list", "-o", "json")
	if code != 0 {
		t.Fatalf("list: exit %d\n%s%s", code, out, errOut)
	}
	var l struct {
		InstanceTypes []struct {
			Name    string `json:"name"`
			BuiltIn bool   `json:"builtIn"`
			Cluster bool   `json:"cluster"`
			File    string `json:"file"`
		} `json:"instanceTypes"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatalf("list -o json: %v\n%s", err, out)
	}
	if len(l.InstanceTypes) != len(c.types)+1 {
		t.Fatalf("list: %d instance types; want %d and the default:\n%s", len(l.InstanceTypes), len(c.types), out)
	}
	for _, it := range l.InstanceTypes {
		if it.Name == instancetype.DefaultName {
			if !it.BuiltIn {
				t.Errorf("list: %+v", it)
			}
			continue
		}
		if !it.Cluster || it.File != "cluster:instancetypes/"+it.Name {
			t.Errorf("list: %+v; want from the cluster, named cluster:instancetypes/%s", it, it.Name)
		}
	}
	_, out, _ = runPlugin(t, kc, dir, "list")
	if !strings.Contains(out, "cluster (cluster:instancetypes/gpu:") {
		t.Errorf("list: no cluster source for gpu:\n%s", out)
	}
}

// RBAC-limited users: what is forbidden is named (verb and resource), and what can be
// answered is.
func TestPluginRBAC(t *testing.T) {
	admin, c := startCluster(t)
	dir := deployments(t)

	_, noPods := limitedUser(t, clusterEnv, admin, "cli-no-pods", "nodes", "instancetypes")
	code, out, errOut := runPlugin(t, noPods, dir, "capacity", "-o", "json")
	if code != 0 || !strings.Contains(errOut, "not allowed to list pods") || !strings.Contains(errOut, `cannot list resource "pods"`) ||
		!strings.Contains(errOut, "nothing counts as used") {
		t.Errorf("capacity without pods: exit %d, stderr %q", code, errOut)
	}
	if got, want := decodeReport(t, out), c.naive(c.naiveTypes(true), false); !reflect.DeepEqual(got, want) {
		t.Errorf("capacity without pods:\n%s\nnaive model of empty nodes:\n%s", show(got), show(want))
	}

	_, noNodes := limitedUser(t, clusterEnv, admin, "cli-no-nodes", "pods", "instancetypes")
	code, out, errOut = runPlugin(t, noNodes, dir, "validate", "blue.yaml")
	if code != 0 || !strings.Contains(errOut, "not allowed to list nodes") || !strings.Contains(errOut, "the fit check is skipped") ||
		!strings.Contains(errOut, "no problems; 1 file, 1 document checked\n") {
		t.Errorf("validate without nodes: exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = runPlugin(t, noNodes, dir, "capacity")
	if code != 2 || !strings.Contains(errOut, "not allowed to list nodes") || !strings.Contains(errOut, "capacity needs the nodes") {
		t.Errorf("capacity without nodes: exit %d, stderr %q", code, errOut)
	}

	_, noTypes := limitedUser(t, clusterEnv, admin, "cli-no-types", "pods", "nodes")
	code, _, errOut = runPlugin(t, noTypes, dir, "validate")
	if code != 2 || !strings.Contains(errOut, "not allowed to list instancetypes.amlarc.azureml.com") || !strings.Contains(errOut, "with no PATH") {
		t.Errorf("validate without instance types or PATH: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut = runPlugin(t, noTypes, dir, "validate", "blue.yaml")
	if code != 0 || !strings.Contains(errOut, "workloads are checked without the cluster's catalog") ||
		!strings.Contains(errOut, "instance type names checked for form only: not allowed to list the cluster's instance types") {
		t.Errorf("validate without instance types: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runPlugin(t, noTypes, dir, "capacity", "-o", "json")
	if code != 0 || !strings.Contains(errOut, "the built-in defaultinstancetype alone") {
		t.Errorf("capacity without instance types: exit %d, stderr %q", code, errOut)
	}
	if got, want := decodeReport(t, out), c.naive(c.naiveTypes(false), true); !reflect.DeepEqual(got, want) {
		t.Errorf("capacity without instance types:\n%s\nnaive model:\n%s", show(got), show(want))
	}
}

// Errors before any answer: no kubeconfig, a server that does not answer; and a cluster
// without the CRD, which has the built-in default alone.
func TestPluginErrors(t *testing.T) {
	dir := deployments(t)
	for _, cmd := range []string{"validate", "capacity"} {
		code, _, errOut := runPlugin(t, filepath.Join(dir, "no-such-kubeconfig"), dir, cmd)
		if code != 2 || !strings.Contains(errOut, "no kubeconfig: give --kubeconfig, set KUBECONFIG") {
			t.Errorf("%s without a kubeconfig: exit %d, stderr %q", cmd, code, errOut)
		}
	}

	unreachable := filepath.Join(t.TempDir(), "kubeconfig")
	kc := "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: c\n  context:\n    cluster: c\n    user: u\nusers:\n- name: u\n  user:\n    token: t\ncurrent-context: c\n"
	if err := os.WriteFile(unreachable, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"validate", "."}, {"list"}, {"capacity", "-o", "json"}} {
		code, out, errOut := runPlugin(t, unreachable, dir, args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "cannot reach the API server at https://127.0.0.1:1") || !strings.Contains(errOut, "connection refused") {
			t.Errorf("%v against an unreachable server: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}

	bareEnv.Start(t)
	bare := adminKubeconfig(t, kubeconfigOf{bareEnv.Env().KubeConfig})
	code, out, errOut := runPlugin(t, bare, dir, "capacity", "-o", "json")
	if code != 0 || !strings.Contains(errOut, "CRD instancetypes.amlarc.azureml.com) is not installed") {
		t.Errorf("capacity without the CRD: exit %d, stderr %q", code, errOut)
	}
	if r := decodeReport(t, out); len(r.Capacity) != 1 || r.Capacity[0].InstanceType != instancetype.DefaultName {
		t.Errorf("capacity without the CRD: %s", show(r))
	}
	code, out, errOut = runPlugin(t, bare, dir, "validate", ".")
	if code != 0 || !strings.Contains(errOut, "is not installed in this cluster: the catalog is the built-in defaultinstancetype alone") ||
		!strings.Contains(errOut, "names checked for form only: the cluster has no InstanceType resource") {
		t.Errorf("validate without the CRD: exit %d\n%s%s", code, out, errOut)
	}
}

// capacity --tolerate: the pods tolerate the taint of the spot pool's node, which then
// counts, as the naive model counts it; a toleration of another value or effect does not
// reach it. --tolerate is repeatable.
func TestPluginCapacityTolerate(t *testing.T) {
	kc, c := clusterKubeconfig(t)
	for _, tc := range []struct {
		args      []string
		tolerated bool
	}{
		{[]string{"--tolerate", "sku=gpu:NoSchedule"}, true},
		{[]string{"--tolerate", "dedicated", "--tolerate", "sku"}, true},
		{[]string{"--tolerate", "sku=gpu:NoExecute"}, false},
		{[]string{"--tolerate", "sku=cpu"}, false},
	} {
		code, out, errOut := runPlugin(t, kc, t.TempDir(), append([]string{"capacity", "-o", "json"}, tc.args...)...)
		if code != 0 {
			t.Fatalf("capacity %v: exit %d\n%s", tc.args, code, errOut)
		}
		got, want := decodeReport(t, out), c.naiveTolerating(c.naiveTypes(true), true, tc.tolerated)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("capacity %v:\n%s\nnaive model (taint tolerated: %v):\n%s", tc.args, show(got), tc.tolerated, show(want))
		}
		if spot := spotPools(got); spot != tc.tolerated {
			t.Errorf("capacity %v: the spot pool (one node, tainted sku=gpu:NoSchedule) counted %v; want %v", tc.args, spot, tc.tolerated)
		}
	}
}

// writeKubeconfig writes cfg to a file of its own and returns its name.
func writeKubeconfig(t *testing.T, cfg *clientcmdapi.Config) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, file); err != nil {
		t.Fatal(err)
	}
	return file
}

// kubectl's connection flags select what they select in kubectl: --context names a
// context of the kubeconfig other than its current one, which does not answer; an
// explicit --kubeconfig wins over KUBECONFIG.
func TestPluginConnectionFlags(t *testing.T) {
	kc, c := clusterKubeconfig(t)
	dir := deployments(t)
	admin, err := clientcmd.LoadFromFile(kc)
	if err != nil {
		t.Fatal(err)
	}
	// Two contexts: good, the test cluster's, and bad, the current one, a server that does
	// not answer.
	two := admin.DeepCopy()
	goodCtx := two.Contexts[two.CurrentContext].DeepCopy()
	two.Clusters["unreachable"] = &clientcmdapi.Cluster{Server: "https://127.0.0.1:1"}
	two.AuthInfos["nobody"] = &clientcmdapi.AuthInfo{Token: "t"}
	two.Contexts = map[string]*clientcmdapi.Context{
		"good": goodCtx,
		"bad":  {Cluster: "unreachable", AuthInfo: "nobody"},
	}
	two.CurrentContext = "bad"
	twoFile := writeKubeconfig(t, two)
	// One context, bad, alone: what KUBECONFIG names below.
	bad := two.DeepCopy()
	delete(bad.Contexts, "good")
	badFile := writeKubeconfig(t, bad)

	want := c.naive(c.naiveTypes(true), true)
	unreachable := func(what string, code int, out, errOut string) {
		t.Helper()
		if code != 2 || out != "" || !strings.Contains(errOut, "cannot reach the API server at https://127.0.0.1:1") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want the unreachable server", what, code, out, errOut)
		}
	}
	code, out, errOut := runPlugin(t, twoFile, dir, "capacity", "-o", "json")
	unreachable("capacity, current context bad", code, out, errOut)

	for _, tc := range []struct {
		what, kubeconfig string
		args             []string
	}{
		{"--context good", twoFile, []string{"--context", "good"}},
		{"--context=good", twoFile, []string{"--context=good"}},
		{"--kubeconfig over KUBECONFIG", badFile, []string{"--kubeconfig", kc}},
		{"--kubeconfig and --context over KUBECONFIG", badFile, []string{"--kubeconfig", twoFile, "--context", "good"}},
	} {
		code, out, errOut := runPlugin(t, tc.kubeconfig, dir, append([]string{"capacity", "-o", "json"}, tc.args...)...)
		if code != 0 {
			t.Errorf("capacity %s: exit %d, stderr %q", tc.what, code, errOut)
			continue
		}
		if got := decodeReport(t, out); !reflect.DeepEqual(got, want) {
			t.Errorf("capacity %s:\n%s\nnaive model:\n%s", tc.what, show(got), show(want))
		}
		// validate reads the cluster through the same flags: with no PATH, the cluster's
		// own instance types (two findings, exit 1).
		code, out, errOut = runPlugin(t, tc.kubeconfig, dir, append([]string{"validate"}, tc.args...)...)
		if code != 1 || !strings.Contains(out, "cluster:instancetypes/huge:") || !strings.Contains(errOut, "checked against 9 nodes") {
			t.Errorf("validate %s: exit %d\n%s%s", tc.what, code, out, errOut)
		}
	}

	// --context bad is the unreachable server again; a context the kubeconfig lacks is an
	// error that names it.
	code, out, errOut = runPlugin(t, twoFile, dir, "capacity", "--context", "bad")
	unreachable("capacity --context bad", code, out, errOut)
	code, _, errOut = runPlugin(t, twoFile, dir, "capacity", "--context", "nonesuch")
	if code != 2 || !strings.Contains(errOut, "nonesuch") {
		t.Errorf("capacity --context nonesuch: exit %d, stderr %q; want a usage error that names the context", code, errOut)
	}
}
