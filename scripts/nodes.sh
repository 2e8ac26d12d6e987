#!/usr/bin/env bash
# A large cluster's nodes: `instancetype validate --nodes nodes.yaml examples/manifests`, where
# nodes.yaml is what kubectl get nodes -o yaml prints for 3,000 nodes of 50 container images
# each (internal/fixtures.NodeList(3000, 50), 51 MB, written by scripts/gennodes): wall-clock
# time and peak RSS at GOMAXPROCS 1, 2 and 16, against DESIGN.md §4's bound of 512 MiB of
# peak memory at any GOMAXPROCS.
#
#   scripts/nodes.sh [--nodes N] [--images N] [--runs N] [--quick] [--summary FILE] [--values FILE]
#
# The command is a built binary (go build), run with each GOMAXPROCS in turn, the order
# rotated every round, so that a change in the load of a shared machine spreads over all
# three. Wall time is taken with date +%s%N around each run; peak RSS and processor time
# (user + system) from GNU time (/usr/bin/time -f '%M %U %S'), when installed. The example instance types select labels no node
# of the fixture has, so the command finds that they fit no node (exit status 1): any
# status but 0 and 1, or a report that did not read every node, stops the script.
#
#   --nodes N      nodes in the list (default 3000)
#   --images N     container images of each node (default 50, at most 50)
#   --runs N       runs at each GOMAXPROCS (default 5; --quick: 2)
#   --summary FILE also write the result as a Markdown fragment to FILE
#   --values FILE  also write the numbers to FILE, one "name value" a line (nodes_*)
set -euo pipefail

nodes=3000
images=50
runs=5
summary=
values=
while [ $# -gt 0 ]; do
	case $1 in
	--nodes) nodes=$2; shift 2 ;;
	--images) images=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--quick) runs=2; shift ;;
	--summary) summary=$2; shift 2 ;;
	--values) values=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "nodes.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building instancetype; generating $nodes nodes of $images images" >&2
go build -o "$work/instancetype" ./cmd/instancetype
go run ./scripts/gennodes -n "$nodes" -images "$images" >"$work/nodes.yaml"
size=$(wc -c <"$work/nodes.yaml")
ours=("$work/instancetype" validate --nodes "$work/nodes.yaml" examples/manifests)

# check: the command must read every node, and end with status 0 or 1 (findings).
check() {
	local rc=0
	"${ours[@]}" >"$work/out" 2>&1 || rc=$?
	if [ "$rc" -gt 1 ] || ! grep -q "checked against $nodes nodes" "$work/out"; then
		echo "nodes.sh: instancetype validate --nodes did not read the $nodes nodes (status $rc):" >&2
		head -c 2000 "$work/out" >&2
		exit 1
	fi
}
check

gnutime=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
	gnutime=/usr/bin/time
fi
# run PROCS: one timed run at GOMAXPROCS=PROCS, appended to $work/samples as
# "PROCS MICROSECONDS RSS_KB CPU_MS" (processor time, user + system).
run() {
	local procs=$1 start end rss=NA cpu=NA rc=0
	start=$(date +%s%N)
	if [ -n "$gnutime" ]; then
		GOMAXPROCS=$procs "$gnutime" -f '%M %U %S' -o "$work/rss" "${ours[@]}" >/dev/null 2>&1 || rc=$?
		read -r rss cpu < <(tail -1 "$work/rss" | awk '{ printf "%s %d\n", $1, ($2 + $3) * 1000 }')
	else
		GOMAXPROCS=$procs "${ours[@]}" >/dev/null 2>&1 || rc=$?
	fi
	end=$(date +%s%N)
	if [ "$rc" -gt 1 ]; then
		echo "nodes.sh: instancetype validate --nodes ended with status $rc at GOMAXPROCS=$procs" >&2
		exit 1
	fi
	echo "$procs $(((end - start) / 1000)) $rss $cpu" >>"$work/samples"
}
# stats PROCS: "median_us min_us peak_rss_kb median_cpu_ms" of the runs at GOMAXPROCS=PROCS.
stats() {
	awk -v name="$1" '
		function median(a, n,   i, j, x) {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
			return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
		}
		$1 == name { t[++n] = $2; if ($3 != "NA" && $3 + 0 > rss) rss = $3 + 0; if ($4 != "NA" && $4 != "") c[++nc] = $4 + 0 }
		END {
			med = median(t, n)
			printf "%d %d %s %s\n", med, t[1], (rss ? rss : "NA"), (nc ? sprintf("%d", median(c, nc)) : "NA")
		}' "$work/samples"
}
secs() { awk -v us="$1" 'BEGIN { printf "%.2f s", us / 1e6 }'; }
ms() { if [ "$1" = NA ]; then echo "n/a"; else awk -v ms="$1" 'BEGIN { printf "%.2f s", ms / 1e3 }'; fi; }
mb() { if [ "$1" = NA ]; then echo "n/a"; else awk -v k="$1" 'BEGIN { printf "%.0f MiB", k / 1024 }'; fi; }

procs=(1 2 16)
# A warm-up run (page cache, binary), not counted.
GOMAXPROCS=2 "${ours[@]}" >/dev/null 2>&1 || true
: >"$work/samples"
echo "timing: $runs runs at each GOMAXPROCS (${procs[*]}), the order rotated each round" >&2
for i in $(seq "$runs"); do
	for k in 0 1 2; do
		run "${procs[$(((i + k) % 3))]}"
	done
done

mbsize=$(awk -v s="$size" 'BEGIN { printf "%.0f MB", s / 1e6 }')
: >"$work/results"
for p in "${procs[@]}"; do
	read -r med min rss cpu < <(stats "$p")
	echo "$p $med $min $rss $cpu" >>"$work/results"
done
{
	echo "instancetype validate --nodes ($nodes nodes, $mbsize) examples/manifests, $runs runs at each GOMAXPROCS:"
	while read -r p med min rss cpu; do
		echo "  GOMAXPROCS=$p: median $(secs "$med"), fastest $(secs "$min"), peak RSS $(mb "$rss") (bound 512 MiB), processor time $(ms "$cpu")"
	done <"$work/results"
} >&2

if [ -n "$summary" ]; then
	{
		echo "\`instancetype validate --nodes nodes.yaml examples/manifests\`, where nodes.yaml is what"
		echo "\`kubectl get nodes -o yaml\` prints for $(printf '%s' "$nodes" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta') nodes of $images container images each"
		echo "(\`internal/fixtures.NodeList($nodes, $images)\`, $mbsize, written by \`scripts/gennodes\`): a built"
		echo "binary, $runs runs at each GOMAXPROCS, the order rotated every round (\`scripts/nodes.sh\`). The"
		echo "bound (DESIGN.md §4) is a peak under 512 MiB at any GOMAXPROCS."
		echo
		echo "| GOMAXPROCS | median | fastest | peak RSS (highest of the runs) | under 512 MiB | processor time, user + system (median) |"
		echo "| ---: | ---: | ---: | ---: | --- | ---: |"
		while read -r p med min rss cpu; do
			under="–"
			if [ "$rss" != NA ]; then under=$(awk -v k="$rss" 'BEGIN { print (k < 512 * 1024) ? "yes" : "**no**" }'); fi
			echo "| $p | $(secs "$med") | $(secs "$min") | $(mb "$rss") | $under | $(ms "$cpu") |"
		done <"$work/results"
	} >"$summary"
fi
if [ -n "$values" ]; then
	{
		echo "nodes_count $nodes"
		echo "nodes_bytes $size"
		echo "nodes_runs $runs"
		while read -r p med min rss cpu; do
			printf 'nodes_p%s_median_us %s\nnodes_p%s_min_us %s\nnodes_p%s_rss_kb %s\nnodes_p%s_cpu_ms %s\n' "$p" "$med" "$p" "$min" "$p" "$rss" "$p" "$cpu"
		done <"$work/results"
	} >"$values"
fi
