package source

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// doc is what a test expects of a document.
type doc struct {
	at      Position
	value   string // its value as JSON, or "" when refused
	problem string // part of the problem's message, when refused
	line    int    // the problem's line
}

func TestScan(t *testing.T) {
	tests := []struct {
		name     string
		data     string
		reader   Reader
		docs     []doc
		problems []string // parts of the file's problems' messages
		lost     int
	}{
		{name: "documents and separators", data: "a: 1\n---\n--- # c\nb: yes\n---\n# comments alone\n---\nc: 010\n",
			docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}, {at: Position{4, 1}, value: `{"b":true}`}, {at: Position{8, 1}, value: `{"c":8}`}}},
		{name: "an invalid separator loses what came before it", data: "a: 1\n---\nb: 2\n---x\nc: 3\n",
			docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}, {at: Position{5, 1}, value: `{"c":3}`}}, problems: []string{"invalid document separator: ---x"}},
		{name: "CRLF", data: "a: 1\r\n---\r\nb: 2\r\n", docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}, {at: Position{3, 1}, value: `{"b":2}`}}},
		{name: "a syntax error ends its document only", data: "a: b: c\n---\nd: 1\n",
			docs: []doc{{at: Position{1, 1}, problem: "mapping values are not allowed", line: 1}, {at: Position{3, 1}, value: `{"d":1}`}}},
		// The parser names the line of the token it did not expect counting from 0, the
		// scanner from 1: each is the offending line.
		{name: "the line of the parser's message", data: "x: 1\n---\na:\n  - 1\n - 2\n",
			docs: []doc{{at: Position{1, 1}, value: `{"x":1}`}, {at: Position{3, 1}, problem: "did not find expected key", line: 5}}},
		{name: "the line of the scanner's message", data: "x: 1\n---\na: 1\nb: &\n",
			docs: []doc{{at: Position{1, 1}, value: `{"x":1}`}, {at: Position{3, 1}, problem: "did not find expected alphabetic or numeric character", line: 4}}},
		{name: "an unknown anchor, where it is used", data: "a: 1\nb: *x\n", docs: []doc{{at: Position{1, 1}, problem: "unknown anchor 'x' referenced: an alias", line: 2}}},
		{name: "a value kubectl cannot send", data: "a: 1\nb:\n  c: .inf\n", docs: []doc{{at: Position{1, 1}, problem: ".inf has no JSON form", line: 3}}},
		{name: "a JSON stream", data: `{"a": 1} {"b": [2]}` + "\n" + `  {"c": "\u00e9"}`,
			docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}, {at: Position{1, 10}, value: `{"b":[2]}`}, {at: Position{2, 3}, value: `{"c":"é"}`}}},
		{name: "JSON, then YAML", data: "{\"a\": 1}\nb: 2\n---\nc: 3\n",
			docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}, {at: Position{2, 1}, value: `{"b":2}`}, {at: Position{4, 1}, value: `{"c":3}`}}},
		{name: "two JSON values, then what is not JSON", data: "{\"a\": 1}{\"b\": 2}\nc: 3\n",
			docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}, {at: Position{1, 9}, value: `{"b":2}`}}, problems: []string{"JSON syntax error: invalid character 'c'"}},
		{name: "a { behind 4,096 blanks is YAML", data: strings.Repeat(" ", 4096) + "{\"a\": 1}\n", docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}}},
		{name: "UTF-16 with its mark", data: "\xff\xfea\x00:\x00 \x001\x00\n\x00", docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}}},
		{name: "a UTF-8 mark", data: "\xef\xbb\xbfa: 1\n", docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}}},
		{name: "invalid UTF-8 is U+FFFD", data: "a: \xff\n", docs: []doc{{at: Position{1, 1}, value: `{"a":"` + "\ufffd" + `"}`}}},
		{name: "UTF-32", data: "\xff\xfe\x00\x00a\x00\x00\x00", problems: []string{"UTF-32 (little-endian"}},
		{name: "UTF-16 without its mark", data: "a\x00:\x00 \x001\x00", problems: []string{"UTF-16 (little-endian) without a byte order mark"}},
		{name: "the last line kubectl loses", data: "a: 1\n---\nb: " + strings.Repeat("x", 4093), lost: 3,
			docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}}, problems: []string{"kubectl ignores this line"}},
		{name: "read plainly, nothing is lost", data: "a: 1\n---\nb: " + strings.Repeat("x", 4093), reader: Plain,
			docs: []doc{{at: Position{1, 1}, value: `{"a":1}`}, {at: Position{3, 1}, value: `{"b":"` + strings.Repeat("x", 4093) + `"}`}}},
		{name: "a null document is skipped", data: "~\n---\na: 1\n", docs: []doc{{at: Position{3, 1}, value: `{"a":1}`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []doc
			f := Scan([]byte(tt.data), Options{Reader: tt.reader}, func(d *Document) bool {
				g := doc{at: d.Position}
				if d.Problem != nil {
					g.problem, g.line = d.Problem.Message, d.Problem.Line
				} else {
					b, _ := json.Marshal(d.Value)
					g.value = string(b)
				}
				got = append(got, g)
				return true
			})
			if len(got) != len(tt.docs) {
				t.Fatalf("Scan(%q): %d documents %+v, want %d %+v", tt.data, len(got), got, len(tt.docs), tt.docs)
			}
			for i, w := range tt.docs {
				g := got[i]
				if g.at != w.at || g.value != w.value || !strings.Contains(g.problem, w.problem) || w.problem != "" && g.line != w.line || w.problem == "" && g.problem != "" {
					t.Errorf("document %d: %+v, want %+v", i, g, w)
				}
			}
			if len(f.Problems) != len(tt.problems) {
				t.Fatalf("problems %+v, want %q", f.Problems, tt.problems)
			}
			for i, p := range tt.problems {
				if !strings.Contains(f.Problems[i].Message, p) {
					t.Errorf("problem %d: %q, want %q in it", i, f.Problems[i].Message, p)
				}
			}
			if f.LostLine != tt.lost {
				t.Errorf("LostLine %d, want %d", f.LostLine, tt.lost)
			}
		})
	}
}

func TestPositionOf(t *testing.T) {
	data := "a: 1\n---\n# c\nmetadata:\n  name: x\n  labels: {k: v, \"a.b/c\": w}\nitems:\n- x\n- y: [1, 2]\n---\n{\"p\": {\"q\": 1},\n \"r\": 2}\n"
	var docs []*Document
	Scan([]byte(data), Options{}, func(d *Document) bool { docs = append(docs, d); return true })
	tests := []struct {
		doc  int
		path string
		want Position
	}{
		{1, "metadata.name", Position{5, 3}},
		{1, "metadata.labels[k]", Position{6, 12}},
		{1, "metadata.labels[a.b/c]", Position{6, 18}},
		{1, "metadata.labels[missing]", Position{6, 3}},
		{1, "items[1].y[1]", Position{9, 10}},
		{1, "items[7]", Position{7, 1}},
		{1, "", Position{4, 1}},
		{1, "nothing.here", Position{4, 1}},
		{2, "p.q", Position{11, 8}},
		{2, "r", Position{12, 2}},
	}
	for _, tt := range tests {
		if got := docs[tt.doc].PositionOf(tt.path); got != tt.want {
			t.Errorf("document %d: PositionOf(%q) = %v, want %v", tt.doc, tt.path, got, tt.want)
		}
	}
	if s, ok := docs[1].Scalar("metadata.labels[k]"); !ok || s.Value != "v" || s.Tag != "!!str" || s.Quoted {
		t.Errorf("Scalar(metadata.labels[k]) = %+v, %v", s, ok)
	}
}

func TestDuplicates(t *testing.T) {
	data := "a: 1\nb:\n  c: 1\n  c: 2\nbase: &x {d: 1}\nm: {<<: *x, d: 2}\nl: {<<: *x, <<: *x}\n"
	var d *Document
	Scan([]byte(data), Options{}, func(x *Document) bool { d = x; return false })
	if !d.HasDuplicates() {
		t.Fatal("HasDuplicates() = false")
	}
	got := d.Duplicates()
	want := []Duplicate{
		{Path: []PathStep{{Key: "b"}}, Key: "c", At: Position{4, 3}, First: Position{3, 3}},
		{Path: []PathStep{{Key: "l"}}, Key: "<<", Merge: true, At: Position{7, 13}, First: Position{7, 5}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Duplicates() = %+v, want %+v", got, want)
	}
}

func TestComments(t *testing.T) {
	data := "# instancetype:ignore R1\n---\na: 1 # instancetype:ignore R2 -- why\n# instancetype:ignore R3\nb: \"# instancetype:ignore R4\"\nc: |\n  # instancetype:ignore R5\n--- # instancetype:ignore R6\nd: 1\n# instancetype:ignore R7\n\ne: 2\n---\n# instancetype:ignore R8\n"
	var docs []*Document
	f := Scan([]byte(data), Options{Marker: "instancetype:ignore"}, func(d *Document) bool { docs = append(docs, d); return true })
	type c struct {
		text     string
		scope    Scope
		line     int
		from, to int
	}
	var got [][]c
	for _, d := range docs {
		var cs []c
		for _, x := range d.Comments {
			cs = append(cs, c{x.Text, x.Scope, x.Line, x.From, x.To})
		}
		got = append(got, cs)
	}
	want := [][]c{
		{{" R1", ScopeDocument, 1, 3, 7}, {" R2 -- why", ScopeLine, 3, 3, 3}, {" R3", ScopeNextLine, 4, 5, 5}},
		{{" R6", ScopeDocument, 8, 9, 12}, {" R7", ScopeNextLine, 10, 11, 11}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("comments %+v,\nwant %+v", got, want)
	}
	if len(f.Comments) != 1 || f.Comments[0].Text != " R8" || f.Comments[0].From != 14 {
		t.Errorf("the file's comments %+v, want R8 on line 14", f.Comments)
	}
}

// The reader keeps the "---" lines a document begins with in its text (it ends a document
// at a "---" line only when it holds a line): positions still count from the file's start,
// and a comment on such a line is the document's.
func TestLeadingSeparators(t *testing.T) {
	data := "--- # instancetype:ignore R1\n---\na: 1\nb: 2\n---\nc: 3\n"
	var docs []*Document
	Scan([]byte(data), Options{Marker: "instancetype:ignore"}, func(d *Document) bool { docs = append(docs, d); return true })
	if len(docs) != 2 || docs[0].Line != 3 || docs[1].Line != 6 {
		t.Fatalf("documents at %v", docs)
	}
	if got := docs[0].PositionOf("b"); got != (Position{4, 1}) {
		t.Errorf("PositionOf(b) = %v, want 4:1", got)
	}
	if got := docs[1].PositionOf("c"); got != (Position{6, 1}) {
		t.Errorf("PositionOf(c) = %v, want 6:1", got)
	}
	if c := docs[0].Comments; len(c) != 1 || c[0].Scope != ScopeDocument || c[0].Line != 1 || c[0].From != 3 || c[0].To != 4 {
		t.Errorf("comments %+v, want R1 of the document, lines 3 to 4", c)
	}
}
