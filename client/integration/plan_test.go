package integration_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/amlarc-go/instancetypes/client/internal/testenv"
)

// planEnv has the generated CRD, and the nodes, DaemonSet pods, workload pods and instance
// type of TestPluginPlanAndSuggest.
var planEnv = &testenv.Environment{Setup: func(e *envtest.Environment) error {
	crd, err := generatedCRD()
	e.CRDs = []*apiextensionsv1.CustomResourceDefinition{crd}
	return err
}}

// A plan pod: its node, its requests, and whether a DaemonSet controls it.
type planPod struct {
	name, node  string
	cpu, memory int64 // millicores, bytes
	daemonSet   bool
}

const mi = 1 << 20

// The live plan counts, as each node's overhead, the requests of the DaemonSet pods bound to
// it, and nothing of other pods (plan is about empty nodes): a CPU pool of two nodes of 4
// cores and 16Gi, one of which runs a second, larger DaemonSet pod, and a GPU pool of one
// node of 4 GPUs. Plan's figures are those of that arithmetic; suggest sizes the CPU pool
// for its smallest node, and what it prints is valid.
func TestPluginPlanAndSuggest(t *testing.T) {
	cfg := planEnv.Start(t)
	cs := clientset(t, cfg)
	ctx := stepContext(t)
	for _, n := range []tnode{
		{name: "c0", labels: map[string]string{"agentpool": "cpupool"}, cpu: 4000, memory: 16384 * mi, pods: 110},
		{name: "c1", labels: map[string]string{"agentpool": "cpupool"}, cpu: 4000, memory: 16384 * mi, pods: 110},
		{name: "g0", labels: map[string]string{"agentpool": "gpupool"}, cpu: 24000, memory: 200 * 1024 * mi, gpus: 4, pods: 110},
	} {
		if err := createNode(ctx, cs, n); err != nil {
			t.Fatal(err)
		}
	}
	pods := []planPod{
		{"fluent-bit-c0", "c0", 10, 100 * mi, true},
		{"fluent-bit-c1", "c1", 10, 100 * mi, true},
		{"fluent-bit-g0", "g0", 10, 100 * mi, true},
		{"csi-c1", "c1", 1000, 1024 * mi, true},
		{"training-c0", "c0", 2000, 8192 * mi, false}, // a workload's pod: plan counts empty nodes
	}
	isController := true
	for _, p := range pods {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: "default"}}
		if p.daemonSet {
			pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds-" + p.name, UID: types.UID("uid-" + p.name), Controller: &isController}}
		}
		pod.Spec.NodeName = p.node
		pod.Spec.Containers = []corev1.Container{{Name: "c", Image: "busybox", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: quantityOf(p.cpu, true), corev1.ResourceMemory: quantityOf(p.memory, false)}}}}
		if _, err := cs.CoreV1().Pods("default").Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	const half = `{"apiVersion":"amlarc.azureml.com/v1alpha1","kind":"InstanceType","metadata":{"name":"half"},` +
		`"spec":{"nodeSelector":{"agentpool":"cpupool"},"resources":{"requests":{"cpu":"1500m","memory":"6Gi"},"limits":{"cpu":"1500m","memory":"6Gi"}}}}`
	if err := createRaw(ctx, cs, []byte(half), true); err != nil {
		t.Fatal(err)
	}
	kc := adminKubeconfig(t, kubeconfigOf{planEnv.Env().KubeConfig})
	dir := t.TempDir()

	code, out, errOut := runPlugin(t, kc, dir, "plan", "-o", "json")
	if code != 0 {
		t.Fatalf("plan -o json: exit %d\n%s%s", code, out, errOut)
	}
	var rep struct {
		Plan []struct {
			InstanceType string            `json:"instanceType"`
			Pool         string            `json:"pool"`
			Nodes        int               `json:"nodes"`
			PerNode      int64             `json:"perNode"`
			Fits         int64             `json:"fits"`
			LimitedBy    string            `json:"limitedBy"`
			Stranded     map[string]string `json:"stranded"`
		} `json:"plan"`
		Overhead map[string]map[string]string `json:"overhead"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("plan -o json: %v\n%s", err, out)
	}
	// Each pod of half asks 1510m and 6244Mi with the identity sidecar. c0 has 3990m and
	// 16284Mi once fluent-bit is taken (the training pod does not count): 2 pods. c1 has
	// 2990m and 15260Mi once both DaemonSet pods are taken: 1 pod, limited by cpu, leaving
	// 1480m and 9016Mi.
	var found bool
	for _, e := range rep.Plan {
		if e.InstanceType != "half" {
			continue
		}
		found = true
		if e.Pool != "cpupool" || e.Nodes != 2 || e.PerNode != 1 || e.Fits != 3 || e.LimitedBy != "cpu" ||
			e.Stranded["cpu"] != "1480m" || e.Stranded["memory"] != "9016Mi" {
			t.Errorf("half: %+v; want cpupool, 2 nodes, 1 per node, 3 in all, limited by cpu, 1480m and 9016Mi left", e)
		}
	}
	if !found {
		t.Errorf("no plan of half:\n%s", out)
	}
	if len(rep.Overhead["perNode"]) != 0 || rep.Overhead["perPod"]["cpu"] != "10m" {
		t.Errorf("overhead %v; want none per node (each node's DaemonSet pods count), the sidecar per pod", rep.Overhead)
	}

	code, out, errOut = runPlugin(t, kc, dir, "suggest")
	if code != 0 {
		t.Fatalf("suggest: exit %d\n%s%s", code, out, errOut)
	}
	// The CPU pool is sized for c1, the smaller once its DaemonSets are counted: a whole
	// node asks 2990m less the sidecar's 10m; the GPU pool gets 1, 2 and 4 GPUs a pod.
	for _, want := range []string{"name: cpupool-whole", "cpu: 2980m", "name: cpupool-quarter", "name: gpupool-1gpu", "name: gpupool-2gpu", "name: gpupool-4gpu"} {
		if !strings.Contains(out, want) {
			t.Errorf("suggest lacks %q:\n%s", want, out)
		}
	}
	file := filepath.Join(dir, "suggested.yaml")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, vout, verr := runPlugin(t, kc, dir, "validate", file); code != 0 {
		t.Errorf("validate of the suggestions against the cluster: exit %d\n%s%s", code, vout, verr)
	}
	if code, hout, _ := runPlugin(t, kc, dir, "help", "plan"); code != 0 || !strings.Contains(hout, "Usage: kubectl instancetype plan") || !strings.Contains(hout, "--kubeconfig") {
		t.Errorf("help plan: exit %d\n%s", code, hout)
	}
}
