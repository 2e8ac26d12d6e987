package lint_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/amlarc-go/instancetypes/lint"
)

// pyTypes is a catalog of one instance type, for the Python tests.
const pyTypes = `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: cpu-small
spec:
  resources:
    requests: {cpu: "1", memory: 4Gi}
    limits: {cpu: "2", memory: 8Gi}
`

// runPython checks the file name holding src with the catalog pyTypes.
func runPython(t *testing.T, name, src string) *lint.Report {
	t.Helper()
	rep, err := lint.Run([]lint.Input{lint.Bytes(name, []byte(src)), lint.Bytes("types.yaml", []byte(pyTypes))}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// notebookOf makes a notebook of code cells, each source line a string of its own line.
func notebookOf(cells ...string) string {
	type cell struct {
		Type    string   `json:"cell_type"`
		Meta    struct{} `json:"metadata"`
		Outputs []any    `json:"outputs"`
		Source  []string `json:"source"`
	}
	nb := struct {
		Cells  []cell   `json:"cells"`
		Meta   struct{} `json:"metadata"`
		Format int      `json:"nbformat"`
		Minor  int      `json:"nbformat_minor"`
	}{Format: 4, Minor: 5}
	for _, c := range cells {
		lines := strings.SplitAfter(c, "\n")
		nb.Cells = append(nb.Cells, cell{Type: "code", Outputs: []any{}, Source: lines})
	}
	data, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		panic(err)
	}
	return string(data)
}

func TestPythonFiles(t *testing.T) {
	const deploy = "from azure.ai.ml import KubernetesOnlineDeployment\n"
	tests := []struct {
		name, file, src string
		// want are the findings as FILE:LINE RULE (@: the line of the file where
		// cpu-smal is), skipped the reasons' starts.
		want, skipped []string
		documents     int
		notLiteral    int
	}{
		{name: "a script that uses no azure-ai-ml is no workload file", file: "helpers.py",
			src: "import json\n\ndef f(x):\n    return json.dumps(x)\n"},
		{name: "nor is one that does not parse, without azure-ai-ml", file: "py2.py",
			src: "print 'hello'\n"},
		{name: "a script with azure-ai-ml that does not parse is a syntax error", file: "broken.py",
			src: deploy + "d = KubernetesOnlineDeployment(name='blue',\n", want: []string{"broken.py:2 syntax"}},
		{name: "a notebook that is not JSON, with azure-ai-ml", file: "broken.ipynb",
			src: `{"cells": [{"source": "import azure.ai.ml"`, want: []string{"broken.ipynb:1 syntax"}},
		{name: "a literal instance type the catalog lacks", file: "d.py",
			src:  deploy + "d = KubernetesOnlineDeployment(\n    name='blue',\n    instance_type='cpu-smal',\n)\n",
			want: []string{"d.py:4 R6"}, documents: 1},
		{name: "one not literal is counted, never a finding", file: "d.py",
			src:       deploy + "import os\nd = KubernetesOnlineDeployment(name='blue', instance_type=os.environ['T'])\n",
			documents: 0, notLiteral: 1},
		{name: "nor is one whose name is bound twice", file: "d.py",
			src:       deploy + "t = 'cpu-smal'\nt = 'cpu-small'\nd = KubernetesOnlineDeployment(name='blue', instance_type=t)\n",
			documents: 0, notLiteral: 1},
		{name: "a name bound once is followed", file: "d.py",
			src:  deploy + "t = 'cpu-smal'\nd = KubernetesOnlineDeployment(name='blue', instance_type=t)\n",
			want: []string{"d.py:2 R6"}, documents: 1},
		{name: "a managed deployment is skipped", file: "m.py",
			src:     "from azure.ai.ml.entities import ManagedOnlineDeployment\nm = ManagedOnlineDeployment(name='red', instance_type='Standard_DS3_v2')\n",
			skipped: []string{"a managed online deployment"}},
		{name: "a notebook's finding at its .ipynb line", file: "n.ipynb",
			src:  notebookOf(deploy, "d = KubernetesOnlineDeployment(\n    name='blue',\n    instance_type='cpu-smal',\n)\n"),
			want: []string{"n.ipynb:@ R6"}, documents: 1},
		{name: "a notebook's cell that does not parse is skipped, the others read", file: "n.ipynb",
			src:  notebookOf(deploy, "print 'x'\n", "d = KubernetesOnlineDeployment(name='blue', instance_type='cpu-smal')\n"),
			want: []string{"n.ipynb:@ R6"}, documents: 1,
			skipped: []string{"cell 2 is not Python 3.11"}},
		{name: "a value two workloads reach through one name is one finding", file: "d.py",
			src: deploy + "from azure.ai.ml.entities import ResourceRequirementsSettings as R, ResourceSettings as S\n" +
				"r = R(requests=S(cpu='1', memory='1Gi'), limits=S(cpu='4', memory='1Gi'))\n" +
				"b = KubernetesOnlineDeployment(name='b', instance_type='cpu-small', resources=r)\n" +
				"g = KubernetesOnlineDeployment(name='g', instance_type='cpu-small', resources=r)\n",
			want: []string{"d.py:3 R9"}, documents: 2},
		{name: "resources no deployment takes: the rules of their own values", file: "r.py",
			src: "from azure.ai.ml.entities import ResourceRequirementsSettings as R, ResourceSettings as S\n" +
				"GPU = R(requests=S(cpu='4', memory='16Gi'),\n" +
				"        limits=S(cpu='8', memory='32Gi', gpu='0.5'))\n" +
				"SMALL = R(requests=S(cpu='0.1', memory='0.2G'))\n",
			want: []string{"r.py:3 R8"}, documents: 2},
		{name: "and suppressed there as in a deployment", file: "r.py",
			src: "from azure.ai.ml.entities import ResourceRequirementsSettings as R, ResourceSettings as S\n" +
				"GPU = R(requests=S(cpu='4', memory='16Gi'), limits=S(cpu='8', memory='32Gi', gpu='0.5'))  # instancetype:ignore R8\n",
			documents: 1},
		{name: "resources a deployment takes are checked once, with it", file: "d.py",
			src: deploy + "from azure.ai.ml.entities import ResourceRequirementsSettings as R, ResourceSettings as S\n" +
				"r = R(requests=S(cpu='1', memory='1Gi'), limits=S(cpu='2', memory='1Gi', gpu='0.5'))\n" +
				"b = KubernetesOnlineDeployment(name='b', instance_type='cpu-small', resources=r)\n",
			want: []string{"d.py:3 R8"}, documents: 1},
		{name: "job resources no job takes are not checked: the compute may be serverless", file: "j.py",
			src: "from azure.ai.ml.entities import JobResourceConfiguration\nr = JobResourceConfiguration(instance_type='Standard_DS3_v2')\n"},
		{name: "suppressed on its line", file: "d.py",
			src:       deploy + "d = KubernetesOnlineDeployment(name='blue', instance_type='cpu-smal')  # instancetype:ignore R6\n",
			documents: 1},
		{name: "a comment above a blank line applies to nothing", file: "d.py",
			src:  deploy + "# instancetype:ignore R6\n\nd = KubernetesOnlineDeployment(name='blue', instance_type='cpu-smal')\n",
			want: []string{"d.py:2 suppression", "d.py:4 R6"}, documents: 1},
		{name: "a comment of another rule suppresses nothing", file: "d.py",
			src:  deploy + "d = KubernetesOnlineDeployment(name='blue', instance_type='cpu-smal')  # instancetype:ignore R9\n",
			want: []string{"d.py:2 R6", "d.py:2 suppression"}, documents: 1},
		{name: "a comment at the top of a notebook applies to all of it", file: "n.ipynb",
			src:       notebookOf("# instancetype:ignore R6\n"+deploy, "d = KubernetesOnlineDeployment(name='blue', instance_type='cpu-smal')\n"),
			documents: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := runPython(t, tt.file, tt.src)
			at := strconv.Itoa(strings.Count(tt.src[:max(strings.Index(tt.src, "cpu-smal"), 0)], "\n") + 1)
			want := slices.Clone(tt.want)
			for i := range want {
				want[i] = strings.Replace(want[i], "@", at, 1)
			}
			if got := ruleFindings(rep.Findings); !slices.Equal(got, want) {
				t.Errorf("findings %q; want %q", got, want)
			}
			var skipped []string
			for _, s := range rep.Skipped {
				skipped = append(skipped, s.Reason)
			}
			if len(skipped) != len(tt.skipped) {
				t.Fatalf("skipped %q; want %q", skipped, tt.skipped)
			}
			for i, s := range skipped {
				if !strings.HasPrefix(s, tt.skipped[i]) {
					t.Errorf("skipped %q; want %q", s, tt.skipped[i])
				}
			}
			if rep.Documents-1 != tt.documents || rep.NotLiteral != tt.notLiteral {
				t.Errorf("%d documents checked, %d not literal; want %d and %d", rep.Documents-1, rep.NotLiteral, tt.documents, tt.notLiteral)
			}
		})
	}
}

// TestPythonColumns: a finding's column counts characters of the raw file, as those of
// the YAML do (in a notebook, of the .ipynb line, where the source is written escaped),
// and a notebook's findings say their cell and the line in it.
func TestPythonColumns(t *testing.T) {
	src := "j = command(compute=\"k8s\", name='é', instance_type='cpu-smal')"
	nb := notebookOf("from azure.ai.ml import command\n", src+"\n")
	rep := runPython(t, "n.ipynb", nb)
	if len(rep.Findings) != 1 {
		t.Fatalf("findings %v", rep.Findings)
	}
	f := rep.Findings[0]
	raw := strings.Split(nb, "\n")[f.Line-1]
	if want := utf8.RuneCountInString(raw[:strings.Index(raw, "'cpu-smal'")]) + 1; f.Column != want || f.Cell != 2 || f.CellLine != 1 {
		t.Errorf("%v at column %d, cell 2 line 1 (%q); want column %d, cell 2 line 1", f, f.Column, raw, want)
	}
	rep = runPython(t, "s.py", "from azure.ai.ml import command\n"+src+"\n")
	if want := utf8.RuneCountInString(src[:strings.Index(src, "'cpu-smal'")]) + 1; len(rep.Findings) != 1 || rep.Findings[0].Column != want {
		t.Errorf("script: findings %v; want one at column %d", rep.Findings, want)
	}
}

// TestPythonNothingChecked: a directory of Python files in which nothing is checked is a
// usage error, as one of YAML files of other kinds, which says why.
func TestPythonNothingChecked(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no azure-ai-ml", map[string]string{"a.py": "import os\n", "b.ipynb": notebookOf("print(1)\n")}, "its 2 files hold no document"},
		{"values not literal", map[string]string{"a.py": "import os\nfrom azure.ai.ml import command\nj = command(compute='k8s', instance_type=os.environ['T'])\n"},
			"its file holds no document the tool checks: the azure-ai-ml calls of its Python files have 1 value not literal, which is not checked"},
		{"skipped", map[string]string{"a.py": "from azure.ai.ml import command\nj = command(compute='serverless')\n"},
			"its file holds no document the tool checks, only what it skips: a serverless job"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := lint.Run([]lint.Input{lint.Path(dir)}, lint.Options{})
			if err == nil || !strings.Contains(err.Error(), "nothing checked in this directory: "+tt.want) {
				t.Errorf("error %v; want one that says %q", err, tt.want)
			}
		})
	}
}
