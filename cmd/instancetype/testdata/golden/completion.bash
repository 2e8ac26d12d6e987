# bash completion of instancetype, made by: instancetype completion bash
# Load it with: source <(instancetype completion bash)
# or save it as ~/.local/share/bash-completion/completions/instancetype
_instancetype() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	COMPREPLY=()
	if [[ $COMP_CWORD -eq 1 ]]; then
		mapfile -t COMPREPLY < <(compgen -W "validate resolve list rules completion version help" -- "$cur")
		return
	fi
	case ${COMP_WORDS[1]} in
	validate | resolve | list) ;;
	completion)
		[[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W "bash zsh fish" -- "$cur")
		return
		;;
	help)
		[[ $COMP_CWORD -eq 2 ]] && mapfile -t COMPREPLY < <(compgen -W "validate resolve list rules completion version help" -- "$cur")
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
		mapfile -t COMPREPLY < <(compgen -W "R1 R2 R3 R4 R6 R7 R8 R9 R10 request-above-limit resource-name placeholder metadata syntax unknown-field duplicate-key wrong-type kubectl-refuses kind legacy-form legacy-compute-form azureml-resource-name azureml-resource-type gpu-given-twice input-limit unreadable nodes compute-not-found compute-type compute-conflict fit too-many-findings suppression config" -- "$cur")
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
complete -o filenames -o bashdefault -F _instancetype instancetype
