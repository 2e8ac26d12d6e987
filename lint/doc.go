// Package lint checks manifests as the instancetype command does, in one call: [Run] takes
// inputs (paths of the file system, an fs.FS, readers or bytes) and [Options] (the
// extension's node selector, the strict subset rule, the cluster's instance types and
// nodes, paths to exclude) and returns a [Report]: every finding, sorted, each with its
// file, line, column, field path, type and message; the documents skipped and why; what
// each deployment and job gets (its [Placement]); and the catalog, with where each of its
// instance types is defined. The command prints the report; a Go program can act on it.
// [ReadConfig] reads the command's config file (.instancetype.yaml) into settings for
// Options.
//
// What Run does, in order:
//
//  1. Lists the files of the inputs: a directory is walked for manifests
//     (manifest.IsManifestName), in lexical order, leaving out paths that match
//     Options.Exclude; the same file named twice is read once. An input that does not
//     exist, or a directory named as an input that holds no manifest, is an error: the
//     command's usage error. An unreadable file or a dangling symlink met in a walk is a
//     finding, and the rest is read.
//  2. Reads the cluster's instance types (Options.Catalog) and nodes (Options.Nodes).
//     They are not checked, but problems reading them are findings.
//  3. Reads every file once, as kubectl reads it (package manifest), in parallel, one
//     document's parse tree at a time per file, and checks each instance type by the rules
//     of package validate, and, with nodes, that it fits some node (package fit). A
//     finding of validation at or below a path whose value decoding refused (a number where
//     a string belongs, a number where a mapping of limits belongs) is left out
//     (manifest.Document.Locate): decoding has said it, and one mistake gets one finding.
//     Of the documents that hold workloads, the decoded workloads and their positions are
//     kept for step 5, not their trees.
//  4. Forms the catalog: the built-in default, the cluster's instance types, and over them
//     those of the inputs; of several definitions of a name, the last is in effect, as
//     kubectl apply leaves the cluster, and every earlier one is a finding
//     (validate.UniqueNames). Without any instance type, the names workloads give are
//     checked for their form only ([Report.NamesChecked] is false).
//  5. Resolves and checks each workload once (validate.Placement), and, with nodes, the fit
//     of those with resources of their own or an instance type from the cluster; a
//     placement that fits no node is not resolved.
//  6. Suppresses the findings that a suppression comment of their file, or an Ignore of
//     Options.Ignore, names (see Ignore): they go to Report.Suppressed, not to the
//     findings; a comment that suppresses nothing, or names an unknown rule, is a finding
//     (rule suppression). Every finding carries the id of its rule (Rules).
//  7. Sorts the findings, each file's capped at Options.MaxFindings (the first ones by
//     line, and one more counting the rest, after all the others of the file), so that the
//     report stays small whatever the input. The findings of reading a file as the
//     cluster's instance types or nodes count towards its cap; a problem of reading a file
//     given both that way and as an input is reported once.
//
// The report never depends on the order files are read in, and a run holds at most about
// manifest.MaxNodes parse nodes at once, whatever the number and size of the files.
package lint
