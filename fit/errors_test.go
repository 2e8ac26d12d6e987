package fit_test

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
)

// The message of each kind of finding, whole: these are the texts users read, so a change
// of wording shows here.
var messageTests = []struct {
	name   string
	nodes  []cluster.Node // nil: baseCluster
	demand fit.Demand
	want   string
}{
	{
		name:   "nearest miss",
		demand: fit.Demand{NodeSelector: sel("agentpool=gpu", "accelerator=a100")},
		want:   `spec.nodeSelector: Invalid value: "accelerator=a100,agentpool=gpu": no node matches: 3 nodes carry agentpool=gpu but not accelerator=a100 (they have accelerator=v100 or accelerator=t4)`,
	},
	{
		name:   "nearest miss: nothing carried",
		demand: fit.Demand{NodeSelector: sel("agentpool=cpupool", "pool=x")},
		want:   `spec.nodeSelector: Invalid value: "agentpool=cpupool,pool=x": no node matches: no node carries agentpool=cpupool (nodes have agentpool=cpu, agentpool=gpu or agentpool=system) or pool=x (no node has the label pool)`,
	},
	{
		name:   "excluded by taints",
		demand: fit.Demand{NodeSelector: sel("accelerator=v100"), Requests: res("nvidia.com/gpu", "8")},
		want:   `spec.nodeSelector: Invalid value: "accelerator=v100": both matching nodes are excluded by taints (sku=gpu:NoSchedule on gpu-0 and gpu-1); none of them would fit either`,
	},
	{
		name:   "cordoned",
		demand: fit.Demand{NodeSelector: sel("kubernetes.io/hostname=cpu-2")},
		want:   `spec.nodeSelector: Invalid value: "kubernetes.io/hostname=cpu-2": the only matching node is cordoned (cpu-2); it would fit`,
	},
	{
		name:   "excluded both ways",
		demand: fit.Demand{NodeSelector: sel("zone=3"), Requests: res("memory", "32Gi")},
		nodes: append(baseCluster()[:5:5],
			tainted(node("gpu-3", "gpu", res("memory", "200Gi"), "zone=3"), skuGPU, cluster.Taint{Key: "b", Effect: cluster.NoExecute})),
		want: `spec.nodeSelector: Invalid value: "zone=3": both matching nodes are excluded: 1 by taints (b:NoExecute,sku=gpu:NoSchedule on gpu-3) and 1 by cordoning (cpu-2); both would fit`,
	},
	{
		name:   "memory shortfall, with the amount in Gi",
		nodes:  []cluster.Node{node("aks-cpu-0", "cpu", res("memory", "59364472Ki")), cordoned(node("aks-cpu-1", "cpu", res("memory", "64Gi")))},
		demand: fit.Demand{Requests: res("cpu", "0", "memory", "64Gi")},
		want:   `spec.resources.requests[memory]: Invalid value: "64Gi": no candidate node has that much memory allocatable: the largest is 59364472Ki (about 56.6Gi), on aks-cpu-0; 1 more matching node is cordoned (aks-cpu-1), and it would fit`,
	},
	{
		name:   "GPU on no candidate",
		demand: fit.Demand{NodeSelector: sel("agentpool=gpu"), Requests: res("nvidia.com/gpu", "2")},
		want:   `spec.resources.limits[nvidia.com/gpu]: Invalid value: "2": no candidate node has that much nvidia.com/gpu allocatable: the largest is 1, on t4-0; 2 more matching nodes are excluded by taints (sku=gpu:NoSchedule on gpu-0 and gpu-1), and 2 of them would fit`,
	},
	{
		name: "requests covered apart",
		nodes: []cluster.Node{
			node("many-cores", "a", res("cpu", "16", "memory", "8Gi", "pods", "110")),
			node("much-memory", "b", res("cpu", "2", "memory", "64Gi", "pods", "110")),
		},
		demand: fit.Demand{Requests: res("cpu", "8", "memory", "32Gi", "pods", "1")}, // pods: on every candidate
		want:   `spec.resources.requests[cpu]: Invalid value: "8": no candidate node has cpu 8 and memory 32Gi allocatable at once, though each is on some`,
	},
	{
		name:   "no nodes",
		nodes:  []cluster.Node{},
		demand: fit.Demand{},
		want:   `spec.nodeSelector: Invalid value: no node matches: there are no nodes`,
	},
}

func TestMessages(t *testing.T) {
	for _, tc := range messageTests {
		t.Run(tc.name, func(t *testing.T) {
			nodes := tc.nodes
			if nodes == nil {
				nodes = baseCluster()
			}
			errs := fit.NewIndex(nodes).Check(tc.demand).Errors(selectorPath, requestPath)
			if len(errs) != 1 {
				t.Fatalf("Errors = %v; want one finding", errs)
			}
			if got := errs[0].Error(); got != tc.want {
				t.Errorf("message\n got  %s\n want %s", got, tc.want)
			}
		})
	}
}

func TestMemoryAmounts(t *testing.T) {
	for _, tc := range []struct{ alloc, want string }{
		{"59364472Ki", "the largest is 59364472Ki (about 56.6Gi)"},
		{"68719476736", "the largest is 68719476736 (64Gi)"},
		{"1500Mi", "the largest is 1500Mi,"},
		{"12Gi", "the largest is 12Gi,"},
		{"16G", "the largest is 16G,"},
		{"1023", "the largest is 1023,"},
		{"7000Pi", "the largest is 7000Pi,"},
		{"1099511627775", "the largest is 1099511627775 (about 1023.9Gi)"}, // rounded down, never up to 1Ti
	} {
		nodes := []cluster.Node{node("x", "a", res("memory", tc.alloc))}
		errs := fit.NewIndex(nodes).Check(fit.Demand{Requests: res("memory", "7Ei")}).Errors(selectorPath, requestPath)
		if len(errs) != 1 || !strings.Contains(errs[0].Detail, tc.want) {
			t.Errorf("allocatable %s: %v; want %q in it", tc.alloc, errs, tc.want)
		}
	}
}

// Hostile text — huge labels, names, taints, selectors, text that looks like the message's
// punctuation — is quoted and cut; no finding grows past a few kilobytes.
func TestHostileTextIsBounded(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	tricky := "a, b=c: d\n(e)"
	hostileSel := map[string]string{huge: huge, tricky: tricky}
	for i := range 1000 {
		hostileSel[fmt.Sprintf("k%d%s", i, huge[:1000])] = huge[:5000]
	}
	var nodes []cluster.Node
	for i := range 10 {
		x := node(fmt.Sprintf("%s-%d", huge, i), "a", res("cpu", "1"), "tricky="+tricky)
		x.Labels[huge] = fmt.Sprintf("%d%s", i, huge)
		nodes = append(nodes, tainted(x, cluster.Taint{Key: huge, Value: huge, Effect: cluster.NoSchedule}, cluster.Taint{Key: tricky, Effect: cluster.NoExecute}))
	}
	nodes = append(nodes, cordoned(node(tricky, "a", res("cpu", "1"))), node(huge, "a", res("cpu", "1")))
	ix := fit.NewIndex(nodes)
	for _, d := range []fit.Demand{
		{NodeSelector: hostileSel},
		{NodeSelector: map[string]string{huge: "0" + huge}},
		{NodeSelector: map[string]string{"agentpool": "a", "tricky": tricky}, Requests: res("cpu", "2")},
		{NodeSelector: map[string]string{"tricky": tricky}},
		{Requests: res(huge, "1")},
	} {
		errs := ix.Check(d).Errors(selectorPath, func(instancetype.ResourceName) *field.Path { return field.NewPath("r") })
		if len(errs) == 0 {
			t.Fatalf("no finding for a hostile demand")
		}
		for _, e := range errs {
			if n := len(e.Error()); n > 8<<10 {
				t.Errorf("a finding of %d bytes: %.300s...", n, e.Error())
			}
			if strings.Contains(e.Error(), "\n") {
				t.Errorf("a finding with a raw newline: %.300q", e.Error())
			}
			t.Logf("%d bytes: %.400s", len(e.Error()), e.Error())
		}
	}
}
