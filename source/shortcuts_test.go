package source

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
	sigsyaml "sigs.k8s.io/yaml"
)

// Two shortcuts stand beside kubectl's own code, and are held to it here: a document of
// blank lines, comments and "---" lines alone is skipped as null without being converted
// (blankLine), and a document's nodes are counted before it is parsed (nodeBound), so that
// one past MaxNodes is refused before it takes the memory its parse would.

// A document the cut calls empty is null to sigs.k8s.io/yaml, as kubectl converts it.
// Documents are drawn from the pieces that make the shortcut's edges: separators,
// blanks, tabs, comments, line breaks of every kind.
func TestEmptyDocumentsAreNull(t *testing.T) {
	pieces := []string{"---", "--- ", "---\t", "---#", "--- #c", "-", " ", "\t", "#", "# c", "\n", "\r", "\r\n",
		"\u0085", "\u2028", "a", ":", "...", "%YAML 1.1", "&a", "*a", "!", "[", "}", "'", "\"", "\x01", "\u00a0"}
	check := func(t interface{ Fatalf(string, ...any) }, data string) {
		eachYAML([]byte(data), 0, "", func(y yamlDoc) bool {
			if y.err != nil || !y.empty {
				return true
			}
			j, err := sigsyaml.YAMLToJSON(y.text)
			if err != nil || string(j) != "null" {
				t.Fatalf("%q: the document %q is taken for empty; kubectl reads %s, %v", data, y.text, j, err)
			}
			return true
		})
	}
	for _, data := range []string{"---\n", "--- # c\n\n# d\n", "---\t\n", "---", "---#c\n", "--- a\n", "---\ra\n", "--- # c\u2028a\n", "----\n", "#\x01\n"} {
		check(t, data)
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 8).Draw(t, "pieces"), ""))
	})
}

// treeNodes counts the nodes of a tree as yaml.v3 made them (aliases once, not expanded).
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

// checkBound checks that nodeBound of each document of data that yaml.v3 parses is at
// least the number of nodes it makes, but its root: each node takes an indicator or a word
// of the text but the collection at the top, which needs none.
func checkBound(t interface{ Fatalf(string, ...any) }, data []byte) {
	eachYAML(data, 0, "", func(y yamlDoc) bool {
		var doc yaml.Node
		if y.err != nil || yaml.Unmarshal(y.text, &doc) != nil {
			return true
		}
		if got, bound := treeNodes(&doc)-1, nodeBound(y.text); got > bound+1 {
			t.Fatalf("nodeBound(%q) = %d; the reader makes %d nodes", y.text, bound, got)
		}
		return true
	})
}

func TestNodeBoundCorpus(t *testing.T) {
	var files []string
	for _, g := range []string{"testdata/kubectl/*", "../examples/*/*.yaml", "../examples/*/*.json", "../cmd/instancetype/testdata/*/*.y*ml"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d files", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range bytes.Split(data, []byte("####\n")) {
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
