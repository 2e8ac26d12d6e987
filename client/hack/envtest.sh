#!/usr/bin/env bash
# Builds the kube-apiserver and etcd that the integration tests run against, from the Go
# module proxy, into a cache directory, and prints that directory (for KUBEBUILDER_ASSETS):
#
#   kube-apiserver  k8s.io/kubernetes v1.37.2 (hack/envtest/kube-apiserver/go.mod: its
#                   staging modules replaced by the published v0.37.2 ones)
#   etcd            go.etcd.io/etcd/server/v3 v3.7.3 behind a tiny main (hack/envtest/etcd)
#
# The directory is $KUBEBUILDER_ASSETS if set, else $INSTANCETYPES_ENVTEST_CACHE (default:
# the user cache directory's instancetypes-envtest) plus k8s-v1.37.2-etcd-v3.7.3, which is
# where the tests look. A build is skipped when the binaries there were built from the
# same go.mod and go.sum files by the same Go. A cold build takes about four minutes on
# two cores and leaves about 160 MB of binaries (plus the module and build caches).
set -euo pipefail
# The envtest modules are built alone, not in the repository's workspace (go.work).
export GOWORK=off

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
k8s=v1.37.2
etcd=v3.7.3
cache=${INSTANCETYPES_ENVTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/instancetypes-envtest}
dir=${KUBEBUILDER_ASSETS:-$cache/k8s-$k8s-etcd-$etcd}
mkdir -p "$dir"

stamp=$( (go version; cat "$here"/envtest/kube-apiserver/go.mod "$here"/envtest/kube-apiserver/go.sum \
	"$here"/envtest/etcd/go.mod "$here"/envtest/etcd/go.sum "$here"/envtest/etcd/main.go) | sha256sum | cut -d' ' -f1)
if [ -x "$dir/kube-apiserver" ] && [ -x "$dir/etcd" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$dir"
	exit 0
fi
rm -f "$dir/.stamp"

start=$SECONDS
echo "building kube-apiserver $k8s and etcd $etcd into $dir" >&2
(cd "$here/envtest/kube-apiserver" && go build -trimpath -o "$dir/kube-apiserver" \
	-ldflags "-s -w -X k8s.io/component-base/version.gitVersion=$k8s -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=37" \
	k8s.io/kubernetes/cmd/kube-apiserver)
(cd "$here/envtest/etcd" && go build -trimpath -ldflags "-s -w" -o "$dir/etcd" .)
"$dir/kube-apiserver" --version >&2
# Not "| head -1": under pipefail, etcd dies of SIGPIPE when head exits first, and the
# stamp below would never be written.
etcd_version=$("$dir/etcd" --version)
echo "${etcd_version%%$'\n'*}" >&2
echo "$stamp" >"$dir/.stamp"
echo "built in $((SECONDS - start)) s" >&2
echo "$dir"
