package decode

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/source"
)

// decodeText decodes the first document of text, which it must recognise.
func decodeText(t testing.TB, text string) (*source.Document, *Result) {
	t.Helper()
	var doc *source.Document
	source.Scan([]byte(text), source.Options{}, func(d *source.Document) bool { doc = d; return false })
	if doc == nil || doc.Problem != nil {
		t.Fatalf("%q: no document read (%+v)", text, doc)
	}
	kind, skip, problem, ok := Recognise(doc.Value)
	if !ok || kind == "" {
		t.Fatalf("%q: recognised as %q (%q, %v)", text, kind, skip, problem)
	}
	return doc, Document(doc, kind)
}

// all returns every finding of r, with where each is.
func all(doc *source.Document, r *Result) []string {
	errs := slices.Clone(r.Errors)
	for _, o := range r.InstanceTypes {
		errs = append(errs, o.Errors...)
	}
	for _, o := range r.Nodes {
		errs = append(errs, o.Errors...)
	}
	var out []string
	for _, e := range errs {
		at, ok := r.At[e]
		if !ok {
			at = doc.PositionOf(e.Field)
		}
		out = append(out, fmt.Sprintf("%d: %s [%s]", at.Line, e.Error(), e.Origin))
	}
	slices.Sort(out)
	return out
}

const head = "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\n"

func TestInstanceTypeFindings(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string // each the start of a finding, sorted by line
	}{
		{"valid", head + "metadata: {name: a}\nspec:\n  nodeSelector: {pool: x}\n  resources:\n    requests: {cpu: 1, memory: 1Gi}\n    limits: {cpu: \"2\", memory: 2Gi, nvidia.com/gpu: 1}\n", nil},
		{"an unknown field, with the one meant", head + "metadata: {name: a}\nspec:\n  nodeSelecter: {pool: x}\n",
			[]string{`5: spec.nodeSelecter: Forbidden: unknown field "nodeSelecter"; did you mean "nodeSelector"? [unknown-field]`}},
		{"an unknown field, with the known ones", head + "metadata: {name: a}\nstatus: {}\n",
			[]string{`4: status: Forbidden: unknown field "status"; known fields: kind, apiVersion, metadata, spec [unknown-field]`}},
		{"YAML 1.1 booleans and octals where strings belong", head + "metadata: {name: a}\nspec:\n  nodeSelector:\n    spot: yes\n    gen: 010\n    none: ~\n",
			[]string{
				`6: spec.nodeSelector[spot]: Invalid value: "yes": must be a string, not a boolean, which kubectl sends as true; quote it: "yes" [wrong-type]`,
				`7: spec.nodeSelector[gen]: Invalid value: "010": must be a string, not a number, which kubectl sends as 8; quote it: "010" [wrong-type]`,
				`8: spec.nodeSelector[none]: Invalid value: "~": must be a string, not null (kubectl sends ~ as null); quote it, "~", or remove the key [wrong-type]`,
			}},
		{"a mapping where a string belongs", head + "metadata: {name: {x: 1}}\n",
			[]string{`3: metadata.name: Invalid value: must be a string, not a mapping [wrong-type]`}},
		{"an amount that is no quantity's type", head + "metadata: {name: a}\nspec:\n  resources:\n    limits: {cpu: true, memory: [1]}\n",
			[]string{
				`6: spec.resources.limits[cpu]: Invalid value: "true": must be a quantity such as "500m" or "2Gi", not a boolean [wrong-type]`,
				`6: spec.resources.limits[memory]: Invalid value: must be a quantity such as "500m" or "2Gi", not a list [wrong-type]`,
			}},
		{"metadata's other fields, as Kubernetes reads them", head + "metadata:\n  name: a\n  creationTimestamp: 5\n  ownerReferences: [{apiVersion: v1, kind: K, name: owner, uid: u, controler: true}]\n",
			[]string{
				`5: metadata.creationTimestamp: Invalid value: "5": must be a string, not a number [wrong-type]`,
				`6: metadata.ownerReferences[0].controler: Forbidden: unknown field "controler"; did you mean "controller"? [unknown-field]`,
			}},
		{"apiVersion and kind", "kind: InstanceType\nmetadata: {name: a}\n---\napiVersion: amlarc.azureml.com/v1\nkind: InstanceType\n",
			[]string{`1: apiVersion: Required value: must be amlarc.azureml.com/v1alpha1 [kind]`}},
		{"a key set twice", head + "metadata:\n  name: a\n  name: b\nspec:\n  resources:\n    requests: {cpu: 1, cpu: 2}\n",
			[]string{
				`5: metadata.name: Duplicate value: "name": key set twice in this mapping, first on line 4; the last one is in effect [duplicate-key]`,
				`8: spec.resources.requests[cpu]: Duplicate value: "cpu": key set twice in this mapping, first on line 8; the last one is in effect [duplicate-key]`,
			}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc, r := decodeText(t, tt.text)
			got := all(doc, r)
			if len(got) != len(tt.want) {
				t.Fatalf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("finding %d:\n%s\nwant:\n%s", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestInstanceTypeValues(t *testing.T) {
	_, r := decodeText(t, head+"metadata: {name: a, labels: {team: ml}}\nspec:\n  nodeSelector: {pool: x}\n  resources:\n    requests: {cpu: 010, memory: 1e3}\n    limits: {cpu: \"2\", nvidia.com/gpu: 1}\n")
	it := r.InstanceTypes[0].Object
	want := &instancetype.InstanceType{}
	want.APIVersion, want.Kind, want.Name, want.Labels = instancetype.APIVersion, instancetype.Kind, "a", map[string]string{"team": "ml"}
	want.Spec.NodeSelector = map[string]string{"pool": "x"}
	want.Spec.Resources.Requests = instancetype.ResourceList{"cpu": instancetype.ParseAmount("8"), "memory": instancetype.ParseAmount("1000")}
	want.Spec.Resources.Limits = instancetype.ResourceList{"cpu": instancetype.ParseAmount("2"), "nvidia.com/gpu": instancetype.ParseAmount("1")}
	if !reflect.DeepEqual(it, want) {
		t.Errorf("decoded %+v\nwant %+v", it, want)
	}
}

func TestLists(t *testing.T) {
	doc, r := decodeText(t, "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n- metadata: {name: a}\n- metadata: {name: b}\n  status: 1\n")
	if len(r.InstanceTypes) != 2 || r.InstanceTypes[1].Path.String() != "items[1]" || r.InstanceTypes[1].Object.Name != "b" {
		t.Errorf("instance types %+v", r.InstanceTypes)
	}
	if got := all(doc, r); len(got) != 1 || !strings.HasPrefix(got[0], `6: items[1].status: Forbidden: unknown field "status"`) || len(r.InstanceTypes[1].Errors) != 1 {
		t.Errorf("findings %q", got)
	}
	doc, r = decodeText(t, "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\n")
	if got := all(doc, r); len(got) != 1 || !strings.HasPrefix(got[0], "1: items: Required value") {
		t.Errorf("a list without items: %q", got)
	}
	doc, r = decodeText(t, "apiVersion: v1\nkind: List\nitems:\n- apiVersion: amlarc.azureml.com/v1alpha1\n  kind: InstanceType\n  metadata: {name: a}\n"+
		"- apiVersion: v1\n  kind: Node\n  metadata: {name: node1, labels: {pool: x}}\n  status: {allocatable: {cpu: \"4\", memory: 16Gi, pods: \"110\"}}\n"+
		"- apiVersion: v1\n  kind: Service\n  metadata: {name: svc}\n- apiVersion: amlarc.azureml.com/v1alpha1\n  kind: InstanceTypes\n")
	if len(r.InstanceTypes) != 1 || len(r.Nodes) != 1 || r.Nodes[0].Object.Name != "node1" || len(r.Skipped) != 1 ||
		r.Skipped[0].Reason != "items[2]: a Service (v1), not an InstanceType" {
		t.Errorf("List: %d instance types, nodes %+v, skipped %+v", len(r.InstanceTypes), r.Nodes, r.Skipped)
	}
	if got := all(doc, r); len(got) != 1 || !strings.HasPrefix(got[0], `15: items[3].kind: Unsupported value: "InstanceTypes"`) {
		t.Errorf("List: findings %q", got)
	}
}

func TestNode(t *testing.T) {
	doc, r := decodeText(t, "apiVersion: v1\nkind: Node\nmetadata: {name: node1, labels: {a: yes}}\nspec:\n  unschedulable: 1\n  taints: [{key: k, value: v, effect: NoSchedule}]\nstatus:\n  allocatable: {cpu: 4x, memory: 1Gi}\n")
	n := r.Nodes[0].Object
	want := cluster.Node{Name: "node1", Labels: map[string]string{"a": ""}, Taints: []cluster.Taint{{Key: "k", Value: "v", Effect: "NoSchedule"}}}
	if n.Name != want.Name || !reflect.DeepEqual(n.Labels, want.Labels) || !reflect.DeepEqual(n.Taints, want.Taints) || len(n.Allocatable) != 1 {
		t.Errorf("node %+v", n)
	}
	got := all(doc, r)
	if len(got) != 3 || !strings.Contains(got[0], "metadata.labels[a]") || !strings.Contains(got[1], "spec.unschedulable: Invalid value: \"1\": must be true or false") ||
		!strings.Contains(got[2], "status.allocatable[cpu]: Invalid value: \"4x\": not a quantity: unknown suffix") {
		t.Errorf("findings %q", got)
	}
	doc, r = decodeText(t, "apiVersion: v1\nkind: Node\nmetadata: {name: node1}\n")
	if got := all(doc, r); len(got) != 1 || !strings.Contains(got[0], "status.allocatable: Required value") {
		t.Errorf("a node without allocatable: %q", got)
	}
}

// TestLongListAsWhole: a list read item by item decodes to what it decodes to read whole,
// with the same findings at the same places.
func TestLongListAsWhole(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
		for i := range rapid.IntRange(1, 300).Draw(t, "items") {
			fmt.Fprintf(&b, "- metadata:\n    name: t%d\n  spec:\n    resources:\n      requests: {cpu: %s, memory: 1Gi}\n", i,
				rapid.SampledFrom([]string{"1", "yes", "[1]", "\"2\"", "1, cpu: 2"}).Draw(t, "cpu"))
			if rapid.IntRange(0, 20).Draw(t, "unknown") == 0 {
				b.WriteString("  status: {}\n")
			}
		}
		text := b.String()
		whole := decodeAll(t, text, false)
		long := decodeAll(t, text, true)
		if !reflect.DeepEqual(whole, long) {
			t.Fatalf("read whole:\n%v\nread item by item:\n%v", whole, long)
		}
	})
}

// decodeAll decodes the list text, forcing a long list to be read item by item, and
// renders what it found.
func decodeAll(t *rapid.T, text string, long bool) []string {
	opts := source.Options{}
	if long {
		opts.LongList = 100
	}
	var doc *source.Document
	source.Scan([]byte(text), opts, func(d *source.Document) bool { doc = d; return false })
	if doc.Long() != long {
		t.Fatalf("Long() = %v", doc.Long())
	}
	r := Document(doc, KindInstanceTypeList)
	out := all(doc, r)
	for _, it := range r.InstanceTypes {
		out = append(out, fmt.Sprintf("%s %s %v", it.Path, it.Object.Name, it.Object.Spec.Resources.Requests))
	}
	return out
}
