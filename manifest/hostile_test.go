package manifest_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/amlarc-go/instancetypes/manifest"
)

// aliasBomb builds a billion-laughs document of the given kind header: ten levels of
// anchors, each a list of ten aliases to the one before, 10^10 nodes once expanded.
func aliasBomb(header string) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// TestHostileInput feeds the decoder inputs meant to crash it, hang it or exhaust its
// memory. Each must come back, quickly, as findings. (A hang fails by the test timeout.)
func TestHostileInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomBytes := make([]byte, 4<<20)
	for i := range randomBytes {
		randomBytes[i] = byte(rng.Uint32())
	}
	printable := make([]byte, 1<<20)
	for i := range printable {
		printable[i] = byte(' ' + rng.IntN(95))
	}
	header := "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\n"
	tests := []struct {
		name string
		data string
		want string // a substring of the findings
	}{
		{"alias bomb in a deployment", aliasBomb("endpoint_name: e\n"), "nodes once aliases are expanded"},
		{"alias bomb in metadata", aliasBomb(header) + "metadata:\n  name: a\n  ownerReferences: *a9\n", "nodes once aliases are expanded"},
		{"200,000-deep flow nesting", header + "spec: " + strings.Repeat("[", 200000), "exceeded max depth"},
		{"200,000-deep block nesting", header + "spec:\n" + strings.Repeat("- ", 200000), "exceeded max depth"},
		{"megabytes of random bytes", string(randomBytes), "YAML syntax error"},
		{"NUL byte", header + "metadata: {name: \"a\x00b\"}\n", "control character U+0000"},
		{"invalid UTF-8", header + "metadata:\n  name: \xc3\x28\n", "invalid UTF-8"},
		{"1 MB scalar", header + "metadata: {name: " + strings.Repeat("a", 1<<20) + "}\n", "a scalar of 1048576 bytes"},
		// YAML itself refuses implicit keys over 1024 characters; an explicit key is not limited.
		{"1 MB implicit label key", header + "spec:\n  nodeSelector:\n    " + strings.Repeat("k", 1<<20) + ": v\n", "YAML syntax error"},
		{"1 MB explicit label key", header + "spec:\n  nodeSelector:\n    ? " + strings.Repeat("k", 1<<20) + "\n    : v\n", "a scalar of 1048576 bytes"},
		{"1 MB quoted label value", header + "spec:\n  nodeSelector:\n    k: \"" + strings.Repeat("v", 1<<20) + "\"\n", "a scalar of 1048576 bytes"},
		{"file over the size limit", strings.Repeat("#", manifest.MaxFileSize+1), "file too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := manifest.Parse("hostile.yaml", []byte(tt.data))
			var all []string
			for _, x := range f.Findings() {
				all = append(all, x.String())
				assert.Less(t, len(x.String()), 4096, "a finding must stay readable")
			}
			assert.Contains(t, strings.Join(all, "\n"), tt.want)
			assert.Empty(t, f.Documents, "a document that broke a limit is not used")
		})
	}

	// Random printable text is not a manifest: whatever the reader makes of it, no panic.
	manifest.Parse("printable.yaml", printable)
}

func TestManyEmptyDocuments(t *testing.T) {
	data := strings.Repeat("---\n", 200000) + "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: last}\n"
	f := manifest.Parse("many.yaml", []byte(data))
	require.Empty(t, f.Findings())
	require.Len(t, f.Documents, 1)
	assert.Equal(t, 200001, f.Documents[0].Line)
	assert.Equal(t, 1, f.Count)
}

func TestHugeList(t *testing.T) {
	data := bigList(20000)
	f := manifest.Parse("big.yaml", data)
	require.Empty(t, f.Findings())
	require.Len(t, f.Documents[0].InstanceTypes, 20000)
	assert.Equal(t, "it-19999", f.Documents[0].InstanceTypes[19999].Name)
}

// bigList generates an InstanceTypeList of n valid items.
func bigList(n int) []byte {
	var b bytes.Buffer
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, `- metadata:
    name: it-%d
  spec:
    nodeSelector:
      pool: pool-%d
    resources:
      requests: {cpu: "%dm", memory: "%dMi"}
      limits: {cpu: "%d", memory: "%dGi", nvidia.com/gpu: %d}
`, i, i%7, 100+i%900, 256+i%1024, 1+i%8, 2+i%16, i%2)
	}
	return b.Bytes()
}
