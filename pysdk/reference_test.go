package pysdk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// python3 returns CPython, or skips the test when there is none (fails when
// INSTANCETYPES_PYTHON_REQUIRED is set). Any Python 3 will do: the facts asked of it
// (positions of expressions, str() of numbers) have not changed since 3.8.
func python3(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("INSTANCETYPES_PYTHON_REQUIRED") != "" {
			t.Fatal("python3 not found, and INSTANCETYPES_PYTHON_REQUIRED is set")
		}
		t.Skip("python3 not found: the comparison with CPython is skipped")
	}
	return p
}

type facts struct {
	Programs [][]string `json:"programs"`
	Numbers  []string   `json:"numbers"`
}

func cpythonFacts(t *testing.T, programs, numbers []string) facts {
	t.Helper()
	in, err := json.Marshal(map[string][]string{"programs": programs, "numbers": numbers})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python3(t), "testdata/facts.py")
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("testdata/facts.py: %v\n%s", err, stderr.String())
	}
	var f facts
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// The positions of the table's scripts are CPython's: a workload at a Call, a value
// read at a Constant (or, for AssetTypes.MLFLOW_MODEL, an Attribute), an unknown value
// at an expression.
func TestPositionsAgreeWithCPython(t *testing.T) {
	var programs []string
	for _, tt := range scriptTests {
		programs = append(programs, tt.src)
	}
	f := cpythonFacts(t, programs, nil)
	for i, tt := range scriptTests {
		res, err := ReadScript([]byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		has := func(p Position, kinds ...string) bool {
			for _, k := range kinds {
				if slices.Contains(f.Programs[i], fmt.Sprintf("%s %d %d", k, p.Line, p.Column)) {
					return true
				}
			}
			return false
		}
		for _, w := range res.Workloads {
			if !has(w.Pos, "Call") {
				t.Errorf("%s: %s at %d:%d: CPython has no call there", tt.name, w.Class, w.Pos.Line, w.Pos.Column)
			}
			for path, p := range w.At {
				if !has(p, "Constant", "Attribute") {
					t.Errorf("%s: %s at %d:%d: CPython has no literal there", tt.name, path, p.Line, p.Column)
				}
			}
			for _, u := range w.Unknown {
				if !slices.ContainsFunc(f.Programs[i], func(x string) bool { return strings.HasSuffix(x, fmt.Sprintf(" %d %d", u.Pos.Line, u.Pos.Column)) }) {
					t.Errorf("%s: unknown %q at %d:%d: CPython has no expression there", tt.name, u.Path, u.Pos.Line, u.Pos.Column)
				}
			}
		}
		for _, s := range res.Skipped {
			if !slices.ContainsFunc(f.Programs[i], func(x string) bool {
				var k string
				var l, c int
				fmt.Sscanf(x, "%s %d %d", &k, &l, &c)
				return k == "Call" && l == s.Pos.Line && c == s.Pos.Column
			}) {
				t.Errorf("%s: skipped %s at %d:%d: CPython has no call there", tt.name, s.Class, s.Pos.Line, s.Pos.Column)
			}
		}
	}
}

// Numbers are read as str() of their value, as azure-ai-ml sends them.
func TestNumbersAgreeWithCPython(t *testing.T) {
	ints := []string{"0", "1", "00", "0_0", "1_000", "0x10", "0X1f", "0o17", "0b101", "123456789012345678901234567890"}
	floats := []string{"0.5", ".5", "5.", "1e3", "1E3", "1.5e-3", "0.0001", "0.00001", "1e15", "1e16", "123456789.123456789",
		"1_0.2_5", "1e400", "0.1", "2.675", "1e-7", "9999999999999999.0", "0e0", "3.14159265358979323846"}
	f := cpythonFacts(t, nil, append(slices.Clone(ints), floats...))
	for i, lit := range append(slices.Clone(ints), floats...) {
		got, ok := pyNumber(lit, i < len(ints))
		if !ok || got != f.Numbers[i] {
			t.Errorf("pyNumber(%q) = %q, %v; CPython's str: %q", lit, got, ok, f.Numbers[i])
		}
	}
}
