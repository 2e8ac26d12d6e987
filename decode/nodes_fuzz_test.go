package decode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/source"
)

// FuzzNodes checks the Node decoder on arbitrary input: nothing panics, and, for a single
// document read and decoded without a finding, the nodes decoded (name, labels,
// allocatable, taints, cordon) are those kubectl would send, as sigs.k8s.io/yaml turns the
// document into JSON and as the JSON's fields are named exactly (Kubernetes' strict
// decoding matches case): a v1 Node, or the v1 Nodes of a v1 List. Its seeds run as a
// test.
func FuzzNodes(f *testing.F) {
	nodes, err := os.ReadFile("../examples/cluster/nodes.yaml")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(nodes)
	for _, seed := range []string{
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {pool: gpu}}\nstatus: {allocatable: {cpu: 4, memory: 16Gi, nvidia.com/gpu: 1}}\n",
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec:\n  unschedulable: yes\n  taints: [{key: sku, value: gpu, effect: NoSchedule}, {key: k, effect: NoExecute}]\nstatus: {allocatable: {cpu: 3860m, memory: 13Gi, pods: \"110\"}}\n",
		"apiVersion: v1\nkind: Node\nmetadata:\n  name: n2\n  labels: &l {a: b}\nspec: {taints: null, unschedulable: null}\nstatus:\n  allocatable: {cpu: 1.5, memory: 1e9, ephemeral-storage: null}\n",
		"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n  status: {allocatable: {cpu: \"2\"}}\n- apiVersion: v1\n  kind: Service\n  metadata: {name: s}\n- {apiVersion: v1, kind: Node, metadata: {name: b, labels: {<<: {x: \"1\"}, y: \"2\"}}, status: {allocatable: {memory: 0x10}}}\n",
		`{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "j", "labels": {"k\u00e9": "v"}}, "status": {"allocatable": {"cpu": 2, "memory": "8Gi"}}}`,
		"apiVersion: v1\nkind: Node\nmetadata: {name: 010, labels: {on: off}}\nstatus: {allocatable: {cpu: 010}}\n",
		"apiVersion: v1\nkind: Node\nstatus: {allocatable: {cpu: 2Gx, memory: [1]}}\nspec: {taints: [1, {key: [k]}], unschedulable: \"true\"}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var docs []*source.Document
		file := source.Scan(data, source.Options{}, func(d *source.Document) bool { docs = append(docs, d); return true })
		var got []cluster.Node
		clean := len(file.Problems) == 0 && len(docs) == 1
		for _, d := range docs {
			if d.Problem != nil {
				clean = false
				continue
			}
			kind, _, problem, ok := Recognise(d.Value)
			if !ok || problem != nil || kind != KindNode && kind != KindList {
				clean = false
				continue
			}
			r := Document(d, kind)
			clean = clean && len(r.Errors) == 0 && d.ItemsProblem() == nil
			for _, n := range r.Nodes {
				clean = clean && len(n.Errors) == 0
				got = append(got, n.Object)
			}
			for _, it := range r.InstanceTypes {
				clean = clean && len(it.Errors) == 0
			}
		}
		if !clean || bytes.Contains(data, []byte("---")) {
			return // the differential check is for one document read cleanly
		}
		want, err := kubectlNodes(data)
		if err != nil {
			t.Fatalf("read without a finding, but kubectl's reading fails: %v\n%s", err, data)
		}
		if len(got) != len(want) {
			t.Fatalf("%d nodes read; kubectl sends %d\n%s", len(got), len(want), data)
		}
		for i := range got {
			if diff := nodeDiff(got[i], want[i]); diff != "" {
				t.Errorf("node %d: %s\n%s", i, diff, data)
			}
		}
	})
}

// refNode is a node as kubectl sends it, read from its JSON by exact field names.
type refNode struct {
	name          string
	labels        map[string]string
	allocatable   map[string]resource.Quantity
	taints        []cluster.Taint
	unschedulable bool
}

// kubectlNodes reads the nodes of one document as kubectl sends them: the document itself
// if it is a v1 Node, or the v1 Node items of a v1 List.
func kubectlNodes(data []byte) ([]refNode, error) {
	// kubectl's file reader decodes the bytes first: UTF-16 behind its mark, invalid UTF-8
	// as U+FFFD.
	text, _, err := transform.Bytes(xunicode.BOMOverride(xunicode.UTF8.NewDecoder()), data)
	if err != nil {
		return nil, err
	}
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	isNode := func(o map[string]any) bool { return o["apiVersion"] == "v1" && o["kind"] == "Node" }
	if isNode(doc) {
		n, err := refNodeOf(doc)
		return []refNode{n}, err
	}
	var out []refNode
	items, _ := doc["items"].([]any)
	for i, it := range items {
		o, ok := it.(map[string]any)
		if !ok || !isNode(o) {
			continue
		}
		n, err := refNodeOf(o)
		if err != nil {
			return nil, fmt.Errorf("items[%d]: %w", i, err)
		}
		out = append(out, n)
	}
	return out, nil
}

func refNodeOf(o map[string]any) (refNode, error) {
	var n refNode
	obj := func(v any, what string) (map[string]any, error) {
		if v == nil {
			return nil, nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: %T, not an object", what, v)
		}
		return m, nil
	}
	str := func(v any, what string) (string, error) {
		if v == nil {
			return "", nil
		}
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s: %T, not a string", what, v)
		}
		return s, nil
	}
	meta, err := obj(o["metadata"], "metadata")
	if err != nil {
		return n, err
	}
	if n.name, err = str(meta["name"], "metadata.name"); err != nil {
		return n, err
	}
	labels, err := obj(meta["labels"], "metadata.labels")
	if err != nil {
		return n, err
	}
	for k, v := range labels {
		s, ok := v.(string)
		if !ok {
			return n, fmt.Errorf("metadata.labels[%s]: %T, not a string", k, v)
		}
		if n.labels == nil {
			n.labels = map[string]string{}
		}
		n.labels[k] = s
	}
	spec, err := obj(o["spec"], "spec")
	if err != nil {
		return n, err
	}
	switch u := spec["unschedulable"].(type) {
	case nil:
	case bool:
		n.unschedulable = u
	default:
		return n, fmt.Errorf("spec.unschedulable: %T, not a boolean", u)
	}
	if spec["taints"] != nil {
		taints, ok := spec["taints"].([]any)
		if !ok {
			return n, fmt.Errorf("spec.taints: %T, not a list", spec["taints"])
		}
		for i, tv := range taints {
			tm, err := obj(tv, fmt.Sprintf("spec.taints[%d]", i))
			if err != nil {
				return n, err
			}
			var t cluster.Taint
			for _, f := range []struct {
				key string
				to  *string
			}{{"key", &t.Key}, {"value", &t.Value}, {"effect", &t.Effect}} {
				if *f.to, err = str(tm[f.key], "spec.taints."+f.key); err != nil {
					return n, err
				}
			}
			n.taints = append(n.taints, t)
		}
	}
	status, err := obj(o["status"], "status")
	if err != nil {
		return n, err
	}
	alloc, err := obj(status["allocatable"], "status.allocatable")
	if err != nil {
		return n, err
	}
	for name, v := range alloc {
		if v == nil {
			continue // null: unset, as the reader has it
		}
		b, _ := json.Marshal(v)
		var q resource.Quantity
		if err := json.Unmarshal(b, &q); err != nil {
			return n, fmt.Errorf("status.allocatable[%s]: %v", name, err)
		}
		if n.allocatable == nil {
			n.allocatable = map[string]resource.Quantity{}
		}
		n.allocatable[name] = q
	}
	return n, nil
}

// nodeDiff describes how our node differs from kubectl's, or returns "".
func nodeDiff(got cluster.Node, want refNode) string {
	var diffs []string
	if got.Name != want.name {
		diffs = append(diffs, fmt.Sprintf("name %q; kubectl sends %q", got.Name, want.name))
	}
	if !maps.Equal(got.Labels, want.labels) && (len(got.Labels) != 0 || len(want.labels) != 0) {
		diffs = append(diffs, fmt.Sprintf("labels %v; kubectl sends %v", got.Labels, want.labels))
	}
	if got.Unschedulable != want.unschedulable {
		diffs = append(diffs, fmt.Sprintf("unschedulable %v; kubectl sends %v", got.Unschedulable, want.unschedulable))
	}
	if !slices.Equal(got.Taints, want.taints) {
		diffs = append(diffs, fmt.Sprintf("taints %v; kubectl sends %v", got.Taints, want.taints))
	}
	if len(got.Allocatable) != len(want.allocatable) {
		diffs = append(diffs, fmt.Sprintf("allocatable %v; kubectl sends %v", got.Allocatable, want.allocatable))
	}
	for name, q := range got.Allocatable {
		w, ok := want.allocatable[string(name)]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("allocatable[%s] = %s; kubectl sends none", name, q))
			continue
		}
		ours, err := resource.ParseQuantity(q.String())
		if err != nil || ours.Cmp(w) != 0 {
			diffs = append(diffs, fmt.Sprintf("allocatable[%s] = %s; kubectl sends %s", name, q, w.String()))
		}
	}
	return strings.Join(diffs, "; ")
}
