package lint_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/amlarc-go/instancetypes/internal/cputime"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/source"
)

// aliasBomb builds a billion-laughs document of the given kind header: ten levels of
// anchors, each a list of ten aliases to the one before, 10^10 nodes once expanded.
func aliasBomb(header string) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 10; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

// mergeBomb is aliasBomb with merge keys: each level merges ten aliases of the one before.
func mergeBomb(header string) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("m0: &m0 {a: 1, b: 2, c: 3}\n")
	for i := 1; i < 12; i++ {
		fmt.Fprintf(&b, "m%d: &m%d {<<: [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*m%d", i-1)
		}
		fmt.Fprintf(&b, "], k%d: v}\n", i)
	}
	return b.String()
}

// aliasChain nests n levels through aliases, each anchor a list holding an alias of the one
// before: a few bytes a level in the text, n levels once aliases are followed.
func aliasChain(header string, n int) string {
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("c:\n- &c0 [x]\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "- &c%d [*c%d]\n", i, i-1)
	}
	return b.String()
}

// Inputs meant to crash the reader, hang it or exhaust its memory come back as findings:
// a finding of the kind wanted, each finding short, no document checked. (A hang fails by
// the test timeout.)
func TestHostileInput(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	rng := rand.New(rand.NewPCG(1, 2))
	randomBytes := make([]byte, 256<<10)
	for i := range randomBytes {
		randomBytes[i] = byte(rng.Uint32())
	}
	header := typeHeader
	deployment := "endpoint_name: e\n"
	tests := []struct {
		name string
		data string
		typ  lint.FindingType // of the finding wanted, "" for none
		want string           // a substring of it
		docs int              // documents checked
	}{
		{"alias bomb in a deployment", aliasBomb(deployment), lint.InputLimit, "aliases expand too far", 0},
		{"alias bomb in metadata", aliasBomb(header) + "metadata:\n  name: a\n  ownerReferences: *a9\n", lint.InputLimit, "aliases expand too far", 0},
		{"alias bomb in a list item", aliasBomb("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\n") + "items:\n- metadata:\n    name: a\n    ownerReferences: *a9\n", lint.InputLimit, "aliases expand too far", 0},
		{"merge bomb", mergeBomb(deployment), lint.InputLimit, "aliases expand too far", 0},
		{"a chain of aliases, each nesting the one before", aliasChain(deployment, 20000), lint.InputLimit, "", 0},
		{"200,000-deep flow nesting", header + "spec: " + strings.Repeat("[", 200000), lint.InputLimit, "", 0},
		{"200,000-deep block nesting", header + "spec:\n" + strings.Repeat("- ", 200000), lint.InputLimit, "", 0},
		{"200,000-deep JSON nesting", `{"kind": "InstanceType", "spec": ` + strings.Repeat("[", 200000), lint.InputLimit, "exceeded max depth", 0},
		{"random bytes", string(randomBytes), lint.SyntaxError, "", 0},
		{"NUL byte", header + "metadata: {name: \"a\x00b\"}\n", lint.SyntaxError, "control character U+0000", 0},
		{"a document of more nodes than MaxNodes", header + "spec: [" + strings.Repeat("1,", source.MaxNodes/2) + "]\n", lint.InputLimit, "too large to read whole", 0},
		{"UTF-32", "\x00\x00\xfe\xff\x00\x00\x00a", lint.SyntaxError, "UTF-32", 0},
		{"a separator followed by 256 KB", "--- " + strings.Repeat("x", 1<<18) + "\n", lint.SyntaxError, "invalid document separator", 0},
		{"a Helm template of a hostile size", strings.Repeat("{{ x }}\n", 1<<16), "", "", 0},
		// What kubectl reads at any size is read, and each finding repeats little of it.
		{"an alias of a 256 KB name before its anchor", deployment + "a: *" + strings.Repeat("n", 1<<18) + "\n", lint.SyntaxError, "must come after its anchor", 0},
		{"a tag that does not fit a 256 KB value", deployment + "a: !!int " + strings.Repeat("x", 1<<18) + "\n", lint.SyntaxError, "cannot decode", 0},
		{"256 KB scalar", header + "metadata: {name: " + strings.Repeat("a", 1<<18) + "}\n", "", "", 1},
		{"256 KB explicit label key", header + "metadata: {name: a}\nspec:\n  nodeSelector:\n    ? " + strings.Repeat("k", 1<<18) + "\n    : v\n", "", "", 1},
		{"256 KB quoted label value", header + "metadata: {name: a}\nspec:\n  nodeSelector:\n    k: \"" + strings.Repeat("v", 1<<18) + "\"\n", "", "", 1},
		{"256 KB JSON string", `{"kind": "InstanceType", "metadata": {"name": "` + strings.Repeat("v", 1<<18) + `"}}`, "", "", 1},
		{"256 KB JSON number", `{"kind": "InstanceType", "spec": {"resources": {"limits": {"cpu": 1` + strings.Repeat("0", 1<<18) + `}}}}`, lint.SyntaxError, "beyond the range of a 64-bit float", 0},
		{"256 KB JSON key", `{"kind": "InstanceType", "` + strings.Repeat("k", 1<<18) + `": 1}`, lint.UnknownField, "unknown field", 1},
		// YAML itself refuses implicit keys over 1024 characters.
		{"256 KB implicit label key", header + "spec:\n  nodeSelector:\n    " + strings.Repeat("k", 1<<18) + ": v\n", lint.SyntaxError, "mapping values are not allowed in this context", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := lintFile(t, "hostile.yaml", tt.data)
			found := tt.typ == ""
			for _, x := range r.Findings {
				if n := len(x.String()); n > 4096 {
					t.Errorf("a finding of %d bytes: %.200q", n, x.String())
				}
				if x.Type == tt.typ && strings.Contains(x.Message(), tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("findings%.2000s; want a %s finding saying %q", messages(r.Findings), tt.typ, tt.want)
			}
			if r.Documents != tt.docs {
				t.Errorf("%d documents checked; want %d (a document past a limit is not read)", r.Documents, tt.docs)
			}
		})
	}
}

// A list holds at most source.MaxItems items: a megabyte of "-" lines is half a million
// items, each an object with its findings. One past the limit is an InputLimit finding at
// that item, and the rest of the list is not read.
func TestTooManyItems(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	for _, tt := range []struct{ head, item string }{
		{"apiVersion: v1\nkind: List\nitems:\n", "- x\n"},
	} {
		data := tt.head + strings.Repeat(tt.item, source.MaxItems+1)
		r, err := lint.Run([]lint.Input{lint.Bytes("many.yaml", []byte(data))}, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var limits []lint.Finding
		for _, f := range r.Findings {
			if f.Type == lint.InputLimit {
				limits = append(limits, f)
			}
		}
		want := 4 + source.MaxItems*strings.Count(tt.item, "\n")
		if len(limits) != 1 || limits[0].Line != want || !strings.Contains(limits[0].Message(), "more than 25000") || len(r.Skipped) > 1002 {
			t.Errorf("%q: findings%s, %d skipped; want one InputLimit on line %d", tt.item, messages(limits), len(r.Skipped), want)
		}
	}
}

// A file lists at most 10,000 problems of its reading and documents skipped, and one more
// of each that counts the rest: 1,000,000 broken documents are not a million findings in
// memory.
func TestManyReports(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	const n = 10_000 + 5
	r := lintFile(t, "broken.yaml", strings.Repeat("---\n[\n", n))
	if last := r.Findings[len(r.Findings)-1]; len(r.Findings) != 10_001 || last.Type != lint.InputLimit || last.Line != 2*(n-5) ||
		!strings.HasPrefix(last.Message(), "5 more problems reading this file are not reported") {
		t.Errorf("%d broken documents: %d findings, the last %s; want 10,000 and one counting 5 more", n, len(r.Findings), last)
	}
	r = lintFile(t, "other.yaml", strings.Repeat("---\nkind: Other\n", n))
	if last := r.Skipped[len(r.Skipped)-1]; len(r.Skipped) != 10_001 || last.Line != 2*(n-5) ||
		!strings.HasPrefix(last.Reason, "5 more documents and items of this file skipped") {
		t.Errorf("%d documents of another kind: %d skipped, the last %v; want 10,000 and one counting 5 more", n, len(r.Skipped), last)
	}
}

// tinyDocuments returns n valid InstanceType documents of four lines each.
func tinyDocuments(n int) []byte {
	var b strings.Builder
	b.Grow(n * 160)
	for i := range n {
		fmt.Fprintf(&b, "---\n%smetadata: {name: t%d}\nspec: {resources: {requests: {cpu: 1, memory: 1Gi}, limits: {cpu: 1, memory: 1Gi}}}\n", typeHeader, i)
	}
	return []byte(b.String())
}

// checkMany checks n tiny InstanceType documents, each read, the last at its line, and
// returns the processor time the run took.
func checkMany(t *testing.T, n int) time.Duration {
	t.Helper()
	data := tinyDocuments(n)
	var r *lint.Report
	var err error
	took := cputime.OfProcess(func() { r, err = lint.Run([]lint.Input{lint.Bytes("many.yaml", data)}, lint.Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	if n <= lint.MaxInstanceTypes {
		if o, _ := r.Origin(fmt.Sprint("t", n-1)); r.Catalog.Len() != n+1 || len(r.Findings) != 0 || o.Line != 5*n-1 {
			t.Errorf("%d in the catalog, findings %v, the last named on line %d; want %d, none, line %d", r.Catalog.Len()-1, findings(r), o.Line, n, 5*n-1)
		}
	}
	if r.Documents != n {
		t.Fatalf("%d documents checked; want %d", r.Documents, n)
	}
	return took
}

// The limits of a document are its own: thousands of tiny documents are all read, each
// with its position.
func TestManyDocuments(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	checkMany(t, sized(2000, 24000))
}

// The work per document is constant: ten times the documents take about ten times the
// processor time, where a cost per document that grew with those before it would take a
// hundred. Processor time, not wall-clock time, and a ratio within one run, so that a busy
// machine cannot fail it; on one processor, so that the process's time is the run's.
func TestManyDocumentsLinear(t *testing.T) {
	slow(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	checkMany(t, 2400) // warm up
	small := checkMany(t, 24000)
	large := checkMany(t, 240000)
	t.Logf("processor time: 24,000 documents %v, 240,000 %v (%.1f×)", small, large, float64(large)/float64(small))
	if large > 30*small {
		t.Errorf("240,000 documents took %v of processor time, 24,000 %v: more than 30 times", large, small)
	}
}

// Documents of separators alone are empty: the one after them is read at its line, and
// counted as the file's only document.
func TestManyEmptyDocuments(t *testing.T) {
	n := sized(20000, 200000)
	r := lintFile(t, "many.yaml", strings.Repeat("---\n", n)+typeHeader+"metadata: {name: last, x: 1}\n")
	if got := locs(reading(r.Findings)); !slices.Equal(got, []loc{{n + 3, "metadata.x", "UnknownField"}}) || r.Documents != 1 || len(r.Skipped) != 0 {
		t.Errorf("findings %v, %d documents checked, skipped %v; want the unknown field on line %d, one document", got, r.Documents, r.Skipped, n+3)
	}
}

// bigList returns an InstanceTypeList of n valid items, each with a node selector,
// requests and limits, in flow and block style.
func bigList(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, `- metadata:
    name: it-%d
  spec:
    nodeSelector:
      pool: pool-%d
    resources:
      requests: {cpu: "%dm", memory: "%dMi"}
      limits: {cpu: "%d", memory: "%dGi", nvidia.com/gpu: %d}
`, i, i%7, 100+i%900, 256+i%1024, 1+i%8, 2+i%16, i%2)
	}
	return []byte(b.String())
}

// A large list is read whole, every item in the catalog, the last at its line.
func TestHugeList(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	n := sized(2000, 20000)
	r := lintFile(t, "big.yaml", string(bigList(n)))
	if len(r.Findings) != 0 || r.Catalog.Len() != n+1 {
		t.Fatalf("findings%.2000s, %d in the catalog; want none, %d", messages(r.Findings), r.Catalog.Len()-1, n)
	}
	if o, _ := r.Origin(fmt.Sprint("it-", n-1)); o.Line != 3+8*(n-1)+2 {
		t.Errorf("the last item named on line %d; want %d", o.Line, 3+8*(n-1)+2)
	}
}

// A hostile user with many mistakes: a file's first findings are reported, and one more
// counts the rest, last, placed at no position before another finding's.
func TestManyMistakes(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	n := sized(1000, 5000)
	for i := range n {
		fmt.Fprintf(&b, "- {metadata: {name: t%d}, x: 1}\n", i)
	}
	r, err := lint.Run([]lint.Input{lint.Bytes("m.yaml", []byte(b.String()))}, lint.Options{MaxFindings: 100})
	if err != nil {
		t.Fatal(err)
	}
	last := r.Findings[len(r.Findings)-1]
	if len(r.Findings) != 101 || last.Type != lint.TooManyFindings || !strings.HasPrefix(last.Message(), fmt.Sprint(n*5-100, " more findings")) {
		t.Errorf("Run(MaxFindings 100): %d findings, the last %s; want 100 and one counting the %d others", len(r.Findings), last, n*5-100)
	}
	for _, x := range r.Findings[:len(r.Findings)-1] {
		if x.Line > last.Line || x.Line == last.Line && x.Column > last.Column {
			t.Errorf("the count, at %d:%d, is placed before %d:%d %s", last.Line, last.Column, x.Line, x.Column, x)
			break
		}
	}
}

// A duplicate key in an anchored mapping is one mistake, written once: aliasing the
// mapping does not multiply its findings, nor lengthen them with the long keys above the
// aliases.
func TestAliasedMistakesAreNotAmplified(t *testing.T) {
	var b strings.Builder
	b.WriteString("endpoint_name: e\nt: &a {k: 1, k: 2}\n")
	indent := ""
	for i := range 2 {
		fmt.Fprintf(&b, "%s? %s%d\n%s:\n", indent, strings.Repeat("K", 60000), i, indent)
		indent += "  "
	}
	b.WriteString(indent + "[")
	b.WriteString(strings.Repeat("*a, ", 200))
	b.WriteString("*a]\n")
	data := b.String()
	r := lintFile(t, "amp.yaml", data)
	total := 0
	for _, x := range r.Findings {
		total += len(x.String())
	}
	if len(r.Findings) == 0 || total > 8*len(data)+1<<18 {
		t.Errorf("%d bytes of input give %d findings, %d bytes", len(data), len(r.Findings), total)
	}
}

// Output is bounded by the mistake, not the input: a finding repeats a clipped value, and a
// key of 60 KB above several mistakes is cut in each finding's field path.
func TestFindingsClipped(t *testing.T) {
	for _, src := range []string{
		typeHeader + "metadata:\n  name: a\n  labels: {k: 1." + strings.Repeat("1", 60000) + "}\n  " + strings.Repeat("u", 1000) + ": 1\n",
		typeHeader + "metadata:\n  name: a\n  labels: {k: \"" + strings.Repeat("x", 60000) + "\"}\n",
		typeHeader + "metadata: {name: a}\nspec:\n  nodeSelector:\n    ? " + strings.Repeat("k", 60000) + "\n    : v\n" +
			"x:\n  ? " + strings.Repeat("k", 60000) + "\n  : {a: 1, a: 2, b: [1]}\n",
	} {
		fs := lintFile(t, "t.yaml", src).Findings
		if len(fs) == 0 {
			t.Errorf("Run(%.100q): no finding", src)
		}
		for _, x := range fs {
			if n := len(x.String()); n > 4*1024 {
				t.Errorf("a finding of %d bytes: %.300s", n, x)
			}
		}
	}
}

// The inputs of TestHostileInput that take tens of megabytes to build and read.
func TestHostileLargeInput(t *testing.T) {
	slow(t)
	for _, tt := range []struct {
		name string
		data string
		typ  lint.FindingType
		want string
	}{
		{"file over the size limit", strings.Repeat("#", source.MaxFileSize+1), lint.InputLimit, "file too large"},
		{"a JSON document of more nodes than MaxNodes", `{"kind": "InstanceType", "spec": [` + strings.Repeat("1,", source.MaxNodes) + "1]}", lint.InputLimit, "too large to read whole"},
		{"a JSON stream whose third value is past MaxNodes", `{"kind": "InstanceType"}` + "\n" + `{"kind": "InstanceType"}` + "\n" + `{"kind": "InstanceType", "spec": [` + strings.Repeat("1,", source.MaxNodes) + "1]}", lint.InputLimit, "too large to read whole"},
	} {
		r := lintFile(t, "hostile.yaml", tt.data)
		var fs []lint.Finding
		for _, f := range r.Findings {
			if f.Type == tt.typ {
				fs = append(fs, f)
			}
		}
		if len(fs) != 1 || !strings.Contains(fs[0].Message(), tt.want) {
			t.Errorf("%s: findings%.1000s; want one %s finding saying %q", tt.name, messages(r.Findings), tt.typ, tt.want)
		}
	}
}

// A "!" in a document (a string "Hello!") once made the old reader walk the text from its
// first line for every plain scalar: ten times the items take about ten times the
// processor time (at most 30 allowed). On one processor, so that the process's time is
// the run's: a long list is read in runs on every processor otherwise.
func TestBangIsLinear(t *testing.T) {
	slow(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	check := func(n int) time.Duration {
		data := string(append(bigList(n), "x: hello!\n"...))
		return cputime.OfProcess(func() { lintFile(t, "bang.yaml", data) })
	}
	check(200) // warm up
	small, large := check(2000), check(20000)
	t.Logf("processor time: 2,000 items %v, 20,000 %v (%.1f×)", small, large, float64(large)/float64(small))
	if large > 30*small {
		t.Errorf("20,000 items with a \"!\" took %v, 2,000 %v: more than 30 times", large, small)
	}
}
