package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeAPI is an API server on loopback that speaks what the plugin asks of one: the lists
// of instance types, nodes and pods (JSON, with limit and continue), each answered by a
// handler of the test. It counts the requests of each list and the bytes its handlers
// write, so that a test can tell how far the plugin went without timing it.
type fakeAPI struct {
	srv        *httptest.Server
	kubeconfig string
	requests   map[string]*atomic.Int64 // by resource: instancetypes, nodes, pods
	written    atomic.Int64
}

// maxFakeRequests is a safety net: past this many requests of one list, the fake server
// answers 400 Bad Request, which ends the list, so that a plugin that would loop forever
// fails its test instead of hanging it. (client-go makes 5 requests a second after a
// burst of 10: a few seconds.)
const maxFakeRequests = 25

// listHandler answers request n (from 1) of a list.
type listHandler func(w http.ResponseWriter, r *http.Request, n int)

// newFakeAPI starts a fake API server with the handlers given by resource; a resource
// without one has an empty list. It writes a kubeconfig naming it (fake.kubeconfig).
func newFakeAPI(t *testing.T, handlers map[string]listHandler) *fakeAPI {
	t.Helper()
	f := &fakeAPI{requests: map[string]*atomic.Int64{}}
	paths := map[string]string{
		"/apis/amlarc.azureml.com/v1alpha1/instancetypes": "instancetypes",
		"/api/v1/nodes": "nodes",
		"/api/v1/pods":  "pods",
	}
	for _, res := range paths {
		f.requests[res] = new(atomic.Int64)
	}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		res, ok := paths[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		n := int(f.requests[res].Add(1))
		if n > maxFakeRequests {
			writeStatus(w, http.StatusBadRequest, "the fake API server's safety net: too many requests")
			return
		}
		h := handlers[res]
		if h == nil {
			h = func(w http.ResponseWriter, r *http.Request, _ int) { writeList(w, res, "", nil) }
		}
		h(&countingWriter{ResponseWriter: w, n: &f.written}, r, n)
	}))
	t.Cleanup(f.srv.Close)
	f.kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	kc := "apiVersion: v1\nkind: Config\nclusters:\n- name: fake\n  cluster:\n    server: " + f.srv.URL +
		"\ncontexts:\n- name: fake\n  context:\n    cluster: fake\n    user: u\nusers:\n- name: u\n  user:\n    token: t\ncurrent-context: fake\n"
	if err := os.WriteFile(f.kubeconfig, []byte(kc), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// run runs the plugin against the fake server: a request timeout as a safety net (the
// tests never time the plugin).
func (f *fakeAPI) run(args ...string) (int, string, string) {
	return run(append(args, "--kubeconfig", f.kubeconfig, "--request-timeout", "20s")...)
}

// countingWriter counts the bytes written to an answer.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w *countingWriter) Write(p []byte) (int, error) {
	n, err := w.ResponseWriter.Write(p)
	w.n.Add(int64(n))
	return n, err
}

// Flush flushes the answer, so that a handler can stream one.
func (w *countingWriter) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// Unwrap gives http.ResponseController the answer's own writer (Hijack).
func (w *countingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// listKinds are the kinds of the lists, by resource.
var listKinds = map[string][2]string{
	"instancetypes": {"amlarc.azureml.com/v1alpha1", "InstanceTypeList"},
	"nodes":         {"v1", "NodeList"},
	"pods":          {"v1", "PodList"},
}

// listJSON is a list of resource with the items (JSON objects) and continue token.
func listJSON(resource, next string, items []string) string {
	k := listKinds[resource]
	meta, _ := json.Marshal(map[string]string{"continue": next})
	return `{"apiVersion":"` + k[0] + `","kind":"` + k[1] + `","metadata":` + string(meta) + `,"items":[` + strings.Join(items, ",") + `]}`
}

// writeList answers with a list of resource.
func writeList(w http.ResponseWriter, resource, next string, items []string) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, listJSON(resource, next, items))
}

// writeStatus answers with a Status of the code and message, as the API server does.
func writeStatus(w http.ResponseWriter, code int, message string) {
	reason := map[int]string{400: "BadRequest", 403: "Forbidden", 404: "NotFound", 500: "InternalError"}[code]
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Status", "status": "Failure", "message": message, "reason": reason, "code": code})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b)
}

// nodeJSON is a node of the pool (label agentpool) with 4 cpus, 32Gi and 110 pods.
func nodeJSON(name, pool string) string {
	b, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Node",
		"metadata": map[string]any{"name": name, "labels": map[string]string{"agentpool": pool}},
		"status":   map[string]any{"allocatable": map[string]string{"cpu": "4", "memory": "32Gi", "pods": "110"}}})
	return string(b)
}

// instanceTypeJSON is an instance type of the name: 1 cpu, 1Gi.
func instanceTypeJSON(name string) string {
	b, _ := json.Marshal(map[string]any{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{"resources": map[string]any{
			"requests": map[string]string{"cpu": "1", "memory": "1Gi"},
			"limits":   map[string]string{"cpu": "1", "memory": "1Gi"}}}})
	return string(b)
}

// limitOf is the limit parameter of a list request.
func limitOf(r *http.Request) int {
	n, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	return n
}
