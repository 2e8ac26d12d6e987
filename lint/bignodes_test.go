package lint_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/manifest"
)

// bigNodeList is what kubectl get nodes -o yaml prints for a cluster of n nodes: the first
// node of examples/cluster/nodes.yaml (an AKS system node: 30 labels, CSI annotations,
// conditions, images with digests), n times under distinct names. 3,000 nodes make 15 MB.
func bigNodeList(t testing.TB, n int) []byte {
	data, err := os.ReadFile("../examples/cluster/nodes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.Index(data, []byte("\n- apiVersion: v1\n"))
	end := bytes.Index(data[start+1:], []byte("\n- apiVersion: v1\n"))
	if start < 0 || end < 0 {
		t.Fatal("examples/cluster/nodes.yaml: no first item")
	}
	item := data[start+1 : start+1+end+1]
	var b bytes.Buffer
	b.WriteString("apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n")
	for i := range n {
		b.Write(bytes.ReplaceAll(item, []byte("aks-system-24512793-vmss000000"), fmt.Appendf(nil, "aks-system-24512793-vmss%06d", i)))
	}
	return b.Bytes()
}

// The size estimate made before parsing a document (manifest.NodeBound) lets a real
// cluster's node list through: it once counted every ":", "-" and line break, inside
// strings and comments too, and refused the 15 MB list of a 3,000-node cluster as "about
// 1.58M nodes", after which every instance type read "no node matches: there are no nodes".
func TestRealNodeListWithinTheBound(t *testing.T) {
	data := bigNodeList(t, 3000)
	if len(data) < 14<<20 {
		t.Fatalf("%d bytes; want the 15 MB of a 3,000-node cluster", len(data))
	}
	if b := manifest.NodeBound(data); b > manifest.MaxNodes {
		t.Errorf("NodeBound = %d, over MaxNodes (%d): the list would be refused unread", b, manifest.MaxNodes)
	}
}

// The whole list read as the cluster's nodes (slow: 15 MB of YAML).
func TestRealNodeListIsRead(t *testing.T) {
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		t.Skip("slow: set INSTANCETYPES_SLOW_TESTS=1 to run (.ci/run does)")
	}
	r, err := lint.Run([]lint.Input{lint.Bytes("types.yaml", []byte(instanceType("small", okResources)))},
		lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", bigNodeList(t, 3000))}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Nodes != 3000 || len(r.Findings) != 0 {
		t.Errorf("%d nodes read, findings %v; want 3,000 and none", r.Nodes, findings(r))
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
	r, err := lint.Run([]lint.Input{lint.Bytes("nodes.yaml", bigNodeList(t, 300))}, lint.Options{})
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
