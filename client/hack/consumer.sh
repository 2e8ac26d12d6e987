#!/usr/bin/env bash
# Proves that the modules of this repository are usable from outside it, as a user gets
# them from a release: performs the release steps of RELEASING.md in a sandbox, against a
# module proxy made of files, then builds a consumer module and installs the commands.
#
#   1. The library (the repository's root) is published at a test version $V into a file
#      proxy (hack/tools/modproxy: the zip a release would hold).
#   2. A copy of the client module is made to require the library at $V and tidied against
#      that proxy, as the release of client/$V does; its go.mod and go.sum must then be the
#      committed ones but for the library's line (so the client module is tidy), and it is
#      published at $V.
#   3. A module outside the repository requires the client at $V, which brings the library
#      at $V, builds and runs a program using both (clientset, CRD, lint), with GOWORK=off
#      and no replace directive: what `go get` gives a user.
#   4. `go install ...@$V` of instancetype and kubectl-instancetype, as the README says;
#      each prints $V as its version (stamped from the build information) and runs.
#
# Modules other than ours come from the module cache (its download directory is a proxy
# too), then from $GOPROXY; the checksum database is skipped (GOSUMDB=off), as our test
# version is in none. A private module cache keeps the test version out of the shared one.
#
# Usage: client/hack/consumer.sh    (from anywhere; client/hack/ci.sh calls it)
set -euo pipefail

client=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "$client/.." && pwd)
lib=github.com/amlarc-go/instancetypes
V=v0.0.0-consumer.test # any version no release has
work=$(mktemp -d)
cleanup() { chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

shared=$(GOWORK=off go env GOMODCACHE)
upstream=$(GOWORK=off go env GOPROXY)
export GOWORK=off GOFLAGS=-modcacherw GOSUMDB=off GONOSUMDB=$lib GOMODCACHE=$work/modcache
export GOPROXY="file://$work/proxy,file://$shared/cache/download,$upstream"
export GOTOOLCHAIN=local

echo "== 1. the library at $V"
(cd "$client/hack/tools" && GOMODCACHE=$shared GOPROXY=$upstream go build -o "$work/modproxy" ./modproxy)
"$work/modproxy" -proxy "$work/proxy" -version "$V" "$root"

echo "== 2. the client at $V, requiring the library at $V"
mkdir "$work/client"
# The client module without the modules nested in it (hack/tools, hack/envtest).
(cd "$client" && git ls-files -co --exclude-standard 2>/dev/null || find . -type f) | while read -r f; do
	case $f in hack/tools/* | hack/envtest/*) continue ;; esac
	[ -f "$client/$f" ] || continue
	mkdir -p "$work/client/$(dirname "$f")"
	cp "$client/$f" "$work/client/$f"
done
(cd "$work/client" && go mod edit -require "$lib@$V" && go mod tidy)
others() { grep -v "^$lib \|^	$lib v" "$1" || true; }
if ! diff <(others "$client/go.mod") <(others "$work/client/go.mod") || ! diff <(others "$client/go.sum") <(others "$work/client/go.sum"); then
	echo "client/go.mod or go.sum is not tidy: run go mod tidy in client (see RELEASING.md)"
	exit 1
fi
"$work/modproxy" -proxy "$work/proxy" -version "$V" "$work/client"

echo "== 3. a consumer module"
mkdir "$work/consumer"
cd "$work/consumer"
cat >go.mod <<'EOF'
module example.com/consumer

go 1.26.0
EOF
cat >main.go <<'EOF'
// A program of a user of both modules: the client's generated clientset and its CRD, the
// library's linter.
package main

import (
	"context"
	"fmt"
	"os"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/amlarc-go/instancetypes/client/clientset/versioned/fake"
	"github.com/amlarc-go/instancetypes/client/manifests"
	"github.com/amlarc-go/instancetypes/instancetype"
	"github.com/amlarc-go/instancetypes/lint"
)

func main() {
	cs := fake.NewClientset(instancetype.Default())
	list, err := cs.AmlarcV1alpha1().InstanceTypes().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	r, err := lint.Run([]lint.Input{lint.Bytes("it.yaml", []byte("apiVersion: amlarc.azureml.com/v1alpha1\nkind: InstanceType\nmetadata: {name: Bad}\n"))}, lint.Options{})
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	rules := map[string]int{}
	for _, f := range r.Findings {
		rules[f.Rule()]++
	}
	fmt.Printf("%d instance types listed, a CRD of %d bytes, findings of rules %v\n", len(list.Items), len(manifests.CRD), rules)
}
EOF
go get "$lib/client@$V"
go mod tidy
if grep -q replace go.mod; then echo "the consumer's go.mod has a replace directive"; exit 1; fi
grep "$lib" go.mod
go vet .
out=$(go run .)
echo "$out"
case $out in "1 instance types listed, a CRD of "*" bytes, findings of rules map[R1:1 R2:4]") ;; *) echo "unexpected output"; exit 1 ;; esac

echo "== 4. go install ...@$V"
for cmd in "$lib/cmd/instancetype" "$lib/client/cmd/kubectl-instancetype"; do
	GOBIN=$work/bin go install "$cmd@$V"
done
for bin in instancetype kubectl-instancetype; do
	got=$("$work/bin/$bin" version)
	echo "$got"
	case $got in *" $V") ;; *) echo "$bin version: $got; want $V"; exit 1 ;; esac
done
"$work/bin/instancetype" validate "$root/examples/manifests"
echo "== ok: the modules at $V are usable from outside the repository"
