package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"go.yaml.in/yaml/v3"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	sigsyaml "sigs.k8s.io/yaml"
)

// The oracle: for every document of a file, the JSON value this package reads equals what
// kubectl sends — sigs.k8s.io/yaml.YAMLToJSON of the document as kubectl's YAML reader cuts
// it, or, for a file kubectl reads as JSON, what encoding/json reads — or both refuse it.

// ours is what this package reads of one document.
type ours struct {
	line    int
	value   any  // the JSON value; nil for a document refused
	refused bool // a syntax error, or a problem for which kubectl refuses the document
	// stricter is set when the refusal is a syntax error of go.yaml.in/yaml/v3 or one of
	// this package's own limits (on size, nesting, aliases): the one deliberate class of
	// difference. go.yaml.in/yaml/v3 refuses some malformed text that kubectl's older
	// parser reads; a finding there is never a different value read silently.
	stricter bool
	random   bool // two keys kubectl reads as different values make one JSON key
	manifest bool // a document this package checks: an InstanceType, a workload
}

// ourYAML reads the YAML documents of data as Parse does.
func ourYAML(data []byte) (chunks []chunk, docs []ours) {
	for c := range yamlChunks(data, func(int, string) {}) {
		chunks = append(chunks, c)
		n, d, problem := parseChunk("oracle", c)
		o := ours{line: c.line}
		switch {
		case problem != nil:
			o.refused, o.stricter = true, problem.Type == InputLimit || problem.Type == SyntaxError
		case n == nil:
			o.value = nil // empty: kubectl reads null
		default:
			o.value = d.value(n)
			d.unreported(n) // what the walk of the value did not meet, as Parse reports it
			o.refused, o.random = d.refusal, d.collision
			kind, _, problem := recognise(n)
			o.manifest = kind != "" || problem != nil
			if d.overflow || d.tooDeep != nil {
				o.refused, o.stricter = true, true
			}
		}
		docs = append(docs, o)
	}
	return chunks, docs
}

// kubectlText is a file's text as kubectl reads it: through a decoder that honours a byte
// order mark (UTF-16 in either order, UTF-8) and reads anything else as UTF-8, replacing
// invalid bytes with U+FFFD.
func kubectlText(data []byte) []byte {
	text, err := io.ReadAll(transform.NewReader(bytes.NewReader(data), unicode.BOMOverride(unicode.UTF8.NewDecoder())))
	if err != nil {
		panic(err) // reading from memory
	}
	return text
}

// kubectlChunk is a document we cut from the text of the file data as kubectl's reader has
// that text: the file's byte order mark is behind both, and invalid UTF-8, which we keep
// (and report), is U+FFFD to kubectl's UTF-8 decoder, but not behind a UTF-8 mark, after
// which kubectl decodes nothing. A U+FEFF in the text is kept, as both keep it.
func kubectlChunk(data, chunk []byte) []byte {
	if bytes.HasPrefix(data, []byte{0xef, 0xbb, 0xbf}) {
		return chunk
	}
	text, err := io.ReadAll(transform.NewReader(bytes.NewReader(chunk), unicode.UTF8.NewDecoder()))
	if err != nil {
		panic(err) // reading from memory
	}
	return text
}

// theirYAML cuts data as kubectl does and converts each document with YAMLToJSON. It stops
// at a separator kubectl refuses.
func theirYAML(data []byte) (chunks [][]byte, values []any, errs []error) {
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(kubectlText(data))))
	for {
		doc, err := r.Read()
		if err != nil { // the end, or a separator kubectl refuses
			return chunks, values, errs
		}
		chunks = append(chunks, doc)
		j, err := sigsyaml.YAMLToJSON(doc)
		var v any
		if err == nil {
			dec := json.NewDecoder(bytes.NewReader(j))
			dec.UseNumber()
			err = dec.Decode(&v)
		}
		values = append(values, v)
		errs = append(errs, err)
	}
}

// reporter is what the oracle reports through: a *testing.T or a *rapid.T.
type reporter interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// checkOracle compares the two readings of data.
func checkOracle(t reporter, data []byte) {
	t.Helper()
	text, problem := decodeText(data)
	if problem != nil && !problem.fatal {
		// UTF-16 cut in the middle of a character: kubectl reads U+FFFD there, we drop
		// the byte; either way the file is wrong, and we say so.
		found := false
		for _, x := range Parse("oracle", data).Errors {
			found = found || x.Type == SyntaxError && strings.Contains(x.Message(), "UTF-16")
		}
		if !found {
			t.Errorf("a file of UTF-16 cut in the middle of a character, and no finding about it")
		}
		return
	}
	if problem != nil {
		// An encoding kubectl does not read (UTF-32, UTF-16 without a mark), which we
		// report: kubectl must send no object either.
		_, values, errs := theirYAML(data)
		for i, v := range values {
			if _, ok := v.(map[string]any); ok && errs[i] == nil {
				t.Errorf("we refuse the file (%s); kubectl reads document %d: %#v", problem.detail, i, v)
			}
		}
		refusedHaveFindings(t, data)
		return
	}
	if isJSON(text) {
		checkOracleJSON(t, data)
		return
	}
	// kubectl's line reader may lose the last line (see dropLostLine); Parse says so.
	text, lost := dropLostLine(text, bytes.HasPrefix(data, utf8Mark))
	if lost > 0 && !hasSyntaxErrorAt(Parse("oracle", data), lost) {
		t.Errorf("kubectl loses line %d, and no finding there", lost)
	}
	ourChunks, got := ourYAML(text)
	theirChunks, want, errs := theirYAML(data)
	if len(theirChunks) > len(ourChunks) {
		t.Fatalf("kubectl cuts %d documents, we %d", len(theirChunks), len(ourChunks))
	}
	for i := range theirChunks {
		// kubectl's line reader ends every line with "\n"; ours keeps the text. kubectl's
		// reader replaces invalid UTF-8 with U+FFFD where ours keeps the bytes (and reports
		// them: a syntax error, below): compare the cuts as kubectl's reader has the text.
		if a, b := bytes.TrimSuffix(theirChunks[i], []byte("\n")), bytes.TrimSuffix(kubectlChunk(data, ourChunks[i].data), []byte("\n")); !bytes.Equal(a, b) {
			t.Fatalf("document %d: kubectl cuts %q, we %q", i, a, b)
		}
		o := got[i]
		if o.random {
			continue // kubectl's value is one of several, at random
		}
		_, theirMap := want[i].(map[string]any)
		switch {
		case !theirMap && !o.manifest:
			// kubectl reads a scalar, a list or null, which it cannot send as an object
			// (or, null, skips), and we check nothing in it: the YAML parsers differ on
			// some malformed documents ("[]:" is a mapping with a list as its key to
			// go.yaml.in/yaml/v3, an empty list to kubectl's).
		case !theirMap && want[i] != nil && !o.refused:
			t.Errorf("document %d (line %d): kubectl reads %#v, no object, and refuses it; we check %#v", i, o.line, want[i], o.value)
		case errs[i] != nil && o.refused:
		case errs[i] != nil && !o.manifest:
			// kubectl refuses a document that we read as empty, or as something that is no
			// manifest of ours: we check nothing in it.
		case errs[i] != nil:
			t.Errorf("document %d (line %d): kubectl refuses it (%v); we read %#v", i, o.line, errs[i], o.value)
		case o.stricter:
			// The deliberate difference: we report a syntax error or a limit.
		case o.refused:
			t.Errorf("document %d (line %d): we refuse it; kubectl reads %#v", i, o.line, want[i])
		case !reflect.DeepEqual(o.value, want[i]):
			t.Errorf("document %d (line %d): we read\n\t%#v\nkubectl reads\n\t%#v", i, o.line, o.value, want[i])
		}
	}
	refusedHaveFindings(t, data)
}

// object is what kubectl decodes a document into: a JSON object (or null), kept as
// written.
type object struct{ raw json.RawMessage }

func (o *object) UnmarshalJSON(b []byte) error {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' && string(t) != "null" {
		return errors.New("not a JSON object")
	}
	o.raw = append(json.RawMessage(nil), b...)
	return nil
}

// checkOracleJSON compares the readings of a file kubectl reads as a JSON stream, with what
// its decoder makes of it (a JSON value, or YAML after it).
func checkOracleJSON(t reporter, data []byte) {
	t.Helper()
	var want []any
	var wantErr error
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(kubectlText(data)), 4096)
	for {
		var o object
		err := dec.Decode(&o)
		if err == io.EOF {
			break
		}
		if err != nil {
			wantErr = err
			break
		}
		var v any
		d := json.NewDecoder(bytes.NewReader(o.raw))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			wantErr = err
			break
		}
		if err := kubectlNumbers(v); err != nil {
			wantErr = err
			break
		}
		if v != nil {
			want = append(want, v)
		}
	}
	var got []any
	var manifests []bool // whether each document is one this package checks
	refused := false
	text, _ := decodeText(data)
	r := &reader{f: &File{Name: "oracle.json"}}
	r.each = func(n *yaml.Node, d *decoder) {
		got = append(got, d.value(n))
		d.unreported(n) // what the walk of the value did not meet, as Parse reports it
		kind, _, problem := recognise(n)
		manifests = append(manifests, kind != "" || problem != nil)
		refused = refused || d.refusal
	}
	r.readJSON(text)
	for _, x := range r.f.Errors {
		refused = refused || x.Type == SyntaxError || x.Type == InputLimit
	}
	if wantErr != nil {
		// kubectl refuses the file after the documents in want: we must report a syntax
		// error, or read nothing more that we would check.
		for i := len(want); i < len(got) && !refused; i++ {
			if manifests[i] {
				t.Errorf("kubectl refuses the file after %d documents (%v); we check document %d: %#v", len(want), wantErr, i, got[i])
			}
		}
		got = got[:min(len(got), len(want))]
		want = want[:len(got)]
	}
	if !refused && !reflect.DeepEqual(got, want) {
		t.Errorf("we read\n\t%#v\nkubectl reads\n\t%#v", got, want)
	}
	refusedHaveFindings(t, data)
}

func hasSyntaxErrorAt(f *File, line int) bool {
	for _, x := range f.Errors {
		if x.Type == SyntaxError && x.Line == line {
			return true
		}
	}
	return false
}

// kubectlNumbers returns the error kubectl's decoder gives for a number of the JSON value v
// (decoded with UseNumber) that is neither an int64 nor a float64, as it converts them.
func kubectlNumbers(v any) error {
	switch v := v.(type) {
	case json.Number:
		if _, err := v.Int64(); err == nil {
			return nil
		}
		if _, err := v.Float64(); err != nil {
			return fmt.Errorf("cannot unmarshal number %s into Go value of type float64", v)
		}
	case map[string]any:
		for _, e := range v {
			if err := kubectlNumbers(e); err != nil {
				return err
			}
		}
	case []any:
		for _, e := range v {
			if err := kubectlNumbers(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// refusedHaveFindings checks the property that a document this package checks and kubectl
// refuses (a value it cannot send, or read) always has a finding: a refusal is never silent.
func refusedHaveFindings(t reporter, data []byte) {
	t.Helper()
	for _, d := range Parse("oracle", data).Documents {
		if d.refusal && len(d.Errors) == 0 {
			t.Errorf("document %d (line %d, a %s) is one kubectl refuses, and has no finding", d.Index, d.Line, d.Kind)
		}
	}
}

// TestOracleCorpus runs the oracle on the commented corpus of tricky cases in
// testdata/oracle and on every manifest of the examples (.yaml, .yml, .json), each
// directory of which must hold some.
func TestOracleCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/oracle/*")
	if len(files) < 3 {
		t.Fatalf("only %d corpus files in testdata/oracle", len(files))
	}
	for _, dir := range []string{"../examples/manifests", "../examples/broken", "../examples/cluster"} {
		var found []string
		for _, ext := range []string{"*.yaml", "*.yml", "*.json"} {
			m, err := filepath.Glob(filepath.Join(dir, ext))
			if err != nil {
				t.Fatal(err)
			}
			found = append(found, m...)
		}
		if len(found) == 0 {
			t.Fatalf("no manifests in %s: the examples have moved", dir)
		}
		files = append(files, found...)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		// A corpus file holds cases separated by lines of "#### ", each a file of its own.
		for i, c := range bytes.Split(data, []byte("\n####")) {
			t.Run(fmt.Sprintf("%s#%d", filepath.Base(name), i), func(t *testing.T) { checkOracle(t, c) })
		}
	}
}

func FuzzOracle(f *testing.F) {
	files, _ := filepath.Glob("testdata/oracle/*")
	for _, name := range files {
		data, _ := os.ReadFile(name)
		for _, c := range bytes.Split(data, []byte("\n####")) {
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		checkOracle(t, data)
	})
}

// utf16 encodes s as UTF-16 with a byte order mark, in either byte order.
func utf16Text(s string, bigEndian bool) []byte {
	out := []byte{0xff, 0xfe}
	if bigEndian {
		out = []byte{0xfe, 0xff}
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// utf32Text encodes s as UTF-32 without a byte order mark, in either byte order.
func utf32Text(s string, bigEndian bool) []byte {
	var out []byte
	for _, r := range s {
		if bigEndian {
			out = append(out, byte(r>>24), byte(r>>16), byte(r>>8), byte(r))
		} else {
			out = append(out, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
		}
	}
	return out
}

// Files in UTF-16 with a byte order mark (what PowerShell 5.1's > writes, with CRLF) are read
// as kubectl reads them, converted before documents are cut: every document checked, every
// finding on its line. UTF-32 and UTF-16 without a mark are one clear finding each.
func TestEncodings(t *testing.T) {
	const src = "apiVersion: amlarc.azureml.com/v1alpha1\r\nkind: InstanceType\r\nmetadata:\r\n  name: a\r\n" +
		"spec:\r\n  resources:\r\n    requests: {cpu: 1, memory: 1Gi}\r\n    limits: {cpu: 1, memory: 1Gi}\r\n" +
		"---\r\napiVersion: amlarc.azureml.com/v1alpha1\r\nkind: InstanceType\r\nmetadata:\r\n  name: b\r\nspec:\r\n  resources: [\r\n"
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"UTF-16LE", utf16Text(src, false)},
		{"UTF-16BE", utf16Text(src, true)},
		{"UTF-8 with a mark", append([]byte{0xef, 0xbb, 0xbf}, src...)},
	} {
		f := Parse("e.yaml", tt.data)
		fs := f.Findings()
		if len(f.Documents) != 1 || f.Documents[0].InstanceTypes[0].Object.Name != "a" || len(fs) != 1 || fs[0].Type != SyntaxError || fs[0].Line != 15 {
			t.Errorf("%s: %d documents, findings %v; want the first document read and a syntax error on line 15", tt.name, len(f.Documents), fs)
		}
		checkOracle(t, tt.data)
	}
	// JSON behind a UTF-8 mark is JSON, as kubectl reads it.
	json := append([]byte{0xef, 0xbb, 0xbf}, `{"apiVersion": "amlarc.azureml.com/v1alpha1", "kind": "InstanceType", "metadata": {"name": "j"}, "x": 1}`...)
	if fs := Parse("j.json", json).Findings(); len(fs) != 1 || fs[0].Type != UnknownField {
		t.Errorf("JSON after a UTF-8 mark: findings %v; want the unknown field only", fs)
	}
	checkOracle(t, json)
	// An odd number of bytes: the last one is no character.
	odd := append(utf16Text("apiVersion: v1\nkind: Service\n", false), 'x')
	if fs := Parse("o.yaml", odd).Findings(); len(fs) != 1 || !strings.Contains(fs[0].Message(), "incomplete UTF-16 character") || fs[0].Line != 3 {
		t.Errorf("odd UTF-16: findings %v; want one about the incomplete character, on the last line", fs)
	}
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"UTF-32BE", append([]byte{0, 0, 0xfe, 0xff}, 0, 0, 0, 'a'), "UTF-32 (big-endian"},
		{"UTF-32LE", append([]byte{0xff, 0xfe, 0, 0}, 'a', 0, 0, 0), "UTF-32 (little-endian"},
		{"UTF-16LE without a mark", utf16Text(src, false)[2:], "UTF-16 (little-endian) without a byte order mark"},
		{"UTF-16BE without a mark", utf16Text(src, true)[2:], "UTF-16 (big-endian) without a byte order mark"},
		{"UTF-32LE without a mark", utf32Text(src, false), "UTF-32 (little-endian) without a byte order mark"},
		{"UTF-32BE without a mark", utf32Text(src, true), "UTF-32 (big-endian) without a byte order mark"},
		{"UTF-32LE without a mark, one character", []byte{'a', 0, 0, 0}, "UTF-32 (little-endian) without a byte order mark"},
	} {
		f := Parse("e.yaml", tt.data)
		fs := f.Findings()
		if len(fs) != 1 || fs[0].Type != SyntaxError || !strings.Contains(fs[0].Message(), tt.want) || len(f.Documents) != 0 || f.Count != 1 {
			t.Errorf("%s: findings %v, %d documents, Count %d; want one syntax error saying %q, nothing read, one document counted", tt.name, fs, len(f.Documents), f.Count, tt.want)
		}
		checkOracle(t, tt.data)
	}
}
