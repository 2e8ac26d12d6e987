package manifest

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
)

// sameTree reports where the trees a and b differ, ignoring comments (which the reader does
// not read), or "".
func sameTree(a, b *yaml.Node, at string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return at + ": one tree ends"
		}
		return ""
	case a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) || (a.Alias == nil) != (b.Alias == nil):
		return fmt.Sprintf("%s: {%v %v %q %q %d:%d %d} and {%v %v %q %q %d:%d %d}", at,
			a.Kind, a.Style, a.Tag, a.Value, a.Line, a.Column, len(a.Content), b.Kind, b.Style, b.Tag, b.Value, b.Line, b.Column, len(b.Content))
	}
	for i := range a.Content {
		if d := sameTree(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// readInParts reads data as the decoder reads a long list, cut into parts of about size
// bytes, and puts the tree together: the header, its list holding every part's items.
func readInParts(data []byte, size int) (*yaml.Node, bool) {
	doc, l, ok := cutList(data, size)
	if !ok {
		return nil, false
	}
	retype(data, doc) // the header; each part is retyped as it is read
	var items []*yaml.Node
	l.parts(2, func(part []*yaml.Node, _ *retyper, read bool) bool {
		ok = read
		items = append(items, part...)
		return read
	})
	l.seq.Content = items
	return doc, ok
}

// retype retypes the tree of the document node doc, read from data, as Parse does.
func retype(data []byte, doc *yaml.Node) {
	t := &retyper{source: data, bangs: strings.Contains(string(data), "!")}
	for _, n := range doc.Content {
		t.walkRoot(n)
	}
}

// checkParts checks that data read in about the given number of parts, when it is, is the
// tree read whole, both retyped.
func checkParts(t interface{ Fatalf(string, ...any) }, data []byte, parts int) bool {
	got, ok := readInParts(data, max(1, len(data)/parts))
	if !ok {
		return false
	}
	var want yaml.Node
	if err := yaml.Unmarshal(data, &want); err != nil {
		t.Fatalf("read in parts, but the whole's reading fails: %v\n%q", err, data)
	}
	retype(data, &want)
	if d := sameTree(got, &want, ""); d != "" {
		t.Fatalf("read in parts unlike whole: %s\n%q", d, data)
	}
	return true
}

// listDoc draws a document with a long items list: items of the shapes of an
// InstanceTypeList or kubectl's output, and the pieces that make a part read differently
// (quotes and brackets over several lines, comments, block scalars, anchors, keys after the
// list).
func listDoc() *rapid.Generator[string] {
	items := []string{
		"- metadata:\n    name: a\n  spec: {resources: {requests: {cpu: 1}}}\n",
		"- {metadata: {name: b}}\n",
		"-\n  metadata:\n    name: c\n",
		"- x\n",
		"-\n",
		"- |\n  text\n  - not an item\n",
		"- \"a\n- b\"\n",
		"- {a: 1,\n- b: 2}\n",
		"# a comment\n",
		"\n",
		"- &a {x: 1}\n",
		"- *a\n",
		"- k: v # c\n  k2: [1, 2]\n",
		"- 'it''s'\n",
		"- !!str 1\n",
		"- apiVersion: amlarc.azureml.com/v1alpha1\n  kind: InstanceType\n  metadata: {name: t}\n  x: .inf\n",
		"- apiVersion: v1\n  kind: Node\n  metadata: {name: n, labels: {pool: a}}\n  spec: {taints: [{key: k, effect: NoSchedule}]}\n",
		"- {apiVersion: v1, kind: Service, metadata: {name: s}}\n",
		"- {metadata: {name: d, name: e}, spec: {resources: {limits: {cpu: 0}}}}\n",
	}
	return rapid.Custom(func(t *rapid.T) string {
		var b strings.Builder
		b.WriteString(rapid.SampledFrom([]string{"", "apiVersion: v1\nkind: List\n", "apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\n",
			"apiVersion: v1\nkind: PodList\n", "kind: InstanceTypeList\n"}).Draw(t, "header"))
		b.WriteString("items:\n")
		indent := rapid.SampledFrom([]string{"", "", "  ", " "}).Draw(t, "indent")
		for range rapid.IntRange(1, 30).Draw(t, "items") {
			item := rapid.SampledFrom(items).Draw(t, "item")
			if rapid.IntRange(0, 9).Draw(t, "misindent") > 0 { // now and then an item out of line
				item = indent + strings.ReplaceAll(strings.TrimSuffix(item, "\n"), "\n", "\n"+indent) + "\n"
			}
			b.WriteString(item)
		}
		b.WriteString(rapid.SampledFrom([]string{"", "metadata: {resourceVersion: \"\"}\n", "kind: List\n", "items:\n- y\n", "x: \"open\n"}).Draw(t, "trailer"))
		return b.String()
	})
}

func TestPartsAreTheWhole(t *testing.T) {
	read := 0
	rapid.Check(t, func(t *rapid.T) {
		if checkParts(t, []byte(listDoc().Draw(t, "doc")), rapid.IntRange(2, 8).Draw(t, "parts")) {
			read++
		}
	})
	if read == 0 {
		t.Error("no document was read in parts")
	}
	// The big list of the benchmarks, and kubectl's node list.
	if !checkParts(t, bigListText(3000), 4) {
		t.Error("an InstanceTypeList of 3,000 items was not read in parts")
	}
	var indented strings.Builder
	indented.WriteString("apiVersion: v1\nkind: List\nitems:\n")
	for i := range 300 {
		fmt.Fprintf(&indented, "  - metadata:\n      name: it-%d\n    spec: {resources: {requests: {cpu: 1}}}\n", i)
	}
	if !checkParts(t, []byte(indented.String()), 4) {
		t.Error("a list indented below its key was not read in parts")
	}
}

// summary renders what Parse read of a file: its findings, skips and counts, and each
// document's items with their places.
func summary(f *File) string {
	var b strings.Builder
	for _, x := range f.Findings() {
		fmt.Fprintln(&b, x.String())
	}
	fmt.Fprintln(&b, f.Count, f.Checked, f.Skipped)
	for _, d := range f.Documents {
		fmt.Fprintln(&b, d.Kind, d.Index, d.Line, d.refusal)
		for _, it := range d.InstanceTypes {
			fmt.Fprintln(&b, it.Path, it.Line, it.Object.Name, len(it.Errors), d.Position(it.Path.Child("metadata", "name").String()))
		}
		for _, n := range d.Nodes {
			fmt.Fprintln(&b, n.Path, n.Line, n.Object.Name, n.Object.Labels, n.Object.Taints, len(n.Errors))
		}
	}
	return b.String()
}

// A document read in parts (see parts.go), decoded part by part, reads as it does read
// whole: the same findings, skips, counts and items, in their places, whatever the size of
// the parts, for the documents of TestPartsAreTheWhole.
func TestReadInPartsAsWhole(t *testing.T) {
	defer func(m, s int) { splitMin, partSize = m, s }(splitMin, partSize)
	inParts := 0
	rapid.Check(t, func(t *rapid.T) {
		data := []byte(listDoc().Draw(t, "doc"))
		splitMin, partSize = 1<<30, 1<<30
		whole := summary(Parse("l.yaml", data))
		splitMin, partSize = 0, rapid.IntRange(1, len(data)).Draw(t, "partSize")
		if _, _, ok := cutList(data, partSize); ok {
			inParts++
		}
		if got := summary(Parse("l.yaml", data)); got != whole {
			t.Fatalf("read in parts:\n%s\nread whole:\n%s\n%q", got, whole, data)
		}
	})
	if inParts == 0 {
		t.Error("no document was read in parts")
	}
}

func FuzzParts(f *testing.F) {
	f.Add([]byte("items:\n- a\n- b\n- c\n"), 3)
	f.Add([]byte("kind: List\nitems:\n- {a: 1}\n-\n  b: 2\nmetadata: {}\n"), 2)
	f.Fuzz(func(t *testing.T, data []byte, parts int) {
		if len(data) > 1<<14 || parts < 2 || parts > 16 {
			return
		}
		checkParts(t, data, parts)
	})
}

// bigListText is an InstanceTypeList of n items.
func bigListText(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceTypeList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, "- metadata:\n    name: it-%d\n  spec:\n    nodeSelector:\n      pool: pool-%d\n    resources:\n      requests: {cpu: \"%dm\", memory: \"%dMi\"}\n      limits: {cpu: \"%d\", memory: \"%dGi\", nvidia.com/gpu: %d}\n",
			i, i%7, 100+i%900, 256+i%1024, 1+i%8, 2+i%16, i%2)
	}
	return []byte(b.String())
}
