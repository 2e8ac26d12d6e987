// Package instancetypes is a Go SDK for the instance types of Azure Machine Learning on
// Kubernetes: the InstanceType custom resource (amlarc.azureml.com/v1alpha1) that bundles a
// nodeSelector with cpu, memory and GPU requests and limits, which training jobs and
// online deployments pick by name, falling back to the built-in defaultinstancetype.
//
// This root package holds no code; it documents how the packages fit together.
//
//   - instancetype: the API types, their scheme registration and deep copies, and Default,
//     the built-in defaultinstancetype.
//   - quantity: Kubernetes resource quantities ("100m", "2Gi"), parsed exactly as
//     apimachinery parses them, without allocating and many times faster.
//   - selector: node selectors as label maps: Merge, IsSubset, Matches, label validation.
//   - workload: the plain data of an Azure ML workload (an online deployment or a job on a
//     compute target), which the decoders fill in and resolve and validate read.
//   - cluster: the plain data of a cluster's nodes, their taints and a pod's tolerations.
//   - validate: every documented rule, as field.ErrorLists with precise paths.
//   - resolve: the catalog of instance types with its built-in default, and what a
//     workload really gets: instance type, merged node selector, requests and limits;
//     Options, the extension's node selector, which validate takes too.
//   - fit: whether a placement fits some node of the cluster, and why not.
//   - source: files read with kubectl's own code (apimachinery's reader, sigs.k8s.io/yaml
//     values), the line of a value found on demand.
//   - decode: instance types and nodes from those values, strictly.
//   - azureml: Azure ML files as the Azure ML CLI reads them: workloads and computes.
//   - lint: one call from files to the report the command prints.
//   - cmd/instancetype: the command-line tool (validate, resolve, list); cmd/instancetype/cli,
//     the same as a library, which the kubectl plugin runs.
//
// The client-go side (typed clients, informers, the CRD, an admission webhook) is the
// nested module github.com/amlarc-go/instancetypes/client.
//
// From files to findings and placements, as the command does:
//
//	report, err := lint.Run([]lint.Input{lint.Path("manifests/")}, lint.Options{})
//	if err != nil {
//		return err // a path that does not exist, a directory without manifests
//	}
//	for _, f := range report.Findings {
//		fmt.Println(f) // FILE:LINE: FIELD: MESSAGE [RULE]
//	}
//	for _, p := range report.Placements {
//		fmt.Println(p.File, p.Name, p.InstanceType, p.NodeSelector(), p.Limits(), p.Resolved)
//	}
package instancetypes
