package manifest

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
)

// The node bound holds: for any text the YAML reader reads, nodeBound of a document is at
// least the number of nodes the reader makes of it (aliases counted once, not expanded).
// It is what keeps a document's tree within MaxNodes before anything is parsed, so an
// undercount is a memory bug. Checked on the corpora, on generated YAML of the shapes that
// make empty nodes (keys without values, "- " alone, flow collections, JSON-like keys), and
// by FuzzNodeBound on arbitrary bytes.

// treeNodes counts the nodes of a tree as the reader made them.
func treeNodes(n *yaml.Node) int {
	if n == nil {
		return 0
	}
	c := 1
	for _, k := range n.Content {
		c += treeNodes(k)
	}
	return c
}

// checkBound checks the bound on every document of data the reader reads.
func checkBound(t interface{ Fatalf(string, ...any) }, data []byte) {
	for c := range yamlChunks(data, func(int, string) {}) {
		var doc yaml.Node
		if err := yaml.Unmarshal(c.data, &doc); err != nil {
			continue
		}
		if got, bound := treeNodes(&doc), nodeBound(c.data); got > bound {
			t.Fatalf("nodeBound(%q) = %d; the reader makes %d nodes", c.data, bound, got)
		}
	}
}

func TestNodeBoundCorpus(t *testing.T) {
	var files []string
	for _, g := range []string{"testdata/oracle/*", "../examples/*/*.yaml", "../examples/*/*.json", "../cmd/instancetype/testdata/azureml/*"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d files", len(files))
	}
	for _, f := range files {
		if info, err := os.Stat(f); err != nil || info.IsDir() {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range bytes.Split(data, []byte("\n####")) {
			checkBound(t, c)
		}
	}
}

// yamlish draws text from the pieces of YAML that make nodes, with and without white space
// between them.
func yamlish() *rapid.Generator[string] {
	pieces := []string{
		"a", "b1", "-1", "x:y", "repo:tag", "aks-pool-1", "'q'", "\"q\"", "\"k\":", "'it''s'", "\"a # b\"",
		":", ": ", "- ", "-", "? ", "?", ",", "[", "]", "{", "}", "[]", "{}", "&a ", "*a", "!!str ", "|", ">-",
		" ", "  ", "\n", "\n  ", "\n    ", "# c\n", " #x", "\t", "\u2028", "\u0085", "---\n", "...\n", "~", "null",
	}
	return rapid.Custom(func(t *rapid.T) string {
		var b bytes.Buffer
		for range rapid.IntRange(0, 40).Draw(t, "n") {
			b.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
		}
		return b.String()
	})
}

func TestNodeBoundProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		checkBound(t, []byte(yamlish().Draw(t, "text")))
	})
}

func FuzzNodeBound(f *testing.F) {
	for _, s := range []string{"a: 1\nb:\n- \n- x\n", "{a, b: [c, {d: e}], \"f\":g}", "? a\n? b\n: c\n", "- - - \n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		checkBound(t, data)
	})
}

// The radix sort of the table sorts as a comparison sort does.
func TestSortByHash(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 2000).Draw(t, "n")
		a := make([]entry, n)
		for i := range a {
			a[i] = entry{hash: rapid.Uint64().Draw(t, "h") >> rapid.UintRange(0, 63).Draw(t, "shift"), line: int32(i)}
		}
		b := slices.Clone(a)
		sortByHash(a)
		slices.SortStableFunc(b, func(x, y entry) int { return cmp.Compare(x.hash, y.hash) })
		for i := range a {
			if a[i].hash != b[i].hash {
				t.Fatalf("entry %d: hash %x; want %x", i, a[i].hash, b[i].hash)
			}
		}
	})
}

// A large table's buckets find what a binary search of its entries finds, present or not.
func TestBuckets(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1000, 5000).Draw(t, "n")
		tab := newPositions(n)
		for i := range n {
			tab.entries = append(tab.entries, entry{hash: rapid.Uint64().Draw(t, "h"), line: int32(i + 1)})
		}
		tab.index()
		if len(tab.entries) >= 1024 && tab.buckets == nil {
			t.Fatalf("%d entries and no buckets", len(tab.entries))
		}
		for k := range 200 {
			h := rapid.Uint64().Draw(t, "probe")
			if k%2 == 0 {
				h = tab.entries[rapid.IntRange(0, len(tab.entries)-1).Draw(t, "i")].hash
			}
			got, gotOK := tab.find(h)
			want, wantOK := find(tab.entries, h)
			if got != want || gotOK != wantOK {
				t.Fatalf("find(%x) = %v, %v; the binary search finds %v, %v", h, got, gotOK, want, wantOK)
			}
		}
	})
}
