#compdef instancetype
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
		'(-o --output)'{-o,--output}'[output format]:format:(text json sarif github junit)'
		'*--node-selector[the nodeSelector of the Azure ML extension]:k=v,...: '
		'--strict-subset[the literal subset rule (R7)]'
		'*--catalog[the instance types of the cluster]:file:_files'
		'*--nodes[the nodes of the cluster]:file:_files'
		'*--computes[the compute targets of the workspace]:file:_files'
		'*--tolerate[a toleration the fit check adds]:toleration: '
		'*--exclude[skip matching paths in walks]:glob: '
		'*--ignore[suppress a rule, everywhere or in matching paths]:rule:(R1 R2 R3 R4 R6 R7 R8 R9 R10 request-above-limit resource-name placeholder metadata syntax unknown-field duplicate-key wrong-type kubectl-refuses kind legacy-form legacy-compute-form azureml-resource-name azureml-resource-type gpu-given-twice input-limit unreadable nodes compute-not-found compute-type compute-conflict fit stranded too-many-findings suppression config)'
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
		(( CURRENT == 3 )) && compadd validate resolve list plan suggest rules completion version help
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
