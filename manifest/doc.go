// Package manifest reads YAML and JSON manifests into instance types, Azure ML workloads
// and Kubernetes nodes, as kubectl reads them, keeping the source position of every node
// so that any later finding can name its file, line and field path.
//
// # Reading as kubectl reads
//
// What this package reads of a document is what kubectl sends to the API server for it,
// and a test holds it to that: the JSON value of every document equals what
// sigs.k8s.io/yaml.YAMLToJSON makes of the document as kubectl's reader cuts it (or
// encoding/json, for a JSON file), or both refuse it.
//
//   - Documents are cut as kubectl cuts them: at each line that begins with "---". A line
//     that begins with "---" followed by anything but a comment is a SyntaxError (kubectl
//     reads no further; here the next document is read). A syntax error ends its own
//     document only.
//   - Scalars are typed by the rules of YAML 1.1: yes, no, on, off, y, n (in three cases)
//     are booleans; 010 is octal 8, 0x1F and 0b101 are numbers, 1_000 is 1000, .5 a float;
//     ~ and null are null; 2001-12-14 stays a string. A quantity written as a number is the
//     JSON number kubectl sends (010 is "8", 1e3 is "1000"). A label value, a name or any
//     string field written as something else is a finding that says how kubectl reads it
//     and how to quote it.
//   - Merge keys (<<) are applied as kubectl's reader applies them: in order, so that keys
//     written after a merge win over the keys it brings, and keys written before it lose;
//     in <<: [*a, *b] the earlier mapping wins; a merge inside a merged mapping is followed.
//     A mapping with two merge keys is a finding (both apply, the later winning).
//   - Anchors are per document: an alias to an anchor of an earlier document is a syntax
//     error ("unknown anchor"), as kubectl finds it; an alias into the node that holds it
//     is a finding.
//   - A file whose first character other than white space is "{" is read by JSON rules, as
//     a stream of JSON objects (every escape decoded, \/ and surrogate pairs included),
//     with the position of every value; when its first or second value is no object,
//     kubectl reads the rest as YAML, and so does this.
//   - A key set twice: the last value is in effect, as kubectl reads it, and the second is
//     a finding. A null key, a list as a key, or a value kubectl cannot send (.inf, .nan, a
//     !!int that is no integer) is a finding: kubectl refuses the document.
//
// Where this package differs, it reports something kubectl accepts silently: duplicate
// keys, two merge keys, and the limits below; and go.yaml.in/yaml/v3, which gives the
// positions, refuses some malformed text that kubectl's older YAML parser reads.
//
// # Documents
//
// Each document is recognised by its content ([Kind]); anything else is skipped, with why
// ([File.Skipped]):
//
//   - kind InstanceType or InstanceTypeList (apiVersion amlarc.azureml.com/v1alpha1);
//     another kind of that group is a finding. A v1 List, as kubectl get -o yaml prints
//     one: its InstanceType items are read (at items[i]), its Nodes too; other items are
//     skipped.
//   - Azure ML files, by $schema (the schema's file name, whatever the host and version
//     path) or, without one, by shape:
//     a Kubernetes online deployment (kubernetesOnlineDeployment, or type: kubernetes, or
//     an endpoint_name without a managed or batch marker); a command job on a compute
//     target (commandJob, or command with compute); a sweep job (its top-level
//     resources.instance_type); a pipeline job (pipelineJob, type: pipeline, or jobs):
//     each step under jobs that names resources.instance_type, on its own compute or the
//     pipeline's settings.default_compute, is a workload at jobs.NAME; and the older forms
//     of the AML-Kubernetes documents, a job with compute: {target, instance_type} and an
//     online endpoint with inline deployments (at deployments[i]), each with a note naming
//     today's form. A job that names its instance type both ways uses
//     resources.instance_type, and a different name in compute.instance_type is a finding.
//     A section of the wrong shape (jobs as a list, deployments as a mapping) is a finding
//     at the section.
//   - Skipped: managed online deployments (managedOnlineDeployment, type: managed, or an
//     instance_type that is an Azure VM size such as Standard_F2s_v2 with no Kubernetes
//     marker), batch deployments (batchDeployment, or keys only they have:
//     mini_batch_size, output_action, retry_settings, …), serverless jobs and pipeline
//     steps (no compute: their instance_type is a VM size), jobs run locally, components,
//     endpoints without deployments, Nodes (read only by a caller that wants them), every
//     other Kubernetes object, and files that hold Go template actions as a Helm chart's
//     templates do ({{ .Values.x }}, {{- if … }}; one in a comment does not count, nor
//     one in a quoted string that is not Helm's, such as Argo's "{{inputs.x}}").
//
// Only the fields a check needs are decoded. Instance types are decoded strictly: an
// unknown field is a finding of type UnknownField (unknown field "status"), as
// apimachinery's strict decoding reports it, with the known fields taken from the Go
// types' JSON names; a value of the wrong type is a finding at its path, and decoding
// goes on, so every problem is reported at once. Of a workload, its name, instance_type,
// model.type and resources are decoded (a deployment's resources strictly; a job's
// resources hold no requests or limits); the rest is checked for duplicate keys and for
// what kubectl would refuse. Of a Node, its name, labels, spec.unschedulable, spec.taints
// and status.allocatable.
//
// # Rule ids, suppression comments and the config file
//
// Each finding of decoding carries the id of its class in its field.Error's Origin, which
// [Finding.Rule] returns: syntax, unknown-field, duplicate-key, wrong-type,
// kubectl-refuses (a value for which kubectl refuses the document), kind, legacy-form,
// input-limit, unreadable, nodes (package lint lists every rule). [Suppressions] reads a
// file's "# instancetype:ignore RULE" comments, as the YAML reader reads comments (a "#"
// in a quoted or block scalar is text), each with the lines it applies to. [ParseConfig]
// decodes the command's config file as strictly as a manifest, each setting with its place.
//
// # Memory
//
// A document's node tree lives while the document is decoded, and no longer: what a
// [Document] keeps is what was decoded of it (its instance types, workloads and nodes) and
// its table of positions. [Parse] keeps every document in the File; [Scan] hands each to a
// function and keeps none, so that memory does not grow with the number of documents. The
// items of a long list are let go as they are decoded, so that the list's tree and its
// decoded items are not held at once.
//
// # Limits
//
// Hostile input yields findings of type InputLimit, never a panic, a hang or unbounded
// memory: a file may hold at most [MaxFileSize] bytes; a document at most [MaxNodes]
// nodes (bounded before parsing by [NodeBound], which counts the words and indicators that
// can make a node: a real cluster's node list counts about twice its nodes; a document of
// blank lines and comments is not parsed at all), and aliases
// may grow it at most [MaxAliasGrowth]-fold; nesting is limited to [MaxDepth] levels once
// aliases are followed; a scalar may be [MaxScalarSize] bytes long.
//
// # Positions
//
// Findings are [k8s.io/apimachinery/pkg/util/validation/field] errors whose paths are in
// apimachinery's notation, relative to the document: metadata.name,
// items[1].spec.resources.limits[nvidia.com/gpu], jobs.train.resources.instance_type.
//
// As a document is decoded, one table records, under the text of each path it decodes (each
// field, map entry and list item of an instance type, a workload or a node), the position of
// its key, and whether decoding refused its value; and, for each finding of decoding, where
// it is. Every later question reads that table, after Parse as after Scan:
// [Document.Position] maps a path back to the line and column of its node, or of its
// nearest recorded parent for a path that leads nowhere (a missing field);
// [Document.Refused] tells a value decoding refused; [Document.Locate] places a list of
// findings, leaving out those of validation that restate a refusal. Each answers in the
// time it takes to read the path once, whatever the size of the document and the number of
// findings.
package manifest
