package cli

import (
	"flag"
	"regexp"
	"strings"

	"github.com/amlarc-go/instancetypes/lint"
	"github.com/amlarc-go/instancetypes/plan"
)

// Program is a command that runs instancetype's validate, resolve and list under another
// name, with flags, inputs and commands of its own: the kubectl plugin of the client
// module (kubectl instancetype), which reads the catalog and the nodes from a cluster. The
// zero Program is instancetype itself; every field is optional.
type Program struct {
	// Name names the program in usage, help, errors and version: "kubectl instancetype".
	// Empty means "instancetype". In the shared help texts, the word instancetype followed
	// by a space (the program, not defaultinstancetype or instancetypes) becomes Name.
	Name string
	// Usage, when set, replaces the help printed for no command, help and an unknown
	// command: it should list the program's commands, p.Commands among them.
	Usage string
	// Flags, when set, is called with each of validate, resolve and list and the flag set
	// that parses its command line, before it is parsed, to add flags to it (pflag values
	// satisfy flag.Value, and bool ones are told apart by their IsBoolFlag method, as
	// package flag does). Flags may be given before and after the PATHs alike.
	Flags func(cmd string, fs *flag.FlagSet)
	// FlagsHelp is added after the flags in the help of validate, resolve and list.
	FlagsHelp string
	// Inputs, when set, is called once the flags of validate, resolve or list are parsed,
	// with the command and its PATHs, and returns inputs of the program's own (the
	// cluster's), which the run adds to those of the command line. With Inputs set, a
	// command may be given no PATH (Inputs decides what is then checked), and --catalog
	// and --nodes need no PATH. An error ends the run: it is printed as "NAME CMD: ERROR"
	// and the exit code is ExitUsage.
	Inputs func(cmd string, paths []string) (Inputs, error)
	// Commands are more commands, run by name (before an unknown-command error); help
	// COMMAND prints their Help.
	Commands []Command
}

// Inputs are the inputs a Program's Inputs hook adds to a run of validate, resolve or list.
type Inputs struct {
	// Paths are checked as the PATHs are, after them.
	Paths []lint.Input
	// Catalog are the cluster's instance types, read before those of --catalog (so that a
	// file of --catalog replaces one of them by name, and instance types among the PATHs
	// replace both).
	Catalog []lint.Input
	// Nodes are the cluster's nodes, read before those of --nodes (of two nodes of one
	// name, the last is used).
	Nodes []lint.Input
	// Notes are printed on standard error, one a line, as "NAME CMD: NOTE", before the
	// report: what the run could not read, and what it leaves out because of it.
	Notes []string
	// CatalogHint, when set, replaces the advice of the summary when no instance type was
	// given at all, after "instance type names checked for form only: " (the cluster has
	// none, rather than none was given).
	CatalogHint string
	// NodeOverhead, when not nil, is the per-node overhead of plan and suggest by node
	// name: the requests of the DaemonSet pods bound to each node, counted instead of
	// --overhead-node on the nodes it names.
	NodeOverhead map[string]plan.Resources
}

// Command is a command a Program adds to validate, resolve and list.
type Command struct {
	// Name is the command's name on the command line.
	Name string
	// Help is what help NAME and NAME --help print; Run prints it for --help itself.
	Help string
	// Run runs the command with its arguments (after its name) and returns the exit code.
	Run func(args []string, e Env) int
}

// name is the program's name.
func (p Program) name() string {
	if p.Name == "" {
		return "instancetype"
	}
	return p.Name
}

// programWord is the word instancetype where it names the program in the help texts: not
// inside another word (defaultinstancetype), and followed by a space (not instancetypes).
var programWord = regexp.MustCompile(`(^|[^A-Za-z0-9_-])instancetype `)

// named is text with the program's name for instancetype.
func (p Program) named(text string) string {
	if p.Name == "" || p.Name == "instancetype" {
		return text
	}
	return programWord.ReplaceAllString(text, "${1}"+strings.ReplaceAll(p.Name, "$", "$$")+" ")
}

// usage is the help of the program itself.
func (p Program) usage() string {
	if p.Usage != "" {
		return p.Usage
	}
	return p.named(usage)
}

// help is the help of one of validate, resolve, list, version and help.
func (p Program) help(cmd string) string {
	text := p.named(commandHelp[cmd])
	if p.FlagsHelp != "" {
		text = strings.Replace(text, p.named(flagsHelp), p.named(flagsHelp)+p.FlagsHelp, 1)
		text = strings.Replace(text, p.named(planFlagsHelp), p.named(planFlagsHelp)+p.FlagsHelp, 1)
	}
	return text
}

// lookupHelp is the help of the command named cmd, if there is one.
func (p Program) lookupHelp(cmd string) (string, bool) {
	if _, ok := commandHelp[cmd]; ok {
		return p.help(cmd), true
	}
	if c, ok := p.command(cmd); ok {
		return c.Help, true
	}
	return "", false
}

// command is the command of p.Commands named name.
func (p Program) command(name string) (Command, bool) {
	for _, c := range p.Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}
