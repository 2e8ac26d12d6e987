package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/spf13/pflag"

	"github.com/amlarc-go/instancetypes/cmd/instancetype/cli"
	"github.com/amlarc-go/instancetypes/lint"
)

// The plugin's completion, made from what the plugin takes: its commands, the flags of
// validate, resolve and list (instancetype's, kubectl's connection flags, the bounds of
// the lists), of capacity and of plan and suggest, with the values of -o and --ignore and file names where a
// flag takes a file. The scripts complete the command kubectl-instancetype; kubectl's own
// completion of kubectl instancetype asks a kubectl_complete-instancetype on PATH, which
// this plugin does not ship.

// binary is the name of the plugin's executable, which the scripts complete.
const binary = "kubectl-instancetype"

// complCommand is a command the scripts offer.
type complCommand struct{ name, desc string }

// complFlag is a flag the scripts offer: its names (-o, --output), what its value is, and
// what it does.
type complFlag struct {
	names []string
	// value is "" for a flag with no value, "file" for a file name, "free" for a value
	// the scripts cannot guess, and otherwise the values, separated by spaces.
	value string
	desc  string
}

var complCommands = []complCommand{
	{"validate", "check instance types, deployments and jobs against the cluster"},
	{"resolve", "what each deployment and job really gets"},
	{"list", "the catalog: the cluster's instance types"},
	{"capacity", "how many more pods of each instance type fit now"},
	{"plan", "how each instance type packs on each node pool"},
	{"suggest", "right-sized instance types for each node pool"},
	{"rules", "list the rules, their ids and docs"},
	{"completion", "print a shell completion script"},
	{"version", "print the version"},
	{"help", "show help for a command"},
}

// complShells are the shells of completion.
const complShells = "bash zsh fish"

// checkFlags are the flags of validate, resolve and list: instancetype's, then the
// plugin's.
func checkFlags() []complFlag {
	var ids []string
	for _, r := range lint.Rules() {
		ids = append(ids, r.ID)
	}
	return []complFlag{
		{[]string{"-o", "--output"}, "text json sarif github junit", "output format"},
		{[]string{"--node-selector"}, "free", "the nodeSelector of the Azure ML extension"},
		{[]string{"--strict-subset"}, "", "the literal subset rule (R7)"},
		{[]string{"--catalog"}, "file", "more instance types, after the cluster's"},
		{[]string{"--nodes"}, "file", "more nodes, after the cluster's"},
		{[]string{"--computes"}, "file", "the compute targets of the workspace"},
		{[]string{"--tolerate"}, "free", "a toleration the fit check adds"},
		{[]string{"--exclude"}, "free", "skip matching paths in walks"},
		{[]string{"--ignore"}, strings.Join(ids, " "), "suppress a rule"},
		{[]string{"--config"}, "file", "the config file"},
		{[]string{"--help"}, "", "show help"},
	}
}

// capacityFlags are the flags of capacity, before the plugin's.
var capacityFlags = []complFlag{
	{[]string{"-o", "--output"}, "text json", "output format"},
	{[]string{"--pool-label"}, "free", "the node label that names a pool"},
	{[]string{"--node-selector"}, "free", "the nodeSelector of the Azure ML extension"},
	{[]string{"--tolerate"}, "free", "a toleration pods have"},
	{[]string{"--help"}, "", "show help"},
}

// fileFlags are kubectl's connection flags that take a file.
var fileFlags = map[string]bool{"kubeconfig": true, "certificate-authority": true, "client-certificate": true, "client-key": true, "cache-dir": true}

// planFlags are the flags of plan (-o is text or json for plan, yaml or json for
// suggest, which takes the others but --catalog and --exclude), before the plugin's.
var planFlags = []complFlag{
	{[]string{"-o", "--output"}, "text json yaml", "output format"},
	{[]string{"--nodes"}, "file", "more nodes, after the cluster's"},
	{[]string{"--catalog"}, "file", "more instance types, after the cluster's (plan)"},
	{[]string{"--exclude"}, "free", "skip matching paths in walks (plan)"},
	{[]string{"--pool-label"}, "free", "the node label that names a pool"},
	{[]string{"--workload"}, "deployment job", "whose per-pod overhead counts"},
	{[]string{"--overhead-node"}, "none", "the overhead of each node: cpu=..,memory=.. or none"},
	{[]string{"--overhead-pod"}, "none", "the overhead of each pod: cpu=..,memory=.. or none"},
	{[]string{"--node-selector"}, "free", "the nodeSelector of the Azure ML extension"},
	{[]string{"--tolerate"}, "free", "a toleration beside those of Azure ML pods"},
	{[]string{"--config"}, "file", "the config file"},
	{[]string{"--help"}, "", "show help"},
}

// suggestFlags are plan's but --catalog and --exclude: suggest reads no PATH.
func suggestFlags() []complFlag {
	var out []complFlag
	for _, f := range planFlags {
		if f.names[0] != "--catalog" && f.names[0] != "--exclude" {
			out = append(out, f)
		}
	}
	return out
}

// complGroup is commands that take the same flags, and whether they take PATHs.
type complGroup struct {
	cmds  []string
	flags []complFlag
	paths bool
}

// groups are the plugin's commands by the flags they take.
func (pl *plugin) groups() []complGroup {
	plugin := pl.pluginFlags()
	join := func(a []complFlag) []complFlag { return append(append([]complFlag(nil), a...), plugin...) }
	return []complGroup{
		{[]string{"validate", "resolve", "list"}, join(checkFlags()), true},
		{[]string{"capacity"}, join(capacityFlags), false},
		{[]string{"plan"}, join(planFlags), true},
		{[]string{"suggest"}, join(suggestFlags()), false},
	}
}

// pluginFlags are kubectl's connection flags and the bounds of the lists, as the plugin
// registers them (plugin.addFlags), every command but rules, version, completion and help
// takes them.
func (pl *plugin) pluginFlags() []complFlag {
	var flags []complFlag
	pl.connectionFlags().VisitAll(func(f *pflag.Flag) {
		c := complFlag{names: []string{"--" + f.Name}, value: "free", desc: firstSentence(f.Usage)}
		if f.Shorthand != "" {
			c.names = []string{"-" + f.Shorthand, "--" + f.Name}
		}
		if fileFlags[f.Name] {
			c.value = "file"
		} else if f.Value.Type() == "bool" {
			c.value = ""
		}
		flags = append(flags, c)
	})
	return append(flags,
		complFlag{[]string{"--chunk-size"}, "free", "objects per page of each list"},
		complFlag{[]string{"--max-objects"}, "free", "the most objects of one list"},
		complFlag{[]string{"--max-bytes"}, "free", "the most bytes of one list"},
		complFlag{[]string{"--max-page-bytes"}, "free", "the most bytes of one answer"})
}

// firstSentence is the first sentence of a flag's usage, without its full stop.
func firstSentence(s string) string {
	s, _, _ = strings.Cut(s, ". ")
	return strings.TrimSuffix(strings.TrimSpace(s), ".")
}

// quoteDesc makes a description safe inside the single quotes of every script and in the
// brackets and after the colon of zsh's specs: the apostrophe becomes a typographic one,
// brackets parentheses, and the characters a shell or zsh's specs read are dropped.
var quoteDesc = strings.NewReplacer("'", "’", "[", "(", "]", ")", ":", " ", "\n", " ", "\\", "", "$", "", "`", "", `"`, "").Replace

// completion runs kubectl instancetype completion SHELL.
func (pl *plugin) completion(args []string, e cli.Env) int {
	if wantsHelp(args) {
		fmt.Fprint(e.Stdout, completionHelp)
		return cli.ExitOK
	}
	if len(args) != 1 {
		fmt.Fprintf(e.Stderr, "%s completion: name one shell: bash, zsh or fish\n\n%s", name, completionHelp)
		return cli.ExitUsage
	}
	groups := pl.groups()
	switch args[0] {
	case "bash":
		fmt.Fprint(e.Stdout, bashScript(groups))
	case "zsh":
		fmt.Fprint(e.Stdout, zshScript(groups))
	case "fish":
		fmt.Fprint(e.Stdout, fishScript(groups))
	default:
		fmt.Fprintf(e.Stderr, "%s completion: unknown shell %s: want bash, zsh or fish\n", name, cli.EscapeMessage(fmt.Sprintf("%q", args[0])))
		return cli.ExitUsage
	}
	return cli.ExitOK
}

const completionHelp = `Usage: kubectl instancetype completion bash|zsh|fish

Prints the shell completion script of kubectl-instancetype (the plugin's executable, run
by its own name): commands, flags (kubectl's connection flags among them), the formats of
-o, the rules of --ignore, and file names for PATHs and the flags that take a file.

  source <(kubectl-instancetype completion bash)     # or save it as
                                                     # ~/.local/share/bash-completion/completions/kubectl-instancetype
  source <(kubectl-instancetype completion zsh)      # or save it as _kubectl-instancetype in $fpath
  kubectl-instancetype completion fish | source      # or save it in ~/.config/fish/completions/
`

// names returns every name of flags, sorted, space-separated.
func names(flags []complFlag, keep func(complFlag) bool) string {
	var out []string
	for _, f := range flags {
		if keep == nil || keep(f) {
			out = append(out, f.names...)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// bashCase is the case arms of bash for the values of flags: a list, file names, or
// nothing to offer.
func bashCase(flags []complFlag) string {
	var b strings.Builder
	b.WriteString("\t\tcase $prev in\n")
	lists := map[string][]string{}
	var files, free []string
	for _, f := range flags {
		switch f.value {
		case "":
		case "file":
			files = append(files, f.names...)
		case "free":
			free = append(free, f.names...)
		default:
			lists[f.value] = append(lists[f.value], f.names...)
		}
	}
	var values []string
	for v := range lists {
		values = append(values, v)
	}
	sort.Strings(values)
	for _, v := range values {
		fmt.Fprintf(&b, "\t\t%s) mapfile -t COMPREPLY < <(compgen -W %q -- \"$cur\"); return ;;\n", strings.Join(lists[v], " | "), v)
	}
	if len(files) > 0 {
		fmt.Fprintf(&b, "\t\t%s) mapfile -t COMPREPLY < <(compgen -f -- \"$cur\"); return ;;\n", strings.Join(files, " | "))
	}
	if len(free) > 0 {
		fmt.Fprintf(&b, "\t\t%s) return ;;\n", strings.Join(free, " | "))
	}
	b.WriteString("\t\tesac\n")
	return b.String()
}

func commandNames() string {
	var out []string
	for _, c := range complCommands {
		out = append(out, c.name)
	}
	return strings.Join(out, " ")
}

func bashScript(groups []complGroup) string {
	var cases strings.Builder
	for _, g := range groups {
		fmt.Fprintf(&cases, "\t%s)\n%s", strings.Join(g.cmds, " | "), bashCase(g.flags))
		if g.paths {
			fmt.Fprintf(&cases, "\t\tif [[ $cur == -* ]]; then\n\t\t\tmapfile -t COMPREPLY < <(compgen -W %q -- \"$cur\")\n\t\telse\n\t\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n\t\tfi\n\t\t;;\n", names(g.flags, nil))
		} else {
			fmt.Fprintf(&cases, "\t\t[[ $cur == -* ]] && mapfile -t COMPREPLY < <(compgen -W %q -- \"$cur\")\n\t\t;;\n", names(g.flags, nil))
		}
	}
	return `# bash completion of kubectl-instancetype, made by: kubectl-instancetype completion bash
# Load it with: source <(kubectl-instancetype completion bash)
_kubectl_instancetype() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	if [[ $COMP_CWORD -eq 1 ]]; then
		mapfile -t COMPREPLY < <(compgen -W "` + commandNames() + `" -- "$cur")
		return
	fi
	case ${COMP_WORDS[1]} in
` + cases.String() + `	completion)
		[[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W "` + complShells + `" -- "$cur")
		;;
	help)
		[[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W "` + commandNames() + `" -- "$cur")
		;;
	esac
	return 0
}
complete -o filenames -F _kubectl_instancetype kubectl-instancetype
`
}

// zshSpecs are the _arguments specs of flags.
func zshSpecs(flags []complFlag, paths bool) string {
	var b strings.Builder
	for _, f := range flags {
		var action string
		switch f.value {
		case "":
		case "file":
			action = ":file:_files"
		case "free":
			action = ":value: "
		default:
			action = ":value:(" + f.value + ")"
		}
		repeat := "*"
		if f.value == "" || strings.HasPrefix(f.names[len(f.names)-1], "--output") {
			repeat = ""
		}
		if len(f.names) == 1 {
			fmt.Fprintf(&b, "\t\t'%s%s[%s]%s'\n", repeat, f.names[0], quoteDesc(f.desc), action)
			continue
		}
		fmt.Fprintf(&b, "\t\t'(%s)'{%s}'[%s]%s'\n", strings.Join(f.names, " "), strings.Join(f.names, ","), quoteDesc(f.desc), action)
	}
	if paths {
		b.WriteString("\t\t'*:path:_files'\n")
	}
	return b.String()
}

func zshScript(groups []complGroup) string {
	var cmds, arrays, cases strings.Builder
	for _, c := range complCommands {
		fmt.Fprintf(&cmds, "\t\t'%s:%s'\n", c.name, quoteDesc(c.desc))
	}
	for i, g := range groups {
		fmt.Fprintf(&arrays, "\tlocal -a flags%d=(\n%s\t)\n", i, zshSpecs(g.flags, g.paths))
		fmt.Fprintf(&cases, "\t%s)\n\t\tshift words\n\t\t(( CURRENT-- ))\n\t\t_arguments -s $flags%d\n\t\t;;\n", strings.Join(g.cmds, " | "), i)
	}
	return `#compdef kubectl-instancetype
# zsh completion of kubectl-instancetype, made by: kubectl-instancetype completion zsh
# Load it with: source <(kubectl-instancetype completion zsh)
# or save it as _kubectl-instancetype in a directory of $fpath.
compdef _kubectl-instancetype kubectl-instancetype

_kubectl-instancetype() {
	local -a commands=(
` + cmds.String() + `	)
` + arrays.String() + `	if (( CURRENT == 2 )); then
		_describe -t commands 'kubectl-instancetype command' commands
		return
	fi
	case $words[2] in
` + cases.String() + `	completion)
		(( CURRENT == 3 )) && compadd ` + complShells + `
		;;
	help)
		(( CURRENT == 3 )) && compadd ` + commandNames() + `
		;;
	esac
}

if [[ $funcstack[1] == _kubectl-instancetype ]]; then
	_kubectl-instancetype "$@"
fi
`
}

// fishFlags are the complete lines of flags under the condition cond.
func fishFlags(flags []complFlag, cond string) string {
	var b strings.Builder
	for _, f := range flags {
		fmt.Fprintf(&b, "complete -c %s -n %s", binary, cond)
		for _, n := range f.names {
			if strings.HasPrefix(n, "--") {
				fmt.Fprintf(&b, " -l %s", n[2:])
			} else {
				fmt.Fprintf(&b, " -s %s", n[1:])
			}
		}
		switch f.value {
		case "":
		case "file":
			b.WriteString(" -r -F")
		case "free":
			b.WriteString(" -x")
		default:
			fmt.Fprintf(&b, " -x -a '%s'", f.value)
		}
		fmt.Fprintf(&b, " -d '%s'\n", quoteDesc(f.desc))
	}
	return b.String()
}

func fishScript(groups []complGroup) string {
	var b strings.Builder
	b.WriteString(`# fish completion of kubectl-instancetype, made by: kubectl-instancetype completion fish
# Load it with: kubectl-instancetype completion fish | source
# or save it as ~/.config/fish/completions/kubectl-instancetype.fish
complete -c kubectl-instancetype -f
`)
	for _, c := range complCommands {
		fmt.Fprintf(&b, "complete -c %s -n __fish_use_subcommand -a %s -d '%s'\n", binary, c.name, quoteDesc(c.desc))
	}
	for _, g := range groups {
		cond := "'__fish_seen_subcommand_from " + strings.Join(g.cmds, " ") + "'"
		b.WriteString(fishFlags(g.flags, cond))
		if g.paths {
			fmt.Fprintf(&b, "complete -c %s -n %s -F\n", binary, cond)
		}
	}
	fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from completion' -x -a '%s'\n", binary, complShells)
	fmt.Fprintf(&b, "complete -c %s -n '__fish_seen_subcommand_from help' -x -a '%s'\n", binary, commandNames())
	return b.String()
}
