package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

// lineRef is a line a message refers to ("(line 9)"), which differs between a file and
// its equivalent.
var lineRef = regexp.MustCompile(` \(line [0-9]+\)`)

// TestAzureAIMLDumpsSameVerdicts builds the source document's Python examples
// (testdata/python/document: as written, and filled in with mistakes) with azure-ai-ml
// itself, writes each job and deployment with its dump(), and checks the files it wrote
// as YAML: each Python file and the files dumped from it get the same findings (rule,
// field and message) and placements. A command() builder dumps as a pipeline's step, which
// azure-ai-ml's load_job refuses as a job (its component key): that one finding more in
// each dumped command job is expected. Runs with INSTANCETYPES_AZUREML=1
// (scripts/azureml-fields/run.sh fetches azure-ai-ml 1.34.0 from Debian).
func TestAzureAIMLDumpsSameVerdicts(t *testing.T) {
	if os.Getenv("INSTANCETYPES_AZUREML") != "1" {
		t.Skip("set INSTANCETYPES_AZUREML=1 to run azure-ai-ml itself (scripts/azureml-fields/run.sh fetches it)")
	}
	scripts, err := filepath.Glob("testdata/python/document/*.py")
	if err != nil || len(scripts) < 4 {
		t.Fatalf("testdata/python/document: %v %v", scripts, err)
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	// What the examples' Model and Environment read when azure-ai-ml builds them.
	work, out := t.TempDir(), t.TempDir()
	for name, data := range map[string]string{
		"model/sklearn_mnist_model.pkl": "", "model/conda.yml": "name: mnist\ndependencies: [python=3.10]\n",
		"script/score.py": "", "mlflow-model/MLmodel": "flavors: {}\n",
	} {
		p := filepath.Join(work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"python", filepath.Join(repo, "scripts", "azureml-fields", "dump.py"), out}
	for _, s := range scripts {
		abs, err := filepath.Abs(s)
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, abs)
	}
	cmd := exec.Command(filepath.Join(repo, "scripts", "azureml-fields", "run.sh"), args...)
	cmd.Dir = work
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dump.py: %v\n%s", err, stderr.String())
	}

	types := lint.Path("testdata/python/instance_types.yaml")
	// azure-ai-ml writes a compute as azureml:NAME; whether a command job's placement
	// holds is not compared (a dumped one's never does, for its component finding).
	prefix := strings.NewReplacer(`"azureml:`, `"`)
	verdicts := func(inputs ...string) (found, placed []string) {
		t.Helper()
		in := []lint.Input{types}
		for _, f := range inputs {
			in = append(in, lint.Path(f))
		}
		rep, err := lint.Run(in, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Skipped) > 0 {
			t.Errorf("%s: skipped %v", inputs, rep.Skipped)
		}
		for _, f := range rep.Findings {
			found = append(found, prefix.Replace(fmt.Sprintf("%s %s: %s", f.Rule(), f.Err.Field, lineRef.ReplaceAllString(f.Message(), ""))))
		}
		for _, p := range rep.Placements {
			holds := fmt.Sprint(p.Resolved)
			if p.Workload.Kind == "CommandJob" {
				holds = "-" // the component finding of the dump: the findings compare the rest
			}
			placed = append(placed, prefix.Replace(fmt.Sprintf("%s %q on %q: %s %s %v/%v", p.Workload.Kind, p.Workload.Name, p.Compute,
				p.Placement.InstanceType, holds, p.Placement.Requests(), p.Placement.Limits())))
		}
		slices.Sort(found)
		slices.Sort(placed)
		return found, placed
	}
	total := 0
	for _, s := range scripts {
		stem := strings.TrimSuffix(filepath.Base(s), ".py")
		dumped, err := filepath.Glob(filepath.Join(out, stem+".*.yml"))
		if err != nil || len(dumped) == 0 {
			t.Fatalf("%s: nothing dumped (%v)", s, err)
		}
		pyFound, pyPlaced := verdicts(s)
		ymlFound, ymlPlaced := verdicts(dumped...)
		// The command jobs dumped: one component finding each, the rest as the script's.
		commands := 0
		ymlFound = slices.DeleteFunc(ymlFound, func(f string) bool {
			if strings.HasPrefix(f, "unknown-field component: ") {
				commands++
				return true
			}
			return false
		})
		if want := strings.Count(readFile(t, s), "= command("); commands != want {
			t.Errorf("%s: %d dumped command jobs refused for their component key; want %d", s, commands, want)
		}
		if !slices.Equal(pyFound, ymlFound) {
			t.Errorf("%s: findings of the script:\n%q\nof what azure-ai-ml dumped:\n%q", s, pyFound, ymlFound)
		}
		if !slices.Equal(pyPlaced, ymlPlaced) {
			t.Errorf("%s: placements of the script:\n%q\nof what azure-ai-ml dumped:\n%q", s, pyPlaced, ymlPlaced)
		}
		total += len(pyFound)
	}
	if total < 8 {
		t.Errorf("%d findings in all: the examples hold less to compare than they were written with", total)
	}
}

// readFile is the text of the file name.
func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
