#!/usr/bin/env bash
# Performs the build stage of client/Dockerfile without a container engine, which this
# project's machines do not have, so that CI knows the image's build commands work: the
# instructions of its first stage (up to the next FROM) are carried out in order in a
# scratch directory, with this machine's Go in place of the golang image's:
#
#   WORKDIR DIR     DIR is taken inside the scratch directory
#   COPY SRC... DST SRC from the build context, the repository's root as docker build is
#                   given it (the files git tracks or does not ignore, as a .dockerignore
#                   that leaves out what .gitignore does), DST from the work directory
#   RUN COMMAND     run by bash in the work directory, each absolute path it names taken
#                   inside the scratch directory (/out/x is SCRATCH/out/x), with the
#                   environment of the golang image: no GOFLAGS, no go.work but what the
#                   files hold, no go env file; this machine's module and build caches
#
# Any other instruction fails, so that a new one is seen to here. Then the binary the
# stage's last RUN wrote under /out is checked to be a static executable (built with
# CGO_ENABLED=0; with readelf, where there is one: no program interpreter, no dynamic
# section), and to run.
#
# Usage: client/hack/dockerfile.sh    (from anywhere; client/hack/ci.sh runs it)
set -euo pipefail

client=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "$client/.." && pwd)
dockerfile=$client/Dockerfile
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
context=$scratch/context
mkdir -p "$context" "$scratch/home"

# The build context, as docker build would send it.
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
	tar --null -T - -cf -) | tar -C "$context" -xf -

# The golang image's environment, with this machine's caches.
gomodcache=$(GOWORK=off go env GOMODCACHE)
gocache=$(GOWORK=off go env GOCACHE)
goproxy=$(GOWORK=off go env GOPROXY)
run_env=(env -i "PATH=$PATH" "HOME=$scratch/home" GOENV=off GOTOOLCHAIN=local
	"GOMODCACHE=$gomodcache" "GOCACHE=$gocache" "GOPROXY=$goproxy")

workdir=$scratch/root
mkdir -p "$workdir"
# inside PATH: an absolute path of the image, taken inside the scratch directory; a
# relative one, from the work directory.
inside() {
	case $1 in
	/*) printf '%s/root%s' "$scratch" "$1" ;;
	*) printf '%s/%s' "$workdir" "$1" ;;
	esac
}

# The instructions of the first stage, continuation lines joined, comments left out.
mapfile -t lines < <(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$dockerfile" | grep -v -E '^[[:space:]]*(#|$)')
stage=0
for line in "${lines[@]}"; do
	read -r instr args <<<"$line"
	case ${instr^^} in
	FROM)
		stage=$((stage + 1))
		[ "$stage" -gt 1 ] && break
		echo "FROM $args: this machine's $(go version | cut -d' ' -f3-)"
		;;
	WORKDIR)
		workdir=$(inside "$args")
		mkdir -p "$workdir"
		echo "WORKDIR $args"
		;;
	COPY)
		read -r -a words <<<"$args"
		case ${words[0]} in --*) echo "dockerfile.sh: COPY ${words[0]} is not performed here"; exit 1 ;; esac
		dst=$(inside "${words[-1]}")
		unset 'words[-1]'
		if [ "${#words[@]}" -gt 1 ] || [[ $dst == */ ]]; then mkdir -p "$dst"; fi
		for src in "${words[@]}"; do
			if [ -d "$context/$src" ]; then
				mkdir -p "$dst"
				cp -a "$context/$src/." "$dst/"
			else
				cp -a "$context/$src" "$dst"
			fi
		done
		echo "COPY $args"
		;;
	RUN)
		cmd=$(sed -E "s#(^|[[:space:]=])/#\1$scratch/root/#g" <<<"$args")
		echo "RUN $args"
		mkdir -p "$scratch/root/out"
		(cd "$workdir" && "${run_env[@]}" bash -euo pipefail -c "$cmd") || {
			echo "dockerfile.sh: RUN $args failed"
			exit 1
		}
		;;
	*)
		echo "dockerfile.sh: $instr is not performed here; teach this script it"
		exit 1
		;;
	esac
done

mapfile -t bins < <(find "$scratch/root/out" -type f)
if [ "${#bins[@]}" -ne 1 ]; then
	echo "dockerfile.sh: the build stage wrote ${#bins[@]} files under /out; want the one binary"
	exit 1
fi
bin=${bins[0]}
settings=$(go version -m "$bin")
grep -q -E '^[[:space:]]+build[[:space:]]+CGO_ENABLED=0$' <<<"$settings" || {
	echo "dockerfile.sh: ${bin#"$scratch/root"} was not built with CGO_ENABLED=0:"
	echo "$settings"
	exit 1
}
if command -v readelf >/dev/null; then
	elfinfo=$(readelf -l -d "$bin") # read whole: grep -q would end readelf with SIGPIPE
	if grep -q -E 'INTERP|Dynamic section' <<<"$elfinfo"; then
		echo "dockerfile.sh: ${bin#"$scratch/root"} is not static:"
		echo "$elfinfo"
		exit 1
	fi
fi
"$bin" --help >/dev/null 2>&1 || { echo "dockerfile.sh: ${bin#"$scratch/root"} --help failed"; exit 1; }
echo "dockerfile.sh: ${bin#"$scratch/root"} built by the Dockerfile's build stage: static, $(du -h "$bin" | cut -f1)"
