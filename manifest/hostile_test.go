package manifest_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/amlarc-go/instancetypes/internal/cputime"
	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/manifest"
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

// TestHostileInput feeds the reader inputs meant to crash it, hang it or exhaust its
// memory. Each must come back as findings. (A hang fails by the test timeout; the cost of
// each is bounded by the reader's limits, which other tests check.)
func TestHostileInput(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	rng := rand.New(rand.NewPCG(1, 2))
	randomBytes := make([]byte, 4<<20)
	for i := range randomBytes {
		randomBytes[i] = byte(rng.Uint32())
	}
	header := typeHeader
	deployment := "endpoint_name: e\n"
	tests := []struct {
		name string
		data string
		typ  manifest.FindingType // of the finding wanted; "" for a field's
		want string               // a substring of it
		docs int                  // documents still returned
	}{
		{"alias bomb in a deployment", aliasBomb(deployment), manifest.InputLimit, "nodes once aliases are expanded", 0},
		{"alias bomb in metadata", aliasBomb(header) + "metadata:\n  name: a\n  ownerReferences: *a9\n", manifest.InputLimit, "nodes once aliases are expanded", 0},
		{"alias bomb in a list item", aliasBomb("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\n") + "items:\n- metadata:\n    name: a\n    ownerReferences: *a9\n", manifest.InputLimit, "nodes once aliases are expanded", 0},
		{"merge bomb", mergeBomb(deployment), manifest.InputLimit, "nodes once aliases are expanded", 0},
		{"10,001 levels through aliases, few nodes", deployment + "a: &a " + strings.Repeat("[", 9000) + "x" + strings.Repeat("]", 9000) + "\nb: " + strings.Repeat("[", 1001) + "*a" + strings.Repeat("]", 1001) + "\n", manifest.InputLimit, "nested more than 10000 levels once aliases are followed", 0},
		{"a chain of aliases, each nesting the one before", aliasChain(deployment, manifest.MaxDepth+1), manifest.InputLimit, "nodes once aliases are expanded", 0},
		{"200,000-deep flow nesting", header + "spec: " + strings.Repeat("[", 200000), manifest.SyntaxError, "exceeded max depth", 0},
		{"200,000-deep block nesting", header + "spec:\n" + strings.Repeat("- ", 200000), manifest.SyntaxError, "exceeded max depth", 0},
		{"200,000-deep JSON nesting", `{"kind": "InstanceType", "spec": ` + strings.Repeat("[", 200000), manifest.SyntaxError, "exceeded max depth of 10000", 0},
		{"megabytes of random bytes", string(randomBytes), manifest.SyntaxError, "invalid UTF-8", 0},
		{"NUL byte", header + "metadata: {name: \"a\x00b\"}\n", manifest.SyntaxError, "control character U+0000", 0},
		{"invalid UTF-8", header + "metadata:\n  name: \xc3\x28\n", manifest.SyntaxError, "invalid UTF-8 byte 0xc3", 0},
		{"1 MB scalar", header + "metadata: {name: " + strings.Repeat("a", 1<<20) + "}\n", manifest.InputLimit, "document ignored: a scalar of 1048576 bytes, more than 65536", 0},
		// YAML itself refuses implicit keys over 1024 characters; an explicit key is not limited.
		{"1 MB implicit label key", header + "spec:\n  nodeSelector:\n    " + strings.Repeat("k", 1<<20) + ": v\n", manifest.SyntaxError, "mapping values are not allowed in this context", 0},
		{"1 MB explicit label key", header + "spec:\n  nodeSelector:\n    ? " + strings.Repeat("k", 1<<20) + "\n    : v\n", manifest.InputLimit, "a scalar of 1048576 bytes", 0},
		{"1 MB quoted label value", header + "spec:\n  nodeSelector:\n    k: \"" + strings.Repeat("v", 1<<20) + "\"\n", manifest.InputLimit, "a scalar of 1048576 bytes", 0},
		{"1 MB JSON string", `{"kind": "InstanceType", "metadata": {"name": "` + strings.Repeat("v", 1<<20) + `"}}`, manifest.InputLimit, "document ignored: a value of 1048576 bytes, more than 65536", 0},
		{"1 MB JSON number", `{"kind": "InstanceType", "spec": {"resources": {"limits": {"cpu": 1` + strings.Repeat("0", 1<<20) + `}}}}`, manifest.InputLimit, "document ignored: a value of 1048577 bytes", 0},
		{"1 MB JSON key", `{"kind": "InstanceType", "` + strings.Repeat("k", 1<<20) + `": 1}`, manifest.InputLimit, "document ignored: a value of 1048576 bytes", 0},
		{"a document of more nodes than MaxNodes", header + "spec: [" + strings.Repeat("1,", manifest.MaxNodes/2) + "]\n", manifest.InputLimit, "document too large: about", 0},
		{"an alias into itself", "endpoint_name: e\nx: &a {k: *a}\n", "", "an alias to a node that contains it", 1},
		{"an alias into itself in metadata", header + "metadata:\n  name: bomb\n  ownerReferences: &a [*a]\n", "", "an alias to a node that contains it", 1},
		{"an alias into itself as a merge", header + "metadata: &m\n  name: m\n  <<: *m\n", "", "an alias to a node that contains it", 1},
		{"a cycle through two anchors", "endpoint_name: e\nx: &a [&b [*a, *b]]\n", "", "an alias to a node that contains it", 1},
		{"UTF-16 with an odd number of bytes", "\xff\xfea\x00:\x00 \x00b\x00\n", manifest.SyntaxError, "incomplete UTF-16 character", 0},
		{"a separator followed by 1 MB", "--- " + strings.Repeat("x", 1<<20) + "\n", manifest.SyntaxError, "invalid YAML document separator: \"xxx", 0},
		{"a Helm template of a hostile size", strings.Repeat("{{ x }}\n", 1<<16), "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := manifest.Parse("hostile.yaml", []byte(tt.data))
			fs := f.Findings()
			found := tt.want == ""
			for _, x := range fs {
				if n := len(x.String()); n > 4096 {
					t.Errorf("a finding of %d bytes: %.200q", n, x.String())
				}
				if x.Type == tt.typ && strings.Contains(x.Message(), tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("Parse findings:%s; want a %s finding saying %q", messages(fs), tt.typ, tt.want)
			}
			if len(f.Documents) != tt.docs {
				t.Errorf("Parse returned %d documents; want %d (a document that broke a limit is not used)", len(f.Documents), tt.docs)
			}
		})
	}

	// Random printable text is not a manifest: whatever the reader makes of it, no panic.
	printable := make([]byte, 1<<20)
	for i := range printable {
		printable[i] = byte(' ' + rng.IntN(95))
	}
	manifest.Parse("printable.yaml", printable)
}

// TestHostileLargeInput: the inputs of TestHostileInput that take tens of megabytes to
// build and read (slow).
func TestHostileLargeInput(t *testing.T) {
	slow(t)
	for _, tt := range []struct {
		name string
		data string
		typ  manifest.FindingType
		want string
	}{
		{"file over the size limit", strings.Repeat("#", manifest.MaxFileSize+1), manifest.InputLimit, "file too large: more than 67108864 bytes"},
		// kubectl reads the file as YAML when its first JSON value fails: then it is the YAML
		// reader's limit.
		{"a JSON document of more nodes than MaxNodes", `{"kind": "InstanceType", "spec": [` + strings.Repeat("1,", manifest.MaxNodes) + "1]}", manifest.InputLimit, "document too large"},
		// Each part within MaxNodes, the list over MaxListNodes.
		{"a long list of more nodes than MaxListNodes", "apiVersion: v1\nkind: List\nitems:\n" +
			strings.Repeat("- ["+strings.Repeat("0,", 40_000)+"0]\n", manifest.MaxListNodes/40_000+1), manifest.InputLimit, "document too large: more than 3000000 nodes"},
	} {
		f := manifest.Parse("hostile.yaml", []byte(tt.data))
		fs := f.Findings()
		if len(fs) != 1 || fs[0].Type != tt.typ || !strings.Contains(fs[0].Message(), tt.want) || len(f.Documents) != 0 {
			t.Errorf("%s: findings%s, %d documents; want one %s finding saying %q", tt.name, messages(fs), len(f.Documents), tt.typ, tt.want)
		}
	}
}

// tinyDocuments returns n InstanceType documents of one name each.
func tinyDocuments(n int) []byte {
	var b strings.Builder
	b.Grow(n * 80)
	for i := range n {
		fmt.Fprintf(&b, "---\n%smetadata: {name: t%d}\n", typeHeader, i)
	}
	return []byte(b.String())
}

// scanMany scans n tiny InstanceType documents, checks that every one is read, with its
// position, and returns the processor time the scan took.
func scanMany(t *testing.T, n int) time.Duration {
	t.Helper()
	data := tinyDocuments(n)
	var f *manifest.File
	checked, last := 0, 0
	took := cputime.Of(func() {
		f = manifest.Scan("many.yaml", data, func(d *manifest.Document) {
			checked++
			last = d.Position("metadata.name").Line
		})
	})
	if f.Count != n || f.Checked != n || checked != n || len(f.Errors) != 0 {
		t.Fatalf("Scan: Count %d, Checked %d, fn called %d times, errors:%.500s; want %d each and none", f.Count, f.Checked, checked, messages(f.Errors), n)
	}
	if want := 4 * n; last != want {
		t.Errorf("the last name on line %d; want %d", last, want)
	}
	return took
}

// TestManyDocuments: the limits of a document are its own: 24,000 tiny InstanceType
// documents (4,000 in the quick run), some 200,000 nodes together, are all read, each with
// its position.
func TestManyDocuments(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	scanMany(t, sized(4000, 24000))
}

// TestManyDocumentsLinear: the work per document is constant: ten times the documents
// (240,000, some two million nodes) take about ten times the processor time, where a cost
// per document that grew with those before it would take a hundred. Processor time, not
// wall-clock time, and a ratio within one run, so that a busy machine cannot fail it.
func TestManyDocumentsLinear(t *testing.T) {
	slow(t)
	scanMany(t, 2400) // warm up
	small := scanMany(t, 24000)
	large := scanMany(t, 240000)
	t.Logf("processor time of Scan: 24,000 documents %v, 240,000 %v (%.1f×)", small, large, float64(large)/float64(small))
	if large > 30*small {
		t.Errorf("Scan of 240,000 documents took %v of processor time, of 24,000 %v: more than 30 times; want time linear in the number of documents", large, small)
	}
}

// TestManySeparators: 64 MiB of "---" lines (8 million separators, 4 million empty
// documents) once ran for more than 11 minutes and grew past 420 MB: every document was cut
// into a list before any was read, and each "---" alone was parsed. Documents are now cut
// and read one at a time, and one of a separator alone is empty without being parsed: the
// reading allocates nothing per document. (Bytes allocated, not time: a busy machine
// cannot fail it. Not parallel, so that no other test allocates meanwhile.)
func TestManySeparators(t *testing.T) {
	for _, sep := range []string{"---\n", "---\r\n", "--- # c\n"} {
		data := []byte(strings.Repeat(sep, sized(200_000, 2_000_000)))
		var f *manifest.File
		allocated := bytesAllocated(func() { f = manifest.Scan("separators.yaml", data, nil) })
		if f.Count != 0 || len(f.Errors) != 0 || len(f.Skipped) != 0 {
			t.Errorf("%q: Count %d, findings:%s, skipped %v; want nothing", sep, f.Count, messages(f.Errors), f.Skipped)
		}
		if allocated > 64<<10 {
			t.Errorf("%q: reading %d separators allocated %d bytes; want nothing per document", sep, len(data)/len(sep), allocated)
		}
		// The suppression comments are read document by document too.
		data = append([]byte("# instancetype:ignore syntax\n"), data...)
		var supp []manifest.Suppression
		if allocated := bytesAllocated(func() { supp = manifest.Suppressions(data) }); len(supp) != 1 || allocated > 64<<10 {
			t.Errorf("%q: Suppressions gave %v, allocating %d bytes; want one, and nothing per document", sep, supp, allocated)
		}
	}
}

// bytesAllocated returns the bytes the heap grew by, in all, while f ran.
func bytesAllocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestManyEmptyDocuments(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	n := sized(20000, 200000)
	data := strings.Repeat("---\n", n) + typeHeader + "metadata: {name: last}\n"
	f := manifest.Parse("many.yaml", []byte(data))
	if fs := f.Findings(); len(fs) != 0 {
		t.Fatalf("findings:%s; want none", messages(fs))
	}
	d := oneDocument(t, f)
	if d.Line != n+1 || f.Count != 1 || d.Index != 0 {
		t.Errorf("document on line %d, index %d, of %d; want line %d, index 0, of 1", d.Line, d.Index, f.Count, n+1)
	}
}

func TestHugeList(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	n := sized(2000, 20000)
	f := manifest.Parse("big.yaml", bigList(n))
	if fs := f.Findings(); len(fs) != 0 {
		t.Fatalf("findings:%.2000s; want none", messages(fs))
	}
	d := oneDocument(t, f)
	last := d.InstanceTypes[len(d.InstanceTypes)-1]
	if len(d.InstanceTypes) != n || last.Object.Name != fmt.Sprint("it-", n-1) || last.Path.String() != fmt.Sprint("items[", n-1, "]") {
		t.Errorf("%d items, the last %q at %s", len(d.InstanceTypes), d.InstanceTypes[len(d.InstanceTypes)-1].Object.Name, d.InstanceTypes[len(d.InstanceTypes)-1].Path)
	}
}

// A hostile user with many mistakes: every finding is reported by Parse, lint reports the
// first of them and counts the rest.
func TestManyMistakes(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	n := sized(1000, 5000)
	for i := range n {
		fmt.Fprintf(&b, "- {metadata: {name: t%d}, x: 1}\n", i)
	}
	data := []byte(b.String())
	if fs := manifest.Parse("m.yaml", data).Findings(); len(fs) != n {
		t.Errorf("Parse: %d findings; want %d", len(fs), n)
	}
	r, err := lint.Run([]lint.Input{lint.Bytes("m.yaml", data)}, lint.Options{MaxFindings: 100})
	if err != nil {
		t.Fatal(err)
	}
	var more []manifest.Finding
	for _, x := range r.Findings {
		if x.Type == manifest.TooManyFindings {
			more = append(more, x)
		}
	}
	if len(r.Findings) != 101 || len(more) != 1 || !strings.HasPrefix(more[0].Message(), fmt.Sprint(n*5-100, " more findings")) {
		t.Errorf("lint.Run(MaxFindings 100): %d findings, %d counting the rest (%v); want 100 and one counting the %d others", len(r.Findings), len(more), more, n*5-100)
	}
	// The count comes last, in the order of the report (which text and JSON output keep),
	// and is placed at no position before another finding's.
	last := r.Findings[len(r.Findings)-1]
	if last.Type != manifest.TooManyFindings {
		t.Errorf("the last finding is %s; want the one counting those left out", last)
	}
	for _, x := range r.Findings[:len(r.Findings)-1] {
		if x.Line > last.Line || x.Line == last.Line && x.Column > last.Column {
			t.Errorf("the count, at %d:%d, is placed before %d:%d %s", last.Line, last.Column, x.Line, x.Column, x)
			break
		}
	}
}

// A duplicate key in an anchored mapping is one mistake, written once; aliasing the mapping
// must not multiply its findings, nor lengthen them with long keys above the aliases.
func TestAliasedMistakesAreNotAmplified(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
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
	data := []byte(b.String())
	f := manifest.Parse("amp.yaml", data)
	total := 0
	for _, x := range f.Findings() {
		total += len(x.String())
	}
	if total > 8*len(data)+1<<20 {
		t.Errorf("%d bytes of input give %d findings, %d bytes", len(data), len(f.Findings()), total)
	}
}

// A limit of the reader is an InputLimit finding, whichever document of a JSON stream meets
// it.
func TestJSONLimitIsAnInputLimit(t *testing.T) {
	slow(t)
	doc := `{"kind": "InstanceType"}` + "\n"
	data := doc + doc + `{"kind": "InstanceType", "spec": [` + strings.Repeat("1,", manifest.MaxNodes) + "1]}"
	f := manifest.Parse("big.json", []byte(data))
	var got []string
	for _, x := range f.Errors {
		got = append(got, x.TypeName()+": "+x.Message())
	}
	if len(f.Errors) != 1 || f.Errors[0].Type != manifest.InputLimit {
		t.Errorf("errors %q; want one InputLimit", got)
	}
}

// A finding of decoding repeats at most validate.MaxValueLen of a value, as validation's do:
// a 60 KB label value must not make a 120 KB message.
func TestDecodingFindingsClipValues(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"1." + strings.Repeat("1", 60000), `"` + strings.Repeat("x", 60000) + `"`} {
		src := typeHeader + "metadata:\n  name: a\n  labels: {k: " + v + "}\n  " + strings.Repeat("u", 1000) + ": 1\n"
		for _, x := range manifest.Parse("t.yaml", []byte(src)).Findings() {
			if n := len(x.Message()); n > 2*1024 {
				t.Errorf("a message of %d bytes: %.120s", n, x.Message())
			}
		}
	}
}

// Output is bounded by the mistake, not the input: a key of 60 KB (within MaxScalarSize)
// above several mistakes is cut in each finding's field path, as values are.
func TestLongKeysAreClippedInFieldPaths(t *testing.T) {
	t.Parallel()
	key := strings.Repeat("k", 60000)
	src := typeHeader + "metadata: {name: a}\nspec:\n  nodeSelector:\n    ? " + key + "\n    : v\n" +
		"x:\n  ? " + key + "\n  : {a: 1, a: 2, b: .inf}\n"
	fs := manifest.Parse("t.yaml", []byte(src)).Findings()
	if len(fs) < 3 {
		t.Fatalf("findings:%s; want several", messages(fs))
	}
	for _, x := range fs {
		if n := len(x.String()); n > 4*1024 {
			t.Errorf("a finding of %d bytes: %.300s", n, x)
		}
	}
}

// TestBangIsLinear: a "!" anywhere in a document (a string "Hello!") once made every plain
// scalar of it look for a non-specific tag by walking the text from its first line: a
// 512 KB list took 29 s, a 5 MB one did not end. Ten times the items now take about ten
// times the processor time (at most 30 allowed; a walk per scalar takes a hundred).
func TestBangIsLinear(t *testing.T) {
	slow(t)
	// One processor: a long list is read in parts on all of them otherwise, and the
	// processor time of one thread would not count all of the work.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	parse := func(n int) time.Duration {
		data := append(bigList(n), "x: hello!\n"...)
		return cputime.Of(func() { manifest.Parse("bang.yaml", data) })
	}
	parse(200) // warm up
	small, large := parse(2000), parse(20000)
	t.Logf("processor time: 2,000 items %v, 20,000 %v (%.1f×)", small, large, float64(large)/float64(small))
	if large > 30*small {
		t.Errorf("20,000 items with a \"!\" took %v, 2,000 %v: more than 30 times", large, small)
	}
}

// TestTooManyItems: a document holds at most MaxItems items. A list of 740,000 null items
// (1.5 MB) once took 94 s and 1.28 GB, every item an empty instance type with its finding
// held until the list was read; one of 370,000 "{}" 42 s and 670 MB; a List of 3 million
// scalars (22 MB), each skipped, 650 MB once it was read in parts. A list past the limit
// is now one finding, and is not read further.
func TestTooManyItems(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	list := func(n int, item string) []byte {
		return []byte("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n" + strings.Repeat(item, n))
	}
	for _, item := range []string{"- {}\n", "-\n", "- apiVersion: v1\n  kind: Node\n", "- x\n"} {
		data := list(manifest.MaxItems+1, item)
		if strings.Contains(item, "Node") || item == "- x\n" {
			data = []byte("apiVersion: v1\nkind: List\nitems:\n" + strings.Repeat(item, manifest.MaxItems+1))
		}
		f := manifest.Scan("many.yaml", data, func(*manifest.Document) { t.Errorf("%q: a document read", item) })
		fs := f.Errors
		if len(fs) != 1 || fs[0].Type != manifest.InputLimit || !strings.Contains(fs[0].Message(), "document ignored: more than 25000 items") ||
			fs[0].Line != 4+manifest.MaxItems*strings.Count(item, "\n") || f.Count != 1 || f.Checked != 0 || len(f.Skipped) > manifest.MaxFileReports+1 {
			t.Errorf("%d items %q: Count %d, Checked %d, %d skipped, findings%.500s; want one InputLimit at the item past the limit",
				manifest.MaxItems+1, item, f.Count, f.Checked, len(f.Skipped), messages(fs))
		}
	}
	if os.Getenv("INSTANCETYPES_SLOW_TESTS") == "" {
		return
	}
	if f := manifest.Parse("many.yaml", list(manifest.MaxItems, "- {}\n")); len(f.Documents) != 1 || len(f.Documents[0].InstanceTypes) != manifest.MaxItems {
		t.Errorf("a list of MaxItems items: %d documents; want it read", len(f.Documents))
	}
}

// TestManyReports: a file lists at most MaxFileReports findings of its reading and
// documents skipped, and one more of each that counts the rest. 1,000,000 documents of
// "[" (6 MB) once took 126 s and 334 MB, a finding each; 1,000,000 of another kind 16 s
// and 170 MB, a skip each (a 64 MiB file holds ten times as many).
func TestManyReports(t *testing.T) {
	t.Parallel() // heavy: the package's other tests run beside it
	n := manifest.MaxFileReports + 5
	f := manifest.Scan("broken.yaml", []byte(strings.Repeat("---\n[\n", n)), nil)
	if last := f.Errors[len(f.Errors)-1]; len(f.Errors) != manifest.MaxFileReports+1 || f.Count != n ||
		last.Type != manifest.InputLimit || !strings.HasPrefix(last.Message(), "5 more problems reading this file are not reported") || last.Line != 2*(n-5)+2 {
		t.Errorf("%d broken documents: Count %d, %d findings, the last %s; want %d and one counting 5 more, at the first", n, f.Count, len(f.Errors), last, manifest.MaxFileReports)
	}
	f = manifest.Scan("other.yaml", []byte(strings.Repeat("---\nkind: Other\n", n)), nil)
	if last := f.Skipped[len(f.Skipped)-1]; len(f.Skipped) != manifest.MaxFileReports+1 || f.Count != n ||
		!strings.HasPrefix(last.Reason, "5 more documents and items of this file skipped") || last.Line != 2*(n-5)+2 {
		t.Errorf("%d documents of another kind: Count %d, %d skipped, the last %v; want %d and one counting 5 more", n, f.Count, len(f.Skipped), last, manifest.MaxFileReports)
	}
}
