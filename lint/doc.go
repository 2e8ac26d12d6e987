// Package lint checks manifests as the instancetype command does, in one call: [Run] takes
// inputs (paths of the file system, an fs.FS, readers or bytes, and nodes already
// decoded: [NodeObjects]) and [Options], the one settings type of a run (the
// extension's node selector, the strict subset rule, the cluster's instance types and
// nodes, the workspace's compute targets, tolerations, paths to exclude) and returns a
// [Report]: every finding, sorted, each with its
// file, line, column, field path, type and message; the documents skipped and why; what
// each deployment and job gets (its [Placement]); and the catalog, with where each of its
// instance types is defined. The command prints the report; a Go program can act on it.
// The command's config file (.instancetype.yaml) is the command's: its package
// (cmd/instancetype/cli) reads it into Options.
//
// What Run does, in order:
//
//  1. Lists the files of the inputs: a directory is walked for manifests (.yaml, .yml
//     and .json files) and Python scripts and notebooks (.py, .ipynb: the workloads their
//     azure-ai-ml calls create, read by package pysdk, are checked as those of the YAML;
//     a file that calls none is not a workload file), in lexical order, leaving out paths that match
//     Options.Exclude (relative to the directory walked, or to Options.ExcludeDir: a
//     config file's patterns are relative to its directory); the same file named twice is
//     read once. An input that does not exist or cannot be read (a file that cannot be
//     opened, a directory that cannot be listed), or a directory named as an input that
//     holds no manifest or in which nothing is checked (every file skipped or empty, as in
//     a .github directory), is an error: the command's usage error. An unreadable file or
//     directory, or a dangling symlink, met in a walk is a finding, and the rest is read;
//     what is not a regular file (a named pipe, a socket, a device) is skipped, with why: a
//     walk never waits for a writer or reads without end. Named as an input, a pipe is read
//     (within the size limit). A file under a Helm chart's templates/ (a directory named
//     templates whose parent holds a Chart.yaml, at any depth below it) is skipped as a
//     template whatever it holds: quoted actions ("{{ .Values.name }}") are YAML that
//     reads, so only the path tells.
//  2. Reads the cluster's instance types (Options.Catalog), nodes (Options.Nodes) and
//     compute targets (Options.Computes: compute files, or az ml compute list -o json|yaml;
//     every mapping of a name and a type in them is a compute target, read as az ml prints
//     it, azureml.RecogniseCompute).
//     They are not checked, but problems reading them are findings, and so is a file of
//     Options.Computes that holds no compute target.
//  3. Reads every file once, in parallel, one document at a time per file, with kubectl's
//     own code (package source: apimachinery's reader cuts it, sigs.k8s.io/yaml gives every
//     value; an Azure ML file is read as azure-ai-ml reads it), decodes each document
//     (packages decode and azureml), and checks each instance type by the rules of package
//     validate, and, with nodes, that it fits some node (package fit). A finding of
//     validation at or below a path whose value decoding refused (a number where a string
//     belongs, a number where a mapping of limits belongs) is left out
//     (decode.WithoutRestated): decoding has said it, and one mistake gets one finding. The
//     line of a finding is looked up (with yaml.v3) only in a document that has one. Of each
//     workload, what its check needs is kept for step 5 (its values, and its document's
//     text for the positions of its findings), not its decoded document. Past 32 MiB of
//     them, the files that hold the rest are read again at step 5, so that memory stays
//     bounded whatever the number of workloads.
//  4. Forms the catalog: the built-in default, the cluster's instance types, and over them
//     those of the inputs; of several definitions of a name, the last is in effect, as
//     kubectl apply leaves the cluster, and every earlier one is a finding
//     (validate.UniqueNames). Without any instance type, the names workloads give are
//     checked for their form only ([Report.NamesChecked] is false). Of each instance type
//     it keeps its name and spec, and it keeps the first [MaxInstanceTypes] in the order
//     of the inputs (a finding says where the rest begin), so that memory stays bounded
//     whatever their number.
//  5. Resolves and checks each workload once (validate.Resolve), on its compute target:
//     the computes of Options.Computes and the compute files among the inputs name each
//     compute's type (names compared ignoring case; azureml:NAME, NAME and an ARM id name
//     one compute; a compute of a type Azure ML does not know, a finding of rule
//     compute-type, is of a type not known; of two definitions of one name the last is
//     used, and two types are a finding of rule compute-conflict at the one replaced). A workload on a compute known not to be Kubernetes (amlcompute,
//     computeinstance, virtualmachine, synapsespark, a type azure-ai-ml does not support)
//     is skipped, with why, and is no placement (a document that is that workload counts
//     as skipped, not checked); on a Kubernetes compute it is checked, and its Placement's
//     ComputeType says so; on a compute of unknown type it is checked as if on Kubernetes,
//     ComputeType "". With Options.Computes, a compute name they lack is a finding at the
//     compute field (rule compute-not-found), with the names nearest it. With nodes, the
//     fit of those with resources of their own or an instance type from the cluster: a
//     workload's pods tolerate what Azure ML's workload pods tolerate (fit.Workload: the
//     ml.azure.com/amlarc and amlarc-workload taints, and the resource-group, workspace and
//     compute taints of its compute, the first two from the compute's ARM id when known),
//     and Options.Tolerations; an instance type's, with no compute, the first two and
//     Options.Tolerations. A placement that fits no node is not resolved. A value not
//     filled in (<name>, $VAR, ${VAR}, {{ … }}, ${{parent.inputs.x}}) in a workload's
//     instance type, compute or resources is a finding of rule placeholder instead of the
//     findings about its value; of a workload with several, one, at the first by line,
//     lists the others. A compute given as an Azure ML expression is no finding: the
//     Placement's Compute shows it as written.
//  6. Suppresses the findings that a suppression comment of their file, or an Ignore of
//     Options.Ignore, names (see Ignore): they go to Report.Suppressed, not to the
//     findings; a comment that suppresses nothing, or names an unknown rule, is a finding
//     (rule suppression). Every finding carries the id of its rule (Rules).
//  7. Notes what is accepted and without effect (an InstanceType's metadata.namespace:
//     the API server drops it) in Report.Notes, which are no findings.
//  8. Sorts the findings, each file's capped at Options.MaxFindings (the first ones by
//     line, and one more counting the rest, after all the others of the file), so that the
//     report stays small whatever the input. The findings of reading a file as the
//     cluster's instance types or nodes count towards its cap; a problem of reading a file
//     given both that way and as an input is reported once.
//
// The report never depends on the order files are read in, and a run converts at most
// about source.MaxDocument bytes of text at once, whatever the number and size of the files
// and the number of processors: a file's share of that budget is taken before it is read,
// for what its size allows (all of it, for a file whose size is not known); a list longer
// than a megabyte is converted a run of items at a time.
package lint
