# bash completion of instancetype, made by: instancetype completion bash
# Load it with: source <(instancetype completion bash)
# or save it as ~/.local/share/bash-completion/completions/instancetype
_instancetype() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	if [[ $COMP_CWORD -eq 1 ]]; then
		mapfile -t COMPREPLY < <(compgen -W "validate resolve list plan suggest rules completion version help" -- "$cur")
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
		[[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W "validate resolve list plan suggest rules completion version help" -- "$cur")
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
		mapfile -t COMPREPLY < <(compgen -W "text json sarif github junit" -- "$cur")
		return
		;;
	--ignore)
		mapfile -t COMPREPLY < <(compgen -W "R1 R2 R3 R4 R6 R7 R8 R9 R10 request-above-limit resource-name placeholder metadata syntax unknown-field duplicate-key wrong-type kubectl-refuses kind legacy-form legacy-compute-form azureml-resource-name azureml-resource-type gpu-given-twice input-limit unreadable nodes compute-not-found compute-type compute-conflict fit stranded too-many-findings suppression config" -- "$cur")
		return
		;;
	--catalog | --nodes | --computes | --config)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	--node-selector | --tolerate | --exclude) return ;;
	esac
	if [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "-o --output --node-selector --strict-subset --catalog --nodes --computes --tolerate --exclude --ignore --config --help" -- "$cur")
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
		mapfile -t COMPREPLY < <(compgen -W "-o --output --nodes --catalog --exclude --pool-label --workload --overhead-node --overhead-pod --node-selector --tolerate --config --help" -- "$cur")
		return
	fi
	[[ $cmd == plan ]] && mapfile -t COMPREPLY < <(compgen -f -- "$cur")
}
complete -o filenames -o bashdefault -F _instancetype instancetype
