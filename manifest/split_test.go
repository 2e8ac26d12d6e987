package manifest

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
)

// emptyDocument is a shortcut of the YAML reader: a document it calls empty is one the
// reader reads as empty, without an error. Documents are drawn from the pieces that make
// the shortcut's edges: separators, blanks, tabs, comments, line breaks of every kind.
func TestEmptyDocumentAgreesWithTheReader(t *testing.T) {
	pieces := []string{"---", "--- ", "---\t", "---#", "--- #c", "-", " ", "\t", "#", "# c", "\n", "\r", "\r\n",
		"\u0085", "\u2028", "a", ":", "...", "%YAML 1.1", "&a", "*a", "!", "[", "}", "'", "\""}
	rapid.Check(t, func(t *rapid.T) {
		data := strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 8).Draw(t, "pieces"), "")
		if !emptyDocument([]byte(data)) {
			return
		}
		// Empty: no node, or the empty null an explicit "---" opens.
		var doc yaml.Node
		err := yaml.Unmarshal([]byte(data), &doc)
		if empty := len(doc.Content) == 0 || len(doc.Content) == 1 && doc.Content[0].Kind == yaml.ScalarNode &&
			doc.Content[0].Value == "" && doc.Content[0].Tag == tagNull; err != nil || !empty {
			t.Fatalf("emptyDocument(%q), and the YAML reader reads %d nodes, error %v", data, len(doc.Content), err)
		}
	})
	for _, data := range []string{"---\n", "--- # c\n\n# d\n", "---\t\n", "---"} {
		if !emptyDocument([]byte(data)) {
			t.Errorf("emptyDocument(%q) = false; want true", data)
		}
	}
	for _, data := range []string{"---#c\n", "--- a\n", "---\ra\n", "--- # c\u2028a\n", "----\n"} {
		if emptyDocument([]byte(data)) {
			t.Errorf("emptyDocument(%q) = true; want false", data)
		}
	}
}

// yamlChunks yields documents one at a time, so that a reader may stop, and cuts as it
// always did: a separator that begins a document is kept in it, one that ends a document
// belongs to none, and CRLF is LF in a document's text.
func TestYAMLChunks(t *testing.T) {
	var got []string
	var lines []int
	for c := range yamlChunks([]byte("---\r\na: 1\r\n---\n---\n--- # x\nb: 2"), func(int, string) {}) {
		got = append(got, string(c.data))
		lines = append(lines, c.line)
	}
	want := []string{"---\na: 1\n", "---\n", "b: 2\n"}
	if strings.Join(got, "|") != strings.Join(want, "|") || len(lines) != 3 || lines[0] != 1 || lines[1] != 4 || lines[2] != 6 {
		t.Errorf("documents %q on lines %v; want %q on lines [1 4 6]", got, lines, want)
	}
	n := 0
	for range yamlChunks([]byte(strings.Repeat("a: 1\n---\n", 10)), func(int, string) {}) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("a reader that stops after 2 documents was given %d", n)
	}
}
