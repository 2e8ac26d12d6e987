package manifest

import (
	"bytes"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
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

// kubectl tells a JSON stream from YAML by the first 4,096 bytes of its text alone: a "{"
// behind more white space than that starts YAML. isJSON agrees with apimachinery's
// GuessJSONStream, as kubectl calls it, on white space of every kind around that edge.
func TestIsJSONAgreesWithKubectl(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, data []byte) {
		_, _, want := utilyaml.GuessJSONStream(bytes.NewReader(kubectlText(data)), 4096)
		text, problem := decodeText(data)
		if problem != nil && problem.fatal {
			return
		}
		if got := isJSON(text); got != want {
			t.Fatalf("isJSON(%q...) = %v; kubectl reads JSON: %v", data[:min(len(data), 40)], got, want)
		}
	}
	for _, n := range []int{0, 1, 4094, 4095, 4096, 4097, 9000} {
		for _, space := range []string{" ", "\n", "\r\n", "\t", "\u0085", "\u00a0", "\u3000"} {
			pad := strings.Repeat(space, n/len(space)+1)[:n-n%len(space)]
			check(t, []byte(pad+`{"a": 1}`))
			check(t, []byte(pad+"{"))
			check(t, append([]byte("\ufeff"), pad+"{}"...))
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		pad := strings.Repeat(rapid.SampledFrom([]string{" ", "\n", "\t", "\u0085", "\u2028", "\u3000"}).Draw(t, "space"),
			rapid.IntRange(0, 4200).Draw(t, "count"))
		check(t, []byte(pad+rapid.SampledFrom([]string{"{}", "{", "a: 1", "[]", "\xff{"}).Draw(t, "rest")))
	})
}

// A file whose "{" stands behind 4,096 bytes of white space is YAML to kubectl: of two
// objects in a row, its YAML parser reads the first alone (as go.yaml.in/yaml/v3 does), where
// a JSON stream is two documents.
func TestJSONBehindLongWhiteSpace(t *testing.T) {
	obj := `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "a"}, ` +
		`"spec": {"resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}}`
	for _, tt := range []struct{ pad, documents int }{{0, 2}, {4095, 2}, {4096, 1}, {5000, 1}} {
		f := Parse("w.json", []byte(strings.Repeat(" ", tt.pad)+obj+obj))
		if len(f.Errors) != 0 || len(f.Documents) != tt.documents {
			t.Errorf("%d spaces before two objects: %d documents, want %d (%v)", tt.pad, len(f.Documents), tt.documents, f.Errors)
		}
	}
}
