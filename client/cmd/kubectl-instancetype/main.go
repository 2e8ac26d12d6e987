// Command kubectl-instancetype is the kubectl plugin of instancetypes: kubectl
// instancetype, which checks Azure ML instance types and workloads against the cluster of
// the current kubeconfig context, and says how many more pods of each instance type fit
// there now.
//
//	kubectl instancetype validate [flags] [PATH...]   # check, with the cluster as catalog and nodes
//	kubectl instancetype resolve  [flags] [PATH...]   # what each deployment and job gets
//	kubectl instancetype list     [flags] [PATH...]   # the catalog: the cluster's instance types
//	kubectl instancetype capacity [-o text|json] [--pool-label L] [--node-selector k=v]
//	kubectl instancetype completion bash|zsh|fish       # the completion script of kubectl-instancetype
//	kubectl instancetype version | help [COMMAND]
//
// validate, resolve and list are instancetype's commands (package cmd/instancetype/cli of the root
// module), with the same flags, outputs and exit codes, and the cluster's InstanceTypes as
// the catalog (as --catalog would give them) and its Nodes as the nodes (as --nodes): the
// files given with --catalog and --nodes are read after the cluster's, and replace its
// objects of the same name. With no PATH, validate and resolve check the cluster's own
// instance types (as inputs, not as catalog) against its nodes.
//
// Findings about what came from the cluster name it: cluster:instancetypes/NAME for an
// instance type (the object as the API server sent it, indented, without managedFields),
// cluster:nodes for the nodes (handed to lint decoded, lint.NodeObjects: a finding about
// one is at line 1).
//
// Connection flags are kubectl's (k8s.io/cli-runtime's genericclioptions.ConfigFlags):
// --kubeconfig, --context, --cluster, --user, --server, --token, --as, --request-timeout
// and the rest; --chunk-size sets the page size of the lists (default 500).
//
// Each list is bounded whatever the API server sends (package capacity's Reader):
// --max-objects (default 500000; a page that says more follow counts as --chunk-size
// objects), --max-bytes (the answers to one list together, default 2Gi) and
// --max-page-bytes (one answer, refused as it comes, before it is decoded; default
// 128Mi). A continue token that repeats one of the same list is an error that names it;
// an answer cut off, or that does not decode, is a bad answer of the server, not a server
// out of reach.
//
// The API server's text (its errors and warnings, the names of instance types, the pools
// of nodes) is printed escaped: control characters as visible Go escapes (\x1b, \n), as
// kubectl escapes terminal special characters since CVE-2021-25743, and in JSON the
// characters encoding/json leaves as \u escapes; no line can be taken by a CI runner for
// one of its commands (a line that starts with "::", or "##[" anywhere: the "[" and the
// ":" are written \x5b and \x3a, \u005b and \u003a in JSON), as instancetype's own
// output.
//
// Exit status: validate, resolve and list as instancetype (0 no findings, 1 findings, 2 a
// usage error or an input that cannot be read); capacity 0 when it answered, 2 for a usage
// error; for every command, 2 when the cluster cannot be read (no kubeconfig, the server
// unreachable, RBAC forbidding what the answer needs). What can be answered without a
// forbidden list is answered, with a note on standard error: validate without nodes skips
// the fit check; capacity without pods counts nothing as used.
package main

import (
	"os"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
)

func main() {
	os.Exit(newPlugin().main(os.Args[1:], cli.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Color: cli.ColorWanted(os.Stdout),
	}))
}
