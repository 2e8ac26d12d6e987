package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"pgregory.net/rapid"
)

// checkPlain checks that parsePlain, when it reads data, reads it as the YAML reader
// does, and returns whether it read it.
func checkPlain(t interface {
	Helper()
	Fatalf(string, ...any)
}, data []byte) bool {
	t.Helper()
	got := parsePlain(data)
	if got == nil {
		return false
	}
	var want yaml.Node
	if err := yaml.Unmarshal(data, &want); err != nil {
		t.Fatalf("parsePlain reads %q, which the YAML reader refuses: %v", data, err)
	}
	if d := sameTree(got, &want, "doc"); d != "" {
		t.Fatalf("parsePlain(%q) differs from the YAML reader at %s", data, d)
	}
	return true
}

// FuzzPlainYAML holds parsePlain to the YAML reader's tree on every input it reads.
func FuzzPlainYAML(f *testing.F) {
	for _, s := range plainCases {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../examples/*/*.yaml")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			for _, c := range strings.Split(string(data), "\n---\n") {
				f.Add([]byte(c))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkPlain(t, data)
	})
}

var plainCases = []string{
	"a: 1\nb:\n  c: \"x\"\nd:\n- e\n- f: g\n  h: 100m\n",
	"apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata:\n  name: it-1\nspec:\n  nodeSelector:\n    pool: pool-1\n  resources:\n    requests:\n      cpu: \"101m\"\n      memory: \"257Mi\"\n    limits:\n      cpu: \"2\"\n      memory: \"3Gi\"\n      nvidia.com/gpu: 1\n",
	"\n\n  a: 1\n   \n  b: true\n",
	"- a\n- b: c\n  d:\n  - 1\n  - 2\n  e: Null\n",
	"a:\n  - b:\n    - c\n    d: e\n",
	"\"a b\": \"c: d\"\nx: \"\"\n",
	"a:    b\nc:\n    - d\n",
}

// TestPlainReads checks what parsePlain reads and what it leaves to the YAML reader.
func TestPlainReads(t *testing.T) {
	for _, s := range plainCases {
		if !checkPlain(t, []byte(s)) {
			t.Errorf("parsePlain does not read %q", s)
		}
	}
	for _, s := range []string{
		"a: 1 # c\n", "a: &x 1\n", "a: !!str 1\n", "a: |\n  x\n", "a: 'x'\n", "a: \"\\n\"\n", "a:\n", "a:\nb: 1\n",
		"a: 0755\n", "a: 1.5\n", "a: 1e3\n", "a: 0x1F\n", "a: 2006-01-02\n", "a: 1_000\n", "a: 12345678901234567890\n",
		"a: .inf\n", "a: -1\n", "a: ~\n", "a: b c\n", "a: b\n  c\n", "a: [1]\n", "a: {b: 1}\n", "a:\tb\n", "a: b\r\n",
		"a: b \n", "---\na: 1\n", "a: 1\n...\n", "? a\n: 1\n", "a:b\n", "-\n", "- - a\n", "a\n", "", "\n \n",
		"a: 1\n b: 2\n", "a:\n  b: 1\n c: 2\n", "- a\nb: 1\n", "a: 2Ei\n", "a: é\n", "\"a\" b: 1\n",
	} {
		if checkPlain(t, []byte(s)) {
			t.Errorf("parsePlain reads %q; want it left to the YAML reader", s)
		}
	}
}

// TestPlainAgreesWithYAML generates documents of parsePlain's form, and near it: every one
// it reads, it reads as the YAML reader does.
func TestPlainAgreesWithYAML(t *testing.T) {
	scalar := rapid.SampledFrom([]string{"a", "b1", "true", "False", "NULL", "null", "0", "7", "0755", "123456789012345678",
		"1234567890123456789", "500m", "2Gi", "1.5", "1e3", "x.y/z-w", "\"q\"", "\"a b: c\"", "\"\"", "y", "on", "_a", "-1", "2Ei"})
	read := 0
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		var gen func(indent, depth int)
		gen = func(indent, depth int) {
			n := rapid.IntRange(1, 4).Draw(t, "n")
			seq := rapid.Bool().Draw(t, "seq")
			pad := strings.Repeat(" ", indent)
			for range n {
				b.WriteString(pad)
				if seq {
					b.WriteString("- ")
				}
				b.WriteString(scalar.Draw(t, "key"))
				if seq && rapid.Bool().Draw(t, "item scalar") {
					b.WriteString("\n")
					continue
				}
				if depth < 3 && rapid.Bool().Draw(t, "nested") {
					b.WriteString(":\n")
					in := indent + rapid.IntRange(0, 3).Draw(t, "deeper")
					if seq {
						in += 2
					}
					gen(in, depth+1)
					continue
				}
				b.WriteString(":" + rapid.SampledFrom([]string{" ", "  ", ""}).Draw(t, "space") + scalar.Draw(t, "value") + "\n")
				if rapid.IntRange(0, 9).Draw(t, "blank") == 0 {
					b.WriteString(rapid.SampledFrom([]string{"\n", "  \n"}).Draw(t, "blank line"))
				}
			}
		}
		gen(rapid.IntRange(0, 2).Draw(t, "indent"), 0)
		if checkPlain(t, []byte(b.String())) {
			read++
		}
	})
	if read == 0 {
		t.Errorf("parsePlain read none of the documents generated")
	}
	t.Logf("parsePlain read %d of the documents generated", read)
}
