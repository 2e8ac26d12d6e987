#!/usr/bin/env bash
# The release automation, short of publishing: GoReleaser v2.17.0 (through the Go module
# proxy) checks .goreleaser.yaml, then makes a snapshot release of the committed HEAD, in
# a clone, for linux/amd64 alone (all six platforms of both commands take many minutes on
# two cores: the client module cross-compiled five more times), and the result is checked:
# the checksums, an archive per command with its license, the version each binary prints
# (the snapshot's, stamped as for a tag), the build flags (-trimpath, -s, CGO_ENABLED=0), and the krew
# manifest of the plugin pointing at its archive by checksum. .ci/run runs it.
#
#   scripts/release-snapshot.sh [--all]   # --all: every platform of .goreleaser.yaml
set -euo pipefail
all=
case ${1:-} in
--all) all=1 ;;
"") ;;
*) echo "usage: scripts/release-snapshot.sh [--all]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
goreleaser_version=v2.17.0
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# The plugin's build uses go.work (the library of the same commit, .goreleaser.yaml), which a
# GOWORK=off in the environment (.ci/run sets one) would turn off.
unset GOWORK
gr() { (cd "$work/repo" && go run "github.com/goreleaser/goreleaser/v2@$goreleaser_version" "$@"); }

git clone -q "$root" "$work/repo"
# goreleaser check wants a remote to name the repository by.
git -C "$work/repo" remote get-url origin >/dev/null 2>&1 ||
	git -C "$work/repo" remote add origin https://github.com/amlarc-go/instancetypes.git
gr check

config=.goreleaser.yaml
platforms=12
if [ -z "$all" ]; then
	config=$work/one.yaml
	sed -e 's/^    goos: \[linux, darwin, windows\]$/    goos: [linux]/' -e 's/^    goarch: \[amd64, arm64\]$/    goarch: [amd64]/' \
		"$work/repo/.goreleaser.yaml" >"$config"
	[ "$(grep -c '^    goos: \[linux\]$' "$config")" = 2 ] && [ "$(grep -c '^    goarch: \[amd64\]$' "$config")" = 2 ] ||
		{ echo "release-snapshot.sh: the goos and goarch lines of .goreleaser.yaml are not as this script expects"; exit 1; }
	platforms=2
fi
gr release --snapshot --clean --config "$config" >"$work/release.log" 2>&1 || { cat "$work/release.log"; exit 1; }

dist=$work/repo/dist
fail() { echo "release-snapshot.sh: $*" >&2; exit 1; }
version=$(sed -n 's/.*"version":"\([^"]*\)".*/\1/p' "$dist/metadata.json")
[ -n "$version" ] || fail "no version in dist/metadata.json"
[ "$(wc -l <"$dist/checksums.txt")" = "$platforms" ] || fail "$(wc -l <"$dist/checksums.txt") checksums; want $platforms"
(cd "$dist" && sha256sum --quiet -c checksums.txt) || fail "the checksums do not match the archives"
for cmd in instancetype kubectl-instancetype; do
	archive=$dist/${cmd}_${version}_linux_amd64.tar.gz
	[ -f "$archive" ] || fail "no $archive"
	mkdir "$work/$cmd"
	tar -xzf "$archive" -C "$work/$cmd"
	[ -f "$work/$cmd/LICENSE" ] || fail "$cmd's archive has no LICENSE"
	bin=$work/$cmd/$cmd
	if [ "$(go env GOOS)/$(go env GOARCH)" = linux/amd64 ]; then
		want="instancetype v$version"
		[ $cmd = kubectl-instancetype ] && want="kubectl instancetype v$version"
		got=$("$bin" version)
		[ "$got" = "$want" ] || fail "$cmd version prints \"$got\"; want \"$want\""
	fi
	info=$(go version -m "$bin")
	grep -q -- '-trimpath=true' <<<"$info" || fail "$cmd is not built with -trimpath"
	# -trimpath leaves -ldflags out of the build information: -s shows as no symbol table
	# (the -X is the version printed above).
	if go tool nm "$bin" >/dev/null 2>&1; then fail "$cmd has a symbol table: not built with -ldflags -s"; fi
	grep -q -- 'CGO_ENABLED=0' <<<"$info" || fail "$cmd is not built with CGO_ENABLED=0"
	echo "$cmd: $(stat -c %s "$bin") bytes, $(grep -c . <<<"$(tar -tzf "$archive")") files in its archive"
done
krew=$dist/krew/instancetype.yaml
[ -f "$krew" ] || fail "no krew manifest"
sum=$(awk '/kubectl-instancetype_.*_linux_amd64.tar.gz/ {print $1}' "$dist/checksums.txt")
grep -q '^kind: Plugin$' "$krew" && grep -q "sha256: $sum" "$krew" && grep -q 'bin: kubectl-instancetype$' "$krew" &&
	grep -q "kubectl-instancetype_${version}_linux_amd64.tar.gz" "$krew" ||
	{ cat "$krew"; fail "the krew manifest does not name the plugin's archive by its checksum"; }
echo "goreleaser $goreleaser_version: check passed; snapshot $version of $platforms archives, checksums and krew manifest as expected"
