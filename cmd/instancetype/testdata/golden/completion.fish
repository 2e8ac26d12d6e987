# fish completion of instancetype, made by: instancetype completion fish
# Load it with: instancetype completion fish | source
# or save it as ~/.config/fish/completions/instancetype.fish
complete -c instancetype -f
complete -c instancetype -n __fish_use_subcommand -a validate -d 'check instance types, deployments and jobs'
complete -c instancetype -n __fish_use_subcommand -a resolve -d 'what each deployment and job really gets'
complete -c instancetype -n __fish_use_subcommand -a list -d 'the catalog of instance types'
complete -c instancetype -n __fish_use_subcommand -a rules -d 'list the rules, their ids and docs'
complete -c instancetype -n __fish_use_subcommand -a completion -d 'print a shell completion script'
complete -c instancetype -n __fish_use_subcommand -a version -d 'print the version'
complete -c instancetype -n __fish_use_subcommand -a help -d 'show help for a command'
set -l check '__fish_seen_subcommand_from validate resolve list'
complete -c instancetype -n $check -s o -l output -x -a 'text json sarif github junit' -d 'output format'
complete -c instancetype -n $check -l node-selector -x -d 'the nodeSelector of the Azure ML extension'
complete -c instancetype -n $check -l strict-subset -d 'the literal subset rule (R7)'
complete -c instancetype -n $check -l catalog -r -F -d 'the instance types of the cluster'
complete -c instancetype -n $check -l nodes -r -F -d 'the nodes of the cluster'
complete -c instancetype -n $check -l computes -r -F -d 'the compute targets of the workspace'
complete -c instancetype -n $check -l tolerate -x -d 'a toleration the fit check adds'
complete -c instancetype -n $check -l exclude -x -d 'skip matching paths in walks'
complete -c instancetype -n $check -l ignore -x -a 'R1 R2 R3 R4 R6 R7 R8 R9 R10 request-above-limit resource-name placeholder metadata syntax unknown-field duplicate-key wrong-type kubectl-refuses kind legacy-form legacy-compute-form azureml-resource-name azureml-resource-type gpu-given-twice input-limit unreadable nodes compute-not-found compute-type compute-conflict fit too-many-findings suppression config' -d 'suppress a rule'
complete -c instancetype -n $check -l config -r -F -d 'the config file'
complete -c instancetype -n $check -F
complete -c instancetype -n '__fish_seen_subcommand_from completion' -x -a 'bash zsh fish'
complete -c instancetype -n '__fish_seen_subcommand_from help' -x -a 'validate resolve list rules completion version help'
complete -c instancetype -n '__fish_seen_subcommand_from rules' -s o -l output -x -a 'text json' -d 'output format'
