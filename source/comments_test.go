package source

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

const marker = "instancetype:ignore"

// markedComments returns the marked comments Scan reads in data, its documents' and the
// file's, in file order, rendered as LINE:COLUMN SCOPE FROM-TO TEXT, one a line.
func markedComments(data []byte) string {
	var cs []Comment
	f := Scan(data, Options{Marker: marker}, func(d *Document) bool { cs = append(cs, d.Comments...); return true })
	cs = append(cs, f.Comments...)
	slices.SortStableFunc(cs, func(a, b Comment) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Column - b.Column
	})
	scopes := map[Scope]string{ScopeLine: "line", ScopeNextLine: "next", ScopeDocument: "document"}
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "%d:%d %s %d-%d%s\n", c.Line, c.Column, scopes[c.Scope], c.From, c.To, c.Text)
	}
	return b.String()
}

// A marked comment applies to its line, to the next line, or to its document, as it
// stands; a "#" in a quoted or block scalar is text, not a comment.
func TestMarkedComments(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"none", "a: 1 # a comment\n", ""},
		{"trailing", "a: 1\nb: 2 # instancetype:ignore R9\n", "2:6 line 2-2 R9\n"},
		{"above", "a: 1\n# instancetype:ignore R9\nb: 2\n", "2:1 next 3-3 R9\n"},
		{"above, through comment lines", "a: 1\n  # instancetype:ignore R9\n  # because\nb: 2\n", "2:3 next 4-4 R9\n"},
		{"above a blank line", "a: 1\n# instancetype:ignore R9\n\nb: 2\n", "2:1 next 3-3 R9\n"},
		{"top of the document", "# instancetype:ignore R9\na: 1\nb: 2\n", "1:1 document 2-3 R9\n"},
		{"top of the second document", "a: 1\n---\n# a header\n# instancetype:ignore R9 R10\nb: 2\nc: 3\n", "4:1 document 5-6 R9 R10\n"},
		{"on the separator", "a: 1\n--- # instancetype:ignore R9\nb: 2\n", "2:5 document 3-3 R9\n"},
		{"on the first separator", "--- # instancetype:ignore R9\nb: 2\n", "1:5 document 2-2 R9\n"},
		{"header before the first separator", "# instancetype:ignore R9\n---\nb: 2\nc: 3\n", "1:1 document 3-4 R9\n"},
		{"header of a file with no document after it", "a: 1\n---\n# instancetype:ignore R9\n", "3:1 document 3-3 R9\n"},
		{"commas and spaces, a reason", "a: 1 #instancetype:ignore R9,R10 duplicate-key -- the pool grows\n", "1:6 line 1-1 R9,R10 duplicate-key -- the pool grows\n"},
		{"no rule", "a: 1 # instancetype:ignore\n", "1:6 line 1-1\n"},
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
		{"CRLF", "a: 1\r\nb: 2 # instancetype:ignore R9\r\n", "2:6 line 2-2 R9\n"},
		{"a tab before", "a: 1\t# instancetype:ignore R9\n", "1:6 line 1-1 R9\n"},
		{"UTF-8 before the comment", "é: ü # instancetype:ignore R9\n", "1:6 line 1-1 R9\n"},
		// A UTF-16 file is read as kubectl reads it: its comments too.
		{"UTF-16", string(utf16LE("a: 1 # instancetype:ignore R9\n")), "1:6 line 1-1 R9\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := markedComments([]byte(tt.data)); got != tt.want {
				t.Errorf("the comments of %q =\n%s; want\n%s", tt.data, got, tt.want)
			}
		})
	}
}

// utf16LE encodes ASCII text as UTF-16, little-endian, behind its byte order mark.
func utf16LE(s string) []byte {
	out := []byte{0xff, 0xfe}
	for _, c := range []byte(s) {
		out = append(out, c, 0)
	}
	return out
}

// The comments that apply to a document come with it: those of a document of comments
// alone before it and of its "---" line among them. Those of a document kubectl skips
// (null) come with the next; those after the last document are the file's.
func TestDocumentComments(t *testing.T) {
	data := "# instancetype:ignore R1\n---\nkind: InstanceType # instancetype:ignore R2\n--- # instancetype:ignore R3\n" +
		"apiVersion: v1\nkind: Service # instancetype:ignore R4\n---\n# instancetype:ignore R5\n~\n---\nkind: InstanceType\n# instancetype:ignore R6\n---\n# instancetype:ignore R7\n"
	var docs []string
	f := Scan([]byte(data), Options{Marker: marker}, func(d *Document) bool {
		var b strings.Builder
		for _, c := range d.Comments {
			fmt.Fprintf(&b, "%d%s;", c.Line, c.Text)
		}
		docs = append(docs, b.String())
		return true
	})
	if want := []string{"1 R1;3 R2;", "4 R3;6 R4;", "8 R5;12 R6;"}; !slices.Equal(docs, want) {
		t.Errorf("the documents' comments %q; want %q", docs, want)
	}
	if len(f.Comments) != 1 || f.Comments[0].Text != " R7" || f.Comments[0].Line != 14 {
		t.Errorf("the file's comments %+v; want R7, line 14", f.Comments)
	}
}

// FuzzComments holds the marked comments to the YAML reader: for a document it can parse,
// each comment found is one (cutting its text to "#" alone leaves every value as it was:
// the text of a quoted or block scalar is never taken for one), and each comment the
// reader attaches to a node that begins with the marker is found. Arbitrary bytes never
// make Scan panic, nor place a comment outside the file.
//
//	go test -run '^$' -fuzz '^FuzzComments$' -fuzztime 20000x ./source
func FuzzComments(f *testing.F) {
	for _, s := range []string{
		"a: 1 # instancetype:ignore R9\n",
		"# instancetype:ignore R1\na: 1\n# instancetype:ignore R2\nb: \"x # instancetype:ignore R3\"\n",
		"a: |\n  # instancetype:ignore R9\n  x\n# instancetype:ignore R8\nb: 'y # instancetype:ignore R7' # instancetype:ignore R6\n",
		"s:\n  - a: >\n      x # instancetype:ignore R9\n    # instancetype:ignore R8\n  - \"q\n    # instancetype:ignore R4\n    \" # instancetype:ignore R5\n",
		"k: &a \"v # instancetype:ignore R1\" # instancetype:ignore R2\nl: *a\n",
		"\"key # instancetype:ignore R1\": 'value # instancetype:ignore R2'\n",
		"a: |2\n    # instancetype:ignore R1\n  # instancetype:ignore R2\nb: 1\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got []Comment
		file := Scan(data, Options{Marker: marker}, func(d *Document) bool { got = append(got, d.Comments...); return true })
		got = append(got, file.Comments...)
		lines := strings.Split(string(data), "\n")
		for _, c := range got {
			if c.Line < 1 || c.From < 1 || c.To < c.From {
				t.Fatalf("comment %+v out of place in %q", c, data)
			}
		}
		want, ok := readerComments(data)
		if !ok {
			return
		}
		have := map[string]int{}
		stripped := slices.Clone(lines)
		for _, c := range got {
			if c.Line > len(lines) {
				t.Fatalf("comment %+v after the %d lines of %q", c, len(lines), data)
			}
			line := []rune(lines[c.Line-1])
			if c.Column-1 >= len(line) || line[c.Column-1] != '#' {
				t.Fatalf("comment %+v: no # there in %q", c, data)
			}
			have[strings.TrimRight(string(line[c.Column-1:]), " \t")]++
			stripped[c.Line-1] = string(line[:c.Column-1]) + "#" // a comment still, but another
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
				t.Errorf("the YAML reader has the comment %q %d times; Scan found it %d times, in %q", c, n, have[c], data)
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

// readerComments returns the comments yaml.v3 attaches to the nodes of data, a document
// alone, that begin with the marker, counted; and whether data is such a document (one,
// that the reader parses, of plain UTF-8 with line feeds, no flow collections).
func readerComments(data []byte) (map[string]int, bool) {
	s := string(data)
	if !utf8.ValidString(s) || strings.ContainsAny(s, "\r\u0085\u2028\u2029\t{}[]") || strings.Contains(s, "---") || strings.Contains(s, "...") {
		return nil, false
	}
	var doc, more yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil || len(doc.Content) == 0 {
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
				if rest, ok := strings.CutPrefix(strings.TrimLeft(t, " \t"), marker); ok && (rest == "" || strings.ContainsRune(" \t,", rune(rest[0]))) {
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

// Millions of blank lines and separators are read in one pass: the comment above them
// applies to the document after them, at its line.
func TestCommentsOfManyLines(t *testing.T) {
	const blank = 1 << 17
	for _, sep := range []string{"\n", "---\n", "--- # c\n"} {
		data := []byte("# instancetype:ignore R9\n" + strings.Repeat(sep, blank) + "---\na: 1 # instancetype:ignore R8\n")
		want := fmt.Sprintf("1:1 document %d-%d R9\n%d:6 line %d-%d R8\n", blank+3, blank+3, blank+3, blank+3, blank+3)
		if got := markedComments(data); got != want {
			t.Errorf("%q: comments %q; want %q", sep, got, want)
		}
	}
}
