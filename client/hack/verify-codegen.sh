#!/usr/bin/env bash
# Fails when the generated code or manifests of the client module are stale: regenerates
# everything hack/update-codegen.sh writes into a temporary directory and compares it with
# what is committed. Fix a failure with hack/update-codegen.sh.
set -euo pipefail

client=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$client/hack/update-codegen.sh" "$tmp"
status=0
for d in manifests/crd manifests/policy applyconfiguration clientset listers informers; do
	if ! diff -ruN "$client/$d" "$tmp/$d"; then
		status=1
	fi
done
if [ "$status" -ne 0 ]; then
	echo "generated code is stale: run client/hack/update-codegen.sh" >&2
	exit 1
fi
echo "generated code is up to date"
