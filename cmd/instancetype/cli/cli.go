// Package cli is the instancetype command as a library: its flags, its config file, its
// outputs and its exit codes, over one call to lint.Run. Command instancetype is main over
// Main.
//
// The client module's kubectl plugin runs the same commands through a [Program]: named
// "kubectl instancetype" in usage and errors, with kubectl's connection flags added to each
// command's flag set, the cluster's instance types and nodes supplied as lint inputs by
// its Inputs hook (no PATH then checks the cluster's own instance types), and a command of
// its own (capacity). The package is public because the plugin is released apart, in a
// module of its own: it shares the command's flags, outputs and exit codes through a
// versioned API, not a private one. The hooks are small on purpose: one set of flags,
// outputs and exit codes for both programs.
//
// The config file (.instancetype.yaml, found from the working directory up by FindConfig)
// holds the flags a repository always wants; ReadConfig reads it into the lint.Options of a
// run, and flags given on the command line replace its settings.
package cli

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/amlarc-go/instancetypes/internal/clip"
)

// Exit codes.
const (
	// ExitOK: no findings.
	ExitOK = 0
	// ExitFindings: findings.
	ExitFindings = 1
	// ExitUsage: a usage error, a path that cannot be read, or a directory named as a PATH
	// that holds no manifest or in which nothing is checked.
	ExitUsage = 2
)

// Env is what a run reads and writes besides its arguments, so that a test, or another
// program, can run the command in process.
type Env struct {
	// Stdin is read for the PATH "-".
	Stdin io.Reader
	// Stdout receives the report; Stderr the summary, usage and errors.
	Stdout, Stderr io.Writer
	// Color allows ANSI colour in text output (see ColorWanted).
	Color bool
}

// Main runs one command line of instancetype (its arguments, without the program's name)
// and returns the exit code: ExitOK, ExitFindings or ExitUsage. It is Program{}.Main.
func Main(args []string, e Env) int { return Program{}.Main(args, e) }

// Main runs one command line of the program (its arguments, without the program's name)
// and returns the exit code: ExitOK, ExitFindings or ExitUsage for validate, resolve,
// list, rules, completion (instancetype's alone), version and help; what Run returns for
// one of p.Commands.
func (p Program) Main(args []string, e Env) int {
	// Errors and summaries repeat paths and values: no line of them may read as a CI
	// runner's command (ciguard.go).
	stderr := NewGuard(e.Stderr, "text")
	defer stderr.Flush()
	e.Stderr = stderr
	if len(args) == 0 {
		fmt.Fprint(e.Stderr, p.usage())
		return ExitUsage
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "validate", "resolve", "list":
		return p.runCheck(cmd, rest, e)
	case "plan", "suggest":
		return p.runPlan(cmd, rest, e)
	case "rules":
		return p.rules(rest, e)
	case "completion":
		if p.Name == "" || p.Name == "instancetype" {
			return p.completion(rest, e)
		}
		// Another program's completion is its own business.
		if c, ok := p.command(cmd); ok {
			return c.Run(rest, e)
		}
		fmt.Fprintf(e.Stderr, "%s: unknown command %q\n\n%s", p.name(), cmd, p.usage())
		return ExitUsage
	case "version", "--version":
		if wantsHelp(rest) {
			fmt.Fprint(e.Stdout, p.help("version"))
			return ExitOK
		}
		if len(rest) > 0 {
			fmt.Fprintf(e.Stderr, "%s version: takes no arguments\n\n%s", p.name(), p.help("version"))
			return ExitUsage
		}
		fmt.Fprintln(e.Stdout, p.name(), version())
		return ExitOK
	case "help", "-h", "-help", "--help":
		if len(rest) > 0 && !wantsHelp(rest[:1]) {
			if text, ok := p.lookupHelp(rest[0]); ok {
				fmt.Fprint(e.Stdout, text)
				return ExitOK
			}
			fmt.Fprintf(e.Stderr, "%s: unknown command %q\n\n%s", p.name(), clip.String(rest[0]), p.usage())
			return ExitUsage
		}
		fmt.Fprint(e.Stdout, p.usage())
		return ExitOK
	default:
		if c, ok := p.command(cmd); ok {
			return c.Run(rest, e)
		}
		fmt.Fprintf(e.Stderr, "%s: unknown command %q\n\n%s", p.name(), clip.String(cmd), p.usage())
		return ExitUsage
	}
}

// wantsHelp reports -h, -help or --help among args, before any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help":
			return true
		case "--":
			return false
		}
	}
	return false
}

// stampedVersion is the version of a build from a checkout rather than from a module
// download, which has no module version of its own: the release builds (.goreleaser.yaml)
// and the GitHub Action (action.yml) set it with
// -ldflags "-X github.com/amlarc-go/instancetypes/cmd/instancetype/cli.stampedVersion=vX.Y.Z".
var stampedVersion string

// version is the version the linker stamped, else the module version the binary was built
// from (go install …@vX.Y.Z), else "(devel)".
func version() string {
	if stampedVersion != "" {
		return stampedVersion
	}
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
  instancetype plan     [flags] PATH...   how each instance type packs on each node pool (--nodes)
  instancetype suggest --nodes PATH       right-sized instance types for each node pool
  instancetype rules [-o json]            the rules: ids, what each checks, where the docs explain it
  instancetype completion bash|zsh|fish   print a shell completion script
  instancetype version                    print the version
  instancetype help [COMMAND]             show help for a command

PATH is a file, a directory (walked for .yaml, .yml and .json, and for the azure-ai-ml calls
of .py scripts and .ipynb notebooks) or - for standard input.

` + flagsHelp + `
Exit status: 0 no findings, 1 findings, 2 usage error, unreadable path, or a
directory holding no manifest or nothing checked (a .github of workflows).
Run 'instancetype help COMMAND' for examples.
`

// flagsHelp is the flags part of each command's help.
const flagsHelp = `Flags:
  -o, --output FORMAT         output format: text (the default), json, or for CI
                              sarif (code scanning), github (GitHub Actions
                              annotations) or junit (GitLab, Jenkins); -ojson works too
      --node-selector k=v,... the Azure ML extension's nodeSelector (repeatable;
                              all pairs count)
      --strict-subset         require each instance type's nodeSelector to be a subset
                              of the extension's
      --catalog PATH          the cluster's instance types, such as saved from
                              kubectl get instancetypes -o yaml (repeatable; a file,
                              a directory or -). Workloads are checked against them;
                              they are not checked themselves, and an instance type
                              among the PATHs replaces one of the same name.
      --nodes PATH            the cluster's nodes, as kubectl get nodes -o yaml
                              prints them (repeatable; a file, a directory or -).
                              Each instance type, and each workload with resources
                              of its own, must fit a schedulable node its effective
                              nodeSelector matches, whose taints it tolerates.
      --computes PATH         the workspace's compute targets: compute files, or
                              what az ml compute list -o json (or -o yaml) prints
                              (repeatable). A workload on a compute that is not
                              Kubernetes is skipped; a compute name not among them
                              is a finding.
      --tolerate KEY[=VALUE][:EFFECT]
                              a toleration the fit check adds to those of Azure
                              ML's pods (repeatable): sku=gpu:NoSchedule, dedicated
      --exclude GLOB          skip paths that match GLOB in directory walks
                              (repeatable): templates, charts/*, *.json
      --ignore RULE[=GLOB]    suppress the findings of RULE, everywhere or in the
                              paths that match GLOB (repeatable); a comment
                              # instancetype:ignore RULE on a finding's line, alone
                              on the line above it, or at the top of its document
                              suppresses it there ('instancetype rules' lists them)
      --config PATH           the config file (default: .instancetype.yaml in the
                              working directory or the nearest parent); flags
                              given replace its settings
`

const exitHelp = `
Exit status: 0 no findings, 1 findings, 2 usage error, unreadable path, or a
directory holding no manifest or nothing checked (a .github of workflows).
`

var commandHelp = map[string]string{
	"validate": `Usage: instancetype validate [flags] PATH...

Checks every instance type (InstanceType, InstanceTypeList, or a List of them
as kubectl get prints it) and every Azure ML Kubernetes workload found in PATHs:
online and batch deployments, command, sweep, AutoML and pipeline jobs on a
compute target, in YAML or JSON, and in Python scripts and Jupyter notebooks
that call azure-ai-ml (command, KubernetesOnlineDeployment, BatchDeployment with
literal values). Files are read as kubectl reads them, Azure ML files as the az
ml CLI v2 does. Checked: the documented rules, strict decoding (unknown fields,
duplicate keys, values kubectl would send as another type), the extension's
nodeSelector, and each workload against the catalog: the instance types of PATHs
over those of --catalog. Documents that are not these (managed deployments,
serverless and Spark jobs, components, GitHub workflows, other Kubernetes
objects, Helm templates, workloads on a compute that is not Kubernetes) are
skipped, and the summary counts them; with -o json each is listed with why.
Every problem is reported at once, as FILE:LINE: FIELD: MESSAGE [RULE], followed
by a summary on standard error.

` + flagsHelp + `
Examples:
  instancetype validate examples/
  instancetype validate --catalog cluster.yaml --exclude 'templates' deploy/
  instancetype validate --node-selector pool=ml --node-selector zone=a manifests/
  instancetype validate --nodes nodes.yaml instance_types.yaml
  az ml compute list -o json > computes.json
  instancetype validate --computes computes.json --nodes nodes.yaml jobs/
  kubectl get instancetypes -o yaml | instancetype validate -o json -
` + exitHelp,
	"resolve": `Usage: instancetype resolve [flags] PATH...

For each deployment and job found in PATHs (YAML, JSON, and the azure-ai-ml
calls of Python scripts and notebooks), prints the instance type it gets
(defaultinstancetype when it names none), the node selector its pods carry (the
extension's merged with the instance type's), its effective requests and limits
(a deployment's own limits completed from its instance type's), the compute it
runs on ("(type unknown)" when neither --computes nor a compute file among PATHs
says it is Kubernetes; an expression such as ${{parent.inputs.compute}} as
written), and whether the placement holds: STATUS unresolved, and "resolved":
false in JSON, when a finding stands against it. With --nodes, NODES is how many nodes it can land
on. A pipeline's step is named by its path (jobs.train; "path" in JSON).
Findings are reported as by validate.

` + flagsHelp + `
Examples:
  instancetype resolve examples/
  instancetype resolve --catalog cluster.yaml -o json deploy.yml
  instancetype resolve --nodes nodes.yaml examples/manifests
` + exitHelp,
	"list": `Usage: instancetype list [flags] PATH...

Prints the catalog formed by the instance types found in PATHs over those of
--catalog, with the built-in defaultinstancetype unless a custom one overrides
it: name, cpu and memory requests and limits, extended resources (GPUs), node
selector, where each comes from, and with --nodes how many nodes it fits. When
a name is defined more than once the last definition is the one in effect, and
the one listed. Findings are reported as by validate. With no PATH, lists the built-in catalog (and --catalog's).

` + flagsHelp + `
Examples:
  instancetype list examples/
  instancetype list --nodes nodes.yaml --catalog cluster.yaml
  kubectl get instancetypes -o yaml | instancetype list -o json -
` + exitHelp,
	"rules": `Usage: instancetype rules [-o text|json]

Lists the rules, one a line: the id that findings carry (last on each line of
text output, in -o json as "rule", in SARIF as ruleId) and that --ignore and
suppression comments name, what the rule checks, and where the documentation
explains it.

  -o, --output FORMAT   text (the default), or json:
                        {"rules":[{"id","name","summary","doc"}]}
`,
	"completion": `Usage: instancetype completion bash|zsh|fish

Prints the completion script of instancetype for the shell: commands, flags, the
formats of -o, the rules of --ignore, and file names.

  bash:  source <(instancetype completion bash)
         (or save it as ~/.local/share/bash-completion/completions/instancetype)
  zsh:   source <(instancetype completion zsh)
         (or save it as _instancetype in a directory of $fpath)
  fish:  instancetype completion fish | source
         (or save it as ~/.config/fish/completions/instancetype.fish)
`,
	"version": `Usage: instancetype version

Prints the version of the module the command was built from.
`,
	"help": `Usage: instancetype help [COMMAND]

Prints the help of COMMAND, or of the command itself.
`,
}
