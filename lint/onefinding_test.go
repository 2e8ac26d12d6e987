package lint_test

import (
	"strings"
	"testing"

	"github.com/amlarc-go/instancetypes/lint"
)

// oneMistakeType, oneMistakeDeployment and oneMistakeNodes are a valid catalog, MLflow
// deployment and cluster, in which each does fit: their placeholders are the amounts the
// test changes, one at a time.
const (
	oneMistakeType = `apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: gpu-one
spec:
  nodeSelector: {pool: gpu}
  resources:
    requests:
      cpu: {it.requests.cpu}
      memory: {it.requests.memory}
    limits:
      cpu: {it.limits.cpu}
      memory: {it.limits.memory}
      nvidia.com/gpu: {it.limits.gpu}
`
	oneMistakeDeployment = `$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
type: kubernetes
endpoint_name: e
model:
  type: mlflow_model
  path: ./model
instance_type: gpu-one
resources:
  requests:
    cpu: {dep.requests.cpu}
    memory: {dep.requests.memory}
  limits:
    cpu: {dep.limits.cpu}
    memory: {dep.limits.memory}
    gpu: {dep.limits.gpu}
`
	oneMistakeNodes = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: gpu-node
    labels: {pool: gpu}
  status:
    allocatable: {cpu: "16", memory: 64Gi, nvidia.com/gpu: "4"}
`
)

// One mistake, one finding, for every amount and place: an amount with a problem of its own (not a quantity, white
// space around it, zero or below, a GPU of 0.5) is reported once, at its line, and is not
// used elsewhere: as a cap (R9), against its request or limit, for the MLflow minimums
// (R10), or in the fit check against the nodes.
func TestOneMistakeOneFindingEverywhere(t *testing.T) {
	valid := map[string]string{
		"it.requests.cpu": `"2"`, "it.requests.memory": "4Gi", "it.limits.cpu": `"4"`, "it.limits.memory": "8Gi", "it.limits.gpu": "1",
		"dep.requests.cpu": `"2"`, "dep.requests.memory": "4Gi", "dep.limits.cpu": `"4"`, "dep.limits.memory": "8Gi", "dep.limits.gpu": `"1"`,
	}
	render := func(change, value string) (string, string) {
		var pairs []string
		for k, v := range valid {
			if k == change {
				v = value
			}
			pairs = append(pairs, "{"+k+"}", v)
		}
		r := strings.NewReplacer(pairs...)
		return r.Replace(oneMistakeType), r.Replace(oneMistakeDeployment)
	}
	check := func(it, dep string) *lint.Report {
		r, err := lint.Run([]lint.Input{lint.Bytes("types.yaml", []byte(it)), lint.Bytes("deploy.yml", []byte(dep))},
			lint.Options{Nodes: []lint.Input{lint.Bytes("nodes.yaml", []byte(oneMistakeNodes))},
				Ignore: []lint.Ignore{{Rule: "stranded"}}}) // how well it packs is not this test's business
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := check(render("", "")); len(r.Findings) != 0 || len(r.Placements) != 1 || r.Placements[0].Fit == nil || r.Placements[0].Fit.Fits != 1 {
		t.Fatalf("the valid files: findings %q; want none, and a placement that fits", renderAll(r.Findings))
	}
	// Beside each kind of problem, one whose amount no node has (the fit check would
	// report it too) and, for cpu and memory, one above its limit or below its request.
	values := map[string][]string{
		"cpu":    {`"0"`, `"-1"`, `" 2"`, `"2x"`, `""`, `" 32"`, `" 1"`},
		"memory": {`"0"`, `"-1"`, `" 2Gi"`, `"2x"`, `""`, `" 128Gi"`, `" 1Gi"`},
		"gpu":    {`"0.5"`, "0.5", `"1.5"`, `"-1"`, `"2x"`, `" 1"`, `"500m"`, `"4.5"`, `" 8"`},
	}
	// A deployment without resources of its own takes its instance type's: the MLflow
	// minimums and the fit check are judged on those.
	noResources := func(dep string) string { return dep[:strings.Index(dep, "resources:")] }
	for place := range valid {
		for _, v := range values[place[strings.LastIndexByte(place, '.')+1:]] {
			if strings.HasPrefix(place, "dep.") && !strings.HasPrefix(v, `"`) {
				continue // a number in an Azure ML file is a finding of its own kind, tested apart
			}
			it, dep := render(place, v)
			if strings.HasPrefix(place, "it.") {
				if r := check(it, noResources(dep)); len(r.Findings) != 1 || r.Findings[0].File != "types.yaml" {
					t.Errorf("%s: %s, a deployment without resources: findings %q; want one, in types.yaml", place, v, renderAll(r.Findings))
				}
			}
			r := check(it, dep)
			file, text := "types.yaml", it
			if strings.HasPrefix(place, "dep.") {
				file, text = "deploy.yml", dep
			}
			key := place[strings.LastIndexByte(place, '.')+1:]
			if strings.HasPrefix(place, "it.") && key == "gpu" {
				key = "nvidia.com/gpu"
			}
			section := "requests:"
			if strings.Contains(place, ".limits.") {
				section = "limits:"
			}
			line := 1 + strings.Count(text[:strings.Index(text[strings.Index(text, section):], key+": ")+strings.Index(text, section)], "\n")
			if len(r.Findings) != 1 || r.Findings[0].File != file || r.Findings[0].Line != line {
				t.Errorf("%s: %s: findings %q; want one, at %s:%d", place, v, renderAll(r.Findings), file, line)
			}
		}
	}
}
