package manifest_test

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/amlarc-go/instancetypes/manifest"
)

// render writes suppressions as LINE:COLUMN SCOPE FROM-TO RULES, one a line.
func renderSuppressions(ss []manifest.Suppression) string {
	var b strings.Builder
	scopes := map[manifest.Scope]string{manifest.ScopeLine: "line", manifest.ScopeNextLine: "next", manifest.ScopeDocument: "document"}
	for _, s := range ss {
		fmt.Fprintf(&b, "%d:%d %s %d-%d %s\n", s.Line, s.Column, scopes[s.Scope], s.From, s.To, strings.Join(s.Rules, ","))
	}
	return b.String()
}

func TestSuppressions(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"none", "a: 1 # a comment\n", ""},
		{"trailing", "a: 1\nb: 2 # instancetype:ignore R9\n", "2:6 line 2-2 R9\n"},
		{"above", "a: 1\n# instancetype:ignore R9\nb: 2\n", "2:1 next 3-3 R9\n"},
		{"above, through comment lines", "a: 1\n  # instancetype:ignore R9\n  # because\nb: 2\n", "2:3 next 4-4 R9\n"},
		{"above a blank line", "a: 1\n# instancetype:ignore R9\n\nb: 2\n", "2:1 next 3-3 R9\n"},
		{"top of the document", "# instancetype:ignore R9\na: 1\nb: 2\n", "1:1 document 1-3 R9\n"},
		{"top of the second document", "a: 1\n---\n# a header\n# instancetype:ignore R9 R10\nb: 2\nc: 3\n", "4:1 document 3-6 R9,R10\n"},
		{"on the separator", "a: 1\n--- # instancetype:ignore R9\nb: 2\n", "2:5 document 3-3 R9\n"},
		{"on the first separator", "--- # instancetype:ignore R9\nb: 2\n", "1:5 document 1-2 R9\n"},
		{"header before the first separator", "# instancetype:ignore R9\n---\nb: 2\nc: 3\n", "1:1 document 3-4 R9\n"},
		{"header of a file with no document after it", "a: 1\n---\n# instancetype:ignore R9\n", "3:1 document 3-3 R9\n"},
		{"commas and spaces, a reason", "a: 1 #instancetype:ignore R9,R10 duplicate-key -- the pool grows\n", "1:6 line 1-1 R9,R10,duplicate-key\n"},
		{"no rule", "a: 1 # instancetype:ignore\n", "1:6 line 1-1 \n"},
		{"no rule, a reason", "a: 1 # instancetype:ignore -- why\n", "1:6 line 1-1 \n"},
		{"not the marker", "a: 1 # instancetype:ignored R9\nb: 2 # see instancetype:ignore R9\n", ""},
		{"in a double-quoted string", "a: \"x # instancetype:ignore R9\"\n", ""},
		{"in a single-quoted string", "a: 'x # instancetype:ignore R9'\n", ""},
		{"after a quoted string that holds a quote", "a: 'it''s # x' # instancetype:ignore R9\n", "1:16 line 1-1 R9\n"},
		{"after an escaped quote", "a: \"say \\\" # x\" # instancetype:ignore R9\n", "1:17 line 1-1 R9\n"},
		{"in a quoted string over lines", "a: \"one\n  # instancetype:ignore R9\n  two\"\nb: 1\n", ""},
		{"in a quoted key", "\"k # instancetype:ignore R9\": 1\n", ""},
		{"with an anchor and a tag", "a: &x !!str \"k # instancetype:ignore R9\"\nb: *x # instancetype:ignore R10\n", "2:7 line 2-2 R10\n"},
		{"in a literal block", "a: |\n  # instancetype:ignore R9\n  x\nb: 1\n", ""},
		{"in a folded block", "a: >-\n  x\n  # instancetype:ignore R9\n", ""},
		{"after a block, less indented", "s:\n  a: |\n    x # y\n  # instancetype:ignore R9\n  b: 1\n", "4:3 next 5-5 R9\n"},
		{"a block with an indentation indicator", "s:\n  a: |2\n      x # y\n    # instancetype:ignore R9\n  b: 1\n", ""},
		{"empty block", "a: |\nb: 1 # instancetype:ignore R9\n", "2:6 line 2-2 R9\n"},
		{"in a plain scalar, no blank before", "a: x#instancetype:ignore R9\n", ""},
		{"a syntax error: comments alone on their line only", "a: [1\n# instancetype:ignore R9\nb: 'x' # instancetype:ignore R10\n", "2:1 next 3-3 R9\n"},
		{"JSON", "{\"a\": \"# instancetype:ignore R9\"}\n", ""},
		{"a Helm template", "a: {{ .Values.x }} # instancetype:ignore R9\n", ""},
		{"CRLF", "a: 1\r\nb: 2 # instancetype:ignore R9\r\n", "2:6 line 2-2 R9\n"},
		{"a tab before", "a: 1\t# instancetype:ignore R9\n", "1:6 line 1-1 R9\n"},
		{"UTF-8 before the comment", "é: ü # instancetype:ignore R9\n", "1:6 line 1-1 R9\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := renderSuppressions(manifest.Suppressions([]byte(tt.data))); got != tt.want {
				t.Errorf("Suppressions(%q) =\n%s; want\n%s", tt.data, got, tt.want)
			}
			for _, how := range []string{"Parse", "Scan"} {
				if got := renderSuppressions(readSuppressions([]byte(tt.data), how == "Scan")); got != tt.want {
					t.Errorf("the suppressions %s read in %q =\n%s; want\n%s", how, tt.data, got, tt.want)
				}
			}
		})
	}
}

// readSuppressions returns the suppression comments the reader reads as it parses data (its
// documents', then the file's), in file order: with Parse, or, when scan is set, with
// Scan, each document's taken as Scan hands it over.
func readSuppressions(data []byte, scan bool) []manifest.Suppression {
	var out []manifest.Suppression
	var f *manifest.File
	if scan {
		f = manifest.Scan("f", data, func(d *manifest.Document) { out = append(out, d.Suppressions...) })
	} else {
		f = manifest.Parse("f", data)
		for _, d := range f.Documents {
			out = append(out, d.Suppressions...)
		}
	}
	out = append(out, f.Suppressions...)
	slices.SortStableFunc(out, func(a, b manifest.Suppression) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	return out
}

// The suppression comments that apply to a document come with it, those of a document of
// comments alone before it and of its "---" line among them; those of a document that is
// skipped or cannot be read are the file's.
func TestDocumentSuppressions(t *testing.T) {
	data := "# instancetype:ignore R1\n---\nkind: InstanceType # instancetype:ignore R2\n--- # instancetype:ignore R3\n" +
		"apiVersion: v1\nkind: Service # instancetype:ignore R4\n---\nkind: InstanceType\n# instancetype:ignore R5\n"
	f := manifest.Parse("f", []byte(data))
	if len(f.Documents) != 2 {
		t.Fatalf("%d documents; want 2", len(f.Documents))
	}
	for i, want := range []string{"1:1 document 3-3 R1\n3:20 line 3-3 R2\n", "9:1 next 9-9 R5\n"} {
		if got := renderSuppressions(f.Documents[i].Suppressions); got != want {
			t.Errorf("document %d's suppressions:\n%s; want\n%s", i, got, want)
		}
	}
	if got, want := renderSuppressions(f.Suppressions), "4:5 document 5-6 R3\n6:15 line 6-6 R4\n"; got != want {
		t.Errorf("the file's suppressions:\n%s; want\n%s", got, want)
	}
}

// A UTF-16 file is read as kubectl reads it: its comments too.
func TestSuppressionsUTF16(t *testing.T) {
	text := "a: 1 # instancetype:ignore R9\n"
	data := []byte{0xff, 0xfe}
	for _, r := range text {
		data = append(data, byte(r), 0)
	}
	if got, want := renderSuppressions(manifest.Suppressions(data)), "1:6 line 1-1 R9\n"; got != want {
		t.Errorf("Suppressions(UTF-16) = %q; want %q", got, want)
	}
}

// FuzzSuppressions holds Suppressions to the YAML reader. For a document it can parse,
// each suppression found is a comment: cutting its text to "#" alone leaves every value
// of the document as it was (the text of a quoted or block scalar is never taken for one);
// and each comment the reader attaches to a node that begins with the marker is found.
// Arbitrary bytes never make it panic, nor place a suppression outside the file.
//
//	go test -run '^$' -fuzz '^FuzzSuppressions$' -fuzztime 20000x ./manifest
func FuzzSuppressions(f *testing.F) {
	for _, s := range suppressionSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := manifest.Suppressions(data)
		// The reader reads the same comments from its one parse of each document.
		for _, scan := range []bool{false, true} {
			if a, b := renderSuppressions(readSuppressions(data, scan)), renderSuppressions(got); a != b {
				t.Fatalf("in %q, the reader (scan %v) reads the suppressions\n%s; Suppressions\n%s", data, scan, a, b)
			}
		}
		lines := strings.Split(string(data), "\n")
		for _, s := range got {
			if s.Line < 1 || s.Line > len(lines) || s.From < 1 || s.To < s.From || s.To > len(lines)+1 {
				t.Fatalf("suppression %+v outside the %d lines of %q", s, len(lines), data)
			}
		}
		want, ok := readerComments(data)
		if !ok {
			return
		}
		have := map[string]int{}
		stripped := slices.Clone(lines)
		for _, s := range got {
			line := []rune(lines[s.Line-1])
			if s.Column-1 >= len(line) || line[s.Column-1] != '#' {
				t.Fatalf("suppression %+v: no # there in %q", s, data)
			}
			have[strings.TrimRight(string(line[s.Column-1:]), " \t")]++
			stripped[s.Line-1] = string(line[:s.Column-1]) + "#" // a comment still, but another
		}
		var before, after yaml.Node
		if err := yaml.Unmarshal([]byte(strings.Join(stripped, "\n")), &after); err != nil {
			t.Fatalf("with the comments found cut, %q does not parse: %v", strings.Join(stripped, "\n"), err)
		}
		yaml.Unmarshal(data, &before)
		if a, b := treeText(&before), treeText(&after); a != b {
			t.Errorf("cutting the comments found changes the document %q:\n%s\n---\n%s", data, a, b)
		}
		for c, n := range want {
			if have[c] < n {
				t.Errorf("the YAML reader has the comment %q %d times; Suppressions found it %d times, in %q", c, n, have[c], data)
			}
		}
	})
}

// treeText renders the values of a node tree, without positions or comments.
func treeText(n *yaml.Node) string {
	var b strings.Builder
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		fmt.Fprintf(&b, "(%d %s %q", n.Kind, n.Tag, n.Value)
		for _, c := range n.Content {
			walk(c)
		}
		b.WriteString(")")
	}
	walk(n)
	return b.String()
}

// readerComments returns the comments the YAML reader attaches to the nodes of data, a
// document alone, that begin with the marker, counted; and whether data is such a
// document (one, that the reader parses, of plain UTF-8 with line feeds).
func readerComments(data []byte) (map[string]int, bool) {
	s := string(data)
	if !utf8.ValidString(s) || strings.ContainsAny(s, "\r\u0085\u2028\u2029\t{}[]") || strings.Contains(s, "---") || strings.Contains(s, "...") || strings.Contains(s, "{{") {
		return nil, false
	}
	var doc, more yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil || len(doc.Content) == 0 || strings.HasPrefix(strings.TrimLeft(s, " \n"), "{") {
		return nil, false
	}
	if err := dec.Decode(&more); err != io.EOF {
		return nil, false // more than one document, or text after it the reader refuses
	}
	out := map[string]int{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
			for _, l := range strings.Split(c, "\n") {
				l = strings.TrimSpace(l)
				t, ok := strings.CutPrefix(l, "#")
				if !ok {
					continue
				}
				if rest, ok := strings.CutPrefix(strings.TrimLeft(t, " \t"), manifest.IgnoreMarker); ok && (rest == "" || strings.ContainsRune(" \t,", rune(rest[0]))) {
					out[l]++
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	return out, true
}

var suppressionSeeds = []string{
	"a: 1 # instancetype:ignore R9\n",
	"# instancetype:ignore R1\na: 1\n# instancetype:ignore R2\nb: \"x # instancetype:ignore R3\"\n",
	"a: |\n  # instancetype:ignore R9\n  x\n# instancetype:ignore R8\nb: 'y # instancetype:ignore R7' # instancetype:ignore R6\n",
	"s:\n  - a: >\n      x # instancetype:ignore R9\n    # instancetype:ignore R8\n  - \"q\n    # instancetype:ignore R4\n    \" # instancetype:ignore R5\n",
	"k: &a \"v # instancetype:ignore R1\" # instancetype:ignore R2\nl: *a\n",
	"\"key # instancetype:ignore R1\": 'value # instancetype:ignore R2'\n",
	"a: |2\n    # instancetype:ignore R1\n  # instancetype:ignore R2\nb: 1\n",
}

// A file of millions of lines costs Suppressions a small index of them, not a word per
// line; and a document of comments alone is not parsed.
func TestSuppressionsOfManyLines(t *testing.T) {
	const blank = 4 << 20
	data := []byte("# instancetype:ignore R9\n" + strings.Repeat("\n", blank) + "---\na: 1 # instancetype:ignore R8\n")
	var got []manifest.Suppression
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got = manifest.Suppressions(data)
	runtime.ReadMemStats(&after)
	want := fmt.Sprintf("1:1 document %d-%d R9\n%d:6 line %d-%d R8\n", blank+3, blank+3, blank+3, blank+3, blank+3)
	if s := renderSuppressions(got); s != want {
		t.Errorf("Suppressions = %q; want %q", s, want)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 1<<20 {
		t.Errorf("Suppressions allocated %d bytes for a file of %d lines; want under 1 MiB", n, blank)
	}
}
