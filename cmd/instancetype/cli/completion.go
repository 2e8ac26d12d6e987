package cli

import (
	"fmt"
	"strings"

	"github.com/amlarc-go/instancetypes/internal/clip"
	"github.com/amlarc-go/instancetypes/lint"
)

// completion prints the shell completion script of the command for bash, zsh or fish:
// commands, the flags of validate, resolve and list, the values of -o and --ignore (the
// rules of this version), rules' -o, and file names for PATHs and the flags that take a file.
func (p Program) completion(args []string, e Env) int {
	if wantsHelp(args) {
		fmt.Fprint(e.Stdout, p.help("completion"))
		return ExitOK
	}
	if len(args) != 1 {
		fmt.Fprintf(e.Stderr, "%s completion: name one shell: bash, zsh or fish\n\n%s", p.name(), p.help("completion"))
		return ExitUsage
	}
	var ids []string
	for _, r := range lint.Rules() {
		ids = append(ids, r.ID)
	}
	r := strings.NewReplacer("@RULES@", strings.Join(ids, " "), "@FORMATS@", strings.Join(formats, " "),
		"@COMMANDS@", strings.Join(commandNames, " "), "@FLAGS@", strings.Join(checkFlags, " "),
		"@PLANFLAGS@", strings.Join(planFlags, " "))
	var script string
	switch args[0] {
	case "bash":
		script = bashCompletion
	case "zsh":
		script = zshCompletion
	case "fish":
		script = fishCompletion
	default:
		// %q escapes what the shell's name holds once; clipped, a huge one is a short message.
		fmt.Fprintf(e.Stderr, "%s completion: unknown shell %q: want bash, zsh or fish\n", p.name(), clip.String(args[0]))
		return ExitUsage
	}
	fmt.Fprint(e.Stdout, r.Replace(script))
	return ExitOK
}

// commandNames are the commands completion offers.
var commandNames = []string{"validate", "resolve", "list", "plan", "suggest", "rules", "completion", "version", "help"}

// checkFlags are the flags of validate, resolve and list.
var checkFlags = []string{"-o", "--output", "--node-selector", "--strict-subset", "--catalog", "--nodes",
	"--computes", "--tolerate", "--exclude", "--ignore", "--config", "--help"}

// planFlags are the flags of plan and suggest (plan alone takes --catalog and --exclude).
var planFlags = []string{"-o", "--output", "--nodes", "--catalog", "--exclude", "--pool-label", "--workload",
	"--overhead-node", "--overhead-pod", "--node-selector", "--tolerate", "--config", "--help"}

const bashCompletion = `# bash completion of instancetype, made by: instancetype completion bash
# Load it with: source <(instancetype completion bash)
# or save it as ~/.local/share/bash-completion/completions/instancetype
_instancetype() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	if [[ $COMP_CWORD -eq 1 ]]; then
		mapfile -t COMPREPLY < <(compgen -W "@COMMANDS@" -- "$cur")
		return
	fi
	case ${COMP_WORDS[1]} in
	validate | resolve | list) ;;
	plan | suggest)
		_instancetype_plan "$cur" "$prev" "${COMP_WORDS[1]}"
		return
		;;
	completion)
		[[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W "bash zsh fish" -- "$cur")
		return
		;;
	help)
		[[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W "@COMMANDS@" -- "$cur")
		return
		;;
	rules)
		case $prev in
		-o | --output) mapfile -t COMPREPLY < <(compgen -W "text json" -- "$cur") ;;
		*) [[ $cur == -* ]] && mapfile -t COMPREPLY < <(compgen -W "-o --output --help" -- "$cur") ;;
		esac
		return
		;;
	*) return ;;
	esac
	case $prev in
	-o | --output)
		mapfile -t COMPREPLY < <(compgen -W "@FORMATS@" -- "$cur")
		return
		;;
	--ignore)
		mapfile -t COMPREPLY < <(compgen -W "@RULES@" -- "$cur")
		return
		;;
	--catalog | --nodes | --computes | --config)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	--node-selector | --tolerate | --exclude) return ;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "@FLAGS@" -- "$cur")
		return
	fi
	mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
_instancetype_plan() {
	local cur=$1 prev=$2 cmd=$3
	case $prev in
	-o | --output)
		if [[ $cmd == plan ]]; then
			mapfile -t COMPREPLY < <(compgen -W "text json" -- "$cur")
		else
			mapfile -t COMPREPLY < <(compgen -W "yaml json" -- "$cur")
		fi
		return
		;;
	--workload)
		mapfile -t COMPREPLY < <(compgen -W "deployment job" -- "$cur")
		return
		;;
	--overhead-node | --overhead-pod)
		mapfile -t COMPREPLY < <(compgen -W "none cpu= memory=" -- "$cur")
		return
		;;
	--nodes | --catalog | --config)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	--pool-label | --node-selector | --tolerate | --exclude) return ;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "@PLANFLAGS@" -- "$cur")
		return
	fi
	[[ $cmd == plan ]] && mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -o filenames -o bashdefault -F _instancetype instancetype
`

const zshCompletion = `#compdef instancetype
# zsh completion of instancetype, made by: instancetype completion zsh
# Load it with: source <(instancetype completion zsh)
# or save it as _instancetype in a directory of $fpath.
compdef _instancetype instancetype

_instancetype() {
	local -a commands=(
		'validate:check instance types, deployments and jobs'
		'resolve:what each deployment and job really gets'
		'list:the catalog of instance types'
		'plan:how each instance type packs on each node pool'
		'suggest:right-sized instance types for each node pool'
		'rules:list the rules, their ids and docs'
		'completion:print a shell completion script'
		'version:print the version'
		'help:show help for a command'
	)
	local -a flags=(
		'(-o --output)'{-o,--output}'[output format]:format:(@FORMATS@)'
		'*--node-selector[the nodeSelector of the Azure ML extension]:k=v,...: '
		'--strict-subset[the literal subset rule (R7)]'
		'*--catalog[the instance types of the cluster]:file:_files'
		'*--nodes[the nodes of the cluster]:file:_files'
		'*--computes[the compute targets of the workspace]:file:_files'
		'*--tolerate[a toleration the fit check adds]:toleration: '
		'*--exclude[skip matching paths in walks]:glob: '
		'*--ignore[suppress a rule, everywhere or in matching paths]:rule:(@RULES@)'
		'--config[the config file]:file:_files'
		'*:path:_files'
	)
	local -a planflags=(
		'(-o --output)'{-o,--output}'[output format]:format:(text json yaml)'
		'*--nodes[the nodes of the cluster]:file:_files'
		'*--catalog[the instance types of the cluster (plan)]:file:_files'
		'*--exclude[skip matching paths in walks (plan)]:glob: '
		'--pool-label[the node label naming a pool]:label: '
		'--workload[whose overhead counts]:workload:(deployment job)'
		'--overhead-node[the overhead of each node]:resources:(none)'
		'--overhead-pod[the overhead of each pod]:resources:(none)'
		'*--node-selector[the nodeSelector of the Azure ML extension]:k=v,...: '
		'*--tolerate[a toleration beside those of Azure ML pods]:toleration: '
		'--config[the config file]:file:_files'
		'*:path:_files'
	)
	if (( CURRENT == 2 )); then
		_describe -t commands 'instancetype command' commands
		return
	fi
	case $words[2] in
	validate | resolve | list)
		shift words
		(( CURRENT-- ))
		_arguments -s $flags
		;;
	plan | suggest)
		shift words
		(( CURRENT-- ))
		_arguments -s $planflags
		;;
	completion)
		(( CURRENT == 3 )) && compadd bash zsh fish
		;;
	help)
		(( CURRENT == 3 )) && compadd @COMMANDS@
		;;
	rules)
		shift words
		(( CURRENT-- ))
		_arguments -s '(-o --output)'{-o,--output}'[output format]:format:(text json)'
		;;
	esac
}

if [[ $funcstack[1] == _instancetype ]]; then
	_instancetype "$@"
fi
`

const fishCompletion = `# fish completion of instancetype, made by: instancetype completion fish
# Load it with: instancetype completion fish | source
# or save it as ~/.config/fish/completions/instancetype.fish
complete -c instancetype -f
complete -c instancetype -n __fish_use_subcommand -a validate -d 'check instance types, deployments and jobs'
complete -c instancetype -n __fish_use_subcommand -a resolve -d 'what each deployment and job really gets'
complete -c instancetype -n __fish_use_subcommand -a list -d 'the catalog of instance types'
complete -c instancetype -n __fish_use_subcommand -a plan -d 'how each instance type packs on each node pool'
complete -c instancetype -n __fish_use_subcommand -a suggest -d 'right-sized instance types for each node pool'
complete -c instancetype -n __fish_use_subcommand -a rules -d 'list the rules, their ids and docs'
complete -c instancetype -n __fish_use_subcommand -a completion -d 'print a shell completion script'
complete -c instancetype -n __fish_use_subcommand -a version -d 'print the version'
complete -c instancetype -n __fish_use_subcommand -a help -d 'show help for a command'
set -l check '__fish_seen_subcommand_from validate resolve list'
complete -c instancetype -n $check -s o -l output -x -a '@FORMATS@' -d 'output format'
complete -c instancetype -n $check -l node-selector -x -d 'the nodeSelector of the Azure ML extension'
complete -c instancetype -n $check -l strict-subset -d 'the literal subset rule (R7)'
complete -c instancetype -n $check -l catalog -r -F -d 'the instance types of the cluster'
complete -c instancetype -n $check -l nodes -r -F -d 'the nodes of the cluster'
complete -c instancetype -n $check -l computes -r -F -d 'the compute targets of the workspace'
complete -c instancetype -n $check -l tolerate -x -d 'a toleration the fit check adds'
complete -c instancetype -n $check -l exclude -x -d 'skip matching paths in walks'
complete -c instancetype -n $check -l ignore -x -a '@RULES@' -d 'suppress a rule'
complete -c instancetype -n $check -l config -r -F -d 'the config file'
complete -c instancetype -n $check -F
set -l plan '__fish_seen_subcommand_from plan suggest'
complete -c instancetype -n '__fish_seen_subcommand_from plan' -s o -l output -x -a 'text json' -d 'output format'
complete -c instancetype -n '__fish_seen_subcommand_from suggest' -s o -l output -x -a 'yaml json' -d 'output format'
complete -c instancetype -n $plan -l nodes -r -F -d 'the nodes of the cluster'
complete -c instancetype -n '__fish_seen_subcommand_from plan' -l catalog -r -F -d 'the instance types of the cluster'
complete -c instancetype -n '__fish_seen_subcommand_from plan' -l exclude -x -d 'skip matching paths in walks'
complete -c instancetype -n $plan -l pool-label -x -d 'the node label naming a pool'
complete -c instancetype -n $plan -l workload -x -a 'deployment job' -d 'whose overhead counts'
complete -c instancetype -n $plan -l overhead-node -x -a none -d 'the overhead of each node'
complete -c instancetype -n $plan -l overhead-pod -x -a none -d 'the overhead of each pod'
complete -c instancetype -n $plan -l node-selector -x -d 'the nodeSelector of the Azure ML extension'
complete -c instancetype -n $plan -l tolerate -x -d 'a toleration beside those of Azure ML pods'
complete -c instancetype -n $plan -l config -r -F -d 'the config file'
complete -c instancetype -n '__fish_seen_subcommand_from plan' -F
complete -c instancetype -n '__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'
complete -c instancetype -n '__fish_seen_subcommand_from help' -x -a '@COMMANDS@'
complete -c instancetype -n '__fish_seen_subcommand_from rules' -s o -l output -x -a 'text json' -d 'output format'
`
