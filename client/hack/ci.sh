#!/usr/bin/env bash
# CI for the client module, from a fresh machine with only Go (modules come from the Go
# module proxy): builds (or finds cached) kube-apiserver and etcd, fails on stale
# generated code, then gofmt, go vet, the webhook's static binary (CGO_ENABLED=0) and the
# Dockerfile's build stage performed without a container engine (hack/dockerfile.sh), and
# the client module's tests under the race detector, the integration tests against the real
# API server (which run that binary behind it) included. A skipped test is a failure here:
# the binaries are required ($INSTANCETYPES_ENVTEST_REQUIRED=1), and the test log is
# searched for skips. The slow test runs too ($INSTANCETYPES_SLOW_TESTS=1), alone and
# without the race detector: it compares processor times, which the detector would distort.
#
# The client module is built in the repository's workspace (go.work), against the library
# of this tree; the tool modules of hack/ alone (GOWORK=off); and hack/consumer.sh builds a
# module outside the repository against both modules as a release publishes them, which
# also checks that client/go.mod and go.sum are tidy.
#
# Usage: client/hack/ci.sh    (from anywhere; .ci/run calls it)
set -euo pipefail

client=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$client"
export GOWORK=$client/../go.work
start=$SECONDS
step() { printf '\n== client: %s (%d s)\n' "$*" "$((SECONDS - start))"; }

step "kube-apiserver and etcd"
KUBEBUILDER_ASSETS=$(hack/envtest.sh)
export KUBEBUILDER_ASSETS INSTANCETYPES_ENVTEST_REQUIRED=1

step "generated code up to date"
hack/verify-codegen.sh

step "go.mod files of the tool modules tidy (the client's: hack/consumer.sh, below)"
for m in hack/tools hack/envtest/kube-apiserver hack/envtest/etcd; do
	(cd "$m" && GOWORK=off go mod tidy -diff) || { echo "go.mod of client/$m is not tidy: run GOWORK=off go mod tidy there"; exit 1; }
done

step "gofmt"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi

step "go vet"
go vet ./...
for m in hack/tools; do
	(cd "$m" && GOWORK=off go vet ./...)
done

log=$(mktemp)
bindir=$(mktemp -d)
trap 'rm -rf "$log" "$bindir"' EXIT

step "instancetype-webhook: a static binary (CGO_ENABLED=0)"
CGO_ENABLED=0 go build -trimpath -o "$bindir/instancetype-webhook" ./cmd/instancetype-webhook
"$bindir/instancetype-webhook" --help 2>/dev/null || { echo "instancetype-webhook --help failed"; exit 1; }
echo "built: $(du -h "$bindir/instancetype-webhook" | cut -f1)"

step "client/Dockerfile's build stage, without a container engine (hack/dockerfile.sh)"
hack/dockerfile.sh

# runtests runs go test with the given flags and packages, printing the packages' results,
# and fails on a failure or on any skipped test.
runtests() {
	if ! go test -count=1 -v "$@" >"$log" 2>&1; then
		# The first 200 lines of the failures, read whole, then cut: under pipefail,
		# "| head -200" can end grep with SIGPIPE, and set -e would end this script before
		# it says what failed.
		mapfile -t failures < <(grep -E '^(--- FAIL|FAIL|panic:|ok )|_test.go:[0-9]+:' "$log")
		if [ "${#failures[@]}" -gt 0 ]; then printf '%s\n' "${failures[@]:0:200}"; fi
		echo "go test${*:+ $*} failed"; exit 1
	fi
	grep -E '^(ok|\?) ' "$log" | grep -v 'no test files' || true
	if grep -E -- '--- SKIP' "$log"; then
		echo "go test${*:+ $*}: tests were skipped; in CI a skip is a failure"; exit 1
	fi
	echo "go test${*:+ $*}: $(grep -c -E -- '^\s*--- PASS' "$log") passed (subtests included), 0 skipped"
}

# Every test runs once, under the race detector, but for the slow test that compares
# processor times, which the detector would distort: it runs alone, without it. (Without
# $INSTANCETYPES_SLOW_TESTS none of the others is slow; -skip and -run, so that it is
# reported neither skipped nor missing.)
step "go test -race"
runtests -race -skip '^TestManyFindingsLinear$' ./...

step "go test: the slow test, without the race detector"
INSTANCETYPES_SLOW_TESTS=1 runtests -run '^TestManyFindingsLinear$' ./webhook
grep -q -- '--- PASS: TestManyFindingsLinear' "$log" || { echo "the slow test did not run"; exit 1; }

step "the modules used from outside the repository, as released (hack/consumer.sh)"
hack/consumer.sh 2>&1 | grep -v '^go: downloading '

step "benchmarks, once each (they stay runnable; hack/bench-capacity.sh and scripts/bench-webhook.sh measure)"
go test -count=1 -run '^$' -bench . -benchtime 1x ./capacity ./cmd/instancetype-webhook ./webhook >"$log" 2>&1 || { cat "$log"; echo "benchmarks failed"; exit 1; }
grep -E '^Benchmark' "$log"

step "ok in $((SECONDS - start)) s"
