package source

import (
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// messageLine returns the line a YAML parser's error names, 0 for none.
func messageLine(err error) int {
	if err == nil {
		return -1
	}
	msg := err.Error()
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+len("line "):]
		if j := strings.IndexByte(rest, ':'); j > 0 {
			n, _ := strconv.Atoi(rest[:j])
			return n
		}
	}
	return 0
}

// A YAML syntax error is placed at the offending token, with kubectl's message, where the
// parsers' messages name the line their context began on (the mapping a key breaks, the
// line of an opening quote) or a line counted from 0. v2 and v3 are the lines the messages
// of kubectl's converter (sigs.k8s.io/yaml, over yaml.v2) and of yaml.v3 name: pinned, so
// that an upgrade that changes them is seen.
func TestSyntaxErrorAtToken(t *testing.T) {
	const header = "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: x\nspec:\n  resources:\n    requests:\n"
	for _, tt := range []struct {
		name, data string
		want       Position
		says       string
		v2, v3     int
	}{
		// The case: memory indented one column less than cpu, at 9:6.
		{"a key indented less than its siblings", header + "      cpu: 1\n     memory: 2Gi\n", Position{9, 6}, "did not find expected key", 8, 6},
		{"a key indented less, under a nested mapping", "a:\n  b:\n    c: 1\n   d: 2\n", Position{4, 4}, "did not find expected key", 3, 1},
		{"a key indented between two levels", "a:\n  b: 1\n c: 2\n", Position{3, 2}, "did not find expected key", 2, 2},
		{"a key indented more than its siblings", "a:\n  b: 1\n   c: 2\n", Position{3, 5}, "mapping values are not allowed in this context", 3, 3},
		{"a second colon on a line", "a: b: c\n", Position{1, 5}, "mapping values are not allowed in this context", 0, 0},
		{"a key among list items", "a:\n  - 1\n  b: 2\n", Position{3, 4}, "did not find expected '-' indicator", 2, 1},
		// Tabs.
		{"a tab that indents a key", "a:\n\tb: 1\n", Position{2, 1}, "found character that cannot start any token", 2, 2},
		{"a tab among spaces that indent", "a: 1\nb:\n  c: 1\n\td: 2\n", Position{4, 1}, "found a tab character that violates indentation", 4, 3},
		// Unclosed quotes: at the opening quote.
		{"an unclosed double quote", "a: 1\nb: \"abc\nc: 2\n", Position{2, 4}, "found unexpected end of stream", 4, 2},
		{"an unclosed double quote on the first line", "b: \"abc\nc: 2\n", Position{1, 4}, "found unexpected end of stream", 3, 3},
		{"an unclosed single quote", "a: 1\nb: 'abc\nc: 2\n", Position{2, 4}, "found unexpected end of stream", 4, 2},
		{"an unclosed quote after a closed one over two lines", "a: \"x\n  y\"\nb: 'z\n", Position{3, 4}, "found unexpected end of stream", 4, 3},
		// Flow collections: at the token after the last entry, where ',' or ']' was
		// expected, or at that entry when it ends the line (the collection is not closed).
		{"an unclosed flow list", "a: 1\nb: [1, 2\nc: 3\n", Position{2, 8}, "did not find expected ',' or ']'", 2, 1},
		{"an unclosed flow mapping", "a: 1\nb: {x: 1, y: 2\n", Position{2, 14}, "did not find expected ',' or '}'", 2, 1},
		{"a flow list closed by }", "a: 1\nb: [1, 2}\n", Position{2, 9}, "did not find expected ',' or ']'", 1, 1},
		{"a flow mapping closed by ]", "a: {x: \"1\", y: \"2\" ]\n", Position{1, 20}, "did not find expected ',' or '}'", 0, 0},
		{"a flow list closed by } before a comment", "a: [1, 2 } # c\n", Position{1, 10}, "did not find expected ',' or ']'", 0, 0},
		// Characters before the token count as characters, not bytes.
		{"a mis-indented key after non-ASCII text", "é:\n  ü: 1\n   ö: 2\n", Position{3, 5}, "mapping values are not allowed in this context", 3, 3},
		// A second document: lines count from the file's start.
		{"in a second document", "a: 1\n---\nb:\n  c: 1\n d: 2\n", Position{5, 2}, "did not find expected key", 2, 2},
	} {
		var problems []Problem
		f := Scan([]byte(tt.data), Options{}, func(d *Document) bool {
			if d.Problem != nil {
				problems = append(problems, *d.Problem)
			}
			return true
		})
		problems = append(problems, f.Problems...)
		if len(problems) != 1 || problems[0].Kind != Syntax || problems[0].Position != tt.want || !strings.Contains(problems[0].Message, tt.says) {
			t.Errorf("%s: Scan(%q) problems %+v; want one syntax error at %v saying %q", tt.name, tt.data, problems, tt.want, tt.says)
		}
		// The readers' own lines, for the record; the document that fails is the last.
		doc := tt.data
		if i := strings.LastIndex(doc, "---\n"); i >= 0 {
			doc = doc[i+len("---\n"):]
		}
		var v any
		var n yaml.Node
		if got := messageLine(sigsyaml.Unmarshal([]byte(doc), &v)); got != tt.v2 {
			t.Errorf("%s: kubectl's converter names line %d; want %d", tt.name, got, tt.v2)
		}
		if got := messageLine(yaml.Unmarshal([]byte(doc), &n)); got != tt.v3 {
			t.Errorf("%s: yaml.v3 names line %d; want %d", tt.name, got, tt.v3)
		}
	}
}

// syntaxOffset claims nothing where yaml.v3 reports another problem than kubectl's, or none.
func TestSyntaxOffsetOtherProblem(t *testing.T) {
	if _, ok := syntaxOffset([]byte("a: 1\n"), "did not find expected key", new(1<<20)); ok {
		t.Error("syntaxOffset of a valid text: found")
	}
	if _, ok := syntaxOffset([]byte("a:\n\tb: 1\n"), "did not find expected key", new(1<<20)); ok {
		t.Error("syntaxOffset with another problem: found")
	}
}
