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
//   - Files are read in the encodings kubectl reads: UTF-8 (a byte order mark dropped), and
//     UTF-16 in either byte order behind its byte order mark (what PowerShell 5.1 writes),
//     converted before anything else. UTF-32, and UTF-16 without a mark, are one finding
//     that names the encoding (kubectl reads their NUL bytes and refuses them).
//   - Documents are cut as kubectl cuts them: at each line that begins with "---". A line
//     that begins with "---" followed by anything but a comment is a SyntaxError (kubectl
//     reads no further; here the next document is read). A syntax error ends its own
//     document only. kubectl's line reader loses the last line of a file when it has no
//     line break and its length is a multiple of 4,096 bytes: so does this reader, and
//     that line is a SyntaxError.
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
//     kubectl reads the rest as YAML, and so does this (from where the first value ends,
//     which may be on its line: positions there count the JSON's columns).
//   - A key set twice: the last value is in effect, as kubectl reads it, and the second is
//     a finding. A null key, a list as a key, or a value kubectl cannot send (.inf, .nan, a
//     !!int that is no integer) is a finding: kubectl refuses the document.
//
// Where this package differs, it reports something kubectl accepts silently: duplicate
// keys, two merge keys, and the limits below; and go.yaml.in/yaml/v3, which gives the
// positions, refuses some malformed text that kubectl's older YAML parser reads. (A
// document of the plainest block YAML, as most files of one object are, is parsed without
// it, to the tree of nodes it would make, at about a third of the cost.)
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
//     path) or, without one, by shape, read as the Azure ML CLI v2 reads them (azure-ai-ml's
//     loaders and marshmallow schemas are the reference; tests hold files of every family
//     to what azure-ai-ml 1.34 read from them):
//     a Kubernetes online deployment (kubernetesOnlineDeployment, or type: kubernetes, or
//     an endpoint_name without a managed or batch marker; azure-ai-ml goes by type alone,
//     and reads a deployment without type: kubernetes as a managed one, but the source
//     document's examples have no type, so its $schema decides here); a command, sweep
//     or AutoML job on a compute target (commandJob, sweepJob, autoMLJob; command, trial
//     with sampling_algorithm, or type: automl, with compute); a batch deployment on a compute
//     target (batchDeployment, modelBatchDeployment; endpoint_name with type: model or a key
//     only batch deployments have, and compute), a workload that names its instance type in
//     resources.instance_type as a job does (workload.ComputeJob: it has no requests or
//     limits of its own); a pipeline job (pipelineJob, type: pipeline, or jobs): each step
//     under jobs on its own compute or the pipeline's settings.default_compute (or compute)
//     is a workload at jobs.NAME, one that names no resources.instance_type too (it gets
//     its compute's default instance type, as a job that names none does); and the older
//     forms of the AML-Kubernetes documents, a job with compute: {target, instance_type},
//     which the v2 CLI refuses (compute is a string): it is read, and a finding at compute
//     gives today's form; and an online endpoint with inline deployments (at
//     deployments[i]). A job that names its instance type both ways uses
//     resources.instance_type, and a different name in compute.instance_type is a finding.
//     A section of the wrong shape (jobs as a list, deployments as a mapping) is a finding
//     at the section.
//   - A workload's compute (its compute, compute.target in the older form, or its
//     pipeline's default) is kept as written in workload.Workload.Compute, with its path;
//     [ParseCompute] reads it: azureml:NAME, NAME and the ARM ids
//     (azureml:/subscriptions/…/computes/NAME, azureml://…/computes/NAME) name the compute
//     NAME; serverless and azureml:serverless the serverless compute. Only the workspace
//     knows a compute's type: package lint learns it from compute files.
//   - Compute targets: a compute file (kubernetesCompute, amlCompute, computeInstance, …,
//     or a type among kubernetes, amlcompute, computeinstance, virtualmachine, synapsespark,
//     with a name and none of an online endpoint's keys, auth_mode, compute, traffic: a
//     Kubernetes compute file may hold its name and type alone), and a list of them as az
//     ml compute list -o json (or -o yaml) prints it: [Document.Computes], with each one's
//     name, type and the resource group and workspace of its id. [ScanComputes] reads a
//     file given as compute targets: every mapping of a name and a type in it is one.
//   - In a Kubernetes deployment's resources (an Azure ML file, not an InstanceType), as
//     azure-ai-ml's ResourceSettingsSchema reads them: requests and limits of cpu, memory
//     and gpu, which is nvidia.com/gpu (azure-ai-ml renames nvidia.com/gpu to gpu; the list
//     holds nvidia.com/gpu). Both given is a finding at the second, the last in effect, as
//     azure-ai-ml has it. A value must be a string ("Not a valid string" for cpu: 1): a
//     number or a boolean is a finding that says how to quote it (its value is still
//     read), null one too ("Field may not be null"). azure-ai-ml reads the file with
//     PyYAML, and PyYAML's YAML 1.1 decides what is a string here, not kubectl's (1e3 and
//     0.5e1 are strings to it, read as those quantities; 1.5 and on are not). Any other
//     name is a finding naming the four ("Unknown field"), and is left out. An
//     InstanceType keeps Kubernetes' rules: numbers are fine there, and nvidia.com/gpu is
//     the only spelling.
//   - Skipped: managed online deployments (managedOnlineDeployment, type: managed, or an
//     instance_type that is an Azure VM size such as Standard_F2s_v2 with no Kubernetes
//     marker), serverless jobs and pipeline steps (no compute, compute: azureml:serverless
//     or serverless, or a serverless settings.default_compute: their instance_type is a VM
//     size), Spark jobs and steps (type: spark, whatever the compute: they run on serverless
//     Spark or an attached Synapse pool, never on Kubernetes), steps that are pipeline
//     components (their own steps run) or move data (data_transfer, import), jobs and steps
//     run locally, batch
//     deployments that name no compute and pipeline component batch deployments,
//     components, endpoints without deployments, GitHub Actions workflows (on:, or
//     jobs.*.runs-on), a Helm chart's Chart.yaml, Nodes (read only by a caller that wants
//     them), every other Kubernetes object, and Helm templates: a file whose Go template
//     actions stand where YAML cannot read them ({{ .Values.x }} as a value, {{- if … }}
//     on a line of its own, an action in a flow collection). An action inside a quoted
//     string, a block scalar (| or >), or a plain scalar that began before it is content,
//     as YAML reads it: a prompt template or Jinja in a pipeline's inputs; so is an Azure
//     ML expression, ${{inputs.data}}, and one in a comment. A file under a chart's
//     templates/ is a template whatever it holds: that needs its path, which Parse is not
//     given; package lint skips such files before they are parsed.
//
// Findings this package makes for Azure ML's spellings carry a rule id in the
// field.Error's Origin: legacy-compute-form, azureml-resource-name,
// azureml-resource-type, gpu-given-twice.
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
// # Speed
//
// A long list (an InstanceTypeList, or what kubectl get -o yaml prints) is read in parts, runs
// of items parsed on up to four processors at once as the decoder comes to them, when
// nothing can make a part read unlike the whole (see parts.go: no anchors or aliases,
// items that start at one indentation); the trees are the same, and so is what Parse
// reads of the document, which property tests and a fuzz target hold.
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
// function and keeps none, so that memory does not grow with the number of documents,
// which are cut from the file and read one at a time. The items of a long list are let go
// as they are decoded, and a long list read in parts never has the tree of the whole list,
// only those of the parts being read.
//
// # Limits
//
// Hostile input yields findings of type InputLimit, never a panic, a hang or unbounded
// memory: a file may hold at most [MaxFileSize] bytes; a document read whole at most
// [MaxNodes] nodes (bounded before parsing by [NodeBound], which counts the words and
// indicators that can make a node, one and a half to twice the nodes of a real node list;
// a document of blank lines, comments and separators is not parsed at all), and a long
// list read in parts at most [MaxListNodes] in all, each part within MaxNodes by the same
// bound (the node list of a real cluster of 3,000 nodes, 50 images each, is 51 MB and 1.85
// million nodes: read in parts); aliases may grow a document at most
// [MaxAliasGrowth]-fold; nesting is limited to [MaxDepth] levels once aliases are
// followed; a scalar may be [MaxScalarSize] bytes long; a document may hold [MaxItems]
// items (instance types, nodes, compute targets, pipeline steps, the items of a List it
// skips). A File lists at most [MaxFileReports] findings of its reading and documents
// skipped, and one more of each that counts the rest.
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
