// Package manifest reads YAML and JSON manifests into instance types and Azure ML
// workloads, keeping the source position of every node so that any later finding can name
// its file, line and field path.
//
// # Documents
//
// A file holds one or more YAML documents (JSON is read as YAML). Each document is
// recognised by its content:
//
//   - kind InstanceType or InstanceTypeList: decoded into the types of package
//     instancetype. Their apiVersion must be amlarc.azureml.com/v1alpha1; a document of
//     group amlarc.azureml.com with another kind is a finding.
//   - an Azure ML online deployment: a $schema ending in
//     kubernetesOnlineDeployment.schema.json, or, with no $schema, an endpoint_name field.
//   - an Azure ML command job: a $schema ending in commandJob.schema.json, or, with no
//     $schema, a command field.
//
// Anything else (a Service, an apps/v1 Deployment, another Azure ML schema, an empty
// document) is skipped without complaint.
//
// # Strictness
//
// Instance types are decoded strictly: an unknown field, a duplicate key, a value of the
// wrong type (a label value written as true, a spec written as a list) is a finding at its
// field path, and decoding goes on, so every problem is reported at once. Quantities may be
// written as strings or as YAML numbers (cpu: 1), as Kubernetes accepts them; null means
// unset. Only the fields of a workload this package needs are read (name, instance_type,
// model.type, resources); the resources section of a deployment is read strictly, the rest
// of the document is checked for duplicate keys only.
//
// Scalars are resolved by YAML 1.2 rules (go.yaml.in/yaml/v3): yes, no, on and off are
// strings and 010 is ten, where kubectl's YAML 1.1 reader would see booleans and eight.
// Anchors, aliases and merge keys (<<) are followed.
//
// # Limits
//
// Hostile input yields findings, never a panic, a hang or unbounded memory: a file may
// hold at most [MaxFileSize] bytes and [MaxNodes] nodes (counted before parsing, as the
// YAML reader's tree costs about 200 bytes a node), a scalar at most [MaxScalarSize]
// bytes; nesting is limited to 10,000 levels by the YAML reader and to [MaxDepth] once
// aliases are followed (which catches an alias to a node that contains it); and aliases may
// grow a document at most [MaxAliasGrowth]-fold (which defuses alias bombs). Invalid UTF-8
// and control characters are reported at their line.
//
// # Positions
//
// Findings are [k8s.io/apimachinery/pkg/util/validation/field] errors whose paths are in
// apimachinery's notation, relative to the document: metadata.name,
// items[1].spec.resources.limits[nvidia.com/gpu], resources.instance_type.
// [Document.Position] maps such a path back to the line and column of its node in the
// file, or of its nearest existing parent when the node is missing (a required field).
package manifest
