package lint_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/amlarc-go/instancetypes/lint"
)

// verdicts are the findings of a run, without their places, and its placements, sorted.
func verdicts(t *rapid.T, inputs ...lint.Input) (found, placed []string) {
	rep, err := lint.Run(inputs, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		found = append(found, fmt.Sprintf("%s %s: %s", f.Rule(), f.Err.Field, f.Message()))
	}
	for _, p := range rep.Placements {
		placed = append(placed, fmt.Sprintf("%s %q: %s %v %v/%v", p.Workload.Kind, p.Workload.Name,
			p.Placement.InstanceType, p.Resolved, p.Placement.Requests(), p.Placement.Limits()))
	}
	slices.Sort(found)
	slices.Sort(placed)
	return found, placed
}

// TestPythonAgreesWithYAML draws Kubernetes online deployments (an instance type of the
// catalog, misspelt, or none; requests and limits of valid and invalid amounts; an MLflow
// model or not) and command jobs, writes each as the Azure ML CLI's YAML and as the
// azure-ai-ml call that makes it, and checks that both get the same findings (rule, field,
// message) and placements.
func TestPythonAgreesWithYAML(t *testing.T) {
	types := lint.Bytes("types.yaml", []byte(pyTypes))
	withFindings, placed := 0, 0
	amounts := []string{"", "1", "2", "4", "0.5", "500m", "0", "-1", "1Gi", "8Gi", "0.2G", "4G", "abc", "100Mi"}
	rapid.Check(t, func(t *rapid.T) {
		instanceType := rapid.SampledFrom([]string{"", "cpu-small", "cpu-smal", "gpu", "Standard_DS3_v2"}).Draw(t, "instanceType")
		var yml, py strings.Builder
		if rapid.Bool().Draw(t, "job") {
			yml.WriteString("$schema: https://azuremlschemas.azureedge.net/latest/commandJob.schema.json\ncommand: python train.py\nenvironment: azureml:env@latest\ncompute: azureml:k8s\n")
			py.WriteString("from azure.ai.ml import command\n\njob = command(\n    command=\"python train.py\",\n    environment=\"azureml:env@latest\",\n    compute=\"k8s\",\n")
			if instanceType != "" {
				yml.WriteString("resources:\n  instance_type: " + instanceType + "\n")
				py.WriteString("    instance_type=" + strconv.Quote(instanceType) + ",\n")
			}
			py.WriteString(")\n")
		} else {
			yml.WriteString("$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json\nname: blue\nendpoint_name: ep\n")
			py.WriteString("from azure.ai.ml.entities import KubernetesOnlineDeployment, Model, ResourceRequirementsSettings, ResourceSettings\n\n")
			mlflow := rapid.Bool().Draw(t, "mlflow")
			if mlflow {
				yml.WriteString("model:\n  path: ./model\n  type: mlflow_model\n")
			} else {
				yml.WriteString("model:\n  path: ./model\n")
			}
			var sections []string
			for _, section := range []string{"requests", "limits"} {
				if !rapid.Bool().Draw(t, section) {
					continue
				}
				var args []string
				yml.WriteString(map[bool]string{true: "resources:\n", false: ""}[len(sections) == 0])
				yml.WriteString("  " + section + ":\n")
				for _, res := range []struct{ yaml, py string }{{"cpu", "cpu"}, {"memory", "memory"}, {"nvidia.com/gpu", "gpu"}} {
					a := rapid.SampledFrom(amounts).Draw(t, section+"."+res.py)
					if a == "" {
						continue
					}
					yml.WriteString("    " + res.yaml + ": " + strconv.Quote(a) + "\n")
					args = append(args, res.py+"="+strconv.Quote(a))
				}
				if len(args) == 0 {
					yml.WriteString("    {}\n")
				}
				sections = append(sections, section+"=ResourceSettings("+strings.Join(args, ", ")+")")
			}
			if instanceType != "" {
				yml.WriteString("instance_type: " + instanceType + "\n")
			}
			py.WriteString("blue = KubernetesOnlineDeployment(\n    name=\"blue\",\n    endpoint_name=\"ep\",\n")
			if mlflow {
				py.WriteString("    model=Model(path=\"./model\", type=\"mlflow_model\"),\n")
			} else {
				py.WriteString("    model=Model(path=\"./model\"),\n")
			}
			if len(sections) > 0 {
				py.WriteString("    resources=ResourceRequirementsSettings(" + strings.Join(sections, ", ") + "),\n")
			}
			if instanceType != "" {
				py.WriteString("    instance_type=" + strconv.Quote(instanceType) + ",\n")
			}
			py.WriteString(")\n")
		}
		yFound, yPlaced := verdicts(t, lint.Bytes("w.yml", []byte(yml.String())), types)
		pFound, pPlaced := verdicts(t, lint.Bytes("w.py", []byte(py.String())), types)
		if !slices.Equal(yFound, pFound) || !slices.Equal(yPlaced, pPlaced) {
			t.Fatalf("YAML:\n%s\n%q\n%q\nPython:\n%s\n%q\n%q", yml.String(), yFound, yPlaced, py.String(), pFound, pPlaced)
		}
		if len(yFound) > 0 {
			withFindings++
		}
		placed += len(yPlaced)
	})
	// Not vacuous: most draws have a finding, and every one a placement.
	if withFindings == 0 || placed == 0 {
		t.Errorf("%d draws with findings, %d placements", withFindings, placed)
	}
	t.Logf("%d draws with findings, %d placements", withFindings, placed)
}
