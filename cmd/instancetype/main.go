// Command instancetype checks and explains the instance types of Azure Machine Learning on
// Kubernetes, and the deployments and jobs that use them.
//
//	instancetype validate [flags] PATH...   # check instance types, deployments, jobs
//	instancetype resolve  [flags] PATH...   # effective instance type, selector, resources per workload
//	instancetype list     [flags] PATH...   # the catalog, built-in default included
//	instancetype version
//	instancetype help [COMMAND]
//
// PATH is a file, a directory (walked for .yaml, .yml and .json files) or - for standard
// input. Instance types found anywhere in the inputs form the catalog that deployments and
// jobs are checked against; the built-in defaultinstancetype is always in it unless a custom
// one overrides it.
//
// Flags:
//
//	-o, --output text|json      text is the default
//	--node-selector k=v[,k=v]   the extension's nodeSelector
//	--strict-subset             the literal subset rule: each instance type's nodeSelector
//	                            must be a subset of the extension's
//
// Exit status: 0 when nothing is wrong; 1 when there are findings; 2 for a usage error or
// a path that cannot be read.
//
// Text findings read FILE:LINE: FIELD: MESSAGE, sorted by file and line, followed by a
// one-line summary on standard error. With -o json, validate prints
// {"findings":[{"file","line","column","field","type","message"}]} and resolve prints
// {"placements":[...],"findings":[...]}.
package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

func main() {
	os.Exit(run(os.Args[1:], env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, color: colorWanted(os.Stdout)}))
}

// env is what a run reads and writes besides its arguments, so tests can run it in process.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	color          bool
}

// run runs one command line and returns the exit code.
func run(args []string, e env) int {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, usage)
		return exitUsage
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "validate", "resolve", "list":
		return runCheck(cmd, rest, e)
	case "version", "--version":
		fmt.Fprintln(e.stdout, "instancetype", version())
		return exitOK
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 {
			if text, ok := commandHelp[rest[0]]; ok {
				fmt.Fprint(e.stdout, text)
				return exitOK
			}
			fmt.Fprintf(e.stderr, "instancetype: unknown command %q\n\n%s", rest[0], usage)
			return exitUsage
		}
		fmt.Fprint(e.stdout, usage)
		return exitOK
	default:
		fmt.Fprintf(e.stderr, "instancetype: unknown command %q\n\n%s", cmd, usage)
		return exitUsage
	}
}

// version is the module version the binary was built from, or "(devel)".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

const usage = `instancetype checks Azure ML instance types and the workloads that use them.

Usage:
  instancetype validate [flags] PATH...   check instance types, deployments and jobs
  instancetype resolve  [flags] PATH...   what each deployment and job really gets
  instancetype list     [flags] PATH...   the catalog of instance types, built-in default included
  instancetype version                    print the version
  instancetype help [COMMAND]             show help for a command

PATH is a file, a directory (walked for .yaml, .yml and .json) or - for standard input.

` + flagsHelp + `
Exit status: 0 no findings, 1 findings, 2 usage error or unreadable path.
Run 'instancetype help COMMAND' for examples.
`

// flagsHelp is the flags part of each command's help.
const flagsHelp = `Flags:
  -o, --output text|json      output format (default text)
      --node-selector k=v,... the Azure ML extension's nodeSelector
      --strict-subset         require each instance type's nodeSelector to be a subset
                              of the extension's
`

var commandHelp = map[string]string{
	"validate": `Usage: instancetype validate [flags] PATH...

Checks every instance type (InstanceType, InstanceTypeList) and every Azure ML
online deployment and command job found in PATHs: the documented rules, strict
decoding (unknown fields, duplicate keys), the extension's nodeSelector, and each
workload against the instance types found. Every problem is reported at once, as
FILE:LINE: FIELD: MESSAGE, followed by a summary on standard error.

` + flagsHelp + `
Examples:
  instancetype validate examples/
  instancetype validate --node-selector pool=ml,zone=a manifests/ deploy.yml
  kubectl get instancetypes -o yaml | instancetype validate -o json -

Exit status: 0 no findings, 1 findings, 2 usage error or unreadable path.
`,
	"resolve": `Usage: instancetype resolve [flags] PATH...

For each deployment and job found in PATHs, prints the instance type it gets
(defaultinstancetype when it names none), the node selector its pods carry (the
extension's merged with the instance type's) and its effective requests and limits.
Findings are reported as by validate.

` + flagsHelp + `
Examples:
  instancetype resolve examples/
  instancetype resolve --node-selector pool=ml -o json instancetypes.yaml deploy.yml

Exit status: 0 no findings, 1 findings, 2 usage error or unreadable path.
`,
	"list": `Usage: instancetype list [flags] PATH...

Prints the catalog formed by the instance types found in PATHs, with the built-in
defaultinstancetype unless a custom one overrides it: name, cpu and memory requests
and limits, GPUs, node selector, and where each comes from. Findings are reported
as by validate. With no PATH, lists the built-in catalog.

` + flagsHelp + `
Examples:
  instancetype list examples/
  instancetype list -o json -  < instancetypes.yaml

Exit status: 0 no findings, 1 findings, 2 usage error or unreadable path.
`,
}
