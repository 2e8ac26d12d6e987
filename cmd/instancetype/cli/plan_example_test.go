package cli_test

import (
	"os"
	"strings"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

// Plan an instance type on a cluster's nodes given on standard input, as instancetype plan
// does: one pool of two 4-core nodes, the default overhead of an online deployment.
func ExampleMain_plan() {
	nodes := `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: a, labels: {agentpool: cpu}}, status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}}
- {apiVersion: v1, kind: Node, metadata: {name: b, labels: {agentpool: cpu}}, status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}}
`
	dir, _ := os.MkdirTemp("", "plan")
	defer os.RemoveAll(dir)
	types := dir + "/types.yaml"
	os.WriteFile(types, []byte(`apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata: {name: three-cores}
spec:
  nodeSelector: {agentpool: cpu}
  resources:
    requests: {cpu: "3", memory: 4Gi}
    limits: {cpu: "3", memory: 4Gi}
`), 0o644)
	cli.Main([]string{"plan", "-o", "json", "--nodes", "-", types}, cli.Env{Stdin: strings.NewReader(nodes), Stdout: os.Stdout, Stderr: os.Stdout})
	// Output:
	// instancetype plan: 1 finding in the inputs ('instancetype validate' shows them); instance types validate refuses are left out
	// {
	//   "plan": [
	//     {
	//       "instanceType": "defaultinstancetype",
	//       "pool": "cpu",
	//       "nodes": 2,
	//       "perNode": 7,
	//       "fits": 14,
	//       "limitedBy": "memory",
	//       "stranded": {
	//         "cpu": "3220m",
	//         "memory": "1248Mi"
	//       }
	//     },
	//     {
	//       "instanceType": "three-cores",
	//       "pool": "cpu",
	//       "nodes": 2,
	//       "perNode": 1,
	//       "fits": 2,
	//       "limitedBy": "cpu",
	//       "stranded": {
	//         "cpu": "980m",
	//         "memory": "12088Mi"
	//       }
	//     }
	//   ],
	//   "overhead": {
	//     "perNode": {
	//       "cpu": "10m",
	//       "memory": "100Mi"
	//     },
	//     "perPod": {
	//       "cpu": "10m",
	//       "memory": "100Mi"
	//     }
	//   }
	// }
}
