package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/internal/fixtures"
	"github.com/amlarc-go/instancetypes/lint"
)

// A real cluster's node list is read: the size estimate made before parsing
// (the old reader's node bound) once counted every ":", "-" and line break and refused the 15 MB
// list of 3,000 nodes as "about 1.58M nodes"; once it counted words and indicators, it
// still overcounted 1.5 to 1.8 times, and kubelets list up to 50 images a node, so that a
// real list of 3,000 nodes, 51 MB and 1.85 million YAML nodes, more than MaxNodes in all,
// was refused as "about 2.87M nodes", and every instance type then read "no node matches".
// A long list is now read in parts, each held to MaxNodes, never the whole tree at once.
// (Slow: 70 MB of YAML. The command's peak memory on it is checked in cmd/instancetype.)
func TestRealNodeListIsRead(t *testing.T) {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
	gpu := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: gpu\nspec:\n  nodeSelector: {agentpool: gpupool}\n" +
		"  resources:\n    requests: {cpu: \"4\", memory: 16Gi}\n    limits: {cpu: \"8\", memory: 32Gi, nvidia.com/gpu: 1}\n"
	for _, images := range []int{5, 50} {
		data := fixtures.NodeList(3000, images)
		r, err := lint.Run([]lint.Input{lint.Bytes("types.yaml", []byte(instanceType("small", okResources)+"---\n"+gpu))},
			// gpu leaves most of an A100 node's cores idle (rule stranded): not this test's business.
			lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", data)}, Ignore: []lint.Ignore{{Rule: "stranded"}}})
		if err != nil {
			t.Fatal(err)
		}
		small, _ := r.Fit("small")
		big, _ := r.Fit("gpu")
		if r.Nodes != 3000 || len(r.Findings) != 0 || small.Fits != 3000 || big.Fits != 1000 {
			fs := findings(r)
			t.Errorf("3,000 nodes of %d images (%d MB): %d nodes read, %d findings %q, small fits %d nodes, gpu %d; want 3,000, none, 3,000 and 1,000",
				images, len(data)>>20, r.Nodes, len(fs), fs[:min(len(fs), 5)], small.Fits, big.Fits)
		}
	}
}

// Nodes that cannot be read at all (a file over the limits, not YAML) are one finding about
// the file, not a finding at every instance type that no node matches: the fit check needs
// nodes to check against.
func TestUnreadableNodesAreOneFinding(t *testing.T) {
	r, err := lint.Run([]lint.Input{lint.Bytes("types.yaml", []byte(instanceType("small", okResources)+"---\n"+instanceType("large", okResources)))},
		lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte("items: [\n"))}})
	if err != nil {
		t.Fatal(err)
	}
	if got := findings(r); len(got) != 1 || got[0] != "nodes.yaml:1: : SyntaxError" || r.Nodes != 0 {
		t.Errorf("findings %v, %d nodes; want one syntax error in nodes.yaml and no fit check", got, r.Nodes)
	}
	if _, ok := r.Fit("small"); ok {
		t.Error("a fit reported against nodes that could not be read")
	}
}

// Counts are right whatever the input: a List of more Nodes than were once read in one part
// (256) is one document, skipped, not "-1 documents checked, 2 skipped"; a directory whose
// only manifest is a dangling symlink is one file with one problem, not "1 problem in 1
// file; 0 files".
func TestCounts(t *testing.T) {
	r, err := lint.Run([]lint.Input{lint.Bytes("nodes.yaml", fixtures.NodeList(300, 5))}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Files != 1 || r.Documents != 0 || len(r.Skipped) != 1 || !strings.HasPrefix(r.Skipped[0].Reason, "300 Nodes") || len(r.Findings) != 0 {
		t.Errorf("a List of 300 Nodes: %d files, %d documents, skipped %v, findings %v; want 1 file, 0 documents, the list skipped once", r.Files, r.Documents, r.Skipped, findings(r))
	}
	dir := t.TempDir()
	if err := os.Symlink("gone.yaml", filepath.Join(dir, "dangling.yaml")); err != nil {
		t.Skip(err)
	}
	r, err = lint.Run([]lint.Input{lint.Path(dir)}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Files != 1 || len(r.Findings) != 1 {
		t.Errorf("a dangling symlink alone: %d files, findings %v; want 1 file and its finding", r.Files, findings(r))
	}
}
