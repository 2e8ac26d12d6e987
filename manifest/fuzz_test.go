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
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/manifest"
	"github.com/amlarc-go/instancetypes/resolve"
	"github.com/amlarc-go/instancetypes/validate"
	"github.com/amlarc-go/instancetypes/workload"
)

// Fuzz targets for arbitrary bytes read as a manifest file. The seeds are every file of
// examples (the source document's manifests and the broken ones) plus the commented corpus
// in testdata/fuzz (see its README.md). Run one with a budget of inputs, not of time (a
// -fuzztime duration misbehaves with Go 1.26.8):
//
//	go test -run '^$' -fuzz '^FuzzParse$' -fuzztime 20000x ./manifest

// fuzzName is the file name every fuzzed input is parsed under.
const fuzzName = "fuzz.yaml"

// addExampleSeeds adds each example manifest as a seed, through add.
func addExampleSeeds(f *testing.F, add func(data []byte)) {
	n := 0
	for _, fsys := range []fs.FS{examples.Manifests, examples.Broken} {
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !manifest.IsManifestName(p) {
				return err
			}
			data, err := fs.ReadFile(fsys, p)
			if err == nil {
				add(data)
				n++
			}
			return err
		})
		if err != nil {
			f.Fatal(err)
		}
	}
	if n < 7 {
		f.Fatalf("%d example manifests; want the 5 of the source document and the broken ones", n)
	}
}

// maxFindingLen is the longest a finding about data may render. Everything user-written in
// a finding comes from the input: a field path's keys (each written once along one chain
// of anchors), a bad value and a detail quoting it. A longer finding means the reader
// amplified its input.
func maxFindingLen(data []byte) int { return 4*len(data) + 1024 }

// maxLines is the most lines the YAML reader can see in data: it breaks lines at LF, CR,
// CRLF, and also at NEL, LS and PS (U+0085, U+2028, U+2029). Counting every one of them,
// and every LF and CR byte of UTF-16 input, gives an upper bound; input with a UTF-16 byte
// order mark is read as UTF-16, so its NEL, LS and PS are counted as code units (FuzzParse
// found "\xff\xfe( " read as LS).
func maxLines(data []byte) int {
	n := 1 + bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) - bytes.Count(data, []byte("\r\n"))
	for _, br := range []string{"\u0085", "\u2028", "\u2029"} {
		n += bytes.Count(data, []byte(br))
	}
	if big, little := bytes.HasPrefix(data, []byte{0xfe, 0xff}), bytes.HasPrefix(data, []byte{0xff, 0xfe}); big || little {
		for i := 2; i+1 < len(data); i += 2 {
			u := rune(data[i])<<8 | rune(data[i+1])
			if little {
				u = rune(data[i+1])<<8 | rune(data[i])
			}
			if u == '\u0085' || u == '\u2028' || u == '\u2029' {
				n++
			}
		}
	}
	return n
}

// checkFinding checks the invariants of any finding about data: it names the file, has a
// problem, sits inside the file, stays proportionate to it, and has a field path or none
// (never "<nil>").
func checkFinding(t *testing.T, data []byte, x manifest.Finding) {
	t.Helper()
	if x.File != fuzzName {
		t.Errorf("finding %q names file %q; want %q", x, x.File, fuzzName)
	}
	if x.Err == nil || x.Err.Type == "" {
		t.Fatalf("finding at %v has no error: %#v", x.Position, x.Err)
	}
	if lines := maxLines(data); x.Line < 1 || x.Line > lines || x.Column < 0 {
		t.Errorf("finding %q at line %d column %d; the input has %d lines", x, x.Line, x.Column, lines)
	}
	if n := len(x.String()); n > maxFindingLen(data) {
		t.Errorf("a finding of %d bytes about %d bytes of input: %.200q", n, len(data), x.String())
	}
	if x.Err.Field == "<nil>" {
		t.Errorf("finding %q has the field <nil>; want \"\" for the document itself", x)
	}
	if _, ok := lint.LookupRule(x.Rule()); !ok {
		t.Errorf("finding %q has no registered rule id (%q)", x, x.Rule())
	}
	if aboutValue(x) && x.Err.Field == "" {
		t.Errorf("finding %q is about a value, and has no field: a value is always at a path below the document", x)
	}
}

// aboutValue reports a finding about a value kubectl refuses (a number with no JSON form, a
// tag that does not fit it, a !!binary that is not base64, an alias into itself), not about
// a key or a mapping, which the document itself may have.
func aboutValue(x manifest.Finding) bool {
	return x.Rule() == "kubectl-refuses" && !strings.Contains(x.Err.Detail, "key")
}

// checkOnce checks that no finding is reported twice: the same problem at the same place
// and field is one finding, and one at a field is not restated at the document (no field).
// (The same problem at one place and two fields is two: an anchored value aliased twice.)
func checkOnce(t *testing.T, fs []manifest.Finding) {
	t.Helper()
	type problem struct {
		pos                manifest.Position
		typ, rule, message string
	}
	seen := make(map[string]bool, len(fs))
	fields := make(map[problem][]string, len(fs))
	for _, x := range fs {
		if k := fmt.Sprintf("%d:%d %s", x.Line, x.Column, x); seen[k] {
			t.Errorf("finding %q twice", x)
		} else {
			seen[k] = true
		}
		p := problem{x.Position, x.TypeName(), x.Rule(), x.Message()}
		fields[p] = append(fields[p], x.Err.Field)
	}
	for p, fs := range fields {
		if len(fs) > 1 && slices.Contains(fs, "") {
			t.Errorf("%s at %d:%d reported at fields %q: once at a field, and again at the document", p.message, p.pos.Line, p.pos.Column, fs)
		}
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
		{"a: 1\nb: [1, 2\n", 2}, // did not find expected ',' or ']' (a parser problem)
		{"#           \n\n  - 0:\n     0: \n    0:\n     00:\n    0:\n\n    0: \"0\"& 00000000\u2717\u2717\u2717\u2717", 9}, // as found
	} {
		fs := manifest.Parse("f.yaml", []byte(tt.data)).Findings()
		if len(fs) != 1 || fs[0].Line != tt.line || fs[0].Type != manifest.SyntaxError {
			t.Errorf("Parse(%q): findings %v; want one syntax error on line %d", tt.data, fs, tt.line)
		}
	}
}

// TestSyntaxErrorAtEndOfFileWithoutNewline: a YAML parser problem found at the end of a
// file that does not end in a line break is reported on the file's last line. (The old
// reader had this right; the new one appends the line feed kubectl's line reader adds,
// and the YAML reader then names the line after it.)
func TestSyntaxErrorAtEndOfFileWithoutNewline(t *testing.T) {
	for _, data := range []string{"{", "[", "a: [1, 2", "a: {b: 1", "a: \"x", "apiVersion: v1\nkind: [x", "a: 1\nb: [1, 2"} {
		lines := strings.Count(data, "\n") + 1
		fs := manifest.Parse("f.yaml", []byte(data)).Findings()
		if len(fs) != 1 || fs[0].Line > lines {
			t.Errorf("Parse(%q): findings %v; want one within the file's %d lines", data, fs, lines)
		}
	}
}

// TestCyclicAliases is the regression test of a crash FuzzValidate found: an anchor whose
// own content holds an alias to it ("x: &a {k: *a}") is a cycle in the YAML reader's node
// graph, which the decoder's walk once followed until its node budget was spent, past Go's
// stack limit ("fatal error: stack overflow", which no recover can catch). Such a document
// must be one finding, at the alias.
func TestCyclicAliases(t *testing.T) {
	for _, tt := range []struct {
		data  string
		field string
		line  int
	}{
		{"endpoint_name: e\nx: &a {k: *a}\n", "x.k", 2},
		{"command: c\ncompute: k\nx: &a [*a]\n", "x[0]", 3},
		{"apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: bomb\n  ownerReferences: &a [*a]\n", "metadata.ownerReferences[0]", 5},
	} {
		f := manifest.Parse("cyclic.yaml", []byte(tt.data))
		fs := f.Findings()
		if len(fs) != 1 || fs[0].Err.Field != tt.field || fs[0].Line != tt.line || !strings.Contains(fs[0].Message(), "an alias to a node that contains it") {
			t.Errorf("Parse(%q): findings%s; want one about the cycle at %s, line %d", tt.data, messages(fs), tt.field, tt.line)
		}
	}
}

// FuzzParse reads arbitrary bytes as a manifest file. Parse must not panic, must return
// the same result twice and the same as Read and Scan, and every document and finding it
// returns must be well formed: findings inside the file and proportionate to it, documents
// of a known kind whose items agree with their kind. Document.Position must not panic on
// any path, however malformed.
func FuzzParse(f *testing.F) {
	addExampleSeeds(f, func(data []byte) { f.Add(data) })
	f.Fuzz(func(t *testing.T, data []byte) {
		file := manifest.Parse(fuzzName, data)
		findings := file.Findings()
		for _, x := range findings {
			checkFinding(t, data, x)
		}
		checkOnce(t, findings)
		if !slices.IsSortedFunc(findings, func(a, b manifest.Finding) int {
			return cmpPosition(a.Position, b.Position)
		}) {
			t.Errorf("findings are not in file order:%s", messages(findings))
		}

		again := manifest.Parse(fuzzName, data)
		if a, b := render(findings), render(again.Findings()); a != b {
			t.Fatalf("Parse is not deterministic:\n%s\n---\n%s", a, b)
		}
		if len(again.Documents) != len(file.Documents) || again.Count != file.Count || !slices.Equal(again.Skipped, file.Skipped) {
			t.Fatalf("Parse is not deterministic: %d then %d documents", len(file.Documents), len(again.Documents))
		}
		read, err := manifest.Read(fuzzName, bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		if a, b := render(findings), render(read.Findings()); a != b {
			t.Fatalf("Read and Parse differ:\n%s\n---\n%s", b, a)
		}
		checkScan(t, data, file)

		if file.Name != fuzzName {
			t.Errorf("File.Name = %q", file.Name)
		}
		if n := skippedDocuments(file); file.Count < len(file.Documents)+n {
			t.Errorf("Count = %d, fewer than the %d recognised and %d skipped documents", file.Count, len(file.Documents), n)
		}
		if file.Checked != len(file.Documents) {
			t.Errorf("Checked = %d; want the %d documents", file.Checked, len(file.Documents))
		}
		lines := maxLines(data)
		for _, s := range file.Skipped {
			if s.Line < 1 || s.Line > lines || s.Reason == "" || len(s.Reason) > maxFindingLen(data) {
				t.Errorf("skipped on line %d (the input has %d): %.200q", s.Line, lines, s.Reason)
			}
		}
		prev := -1
		for _, d := range file.Documents {
			checkDocument(t, d, lines)
			if d.Index <= prev {
				t.Errorf("document indexes not increasing: %d after %d", d.Index, prev)
			}
			prev = d.Index
			if d.Line < 1 || d.Line > lines {
				t.Errorf("document %d on line %d; the input has %d lines", d.Index, d.Line, lines)
			}
			// Paths that lead nowhere, or are not paths at all, place at a parent.
			for _, path := range []string{"", "<nil>", "[", "]", ".", "a[", "[a", "items[-1]", "items[99999999999999999999]", "metadata..name", "spec.nodeSelector[", "jobs.", "deployments[0].", string(data[:min(len(data), 64)])} {
				if p := d.Position(path); p.Line < 1 || p.Line > lines {
					t.Errorf("Position(%q) = %v; the input has %d lines", path, p, lines)
				}
			}
		}
		checkClipped(t, findings)
	})
}

// skippedDocuments counts the skips of whole documents: not those of a list's items or a
// pipeline's steps, nor of a whole file (a Helm template), which File.Count does not count.
func skippedDocuments(f *manifest.File) int {
	n := 0
	for _, s := range f.Skipped {
		if !strings.HasPrefix(s.Reason, "items[") && !strings.HasPrefix(s.Reason, "pipeline step ") && !strings.HasPrefix(s.Reason, "holds Go template actions") {
			n++
		}
	}
	return n
}

// checkScan checks that Scan reads data as Parse read it into file: the same counts, skips
// and problems, the same documents handed to fn with the same findings, and the same
// positions, once the trees are released, for the names of instance types and the fields of
// workloads. It returns the differences of a known bug (TestScanAliasedDeployment).
func checkScan(t *testing.T, data []byte, file *manifest.File) {
	t.Helper()
	var docs []*manifest.Document
	var during []manifest.Finding
	scanned := manifest.Scan(fuzzName, data, func(d *manifest.Document) {
		docs = append(docs, d)
		during = append(during, d.Locate(d.Errors)...)
	})
	if len(scanned.Documents) != 0 || scanned.Checked != len(docs) || len(docs) != len(file.Documents) || scanned.Count != file.Count ||
		!slices.Equal(scanned.Skipped, file.Skipped) || render(scanned.Errors) != render(file.Errors) {
		t.Fatalf("Scan read %d documents (kept %d, Count %d, skipped %v, errors:\n%s); Parse %d (Count %d, skipped %v, errors:\n%s)",
			len(docs), len(scanned.Documents), scanned.Count, scanned.Skipped, render(scanned.Errors), len(file.Documents), file.Count, file.Skipped, render(file.Errors))
	}
	var parsed []manifest.Finding
	for _, d := range file.Documents {
		parsed = append(parsed, d.Locate(d.Errors)...)
	}
	if a, b := render(during), render(parsed); a != b {
		t.Fatalf("documents' findings in Scan's fn:\n%s\n--- with Parse:\n%s", a, b)
	}
	for i, pd := range file.Documents {
		sd := docs[i]
		for _, it := range pd.InstanceTypes {
			if it.Object.Name == "" {
				continue // lint asks only for the positions of names
			}
			p := it.Path.Child("metadata", "name").String()
			if a, b := sd.Position(p), pd.Position(p); a != b {
				t.Errorf("document %d: after Scan Position(%s) = %v; Parse's = %v", i, p, a, b)
			}
		}
		for j, w := range pd.Workloads {
			if reflectWorkload(sd.Workloads[j].Object) != reflectWorkload(w.Object) {
				t.Errorf("document %d workload %d: Scan %+v, Parse %+v", i, j, sd.Workloads[j].Object, w.Object)
			}
			p := w.Object.InstanceTypePath(w.Path).String()
			if a, b := sd.Position(p), pd.Position(p); a != b {
				t.Errorf("document %d: after Scan Position(%s) = %v; Parse's = %v", i, p, a, b)
			}
		}
	}
}

// reflectWorkload renders a workload for comparing.
func reflectWorkload(w *workload.Workload) string {
	c := *w
	c.Resources = nil
	if w.Resources == nil {
		return fmt.Sprintf("%+v", c)
	}
	return fmt.Sprintf("%+v requests %v limits %v", c, amounts(w.Resources.Requests), amounts(w.Resources.Limits))
}

// checkDocument checks that a document's items agree with its kind.
func checkDocument(t *testing.T, d *manifest.Document, lines int) {
	t.Helper()
	if d.File != fuzzName {
		t.Errorf("document names file %q", d.File)
	}
	for i, it := range d.InstanceTypes {
		if it.Object == nil || it.Kind != manifest.KindInstanceType || it.Line < d.Line || it.Line > lines || it.Note != "" {
			t.Errorf("%s document: instance type %d: %+v", d.Kind, i, it)
		}
	}
	for i, w := range d.Workloads {
		if w.Object == nil || w.Line < d.Line || w.Line > lines {
			t.Fatalf("%s document: workload %d: %+v", d.Kind, i, w)
		}
		if w.Object.Kind == workload.ComputeJob && w.Object.Resources != nil {
			t.Errorf("a job with a resources section: %+v", w.Object.Resources)
		}
		if w.Object.LegacyCompute != (w.Note != "") && w.Kind != manifest.KindDeployment {
			t.Errorf("workload %d: LegacyCompute %v, note %q", i, w.Object.LegacyCompute, w.Note)
		}
	}
	switch d.Kind {
	case manifest.KindInstanceType:
		if len(d.InstanceTypes) != 1 || d.InstanceTypes[0].Path != nil || len(d.Workloads) != 0 {
			t.Errorf("InstanceType document: %d instance types (the first at %v), %d workloads", len(d.InstanceTypes), d.InstanceTypes, len(d.Workloads))
		}
	case manifest.KindInstanceTypeList, manifest.KindList:
		prev := -1
		for _, it := range d.InstanceTypes {
			var i int
			if _, err := fmt.Sscanf(it.Path.String(), "items[%d]", &i); err != nil || i <= prev || it.Path.String() != fmt.Sprintf("items[%d]", i) {
				t.Errorf("%s document: item at %s after items[%d]", d.Kind, it.Path, prev)
			}
			prev = i
		}
		if d.Kind == manifest.KindInstanceTypeList && prev != len(d.InstanceTypes)-1 {
			t.Errorf("InstanceTypeList document: %d items, the last at items[%d]", len(d.InstanceTypes), prev)
		}
		if len(d.Workloads) != 0 {
			t.Errorf("%s document with %d workloads", d.Kind, len(d.Workloads))
		}
	case manifest.KindDeployment, manifest.KindJob, manifest.KindSweepJob, manifest.KindAutoMLJob, manifest.KindBatchDeployment:
		want := workload.ComputeJob
		if d.Kind == manifest.KindDeployment {
			want = workload.OnlineDeployment
		}
		if len(d.Workloads) != 1 || len(d.InstanceTypes) != 0 || d.Workloads[0].Path != nil || d.Workloads[0].Kind != d.Kind || d.Workloads[0].Object.Kind != want {
			t.Fatalf("%s document: %d workloads %+v, %d instance types", d.Kind, len(d.Workloads), d.Workloads, len(d.InstanceTypes))
		}
	case manifest.KindPipelineJob:
		for _, w := range d.Workloads {
			if !strings.HasPrefix(w.Path.String(), "jobs.") || w.Kind != manifest.KindPipelineJob || w.Object.Kind != workload.ComputeJob {
				t.Errorf("PipelineJob step at %s: kind %s, %s", w.Path, w.Kind, w.Object.Kind)
			}
		}
	case manifest.KindEndpoint:
		for i, w := range d.Workloads {
			if w.Path.String() != fmt.Sprintf("deployments[%d]", i) && !strings.HasPrefix(w.Path.String(), "deployments[") || w.Kind != manifest.KindDeployment || w.Object.Kind != workload.OnlineDeployment || w.Note == "" {
				t.Errorf("endpoint deployment at %s: kind %s, %s, note %q", w.Path, w.Kind, w.Object.Kind, w.Note)
			}
		}
	case manifest.KindNode:
		if len(d.Nodes) != 1 || d.Nodes[0].Path != nil || len(d.InstanceTypes)+len(d.Workloads)+len(d.Computes) != 0 {
			t.Errorf("Node document: %d nodes, %d instance types, %d workloads, %d compute targets", len(d.Nodes), len(d.InstanceTypes), len(d.Workloads), len(d.Computes))
		}
	case manifest.KindCompute:
		if len(d.Computes) != 1 || d.Computes[0].Path != nil || len(d.InstanceTypes)+len(d.Workloads)+len(d.Nodes) != 0 {
			t.Errorf("Compute document: %d compute targets, %d instance types, %d workloads, %d nodes", len(d.Computes), len(d.InstanceTypes), len(d.Workloads), len(d.Nodes))
		}
	case manifest.KindComputeList:
		prev := -1
		for _, c := range d.Computes {
			var i int
			p := strings.TrimPrefix(c.Path.String(), "value")
			if _, err := fmt.Sscanf(p, "[%d]", &i); err != nil || i <= prev || p != fmt.Sprintf("[%d]", i) {
				t.Errorf("ComputeList document: compute target at %s after [%d]", c.Path, prev)
			}
			prev = i
		}
		if len(d.InstanceTypes)+len(d.Workloads)+len(d.Nodes) != 0 {
			t.Errorf("ComputeList document with %d instance types, %d workloads, %d nodes", len(d.InstanceTypes), len(d.Workloads), len(d.Nodes))
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

// checkClipped checks that no finding repeats more of a value than validate.MaxValueLen
// allows.
func checkClipped(t *testing.T, fs []manifest.Finding) {
	t.Helper()
	for _, x := range fs {
		if s, ok := x.Err.BadValue.(string); (ok && len(s) > validate.MaxValueLen+32) || len(x.Err.Detail) > maxDetailLen {
			t.Errorf("finding repeats %d bytes of its value: %.200s", len(s), x)
		}
		if len(x.Err.Field) > manifest.MaxFieldLen+32 {
			t.Errorf("finding repeats a field path of %d bytes: %.200s", len(x.Err.Field), x)
		}
	}
}

// FuzzValidate checks arbitrary bytes as the command does, through lint.Run: every
// instance type (together, for duplicates), the catalog they form, and every deployment and
// job against it, with the extension's nodeSelector {key: value} when key is not empty.
// Nothing may panic; the report must be the same twice; each finding must sit inside the
// file; no finding of validation may repeat more of the input than validate.MaxValueLen
// allows; and each placement must be of a workload of the file.
func FuzzValidate(f *testing.F) {
	addExampleSeeds(f, func(data []byte) {
		f.Add(data, "", "", false)
		f.Add(data, "mylabel", "other", true)
	})
	f.Fuzz(func(t *testing.T, data []byte, key, value string, strict bool) {
		opts := lint.Options{StrictSubset: strict, MaxFindings: -1}
		if key != "" {
			opts.NodeSelector = map[string]string{key: value}
		}
		run := func() *lint.Report {
			r, err := lint.Run([]lint.Input{lint.Bytes(fuzzName, data)}, opts)
			if err != nil {
				t.Fatalf("lint.Run: %v", err)
			}
			return r
		}
		r := run()
		if a, b := render(r.Findings), render(run().Findings); a != b {
			t.Fatalf("lint.Run is not deterministic:\n%s\n---\n%s", a, b)
		}
		// The findings of decoding, which lint reports as they are; the others are of
		// validation and resolution.
		// Nodes among the inputs are skipped (they are read with Options.Nodes), and their
		// findings with them.
		decoded := map[string]int{}
		pf := manifest.Parse(fuzzName, data)
		for _, x := range pf.Errors {
			decoded[render([]manifest.Finding{x})]++
		}
		for _, d := range pf.Documents {
		findings:
			for _, x := range d.Locate(d.Errors) {
				for _, n := range d.Nodes {
					if f := x.Err.Field; n.Path == nil || f == n.Path.String() || strings.HasPrefix(f, n.Path.String()+".") || strings.HasPrefix(f, n.Path.String()+"[") {
						continue findings
					}
				}
				decoded[render([]manifest.Finding{x})]++
			}
		}
		for _, x := range r.Findings {
			checkFinding(t, data, x)
			if k := render([]manifest.Finding{x}); decoded[k] > 0 {
				decoded[k]--
				continue
			}
			checkValidationError(t, x.Err)
		}
		for k, n := range decoded {
			if n > 0 {
				t.Errorf("a finding of decoding that lint.Run does not report: %s", k)
			}
		}
		if r.Files != 1 {
			t.Errorf("lint.Run read %d files", r.Files)
		}
		lines := maxLines(data)
		for _, p := range r.Placements {
			if p.File != fuzzName || p.Line < 1 || p.Line > lines || p.Workload == nil || p.InstanceType == "" {
				t.Errorf("placement %+v", p)
			}
		}
		for _, s := range r.Skipped {
			if s.File != fuzzName || s.Line < 1 || s.Line > lines {
				t.Errorf("skipped %+v; the input has %d lines", s, lines)
			}
		}
		for _, e := range validate.NodeSelector(opts.NodeSelector, field.NewPath("nodeSelector")) {
			checkValidationError(t, e)
		}
		checkObjects(t, data, r.Catalog, resolve.Options{NodeSelector: opts.NodeSelector, StrictSubset: strict})
	})
}

// checkObjects validates each object of data by itself, as lint does, and checks that its
// findings sit below its path, and that validating deep copies gives the same findings.
func checkObjects(t *testing.T, data []byte, catalog *resolve.Catalog, opts resolve.Options) {
	t.Helper()
	below := func(errs field.ErrorList, p *field.Path) {
		t.Helper()
		for _, e := range errs {
			if p != nil && e.Field != p.String() && !strings.HasPrefix(e.Field, p.String()+".") && !strings.HasPrefix(e.Field, p.String()+"[") {
				t.Errorf("finding at %s of the object at %s: %s", e.Field, p, e.Detail)
			}
		}
	}
	for _, d := range manifest.Parse(fuzzName, data).Documents {
		for _, it := range d.InstanceTypes {
			errs := validate.InstanceType(it.Object, it.Path, opts)
			below(errs, it.Path)
			if a, b := fmt.Sprint(errs), fmt.Sprint(validate.InstanceType(it.Object.DeepCopy(), it.Path, opts)); a != b {
				t.Errorf("validating a deep copy: %s; the original: %s", b, a)
			}
		}
		for _, w := range d.Workloads {
			p, errs := validate.Resolve(catalog, w.Object, w.Path, opts)
			below(errs, w.Path)
			if p.Kind != w.Object.Kind || p.InstanceType == "" {
				t.Errorf("placement %+v of workload %+v", p, w.Object)
			}
			c := *w.Object
			if c.Resources != nil {
				c.Resources = c.Resources.DeepCopy()
			}
			if _, again := validate.Resolve(catalog, &c, w.Path, opts); fmt.Sprint(again) != fmt.Sprint(errs) {
				t.Errorf("validating a copy: %v; the original: %v", again, errs)
			}
		}
	}
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
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s: %v\n", x.File, x.Line, x.Column, x.TypeName(), x.Err.Field, x.Message())
	}
	return b.String()
}
