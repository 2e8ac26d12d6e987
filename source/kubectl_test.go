package source

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	xunicode "golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"pgregory.net/rapid"
)

// kubectlReads is what kubectl reads of a file, by its own code: cli-runtime's FileVisitor
// decodes the bytes with x/text's BOMOverride over UTF-8, and its StreamVisitor decodes
// runtime.RawExtensions with apimachinery's YAMLOrJSONDecoder (4,096 bytes), trims them,
// skips the empty and null ones, and stops at the first error; it then decodes each as an
// unstructured object, which refuses one whose numbers are neither int64 nor float64
// (refusedObject). The values are decoded as Scan decodes them (encoding/json,
// json.Number).
func kubectlReads(data []byte) (values []any, stopped bool) {
	r := transform.NewReader(bytes.NewReader(data), xunicode.BOMOverride(xunicode.UTF8.NewDecoder()))
	d := utilyaml.NewYAMLOrJSONDecoder(r, 4096)
	for {
		var ext runtime.RawExtension
		if err := d.Decode(&ext); err != nil {
			return values, err != io.EOF
		}
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		v, err := jsonValue(raw)
		if err != nil {
			panic(err) // kubectl's decoder gave JSON
		}
		// Then the visitor decodes each object as unstructured, with
		// k8s.io/apimachinery/pkg/util/json, which converts every number to an int64 or a
		// float64, and refuses the object when it cannot.
		var obj any
		if utiljson.Unmarshal(raw, &obj) != nil {
			v = refusedObject{}
		}
		values = append(values, v)
	}
}

// refusedObject is a document kubectl reads, and refuses when it decodes it (a number
// beyond a float's range).
type refusedObject struct{}

// scanned is what Scan reads of a file: each document's value (a long list's items put
// back in its mapping), or its problem.
type scanned struct {
	values   []any
	problems []*Problem // per document, nil when read
	file     []Problem
}

func scanAll(data []byte, opts Options) scanned {
	var s scanned
	f := Scan(data, opts, func(d *Document) bool {
		v := d.Value
		if d.Long() {
			m := map[string]any{}
			for k, x := range d.Value.(map[string]any) {
				m[k] = x
			}
			items := []any{}
			d.Items(func(_ int, item any) bool { items = append(items, item); return true })
			m["items"] = items
			v = m
		}
		s.values = append(s.values, v)
		if p := d.ItemsProblem(); p != nil {
			// A list too long to read whole whose runs do not read alone: a limit.
			s.problems = append(s.problems, p)
			return true
		}
		s.problems = append(s.problems, d.Problem)
		return true
	})
	s.file = f.Problems
	return s
}

// agree reports how Scan's reading of data differs from kubectl's: every document kubectl
// reads, Scan reads with the same value, until kubectl stops (where Scan must have a
// problem) or Scan refuses a document for one of its own limits.
func agree(data []byte) error {
	// Lists of a few items read item by item, in runs converted before any item is handed
	// over (and the whole read when one does not read alone), then runs converted as they
	// are reached (lists too long to read whole, the limits lowered).
	if err := agreeWith(data, Options{Reader: Kubectl, Marker: "instancetype:ignore", LongList: 60}); err != nil {
		return fmt.Errorf("item by item: %w", err)
	}
	defer lowerLimits()()
	if err := agreeWith(data, Options{Reader: Kubectl, Marker: "instancetype:ignore"}); err != nil {
		return fmt.Errorf("item by item, too long to read whole: %w", err)
	}
	return nil
}

func agreeWith(data []byte, opts Options) error {
	want, stopped := kubectlReads(data)
	got := scanAll(data, opts)
	for i, w := range want {
		if i >= len(got.values) {
			if limited(got) {
				return nil
			}
			return fmt.Errorf("kubectl reads document %d, %s; Scan has %d documents (file problems %v)", i, show(w), len(got.values), got.file)
		}
		if _, refused := w.(refusedObject); refused {
			if got.problems[i] == nil {
				return fmt.Errorf("kubectl refuses document %d as it decodes it; Scan reads %s", i, show(got.values[i]))
			}
			continue
		}
		if p := got.problems[i]; p != nil {
			if p.Kind == Limit {
				return nil
			}
			return fmt.Errorf("kubectl reads document %d, %s; Scan refuses it: %+v", i, show(w), *p)
		}
		if !reflect.DeepEqual(got.values[i], w) && !oneOf(data, i, got.values[i]) {
			return fmt.Errorf("document %d: kubectl reads %s, Scan %s", i, show(w), show(got.values[i]))
		}
	}
	if stopped {
		n := len(want)
		if n < len(got.problems) && got.problems[n] != nil || len(got.file) > 0 {
			return nil
		}
		return fmt.Errorf("kubectl stops after %d documents; Scan reads on without a problem (%d documents)", n, len(got.values))
	}
	if len(got.values) > len(want) && (got.problems[len(want)] == nil || got.problems[len(want)].Kind != Limit) {
		return fmt.Errorf("kubectl reads %d documents, Scan %d: %s", len(want), len(got.values), show(got.values[len(want)]))
	}
	return nil
}

// oneOf reports whether kubectl reads document i of data as v in one of many readings: two
// keys it reads as different values (9 and 09, a float) may make one JSON key, of which
// it keeps one at random.
func oneOf(data []byte, i int, v any) bool {
	for range 100 {
		if vs, _ := kubectlReads(data); i < len(vs) && reflect.DeepEqual(vs[i], v) {
			return true
		}
	}
	return false
}

func limited(s scanned) bool {
	for _, p := range s.file {
		if p.Kind == Limit {
			return true
		}
	}
	return false
}

func show(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 300 {
		b = append(b[:300], "..."...)
	}
	return string(b)
}

// The files of testdata/kubectl: the cases of YAML kubectl reads otherwise than a newer
// reader would, and the oddities of its cut, each a file of documents separated by a line
// "####" (the documents of one case may hold "---" lines of their own).
func TestScanAgreesWithKubectlOnCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/kubectl/*")
	if len(files) == 0 {
		t.Fatal("no corpus")
	}
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range bytes.Split(data, []byte("####\n")) {
			n++
			if err := agree(c); err != nil {
				t.Errorf("%s, case %d (%q): %v", file, i+1, c, err)
			}
		}
	}
	t.Logf("%d cases", n)
}

// TestScanAgreesWithKubectl: documents drawn from a grammar of YAML and JSON streams:
// separators valid and not, JSON values followed by more JSON or by YAML, anchors and
// aliases, merges, YAML 1.1 scalars, quoted and block scalars across lines, comments,
// CRLF, lines near 4,096 bytes without a line break at the end, byte order marks; and
// lists long enough to be read item by item (the limits lowered), whose items hold what
// could make a part read unlike the whole.
func TestScanAgreesWithKubectl(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		data := streamGen().Draw(t, "data")
		if err := agree(data); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
	})
}

func FuzzScan(f *testing.F) {
	files, _ := filepath.Glob("testdata/kubectl/*")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		for _, c := range bytes.Split(data, []byte("####\n")) {
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := agree(data); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
	})
}

// lowerLimits makes every list of a few items long, read in runs of about two items, and
// returns what puts the limits back.
func lowerLimits() func() {
	md, mn, cs := maxDocument, maxNodes, chunkSize
	maxDocument, maxNodes, chunkSize = 120, 40, 40
	return func() { maxDocument, maxNodes, chunkSize = md, mn, cs }
}

// streamGen draws a file: documents, separated by separators.
func streamGen() *rapid.Generator[[]byte] {
	return rapid.Custom(func(t *rapid.T) []byte {
		var b bytes.Buffer
		switch rapid.IntRange(0, 9).Draw(t, "mark") {
		case 0:
			b.WriteString("\ufeff")
		case 1:
			// UTF-16 is drawn as the whole file, below.
		}
		if rapid.IntRange(0, 3).Draw(t, "json") == 0 {
			for n := rapid.IntRange(1, 3).Draw(t, "values"); n > 0; n-- {
				b.WriteString(rapid.SampledFrom([]string{`{"a": 1}`, `{"a": [1, "x"], "a": 2}`, `{"items": [{"b": 1}, {"b": 2}, {"b": 3}]}`, `{}`, ` {"c": "\u00e9"}`, `[1]`, `null`, `"s"`}).Draw(t, "value"))
				b.WriteString(rapid.SampledFrom([]string{"", "\n", " ", "\n\n", "\r\n"}).Draw(t, "space"))
			}
		}
		for n := rapid.IntRange(0, 4).Draw(t, "docs"); n > 0; n-- {
			b.WriteString(rapid.SampledFrom([]string{"---\n", "--- # c\n", "---x\n", "", "---\n---\n", "--- \n"}).Draw(t, "separator"))
			b.Write(yamlDocGen().Draw(t, "doc"))
		}
		data := b.Bytes()
		if rapid.IntRange(0, 5).Draw(t, "crlf") == 0 {
			data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
		}
		switch rapid.IntRange(0, 9).Draw(t, "end") {
		case 0:
			data = bytes.TrimRight(data, "\n")
		case 1:
			// A last line without a line break, 4,096 bytes long.
			data = append(data, "x: "...)
			data = append(data, strings.Repeat("y", 4096-3)...)
		}
		if rapid.IntRange(0, 19).Draw(t, "utf16") == 0 {
			data = toUTF16(data)
		}
		return data
	})
}

// yamlDocGen draws a YAML document: a mapping of a few keys, or a list of items.
func yamlDocGen() *rapid.Generator[[]byte] {
	return rapid.Custom(func(t *rapid.T) []byte {
		var b bytes.Buffer
		if rapid.Bool().Draw(t, "comment") {
			b.WriteString("# a comment # instancetype:ignore R1\n")
		}
		keys := rapid.IntRange(0, 3).Draw(t, "keys")
		odd := rapid.IntRange(0, 3).Draw(t, "odd") == 0 // keys that keep a list from being cut
		for i := range keys {
			key := rapid.SampledFrom([]string{"apiVersion", "kind", "a", "b", "a", "1"}).Draw(t, "key")
			if odd {
				key = rapid.SampledFrom([]string{"<<", "? k\n", "\"q\"", "{f: 1}"}).Draw(t, "oddKey")
			}
			fmt.Fprintf(&b, "%s: %s\n", key, scalarGen().Draw(t, fmt.Sprint("v", i)))
		}
		if rapid.Bool().Draw(t, "list") {
			indent := rapid.SampledFrom([]string{"", "  "}).Draw(t, "indent")
			b.WriteString("items:" + rapid.SampledFrom([]string{"", " # c"}).Draw(t, "itemsComment") + "\n")
			for n := rapid.IntRange(1, 12).Draw(t, "items"); n > 0; n-- {
				b.WriteString(indent + "- " + itemGen(indent).Draw(t, "item"))
			}
			for i := range rapid.IntRange(0, 2).Draw(t, "trailer") {
				fmt.Fprintf(&b, "%s: %s\n", rapid.SampledFrom([]string{"kind", "metadata", "items", "z"}).Draw(t, "tkey"), scalarGen().Draw(t, fmt.Sprint("t", i)))
			}
		}
		return b.Bytes()
	})
}

// itemGen draws an item of a list, after its "- ", at the list's indentation.
func itemGen(indent string) *rapid.Generator[string] {
	return rapid.Custom(func(t *rapid.T) string {
		in := indent + "  "
		switch rapid.IntRange(0, 19).Draw(t, "shape") {
		case 0:
			return "&x {a: 1}\n"
		case 1:
			return "*x\n"
		case 2:
			return "a: \"two\n" + indent + "- lines\"\n"
		case 3:
			return "a: |\n" + in + "  block\n" + in + "  - not an item\n"
		case 4:
			return "[1,\n" + indent + "- 2]\n"
		case 5:
			return "{<<: *x, b: 2}\n"
		case 6:
			return "name: a\n" + in + "name: b\n"
		case 7:
			return "'quoted\n\n" + indent + "- x'\n"
		}
		return "name: " + scalarGen().Draw(t, "name") + "\n" + in + "spec: {cpu: " + scalarGen().Draw(t, "cpu") + "}\n"
	})
}

// scalarGen draws a scalar as YAML 1.1 reads it: kubectl's typing of each is what the
// comparison holds.
func scalarGen() *rapid.Generator[string] {
	return rapid.SampledFrom([]string{"x", "yes", "on", "010", "0x1F", "1_000", "1e3", ".5", "~", "null", `"q"`, "'s'", "!!str 1", "!!int x",
		".inf", "[a, b]", "{c: d}", "2001-12-14", "&y 1", "*y", "*z", "12345678901234567890", "a: b", "- x", "|\n  text", "\"\\u00e9\"", "\t1", "# c"})
}

func toUTF16(data []byte) []byte {
	out, _, err := transform.Bytes(xunicode.UTF16(xunicode.LittleEndian, xunicode.UseBOM).NewEncoder(), bytes.ToValidUTF8(data, []byte("?")))
	if err != nil {
		return data
	}
	return out
}

// TestLongListAgreesWithKubectl: lists read item by item, in runs of a few items, are read
// as kubectl reads them whole; those with nothing that keeps them from being cut (anchors,
// quoted or flow scalars across items) are cut.
func TestLongListAgreesWithKubectl(t *testing.T) {
	defer lowerLimits()()
	rapid.Check(t, func(t *rapid.T) {
		var b bytes.Buffer
		b.WriteString("apiVersion: v1\nkind: List\n")
		indent := rapid.SampledFrom([]string{"", "  "}).Draw(t, "indent")
		b.WriteString("items:\n")
		traps := false
		for i := range rapid.IntRange(2, 20).Draw(t, "items") {
			if rapid.IntRange(0, 9).Draw(t, "trap") == 0 {
				traps = true
				b.WriteString(indent + "- " + itemGen(indent).Draw(t, "item"))
				continue
			}
			fmt.Fprintf(&b, "%s- metadata:\n%s    name: n%d\n%s  spec: {cpu: %s}\n", indent, indent, i, indent, rapid.SampledFrom([]string{"1", "\"2\"", "yes", "010"}).Draw(t, "cpu"))
			if rapid.Bool().Draw(t, "comment") {
				b.WriteString("# a comment\n\n")
			}
		}
		if rapid.Bool().Draw(t, "trailer") {
			b.WriteString("metadata:\n  resourceVersion: \"\"\n")
		}
		data := b.Bytes()
		if err := agree(data); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		if !traps && (len(data) > maxDocument || nodeBound(data) > maxNodes) {
			var long *Document
			Scan(data, Options{}, func(d *Document) bool { long = d; return false })
			if !long.Long() {
				t.Fatalf("%q: not read item by item", data)
			}
			// Positions in it are those of the same document read whole.
			md, mn := maxDocument, maxNodes
			maxDocument, maxNodes = MaxDocument, MaxNodes
			defer func() { maxDocument, maxNodes = md, mn }()
			var whole *Document
			Scan(data, Options{}, func(d *Document) bool { whole = d; return false })
			for i := range long.ItemCount() {
				for _, p := range []string{"items[" + itoa(i) + "]", "items[" + itoa(i) + "].metadata.name", "items[" + itoa(i) + "].spec[cpu]", "items[" + itoa(i) + "].spec.missing"} {
					if got, want := long.PositionOf(p), whole.PositionOf(p); got != want {
						t.Fatalf("%q: PositionOf(%s) = %v read item by item, %v read whole", data, p, got, want)
					}
				}
				if got, want := long.ItemPosition(i), whole.PositionOf("items["+itoa(i)+"]"); got != want {
					t.Fatalf("%q: ItemPosition(%d) = %v, want %v", data, i, got, want)
				}
			}
		}
	})
}
