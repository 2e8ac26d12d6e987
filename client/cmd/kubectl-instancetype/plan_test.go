package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// podJSON is a pod bound to node requesting cpu and memory, controlled by a DaemonSet or not.
func podJSON(name, node, cpu, memory string, daemonSet bool) string {
	meta := map[string]any{"name": name, "namespace": "kube-system"}
	if daemonSet {
		meta["ownerReferences"] = []map[string]any{{"apiVersion": "apps/v1", "kind": "DaemonSet", "name": "ds", "uid": "u", "controller": true}}
	}
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta,
		"spec":   map[string]any{"nodeName": node, "containers": []map[string]any{{"name": "c", "image": "x", "resources": map[string]any{"requests": map[string]string{"cpu": cpu, "memory": memory}}}}},
		"status": map[string]any{"phase": "Running"}})
	return string(b)
}

// plan on a fake cluster: the DaemonSet pods of each node are its overhead, other pods are
// not counted; without RBAC to list pods, a note, and --overhead-node counts instead.
func TestPlanOverheadFromDaemonSets(t *testing.T) {
	nodes := func(w http.ResponseWriter, r *http.Request, _ int) {
		writeList(w, "nodes", "", []string{nodeJSON("a", "cpupool"), nodeJSON("b", "cpupool")})
	}
	types := func(w http.ResponseWriter, r *http.Request, _ int) {
		writeList(w, "instancetypes", "", []string{instanceTypeJSON("one")})
	}
	pods := func(w http.ResponseWriter, r *http.Request, _ int) {
		writeList(w, "pods", "", []string{
			podJSON("ds-a", "a", "1", "1Gi", true),
			podJSON("ds-b", "b", "10m", "100Mi", true),
			podJSON("job-b", "b", "3", "8Gi", false),
		})
	}
	f := newFakeAPI(t, map[string]listHandler{"nodes": nodes, "instancetypes": types, "pods": pods})
	code, out, errOut := f.run("plan", "-o", "json", "--workload", "job")
	if code != 0 {
		t.Fatalf("plan: exit %d\n%s%s", code, out, errOut)
	}
	// one asks 1 cpu and 1Gi: 3 fit on a (4 cores less its DaemonSet's 1), 3 on b (less
	// 10m; the job's pod is not counted): per node 3, limited by cpu.
	for _, want := range []string{`"instanceType": "one"`, `"perNode": 3`, `"fits": 6`, `"limitedBy": "cpu"`, `"perNode": {}`} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %s:\n%s", want, out)
		}
	}

	forbidden := func(w http.ResponseWriter, r *http.Request, _ int) {
		writeStatus(w, http.StatusForbidden, `pods is forbidden: User "u" cannot list resource "pods" in API group "" at the cluster scope`)
	}
	f = newFakeAPI(t, map[string]listHandler{"nodes": nodes, "instancetypes": types, "pods": forbidden})
	code, out, errOut = f.run("plan", "-o", "json", "--workload", "job")
	if code != 0 || !strings.Contains(errOut, "--overhead-node counts on every node instead") || !strings.Contains(out, `"perNode": 3`) ||
		!strings.Contains(out, `"cpu": "10m"`) {
		t.Errorf("plan without pods: exit %d\n%s%s", code, out, errOut)
	}
}
