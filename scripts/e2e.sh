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
# taken with date +%s%N around each run and peak RSS from GNU time (/usr/bin/time -f %M),
# when installed. If hyperfine is installed it also runs hyperfine, as a second opinion.
#
#   --items N      items in the generated list (default 20000)
#   --runs N       runs of each program (default 10; --quick: 3)
#   --summary FILE also write the result as a Markdown fragment to FILE (scripts/bench.sh
#                  puts it in BENCHMARKS.md)
#   --values FILE  also write the numbers to FILE, one "name value" a line (items, bytes,
#                  runs, ours_median_us, ours_min_us, ours_rss_kb, the same for bare, ratio,
#                  rss_ratio; a peak RSS is NA without GNU time), for scripts/bench.sh
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

# run NAME CMD...: one timed run, appended to $work/samples as "NAME SECONDS RSS_KB".
run() {
	local name=$1 start end rss=NA
	shift
	start=$(date +%s%N)
	if [ -n "$gnutime" ]; then
		"$gnutime" -f %M -o "$work/rss" "$@" >/dev/null 2>&1
		rss=$(tail -1 "$work/rss")
	else
		"$@" >/dev/null 2>&1
	fi
	end=$(date +%s%N)
	echo "$name $(((end - start) / 1000)) $rss" >>"$work/samples"
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

# stats NAME: "median_us min_us peak_rss_kb" of NAME's samples.
stats() {
	awk -v name="$1" '$1 == name { t[++n] = $2; if ($3 != "NA" && $3 + 0 > rss) rss = $3 + 0 }
		END {
			for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (t[j] < t[i]) { x = t[i]; t[i] = t[j]; t[j] = x }
			med = (n % 2) ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
			printf "%d %d %s\n", med, t[1], (rss ? rss : "NA")
		}' "$work/samples"
}
read -r ours_med ours_min ours_rss < <(stats ours)
read -r bare_med bare_min bare_rss < <(stats bare)
ratio=$(awk -v a="$ours_med" -v b="$bare_med" 'BEGIN { printf "%.2f", a / b }')
mb() { if [ "$1" = NA ]; then echo "n/a"; else awk -v k="$1" 'BEGIN { printf "%.0f MiB", k / 1024 }'; fi; }
secs() { awk -v us="$1" 'BEGIN { printf "%.3f s", us / 1e6 }'; }
rss_ratio=NA
if [ "$ours_rss" != NA ] && [ "$bare_rss" != NA ]; then
	rss_ratio=$(awk -v a="$ours_rss" -v b="$bare_rss" 'BEGIN { printf "%.2f", a / b }')
fi
mbsize=$(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1e6 }')

cat <<EOF
end to end: $items items, $mbsize, $runs runs each
  instancetype validate   median $(secs "$ours_med")   fastest $(secs "$ours_min")   peak RSS $(mb "$ours_rss")
  sigsdecode (bare)       median $(secs "$bare_med")   fastest $(secs "$bare_min")   peak RSS $(mb "$bare_rss")
  ratio of medians, ours / bare decode: ${ratio}x; of peak RSS: ${rss_ratio}x
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

| program | median | fastest | peak RSS (highest of the runs) |
| --- | ---: | ---: | ---: |
| \`instancetype validate\` (decode with positions, strictness, every rule) | $(secs "$ours_med") | $(secs "$ours_min") | $(mb "$ours_rss") |
| bare \`sigs.k8s.io/yaml\` decode | $(secs "$bare_med") | $(secs "$bare_min") | $(mb "$bare_rss") |

\`instancetype validate\` takes **${ratio}×** the time of the bare decode (ratio of medians)$(
	if [ "$rss_ratio" != NA ]; then echo ", and **${rss_ratio}×** its peak RSS"; fi).
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
EOF
fi
