package manifest_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/amlarc-go/instancetypes/examples"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
)

// Fuzz targets for arbitrary bytes read as a manifest file. The seeds are every file of
// examples (the source document's manifests and the broken ones) plus the commented corpus
// in testdata/fuzz (see its README.md). Run one with
//
//	go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 2m ./manifest

// fuzzName is the file name every fuzzed input is parsed under.
const fuzzName = "fuzz.yaml"

// addExampleSeeds adds each example manifest as a seed, through add.
func addExampleSeeds(f *testing.F, add func(data []byte)) {
	for _, fsys := range []fs.FS{examples.Manifests, examples.Broken} {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err == nil {
				add(data)
			}
			return err
		})
		if err != nil {
			f.Fatal(err)
		}
	}
}

// maxFindingLen is the longest a finding about data may render. Everything user-written in
// a finding comes from the input: a field path's keys (each written once along one chain
// of anchors), a bad value and a detail quoting it. A longer finding means the reader
// amplified its input.
func maxFindingLen(data []byte) int { return 4*len(data) + 1024 }

// maxLines is the most lines the YAML reader can see in data: it breaks lines at LF, CR,
// CRLF, and also at NEL, LS and PS (U+0085, U+2028, U+2029). Counting every one of them,
// and every LF and CR byte of UTF-16 input, gives an upper bound.
func maxLines(data []byte) int {
	n := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) - bytes.Count(data, []byte("\r\n"))
	for _, br := range []string{"\u0085", "\u2028", "\u2029"} {
		n += bytes.Count(data, []byte(br))
	}
	return n
}

// checkFinding checks the invariants of any finding about data: it names the file, has a
// problem, sits inside the file and stays proportionate to it.
func checkFinding(t *testing.T, data []byte, x manifest.Finding) {
	t.Helper()
	lines := maxLines(data)
	if x.File != fuzzName {
		t.Errorf("finding %q names file %q; want %q", x, x.File, fuzzName)
	}
	if x.Err == nil || x.Err.Type == "" {
		t.Fatalf("finding at %v has no error: %#v", x.Position, x.Err)
	}
	if x.Line < 1 || x.Line > lines || x.Column < 0 {
		t.Errorf("finding %q at line %d column %d; the input has %d lines", x, x.Line, x.Column, lines)
	}
	if n := len(x.String()); n > maxFindingLen(data) {
		t.Errorf("a finding of %d bytes about %d bytes of input: %.200q", n, len(data), x.String())
	}
}

// TestSyntaxErrorLineOfScannerProblems is the regression test of a bug FuzzParse found:
// manifest took every YAML reader message starting "did not find expected" for a parser
// problem, whose line the reader counts from 0, and added one; but some scanner messages
// ("did not find expected alphabetic or numeric character", after "&" with no anchor name;
// "... tag URI") start the same way and their lines already count from 1, so "a: 1\nb: &\n"
// (two lines) got a finding on line 3.
func TestSyntaxErrorLineOfScannerProblems(t *testing.T) {
	for _, tt := range []struct {
		data string
		line int
	}{
		{"a: 1\nb: &\n", 2},     // did not find expected alphabetic or numeric character
		{"a: 1\nb: !<\n", 2},    // did not find expected tag URI
		{"a: 1\nb: [1, 2\n", 2}, // did not find expected ',' or ']' (a parser problem: right today)
		{"#           \n\n  - 0:\n     0: \n    0:\n     00:\n    0:\n\n    0: \"0\"& 00000000\u2717\u2717\u2717\u2717", 9}, // as found
	} {
		fs := manifest.Parse("f.yaml", []byte(tt.data)).Findings()
		if len(fs) != 1 || fs[0].Line != tt.line {
			t.Errorf("Parse(%q): findings %v; want one on line %d", tt.data, fs, tt.line)
		}
	}
}

// TestSyntaxErrorAtEndOfFileWithoutNewline is the regression test of a bug FuzzParse found:
// a YAML parser problem in a construct that starts on the first line ("{", "a: [1, 2") is
// reported by the YAML reader at the end of the stream, which its scanner puts on a line
// of its own when the text does not end in a line break; manifest then adds one for the
// parser's 0-based count, so the finding names line 2 of a one-line file. (The reader
// takes a construct on its first line, 0-based line 0, for "no line": its fail() tests
// context_mark.line != 0.) manifest now keeps the line within the file.
func TestSyntaxErrorAtEndOfFileWithoutNewline(t *testing.T) {
	for _, data := range []string{"{", "[", "a: [1, 2", "a: {b: 1", "apiVersion: v1\nkind: [x"} {
		lines := strings.Count(data, "\n") + 1
		fs := manifest.Parse("f.yaml", []byte(data)).Findings()
		if len(fs) != 1 || fs[0].Line > lines {
			t.Errorf("Parse(%q): findings %v; want one within the file's %d lines", data, fs, lines)
		}
	}
}

// TestCyclicAliases is the regression test of a crash FuzzValidate found: an anchor whose
// own content holds an alias to it ("x: &a {k: *a}") is a cycle in the YAML reader's node
// graph, which the decoder's walk followed until its node budget, MaxNodes, was spent:
// 4,194,304 nested calls, past Go's 1 GB stack limit, so the process died with "fatal
// error: stack overflow", which no recover can catch. Such a document must be one finding.
func TestCyclicAliases(t *testing.T) {
	for _, data := range []string{
		"endpoint_name: e\nx: &a {k: *a}\n",
		"command: c\nx: &a [*a]\n",
		"apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: bomb\n  ownerReferences: &a [*a]\n",
	} {
		f := manifest.Parse("cyclic.yaml", []byte(data))
		if fs := f.Findings(); len(fs) != 1 || !strings.Contains(fs[0].String(), "does an alias refer to a node that contains it?") {
			t.Errorf("Parse(%q): findings %v; want one about the cycle", data, fs)
		}
	}
}

// FuzzParse reads arbitrary bytes as a manifest file. Parse must not panic, must return
// the same result twice and the same as Read, and every document and finding it returns
// must be well formed: findings inside the file and proportionate to it, documents of a
// known kind whose decoded objects agree with their kind. Document.Position must not panic
// on any path, however malformed.
func FuzzParse(f *testing.F) {
	addExampleSeeds(f, func(data []byte) { f.Add(data) })
	f.Fuzz(func(t *testing.T, data []byte) {
		file := manifest.Parse(fuzzName, data)
		findings := file.Findings()
		for _, x := range findings {
			checkFinding(t, data, x)
		}
		if !slices.IsSortedFunc(findings, func(a, b manifest.Finding) int {
			return cmpPosition(a.Position, b.Position)
		}) {
			t.Errorf("findings are not in file order: %v", findings)
		}

		again := manifest.Parse(fuzzName, data)
		if a, b := render(findings), render(again.Findings()); a != b {
			t.Fatalf("Parse is not deterministic:\n%s\n---\n%s", a, b)
		}
		if len(again.Documents) != len(file.Documents) || again.Count != file.Count {
			t.Fatalf("Parse is not deterministic: %d then %d documents", len(file.Documents), len(again.Documents))
		}
		read, err := manifest.Read(fuzzName, bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if a, b := render(findings), render(read.Findings()); a != b {
			t.Fatalf("Read and Parse differ:\n%s\n---\n%s", b, a)
		}

		if file.Name != fuzzName {
			t.Errorf("File.Name = %q", file.Name)
		}
		if file.Count < len(file.Documents) {
			t.Errorf("Count = %d, fewer than the %d recognised documents", file.Count, len(file.Documents))
		}
		lines := maxLines(data)
		prev := -1
		for _, d := range file.Documents {
			checkDocument(t, d)
			if d.Index <= prev {
				t.Errorf("document indexes not increasing: %d after %d", d.Index, prev)
			}
			prev = d.Index
			if d.Line < 1 || d.Line > lines {
				t.Errorf("document %d on line %d; the input has %d lines", d.Index, d.Line, lines)
			}
			// Paths that lead nowhere, or are not paths at all, place at a parent.
			for _, path := range []string{"", "<nil>", "[", "]", ".", "a[", "[a", "items[-1]", "items[99999999999999999999]", "metadata..name", "spec.nodeSelector[", string(data[:min(len(data), 64)])} {
				if p := d.Position(path); p.Line < 1 || p.Line > lines {
					t.Errorf("Position(%q) = %v; the input has %d lines", path, p, lines)
				}
			}
		}
	})
}

// checkDocument checks that a document's decoded objects agree with its kind.
func checkDocument(t *testing.T, d *manifest.Document) {
	t.Helper()
	if d.File != fuzzName {
		t.Errorf("document names file %q", d.File)
	}
	switch d.Kind {
	case manifest.KindInstanceType:
		if len(d.InstanceTypes) != 1 || d.InstanceTypes[0] == nil || d.List != nil || d.Workload != nil {
			t.Errorf("InstanceType document: %d instance types, list %v, workload %v", len(d.InstanceTypes), d.List != nil, d.Workload != nil)
		}
		if d.ItemPath(0) != nil {
			t.Errorf("InstanceType document: ItemPath(0) = %v; want nil", d.ItemPath(0))
		}
	case manifest.KindInstanceTypeList:
		if d.List == nil || len(d.InstanceTypes) != len(d.List.Items) || d.Workload != nil {
			t.Fatalf("InstanceTypeList document: list %v, %d instance types, workload %v", d.List != nil, len(d.InstanceTypes), d.Workload != nil)
		}
		for i, it := range d.InstanceTypes {
			if it != &d.List.Items[i] {
				t.Errorf("InstanceTypes[%d] does not point into List.Items", i)
			}
			if got, want := d.ItemPath(i).String(), fmt.Sprintf("items[%d]", i); got != want {
				t.Errorf("ItemPath(%d) = %s; want %s", i, got, want)
			}
		}
	case manifest.KindDeployment, manifest.KindJob:
		if d.Workload == nil || len(d.InstanceTypes) != 0 || d.List != nil {
			t.Fatalf("%s document: workload %v, %d instance types, list %v", d.Kind, d.Workload != nil, len(d.InstanceTypes), d.List != nil)
		}
		if string(d.Workload.Kind) != string(d.Kind) {
			t.Errorf("%s document holds a workload of kind %s", d.Kind, d.Workload.Kind)
		}
		if d.Kind == manifest.KindJob && d.Workload.Resources != nil {
			t.Errorf("a job with a resources section: %+v", d.Workload.Resources)
		}
	default:
		t.Errorf("document of unknown kind %q", d.Kind)
	}
	for _, e := range d.Errors {
		if e == nil || e.Type == "" {
			t.Fatalf("document error without a type: %#v", e)
		}
	}
}

// FuzzValidate decodes arbitrary bytes and validates what was decoded, as the command
// does: every instance type (together, for duplicates), the catalog they form, and every
// deployment and job against it, with the extension's nodeSelector {key: value} when key
// is not empty. Nothing may panic; validation must give the same findings twice, the
// second time on deep copies; each finding must sit below its object's path and inside the
// file; and no bad value or detail may repeat more of the input than validate.MaxValueLen
// allows.
func FuzzValidate(f *testing.F) {
	addExampleSeeds(f, func(data []byte) {
		f.Add(data, "", "", false)
		f.Add(data, "mylabel", "other", true)
	})
	f.Fuzz(func(t *testing.T, data []byte, key, value string, strict bool) {
		opts := validate.Options{StrictSubset: strict}
		if key != "" {
			opts.NodeSelector = map[string]string{key: value}
		}
		file := manifest.Parse(fuzzName, data)

		first := validateFile(file, opts, false)
		again := validateFile(file, opts, true)
		if a, b := render(first), render(again); a != b {
			t.Fatalf("validation is not deterministic (the second time on deep copies):\n%s\n---\n%s", a, b)
		}
		for _, x := range first {
			checkFinding(t, data, x)
			checkValidationError(t, x.Err)
		}
		for _, e := range validate.NodeSelector(opts.NodeSelector, field.NewPath("nodeSelector")) {
			checkValidationError(t, e)
		}
	})
}

// validateFile validates every object of file, as the command does, and returns the
// findings of validation and resolution, each placed in the file. With copies set, it
// validates deep copies of the decoded objects.
func validateFile(file *manifest.File, opts validate.Options, copies bool) []manifest.Finding {
	var srcs []validate.Source
	var docs []*manifest.Document
	var types []*instancetype.InstanceType
	for _, d := range file.Documents {
		for i, it := range d.InstanceTypes {
			if copies {
				it = it.DeepCopy()
			}
			srcs = append(srcs, validate.Source{InstanceType: it, Path: d.ItemPath(i)})
			docs = append(docs, d)
			types = append(types, it)
		}
	}
	var out []manifest.Finding
	locate := func(d *manifest.Document, errs field.ErrorList, under string) {
		for _, x := range d.Locate(errs) {
			if !strings.HasPrefix(x.Err.Field, under) {
				x.Err.Detail = fmt.Sprintf("[field %q is not below %q] %s", x.Err.Field, under, x.Err.Detail)
				x.Err.Type = "NotBelowItsRoot" // fails checkValidationError
			}
			out = append(out, x)
		}
	}
	for i, errs := range validate.InstanceTypes(srcs, opts) {
		under := ""
		if p := srcs[i].Path; p != nil {
			under = p.String() + "."
		}
		locate(docs[i], errs, under)
	}
	catalog := resolve.NewCatalog(types...)
	for _, d := range file.Documents {
		if d.List != nil {
			list := d.List
			if copies {
				list = list.DeepCopy()
			}
			locate(d, validate.InstanceTypeList(list, nil, opts), "items")
		}
		if w := d.Workload; w != nil {
			if copies {
				c := *w
				if w.Resources != nil {
					c.Resources = w.Resources.DeepCopy()
				}
				w = &c
			}
			locate(d, validate.Workload(catalog, w, nil, opts), "")
			p, errs := resolve.Resolve(catalog, w, nil, resolve.Options{NodeSelector: opts.NodeSelector})
			if p.InstanceType == "" || p.Kind != w.Kind {
				errs = append(errs, field.InternalError(nil, fmt.Errorf("placement %+v for workload %+v", p, w)))
			}
			locate(d, errs, "")
		}
	}
	return out
}

// maxDetailLen bounds a validation error's detail: validate cuts user text at
// MaxValueLen, and a detail quotes at most a couple of values plus up to
// resolve.MaxSuggestions names.
const maxDetailLen = (2+resolve.MaxSuggestions)*(validate.MaxValueLen+32) + 512

// checkValidationError checks one error of validation or resolution.
func checkValidationError(t *testing.T, e *field.Error) {
	t.Helper()
	switch e.Type {
	case field.ErrorTypeNotFound, field.ErrorTypeRequired, field.ErrorTypeDuplicate, field.ErrorTypeInvalid,
		field.ErrorTypeNotSupported, field.ErrorTypeForbidden, field.ErrorTypeTooLong, field.ErrorTypeTooMany,
		field.ErrorTypeTypeInvalid:
	default:
		t.Errorf("error of type %q at %s: %s", e.Type, e.Field, e.Detail)
	}
	if s, ok := e.BadValue.(string); ok && len(s) > validate.MaxValueLen+32 {
		t.Errorf("error at %s repeats %d bytes of its value", e.Field, len(s))
	}
	if len(e.Detail) > maxDetailLen {
		t.Errorf("error at %s has a detail of %d bytes: %.200q", e.Field, len(e.Detail), e.Detail)
	}
}

func cmpPosition(a, b manifest.Position) int {
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Column - b.Column
}

// render prints findings one a line, for comparing two runs.
func render(fs []manifest.Finding) string {
	var b strings.Builder
	for _, x := range fs {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s: %v\n", x.File, x.Line, x.Column, x.Err.Type, x.Err.Field, x.Message())
	}
	return b.String()
}
