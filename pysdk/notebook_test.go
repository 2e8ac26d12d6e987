package pysdk

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// makeNotebook writes a notebook as Jupyter does: each cell's source an array of lines,
// indented by one space per level. A cell starting with "#md " is markdown.
func makeNotebook(t *testing.T, cells ...string) []byte {
	t.Helper()
	type cell struct {
		CellType string         `json:"cell_type"`
		Metadata map[string]any `json:"metadata"`
		Source   []string       `json:"source"`
		Outputs  []any          `json:"outputs,omitempty"`
	}
	nb := struct {
		Cells    []cell         `json:"cells"`
		Metadata map[string]any `json:"metadata"`
		Major    int            `json:"nbformat"`
		Minor    int            `json:"nbformat_minor"`
	}{Metadata: map[string]any{"kernelspec": map[string]any{"language": "python", "name": "python3"}}, Major: 4, Minor: 2}
	for _, c := range cells {
		typ := "code"
		if s, ok := strings.CutPrefix(c, "#md "); ok {
			typ, c = "markdown", s
		}
		lines := strings.SplitAfter(c, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		nb.Cells = append(nb.Cells, cell{CellType: typ, Metadata: map[string]any{}, Source: lines})
	}
	data, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A notebook in the shape of azureml-examples' sdk/python endpoints notebooks, made
// Kubernetes: imports in one cell, the resources in another, the deployment in a third.
var k8sNotebook = []string{
	"#md # Deploy a model to a Kubernetes online endpoint\n",
	"%pip install azure-ai-ml\n",
	"from azure.ai.ml import MLClient\n" +
		"from azure.ai.ml.entities import (\n" +
		"    KubernetesOnlineEndpoint,\n" +
		"    KubernetesOnlineDeployment,\n" +
		"    Model,\n" +
		"    ResourceRequirementsSettings,\n" +
		"    ResourceSettings,\n" +
		")\n" +
		"from azure.ai.ml.constants import AssetTypes\n",
	"#md ## Configure the deployment\n",
	"model = Model(path=\"../../model-1/model/\", type=AssetTypes.MLFLOW_MODEL)\n" +
		"requests = ResourceSettings(cpu=\"1\", memory=\"2Gi\")\n",
	"%%bash\necho not python\n",
	"blue_deployment = KubernetesOnlineDeployment(\n" +
		"    name=\"blue\",\n" +
		"    endpoint_name=endpoint_name,\n" +
		"    model=model,\n" +
		"    instance_type=\"gpu-a100\",\n" +
		"    resources=ResourceRequirementsSettings(requests=requests),\n" +
		")\n" +
		"ml_client.online_deployments.begin_create_or_update(blue_deployment).result()\n",
}

func TestReadNotebook(t *testing.T) {
	data := makeNotebook(t, k8sNotebook...)
	res, err := ReadNotebook(data)
	if err != nil {
		t.Fatal(err)
	}
	want := `KubernetesOnlineDeployment KubernetesOnlineDeployment @59:19 cell 7:1 name=blue type=gpu-a100 mlflow requests={cpu:1,memory:2Gi} limits={}
  instance_type @63:19 cell 7:5
  model.type @43:49 cell 5:1
  name @60:10 cell 7:2
  resources.requests[cpu] @44:33 cell 5:2
  resources.requests[memory] @44:45 cell 5:2
`
	if got := summary(res); got != want {
		t.Errorf("ReadNotebook:\n%s\nwant:\n%s", got, want)
	}
	// The lines are those of the .ipynb: each holds, as a JSON string, the line of the
	// cell the value is on, and the column is that of the value in it.
	lines := strings.Split(string(data), "\n")
	for p, at := range res.Workloads[0].At {
		var line string
		if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(lines[at.Line-1]), ",")), &line); err != nil {
			t.Errorf("%s at .ipynb line %d: %q is not a source line's string", p, at.Line, lines[at.Line-1])
			continue
		}
		cellLines := strings.Split(k8sNotebook[at.Cell-1], "\n")
		if line != cellLines[at.CellLine-1]+"\n" {
			t.Errorf("%s at .ipynb line %d: %q; want cell %d's line %d, %q", p, at.Line, line, at.Cell, at.CellLine, cellLines[at.CellLine-1])
		}
		if at.Column < 1 || at.Column > len(line) {
			t.Errorf("%s: column %d out of line %q", p, at.Column, line)
		}
	}
	if len(res.CellErrors) != 0 {
		t.Errorf("CellErrors = %v; want none", res.CellErrors)
	}
}

// Comments are reported at their places in the .ipynb, for suppression comments.
func TestNotebookComments(t *testing.T) {
	cells := []string{"from azure.ai.ml import command\n", "#md # not code\n",
		"job = command(\n    compute=\"k8s\",  # instancetype:ignore R9\n)\n"}
	data := makeNotebook(t, cells...)
	res, err := ReadNotebook(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Comments) != 1 {
		t.Fatalf("Comments = %+v; want one", res.Comments)
	}
	c := res.Comments[0]
	line := strings.Split(string(data), "\n")[c.Pos.Line-1]
	if c.Text != "# instancetype:ignore R9" || c.Pos.Cell != 3 || c.Pos.CellLine != 2 || c.Pos.Column != 21 ||
		!strings.Contains(line, `compute=\"k8s\",  # instancetype:ignore R9`) {
		t.Errorf("Comments[0] = %+v on .ipynb line %q; want the comment of cell 3, line 2, column 21", c, line)
	}
	s, err := ReadScript([]byte("x = 1  # a\n# b\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Comment{{Pos: Position{Line: 1, Column: 8}, Text: "# a"}, {Pos: Position{Line: 2, Column: 1}, Text: "# b"}}
	if !slices.Equal(s.Comments, want) {
		t.Errorf("ReadScript: Comments = %+v; want %+v", s.Comments, want)
	}
}

// A name is bound once in the notebook, not in each cell: bound in two cells it is not
// followed; and a cell that does not parse stops all following.
func TestReadNotebookNamespace(t *testing.T) {
	imports := "from azure.ai.ml import command\nfrom azure.ai.ml.entities import JobResourceConfiguration\n"
	twice := makeNotebook(t, imports, "t = \"gpu-a100\"\n", "t = \"cpu-small\"\n", "job = command(compute=\"k8s\", instance_type=t)\n")
	res, err := ReadNotebook(twice)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Workloads) != 1 || res.Workloads[0].Workload.InstanceType != "" || len(res.NotLiteral) != 1 ||
		res.NotLiteral[0].Why != "a name bound 2 times" || res.NotLiteral[0].Pos.Cell != 4 {
		t.Errorf("ReadNotebook:\n%s%+v; want one workload, its instance type unknown: bound twice", summary(res), res.NotLiteral)
	}
	broken := makeNotebook(t, imports, "t = \"gpu-a100\"\n", "t = (\n", "job = command(compute=\"k8s\", instance_type=t)\n")
	res, err = ReadNotebook(broken)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.CellErrors) != 1 || res.CellErrors[0].Cell != 3 || len(res.Workloads) != 1 || res.Workloads[0].Workload.InstanceType != "" {
		t.Errorf("ReadNotebook:\n%s%v; want cell 3 refused and the name not followed", summary(res), res.CellErrors)
	}
	if _, err := ReadNotebook([]byte(`{"worksheets": []}`)); err == nil {
		t.Error("ReadNotebook of a notebook of nbformat 3: no error")
	}
}
