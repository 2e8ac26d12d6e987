#!/usr/bin/env bash
# End to end: `instancetype validate` on a generated InstanceTypeList against a bare
# sigs.k8s.io/yaml decode of the same file: the ratio of their wall-clock times, and the
# peak RSS of each.
#
#   scripts/e2e.sh [--items N] [--runs N] [--quick] [--summary FILE] [--values FILE]
#
# It builds the command and scripts/sigsdecode (a program that only unmarshals the file into
# an instancetype.InstanceTypeList with sigs.k8s.io/yaml and prints the item count),
# generates the list with scripts/genlist (default 20,000 items, about 5 MB), checks that
# both read every item, then runs the two programs alternately (A B B A ...), so that a
# change in the load of a shared machine hits both alike, and reports for each the median
# and fastest wall-clock time and the peak RSS, and the ratio of the medians. Wall time is
# taken with date +%s%N around each run; peak RSS and processor time (user + system, the
# median, and its ratio: a second opinion, less sensitive to a busy machine than wall time
# but blind to what runs in parallel) from GNU time (/usr/bin/time -f '%M %U %S'), when
# installed. If hyperfine is installed it also runs hyperfine, as a second opinion.
#
#   --items N      items in the generated list (default 20000)
#   --runs N       runs of each program (default 10; --quick: 3)
#   --summary FILE also write the result as a Markdown fragment to FILE (scripts/bench.sh
#                  puts it in BENCHMARKS.md)
#   --values FILE  also write the numbers to FILE, one "name value" a line (items, bytes,
#                  runs, ours_median_us, ours_min_us, ours_rss_kb, the same for bare, ratio,
#                  rss_ratio, ours_cpu_ms, bare_cpu_ms, cpu_ratio; a peak RSS or processor
#                  time is NA without GNU time), for scripts/bench.sh
set -euo pipefail

items=20000
runs=10
summary=
values=
while [ $# -gt 0 ]; do
	case $1 in
	--items) items=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--quick) runs=3; shift ;;
	--summary) summary=$2; shift 2 ;;
	--values) values=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "e2e.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "building instancetype and sigsdecode; generating a list of $items items" >&2
go build -o "$work/instancetype" ./cmd/instancetype
go build -o "$work/sigsdecode" ./scripts/sigsdecode
go run ./scripts/genlist -n "$items" >"$work/list.yaml"
size=$(wc -c <"$work/list.yaml")

# Both must read the whole file: the command without findings, the decoder every item.
if ! "$work/instancetype" validate "$work/list.yaml" >"$work/out" 2>&1; then
	echo "e2e.sh: instancetype validate failed on the generated list:" >&2
	head -20 "$work/out" >&2
	exit 1
fi
got=$("$work/sigsdecode" "$work/list.yaml")
if [ "$got" != "$items" ]; then
	echo "e2e.sh: sigsdecode read $got items, want $items" >&2
	exit 1
fi

gnutime=
if [ -x /usr/bin/time ] && /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
	gnutime=/usr/bin/time
fi

# run NAME CMD...: one timed run, appended to $work/samples as
# "NAME MICROSECONDS RSS_KB CPU_MS" (processor time, user + system).
run() {
	local name=$1 start end rss=NA cpu=NA
	shift
	start=$(date +%s%N)
	if [ -n "$gnutime" ]; then
		"$gnutime" -f '%M %U %S' -o "$work/rss" "$@" >/dev/null 2>&1
		read -r rss cpu < <(tail -1 "$work/rss" | awk '{ printf "%s %d\n", $1, ($2 + $3) * 1000 }')
	else
		"$@" >/dev/null 2>&1
	fi
	end=$(date +%s%N)
	echo "$name $(((end - start) / 1000)) $rss $cpu" >>"$work/samples"
}

ours=("$work/instancetype" validate "$work/list.yaml")
bare=("$work/sigsdecode" "$work/list.yaml")
# A warm-up run of each (page cache, binaries), not counted.
"${ours[@]}" >/dev/null 2>&1
"${bare[@]}" >/dev/null 2>&1
: >"$work/samples"
echo "timing: $runs runs of each, alternating" >&2
for i in $(seq "$runs"); do
	if [ $((i % 2)) -eq 1 ]; then
		run ours "${ours[@]}"
		run bare "${bare[@]}"
	else
		run bare "${bare[@]}"
		run ours "${ours[@]}"
	fi
done

# stats NAME: "median_us min_us peak_rss_kb median_cpu_ms" of NAME's samples.
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
read -r ours_med ours_min ours_rss ours_cpu < <(stats ours)
read -r bare_med bare_min bare_rss bare_cpu < <(stats bare)
ratio=$(awk -v a="$ours_med" -v b="$bare_med" 'BEGIN { printf "%.2f", a / b }')
mb() { if [ "$1" = NA ]; then echo "n/a"; else awk -v k="$1" 'BEGIN { printf "%.0f MiB", k / 1024 }'; fi; }
secs() { awk -v us="$1" 'BEGIN { printf "%.3f s", us / 1e6 }'; }
rss_ratio=NA
if [ "$ours_rss" != NA ] && [ "$bare_rss" != NA ]; then
	rss_ratio=$(awk -v a="$ours_rss" -v b="$bare_rss" 'BEGIN { printf "%.2f", a / b }')
fi
cpu_ratio=NA
if [ "$ours_cpu" != NA ] && [ "$bare_cpu" != NA ]; then
	cpu_ratio=$(awk -v a="$ours_cpu" -v b="$bare_cpu" 'BEGIN { printf "%.2f", a / b }')
fi
ms() { if [ "$1" = NA ]; then echo "n/a"; else awk -v ms="$1" 'BEGIN { printf "%.3f s", ms / 1e3 }'; fi; }
mbsize=$(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1e6 }')

cat <<EOF
end to end: $items items, $mbsize, $runs runs each
  instancetype validate   median $(secs "$ours_med")   fastest $(secs "$ours_min")   peak RSS $(mb "$ours_rss")   processor time $(ms "$ours_cpu")
  sigsdecode (bare)       median $(secs "$bare_med")   fastest $(secs "$bare_min")   peak RSS $(mb "$bare_rss")   processor time $(ms "$bare_cpu")
  ratio of medians, ours / bare decode: ${ratio}x; of peak RSS: ${rss_ratio}x; of processor time: ${cpu_ratio}x
EOF

if command -v hyperfine >/dev/null 2>&1; then
	echo "hyperfine, as a second opinion:" >&2
	hyperfine --warmup 1 --runs "$runs" -N \
		-n "instancetype validate" "$work/instancetype validate $work/list.yaml" \
		-n "sigsdecode" "$work/sigsdecode $work/list.yaml" >&2 || true
fi

if [ -n "$summary" ]; then
	cat >"$summary" <<EOF
\`instancetype validate\` on a generated ${items}-item InstanceTypeList ($mbsize, \`go run ./scripts/genlist\`)
against a bare \`sigs.k8s.io/yaml\` decode of the same file into \`instancetype.InstanceTypeList\`
(\`scripts/sigsdecode\`: no strictness, no positions, no rules), both built binaries, $runs runs of
each, alternating (\`scripts/e2e.sh\`):

| program | median | fastest | peak RSS (highest of the runs) | processor time, user + system (median) |
| --- | ---: | ---: | ---: | ---: |
| \`instancetype validate\` (kubectl's reading, strict decoding, every rule; positions looked up only for findings) | $(secs "$ours_med") | $(secs "$ours_min") | $(mb "$ours_rss") | $(ms "$ours_cpu") |
| bare \`sigs.k8s.io/yaml\` decode | $(secs "$bare_med") | $(secs "$bare_min") | $(mb "$bare_rss") | $(ms "$bare_cpu") |

\`instancetype validate\` takes **${ratio}×** the time of the bare decode (ratio of medians; DESIGN.md §4's
target: at most 1.2×, $(awk -v r="$ratio" 'BEGIN { print (r <= 1.2) ? "met" : "**not met**" }'))$(
	if [ "$rss_ratio" != NA ]; then echo ", **${rss_ratio}×** its peak RSS"; fi)$(
	if [ "$cpu_ratio" != NA ]; then echo " and **${cpu_ratio}×** its processor time"; fi).
EOF
fi

if [ -n "$values" ]; then
	cat >"$values" <<EOF
items $items
bytes $size
runs $runs
ours_median_us $ours_med
ours_min_us $ours_min
ours_rss_kb $ours_rss
bare_median_us $bare_med
bare_min_us $bare_min
bare_rss_kb $bare_rss
ratio $ratio
rss_ratio $rss_ratio
ours_cpu_ms $ours_cpu
bare_cpu_ms $bare_cpu
cpu_ratio $cpu_ratio
EOF
fi
