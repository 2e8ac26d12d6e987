package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// TestPythonSameVerdictsAsYAML checks the script and the notebook of testdata/python/sdk
// against the YAML files they are the equivalents of (testdata/python/yaml): the same
// findings (rule, field and message), the same placements, as many skipped, whatever the
// files and lines; and the value the script does not read is counted, not a finding.
func TestPythonSameVerdictsAsYAML(t *testing.T) {
	types := lint.Path("testdata/python/instance_types.yaml")
	verdicts := func(dir string) (*lint.Report, []string, []string) {
		t.Helper()
		rep, err := lint.Run([]lint.Input{lint.Path(dir), types}, lint.Options{})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		var found, placed []string
		for _, f := range rep.Findings {
			found = append(found, fmt.Sprintf("%s %s: %s", f.Rule(), f.Err.Field, f.Message()))
		}
		for _, p := range rep.Placements {
			placed = append(placed, fmt.Sprintf("%s %s %q on %q: %s %v %v/%v", p.DocumentKind, p.Workload.Kind, p.Workload.Name, p.Compute,
				p.Placement.InstanceType, p.Resolved, p.Placement.Requests(), p.Placement.Limits()))
		}
		slices.Sort(found)
		slices.Sort(placed)
		return rep, found, placed
	}
	py, pyFound, pyPlaced := verdicts("testdata/python/sdk")
	yml, ymlFound, ymlPlaced := verdicts("testdata/python/yaml")
	if len(ymlFound) == 0 || len(ymlPlaced) == 0 || len(yml.Skipped) == 0 {
		t.Fatalf("the YAML files hold nothing to compare: findings %q, placements %q, skipped %v", ymlFound, ymlPlaced, yml.Skipped)
	}
	if !slices.Equal(pyFound, ymlFound) {
		t.Errorf("findings of the Python files:\n%q\nof the YAML files:\n%q", pyFound, ymlFound)
	}
	if !slices.Equal(pyPlaced, ymlPlaced) {
		t.Errorf("placements of the Python files:\n%q\nof the YAML files:\n%q", pyPlaced, ymlPlaced)
	}
	if len(py.Skipped) != len(yml.Skipped) {
		t.Errorf("skipped of the Python files: %v; of the YAML files: %v", py.Skipped, yml.Skipped)
	}
	if py.Documents != yml.Documents || py.Workloads != yml.Workloads {
		t.Errorf("Python: %d documents, %d workloads; YAML: %d, %d", py.Documents, py.Workloads, yml.Documents, yml.Workloads)
	}
	if py.NotLiteral != 1 || yml.NotLiteral != 0 {
		t.Errorf("values not literal: Python %d, YAML %d; want 1 (os.environ[...]) and 0", py.NotLiteral, yml.NotLiteral)
	}
	for _, f := range py.Findings {
		if (f.Cell > 0) != (f.File == "testdata/python/sdk/deploy.ipynb") {
			t.Errorf("%v: cell %d, line %d in it", f, f.Cell, f.CellLine)
		}
	}
}
