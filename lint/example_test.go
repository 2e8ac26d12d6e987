package lint_test

import (
	"fmt"

	"github.com/amlarc-go/instancetypes/lint"
)

// Lint two manifests from memory, as the command lints files: the instance type that the
// deployment names is too small for it.
func ExampleRun() {
	types := lint.Bytes("types.yaml", []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: cpu-small
spec:
  resources:
    requests: {cpu: 500m, memory: 1Gi}
    limits: {cpu: "1", memory: 2Gi}
`))
	deployment := lint.Bytes("blue.yaml", []byte(`$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
endpoint_name: scoring
instance_type: cpu-small
resources:
  requests: {cpu: 500m, memory: 1Gi}
  limits: {cpu: "2"}
`))
	report, err := lint.Run([]lint.Input{types, deployment}, lint.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range report.Findings {
		fmt.Println(f)
	}
	for _, p := range report.Placements {
		fmt.Printf("%s:%d %s on %s, limits %v, resolved %v\n", p.File, p.Line, p.Name, p.InstanceType, p.Limits(), p.Resolved)
	}
	// Output:
	// blue.yaml:7: resources.limits[cpu]: Invalid value: "2": must be less than or equal to the cpu limit of instance type "cpu-small" (1)
	// blue.yaml:1 blue on cpu-small, limits map[cpu:2 memory:2Gi], resolved false
}
