package fit_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/amlarc-go/instancetypes/cluster"
	"github.com/amlarc-go/instancetypes/fit"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/quantity"
	"github.com/amlarc-go/instancetypes/selector"
)

// clusterFile is the example cluster: `kubectl get nodes -o yaml` of an AKS-like cluster
// with a system pool, a CPU pool (one node cordoned) and a tainted GPU pool.
const clusterFile = "../examples/cluster/nodes.yaml"

// v1NodeList is the part of a v1 NodeList (kind List) these tests read; the real reader is
// the command's.
type v1NodeList struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Items      []struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name   string            `json:"name"`
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
		Spec struct {
			ProviderID    string          `json:"providerID"`
			Unschedulable bool            `json:"unschedulable"`
			Taints        []cluster.Taint `json:"taints"`
		} `json:"spec"`
		Status struct {
			Capacity    map[string]string `json:"capacity"`
			Allocatable map[string]string `json:"allocatable"`
			NodeInfo    struct {
				KubeletVersion string `json:"kubeletVersion"`
			} `json:"nodeInfo"`
		} `json:"status"`
	} `json:"items"`
}

// readCluster decodes the example cluster into nodes, failing the test on anything odd:
// the file is ours and must be a clean kubectl listing.
func readCluster(t *testing.T) []cluster.Node {
	t.Helper()
	data, err := os.ReadFile(clusterFile)
	if err != nil {
		t.Fatal(err)
	}
	var list v1NodeList
	if err := yaml.Unmarshal(data, &list); err != nil { // the fields not read above are ignored
		t.Fatalf("%s: %v", clusterFile, err)
	}
	if list.APIVersion != "v1" || list.Kind != "List" {
		t.Fatalf("%s: apiVersion %q kind %q; want v1 List", clusterFile, list.APIVersion, list.Kind)
	}
	var nodes []cluster.Node
	for i, it := range list.Items {
		if it.APIVersion != "v1" || it.Kind != "Node" || it.Metadata.Name == "" || it.Spec.ProviderID == "" || it.Status.NodeInfo.KubeletVersion == "" {
			t.Fatalf("%s: items[%d] is not a whole v1 Node: %+v", clusterFile, i, it)
		}
		if got := it.Metadata.Labels["kubernetes.io/hostname"]; got != it.Metadata.Name {
			t.Errorf("%s: node %s has kubernetes.io/hostname %q", clusterFile, it.Metadata.Name, got)
		}
		x := cluster.Node{
			Name:          it.Metadata.Name,
			Labels:        it.Metadata.Labels,
			Allocatable:   map[instancetype.ResourceName]quantity.Quantity{},
			Taints:        it.Spec.Taints,
			Unschedulable: it.Spec.Unschedulable,
		}
		for name, s := range it.Status.Allocatable {
			q, err := quantity.Parse(s)
			if err != nil {
				t.Fatalf("%s: node %s: allocatable %s: %v", clusterFile, x.Name, name, err)
			}
			c, err := quantity.Parse(it.Status.Capacity[name])
			if err != nil || q.Cmp(c) > 0 {
				t.Errorf("%s: node %s: allocatable %s %v above capacity %q", clusterFile, x.Name, name, q, it.Status.Capacity[name])
			}
			x.Allocatable[instancetype.ResourceName(name)] = q
		}
		nodes = append(nodes, x)
	}
	return nodes
}

// exampleTypes returns the instance types of the repository's examples, in effect as a
// catalog holds them: the custom defaultinstancetype overrides the built-in one, which is
// kept apart for comparison.
func exampleTypes(t *testing.T) []instancetype.InstanceType {
	t.Helper()
	var types []instancetype.InstanceType
	var one instancetype.InstanceType
	var list instancetype.InstanceTypeList
	for _, f := range []struct {
		path string
		into any
	}{{"../examples/manifests/my_instance_type.yaml", &one}, {"../examples/manifests/my_instance_type_list.yaml", &list}} {
		data, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.Unmarshal(data, f.into); err != nil {
			t.Fatalf("%s: %v", f.path, err)
		}
	}
	builtIn := *instancetype.Default()
	builtIn.Name = "defaultinstancetype (built-in, overridden)"
	return append(append(types, one), append(list.Items, builtIn)...)
}

// The example cluster read as a whole: every pool, the cordoned node and the taints.
func TestExampleCluster(t *testing.T) {
	nodes := readCluster(t)
	if len(nodes) != 8 {
		t.Fatalf("%d nodes; want 8", len(nodes))
	}
	ix := fit.NewIndex(nodes)
	r := ix.Check(fit.Demand{})
	if want := (counts{Matching: 8, Candidates: 5, Fits: 5, Tainted: 2, Cordoned: 1, WouldFit: 3}); countsOf(r) != want {
		t.Errorf("the empty demand: %+v; want %+v", countsOf(r), want)
	}
	for _, tc := range []struct {
		pool string
		want counts
	}{
		{"system", counts{Matching: 2, Candidates: 2, Fits: 2}},
		{"cpupool", counts{Matching: 4, Candidates: 3, Fits: 3, Cordoned: 1, WouldFit: 1}},
		{"gpupool", counts{Matching: 2, Tainted: 2, WouldFit: 2}},
	} {
		if got := countsOf(ix.Check(fit.Demand{NodeSelector: sel("agentpool=" + tc.pool)})); got != tc.want {
			t.Errorf("pool %s: %+v; want %+v", tc.pool, got, tc.want)
		}
	}
}

// Which of the repository's example instance types fit which pool of the example cluster,
// and the finding of each that fits none. The table is logged in Markdown for the README
// (go test ./fit -run ExampleTypes -v).
func TestExampleTypesOnExampleCluster(t *testing.T) {
	nodes := readCluster(t)
	ix := fit.NewIndex(nodes)
	pools := []string{"system", "cpupool", "gpupool"}
	want := map[string][]int{ // fitting nodes per pool, then in all
		"myinstancetypename":  {0, 0, 0, 0}, // needs mylabel=mylabelvalue and a GPU: only the tainted GPU pool has both
		"cpusmall":            {2, 3, 0, 5}, // nvidia.com/gpu: 0 asks for none; the GPU pool is tainted
		"defaultinstancetype": {2, 3, 0, 5}, // the custom one: 1 cpu, 1Gi
		"defaultinstancetype (built-in, overridden)": {2, 3, 0, 5},
	}
	wantErrs := map[string][]finding{
		"myinstancetypename": {invalid("spec.nodeSelector")},
	}
	var table strings.Builder
	table.WriteString("| instance type | " + strings.Join(pools, " | ") + " | all nodes | finding |\n|---|---:|---:|---:|---:|---|\n")
	for _, it := range exampleTypes(t) {
		var got []int
		for _, pool := range pools {
			s, err := selector.Merge(it.Spec.NodeSelector, map[string]string{"agentpool": pool})
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, ix.Check(fit.DemandOf(s, it.Spec.Resources.Requests, it.Spec.Resources.Limits)).Fits)
		}
		r := ix.Check(fit.DemandOf(it.Spec.NodeSelector, it.Spec.Resources.Requests, it.Spec.Resources.Limits))
		got = append(got, r.Fits)
		if !slices.Equal(got, want[it.Name]) {
			t.Errorf("%s fits %v nodes (per pool, then all); want %v", it.Name, got, want[it.Name])
		}
		errs := r.Errors(field.NewPath("spec", "nodeSelector"), requestPath)
		if f := findings(errs); !slices.Equal(f, wantErrs[it.Name]) {
			t.Errorf("%s: findings %v; want %v", it.Name, errs, wantErrs[it.Name])
		}
		var msg string
		for _, e := range errs {
			msg = "`" + e.Error() + "`"
		}
		fmt.Fprintf(&table, "| %s | %d | %d | %d | %d | %s |\n", it.Name, got[0], got[1], got[2], got[3], msg)
	}
	t.Logf("the example instance types on %s:\n%s", clusterFile, table.String())
}
