package azureml

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pyYAMLTypes are plain scalars and the type PyYAML 6.0.3's safe loader gives them
// (yaml.SafeLoader.resolve, recorded on 2026-12-03), with what azure-ai-ml 1.34.0 made of
// some as a deployment's limits.cpu: "Not a valid string", "Field may not be null", or
// read as a string.
var pyYAMLTypes = []struct{ in, want string }{
	// Strings to PyYAML that kubectl's reader takes for numbers or true: azure-ai-ml read
	// each of 1e3, 0.5e1, 5e+0, -.5, 09, 0o10 and y as a string.
	{"1e3", ""}, {"0.5e1", ""}, {"5e+0", ""}, {"5e+1", ""}, {".5e1", ""}, {"-.5", ""},
	{"09", ""}, {"0o10", ""}, {"0o1", ""}, {"y", ""}, {"Y", ""}, {"n", ""},
	{"._5", ""}, {"._", ""}, {".", ""}, {"-", ""}, {"+", ""}, {"0b", ""}, {"0x", ""},
	{"_0", ""}, {"_1", ""}, {"-_1", ""}, {"0:5", ""}, {"1:60", ""}, {"1:5.e+1", ""},
	{"+.NAN", ""}, {"-.nan", ""}, {"500m", ""}, {"2Gi", ""}, {"1.5Gi", ""}, {"1e", ""},
	{"1.5e", ""}, {"1.5e+", ""}, {"1.5e1", ""}, {"0x1g", ""}, {"0b2", ""}, {"08", ""},
	{"1:", ""}, {"1::5", ""}, {"yes!", ""}, {"True ", ""},
	// Numbers, all refused: "Not a valid string".
	{"1", "a number"}, {"0", "a number"}, {"-0", "a number"}, {"+1", "a number"},
	{"1_000", "a number"}, {"1__", "a number"}, {"0_7", "a number"}, {"0_", "a number"},
	{"00", "a number"}, {"010", "a number"}, {"0b11", "a number"}, {"0b_", "a number"},
	{"-0b1", "a number"}, {"0x10", "a number"}, {"-0x1f", "a number"}, {"+0x_", "a number"},
	{"1:30", "a number"}, {"1:5", "a number"}, {"1:05", "a number"}, {"-1:5", "a number"},
	{"1_:5", "a number"}, {"190:20:30", "a number"},
	{"1.5", "a number"}, {"1.", "a number"}, {"0.", "a number"}, {"+0.", "a number"},
	{".5", "a number"}, {".5_", "a number"}, {".5e+1", "a number"}, {"1.e+1", "a number"},
	{"1.5e+3", "a number"}, {"1.5E-1", "a number"}, {"0.5E-1", "a number"},
	{"0_.5", "a number"}, {"1:5.", "a number"}, {"1:5:3.2_", "a number"},
	{"190:20:30.15", "a number"}, {".inf", "a number"}, {"-.Inf", "a number"},
	{"+.inf", "a number"}, {".NaN", "a number"}, {".nan", "a number"},
	// Booleans (on: "Not a valid string").
	{"yes", "a boolean"}, {"NO", "a boolean"}, {"on", "a boolean"}, {"Off", "a boolean"},
	{"TRUE", "a boolean"}, {"false", "a boolean"},
	// Null (each "Field may not be null").
	{"", "null"}, {"~", "null"}, {"null", "null"}, {"Null", "null"}, {"NULL", "null"},
}

func TestPyYAMLType(t *testing.T) {
	for _, tt := range pyYAMLTypes {
		if got := pyYAMLType(tt.in); got != tt.want {
			t.Errorf("pyYAMLType(%q) = %q; PyYAML: %q", tt.in, got, tt.want)
		}
	}
}

// TestPyYAMLTypeRecorded holds pyYAMLType to testdata/pyyaml/types.tsv: 10,000 scalars
// drawn from the characters of YAML 1.1's numbers, booleans and nulls, each with the type
// PyYAML's safe loader gave it (scripts/pyyaml-types.py wrote the file; its first line
// names PyYAML's version).
func TestPyYAMLTypeRecorded(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "pyyaml", "types.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) < 1000 || !strings.HasPrefix(lines[0], "# PyYAML ") {
		t.Fatalf("types.tsv: %d lines, first %q", len(lines), lines[0])
	}
	differ := 0
	for _, line := range lines[1:] {
		in, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("types.tsv: %q has no tab", line)
		}
		if got := pyYAMLType(in); got != want {
			if differ++; differ <= 20 {
				t.Errorf("pyYAMLType(%q) = %q; %s: %q", in, got, lines[0][2:], want)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d differ", differ, len(lines)-1)
	}
}
