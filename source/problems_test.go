package source

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Each problem is placed where it is: the offending line (and, in JSON, character), not
// the document's first line or the end of the value before it.
func TestProblemPositions(t *testing.T) {
	for _, tt := range []struct {
		name, data string
		want       Position
		says       string
	}{
		// kubectl's decoder reports a JSON error at an offset from the end of the value
		// before it, wrapped before two values are read and not after.
		{"a JSON syntax error after two values", "{\"a\": 1}\n{\"b\": 2}\n{bad\n", Position{3, 2}, "invalid character 'b'"},
		{"a JSON syntax error on the line of two values", `{"a": 1} {"b": 2} {"c": [}`, Position{1, 26}, "invalid character '}'"},
		{"a second JSON value, then ---", "{\"a\": 1}\n[1]\n---\nb: 2\n", Position{3, 2}, "in numeric literal"},
		// kubectl's decoder converts every number of a JSON object to an int64 or a float64,
		// and refuses the object when it cannot (1e-400 is 0 to it).
		{"a JSON number beyond a float's range", "{\"a\": 1e-400,\n \"b\": [1, -1e400]}\n", Position{2, 11}, "the number -1e400 is beyond the range of a 64-bit float"},
		// What the YAML reader refuses without naming a line, at the node.
		{"a merge of a scalar", "a: 1\nm:\n  <<: 1\n  b: 2\n", Position{3, 1}, "map merge requires map or sequence of maps"},
		{"a merge of a list holding a scalar", "a: 1\nm:\n  b: 2\n  <<: [{c: 1}, 2]\n", Position{4, 1}, "map merge requires map or sequence of maps"},
		{"a merge of an alias to a scalar", "a: &x 1\nm:\n  b: 2\n  <<: *x\n", Position{4, 1}, "map merge requires map or sequence of maps"},
		{"a tag that does not fit", "a: 1\nb:\n  c: {d: !!int x}\n", Position{3, 1}, "cannot decode !!str `x` as a !!int"},
		{"a !!binary that is not base64", "a: 1\nb: !!binary A\n", Position{2, 1}, "invalid base64 data"},
	} {
		var problems []Problem
		f := Scan([]byte(tt.data), Options{}, func(d *Document) bool {
			if d.Problem != nil {
				problems = append(problems, *d.Problem)
			}
			return true
		})
		problems = append(problems, f.Problems...)
		if len(problems) != 1 || problems[0].Position != tt.want || !strings.Contains(problems[0].Message, tt.says) {
			t.Errorf("%s: Scan(%q) problems %+v; want one at %v saying %q", tt.name, tt.data, problems, tt.want, tt.says)
		}
	}
}

// A long JSON list is refused at an item that holds a number kubectl's decoder cannot
// convert: the items before it are read, and ItemsProblem says why no more are.
func TestLongJSONListNumberBeyondFloat(t *testing.T) {
	data := "{\"kind\": \"List\", \"items\": [\n {\"a\": 1},\n {\"b\": 1e999},\n {\"c\": 1}]}\n"
	var d *Document
	Scan([]byte(data), Options{LongList: 10}, func(x *Document) bool { d = x; return false })
	if !d.Long() {
		t.Fatal("not read item by item")
	}
	var read []int
	d.Items(func(i int, _ any) bool { read = append(read, i); return true })
	p := d.ItemsProblem()
	if len(read) != 1 || p == nil || p.Kind != Refused || p.Position != (Position{3, 8}) {
		t.Errorf("items read %v, problem %+v; want item 0, and the number refused at 3:8", read, p)
	}
}

// Items hands over at most MaxItems items of a list, however it is read, and ItemsProblem
// then says why no more are, at the item past the limit.
func TestMaxItems(t *testing.T) {
	defer func(n int) { maxItems = n }(maxItems)
	maxItems = 3
	yamlList := "kind: List\nitems:\n- a\n- b\n- c\n- d\n- e\n"
	for _, tt := range []struct {
		name, data string
		opts       Options
		lower      bool // the limits on a document read whole lowered: read in lazy runs
		at         Position
	}{
		{"read whole", yamlList, Options{}, false, Position{6, 3}},
		{"item by item", yamlList, Options{LongList: 10}, false, Position{6, 3}},
		{"item by item, too long to read whole", "kind: List\nitems:\n" + strings.Repeat("- "+strings.Repeat("a", 30)+"\n", 5), Options{}, true, Position{6, 3}},
		{"JSON, item by item", "{\"kind\": \"List\", \"items\": [1, 2, 3, 4, 5]}\n", Options{LongList: 10}, false, Position{1, 37}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.lower {
				defer lowerLimits()()
			}
			var d *Document
			Scan([]byte(tt.data), tt.opts, func(x *Document) bool { d = x; return false })
			if d.Long() != (tt.opts.LongList > 0 || tt.lower) {
				t.Fatalf("Long() = %v", d.Long())
			}
			var read []int
			d.Items(func(i int, _ any) bool { read = append(read, i); return true })
			p := d.ItemsProblem()
			if len(read) != 3 || p == nil || p.Kind != Limit || p.Position != tt.at || !strings.Contains(p.Message, "has 5 items, more than 3") {
				t.Errorf("items %v, problem %+v; want 3, and a limit at %v", read, p, tt.at)
			}
		})
	}
}

// A JSON stream's values are encoding/json's: escapes decoded (a lone surrogate is
// U+FFFD), numbers as written; each document and value is placed where it is written.
func TestJSONStreamValues(t *testing.T) {
	data := " \n" + `{"apiVersion": "amlarc.azureml.com\/v1alpha1", "kind": "InstanceType",
 "metadata": {"name": "j\u00e9", "labels": {"pair": "\ud83d\ude00", "lone": "\ud83d", "tab": "a\tb"}},
 "spec": {"resources": {"requests": {"cpu": 1.50, "memory": 1e3}}}}
{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "second"}}`
	var docs []*Document
	f := Scan([]byte(data), Options{}, func(d *Document) bool { docs = append(docs, d); return true })
	if len(docs) != 2 || len(f.Problems) != 0 || docs[0].Problem != nil || docs[1].Problem != nil {
		t.Fatalf("%d documents, problems %v; want 2 read", len(docs), f.Problems)
	}
	first := docs[0].Value.(map[string]any)
	meta := first["metadata"].(map[string]any)
	if first["apiVersion"] != "amlarc.azureml.com/v1alpha1" || meta["name"] != "jé" {
		t.Errorf("apiVersion %q, name %q; want escapes decoded", first["apiVersion"], meta["name"])
	}
	if got, want := meta["labels"], map[string]any{"pair": "😀", "lone": "\uFFFD", "tab": "a\tb"}; !reflect.DeepEqual(got, want) {
		t.Errorf("labels = %q; want %q", got, want)
	}
	req := first["spec"].(map[string]any)["resources"].(map[string]any)["requests"].(map[string]any)
	if req["cpu"] != json.Number("1.50") || req["memory"] != json.Number("1e3") {
		t.Errorf("requests = %v; want the numbers as written, 1.50 and 1e3", req)
	}
	for _, tt := range []struct {
		doc  int
		path string
		want Position
	}{
		{0, "", Position{2, 1}},
		{0, "spec.resources.requests[memory]", Position{4, 51}},
		{1, "", Position{5, 1}},
		{1, "metadata.name", Position{5, 84}},
	} {
		if got := docs[tt.doc].PositionOf(tt.path); got != tt.want {
			t.Errorf("document %d: PositionOf(%q) = %v; want %v", tt.doc, tt.path, got, tt.want)
		}
	}
}
