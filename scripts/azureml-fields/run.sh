#!/usr/bin/env bash
# Runs Python with azure-ai-ml 1.34.0 (Debian unstable's python3-azure) importable, fetched
# with apt-get download and unpacked with dpkg -x into a scratch directory outside the
# repository (nothing is installed).
#
#   scripts/azureml-fields/run.sh gen              writes azureml/fields_gen.go
#   scripts/azureml-fields/run.sh python ARGS...   runs python3 ARGS with azure-ai-ml
#   scripts/azureml-fields/run.sh fetch            fetches and unpacks only
#
# Exits 3 when Debian unstable no longer ships the pinned azure-ai-ml.
#
# The scratch directory is $AZUREML_FIELDS_DIR, else ~/.cache/instancetypes/azureml-fields.
# Pure-Python packages come from Debian unstable (beside python3-azure); those with
# compiled code (cryptography, jsonschema's helpers) from the machine's own suite, built for
# its python3. OpenTelemetry, which Debian does not package and which azure-ai-ml only uses
# to trace its own calls, is a stand-in (stub/). Needs apt-get, dpkg and python3.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${AZUREML_FIELDS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/instancetypes/azureml-fields}
version=1.34.0 # azure-ai-ml; python3-azure 20260602+git-1 ships it
root=$dir/root
site=$root/usr/lib/python3/dist-packages
python=python3
if [ -x /usr/bin/python3 ]; then python=/usr/bin/python3; fi # the one the host's packages are built for

# Pure Python, from unstable: azure-ai-ml and what it imports.
unstable_packages="python3-azure python3-azure-storage python3-marshmallow python3-pydash python3-yaml
python3-isodate python3-typing-extensions python3-strictyaml python3-jwt python3-colorama python3-tqdm
python3-msrest python3-oauthlib python3-requests-oauthlib python3-packaging python3-requests
python3-urllib3 python3-idna python3-certifi python3-six python3-dateutil"
# Compiled, from the machine's own suite, with the Python packages they depend on.
host_packages="python3-cryptography python3-jsonschema"

fetch() {
	if [ -d "$site/azure_ai_ml-$version.dist-info" ]; then
		return
	fi
	echo "fetching azure-ai-ml $version into $dir" >&2
	rm -rf "$dir"
	mkdir -p "$dir/debs" "$dir/apt/lists/partial" "$dir/apt/cache/archives/partial"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian unstable main" >"$dir/apt/sources.list"
	local apt=(-q -o Dir::Etc::SourceList="$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists="$dir/apt/lists" -o Dir::Cache="$dir/apt/cache" -o Acquire::Languages=none)
	apt-get "${apt[@]}" update >&2
	(cd "$dir/debs" && apt-get "${apt[@]}" download $unstable_packages >&2)
	local deps
	deps=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
		--no-replaces --no-enhances $host_packages | grep -E '^python3-' | grep -vE '^python3(-minimal|-distutils|-lib2to3)?$' | sort -u)
	(cd "$dir/debs" && apt-get -q download $deps >&2) || {
		echo "apt-get download of the host's $host_packages failed: run apt-get update first" >&2
		exit 1
	}
	for f in "$dir"/debs/*.deb; do dpkg -x "$f" "$root"; done
	if [ ! -d "$site/azure_ai_ml-$version.dist-info" ]; then
		echo "Debian unstable's python3-azure no longer ships azure-ai-ml $version:" >&2
		ls -d "$site"/azure_ai_ml-* >&2 || true
		echo "pin the new version here and regenerate (docs/development.md)" >&2
		exit 3
	fi
}

py() {
	PYTHONPATH="$here/stub:$site" PYTHONDONTWRITEBYTECODE=1 "$python" -S "$@"
}

case ${1:-gen} in
fetch) fetch ;;
gen)
	fetch
	out=$repo/azureml/fields_gen.go
	py "$here/gen.py" | gofmt >"$out.tmp"
	mv "$out.tmp" "$out"
	echo "wrote $out" >&2
	;;
python)
	shift
	fetch
	py "$@"
	;;
*)
	echo "usage: $0 gen|fetch|python ARGS..." >&2
	exit 2
	;;
esac
