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
	// blue.yaml:7: resources.limits[cpu]: Invalid value: "2": must be less than or equal to the cpu limit of instance type "cpu-small" (1) [R9]
	// blue.yaml:1 blue on cpu-small, limits map[cpu:2 memory:2Gi], resolved false
}

// Suppress a finding where it is accepted, with a comment on its line, and a rule in some
// paths, with an Ignore (--ignore R2=legacy/*): suppressed findings are listed apart, with
// what suppressed each. Every finding carries its rule's id.
func ExampleOptions_ignore() {
	deployment := lint.Bytes("blue.yaml", []byte(`$schema: https://azuremlschemas.azureedge.net/latest/kubernetesOnlineDeployment.schema.json
name: blue
endpoint_name: scoring
instance_type: Standard_DS3_v2  # instancetype:ignore R6 -- moved to Kubernetes next sprint
`))
	legacy := lint.Bytes("legacy/types.yaml", []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: old}
spec:
  resources:
    requests: {cpu: "0", memory: 1Gi}
    limits: {cpu: "1", memory: 2Gi}
`))
	ignore, err := lint.ParseIgnore("R2=legacy/*")
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := lint.Run([]lint.Input{deployment, legacy}, lint.Options{Ignore: []lint.Ignore{ignore}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(report.Findings), "findings")
	for _, s := range report.Suppressed {
		fmt.Printf("%s:%d %s suppressed by %s\n", s.File, s.Line, s.Rule(), s.By)
	}
	// Output:
	// 0 findings
	// blue.yaml:4 R6 suppressed by comment on line 4
	// legacy/types.yaml:6 R2 suppressed by Options.Ignore
}

// The rules, for a program that lists or links them.
func ExampleRules() {
	for _, r := range lint.Rules()[:3] {
		fmt.Println(r.ID, r.Name, r.HelpURI())
	}
	r, _ := lint.LookupRule("duplicate-key")
	fmt.Println(r.ID+":", r.Summary)
	// Output:
	// R1 InstanceTypeName https://github.com/amlarc-go/instancetypes/blob/main/docs/rules.md#r1
	// R2 InstanceTypeCPUAndMemory https://github.com/amlarc-go/instancetypes/blob/main/docs/rules.md#r2
	// R3 ExtendedResources https://github.com/amlarc-go/instancetypes/blob/main/docs/rules.md#r3
	// duplicate-key: no key is written twice in one mapping, nor two merge keys
}

// Lint a Python script that calls azure-ai-ml, as the command lints .py files and
// notebooks: the same rules as for the YAML, at the values' lines; a value that is not
// literal is counted, not checked.
func ExampleRun_python() {
	types := lint.Bytes("types.yaml", []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: cpu-small
spec:
  resources:
    requests: {cpu: 500m, memory: 1Gi}
    limits: {cpu: "1", memory: 2Gi}
`))
	script := lint.Bytes("deploy.py", []byte(`import os
from azure.ai.ml.entities import KubernetesOnlineDeployment, ResourceRequirementsSettings, ResourceSettings

limits = ResourceSettings(cpu="2")
blue = KubernetesOnlineDeployment(
    name="blue",
    endpoint_name="scoring",
    instance_type="cpu-small",
    resources=ResourceRequirementsSettings(requests=ResourceSettings(cpu="500m", memory="1Gi"), limits=limits),
)
green = KubernetesOnlineDeployment(name="green", endpoint_name="scoring", instance_type=os.environ["TYPE"])
`))
	report, err := lint.Run([]lint.Input{types, script}, lint.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range report.Findings {
		fmt.Println(f)
	}
	fmt.Println(report.Workloads, "workload checked,", report.NotLiteral, "value not literal")
	// Output:
	// deploy.py:4: resources.limits[cpu]: Invalid value: "2": must be less than or equal to the cpu limit of instance type "cpu-small" (1) [R9]
	// 1 workload checked, 1 value not literal
}
