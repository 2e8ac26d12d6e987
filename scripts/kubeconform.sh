#!/usr/bin/env bash
# Beside kubeconform: `instancetype validate` against kubeconform v0.8.0 (-strict, with the JSON
# schemas made from the client module's CRD by scripts/crdschema), the validator users pick
# today, on a generated 20,000-item InstanceTypeList and on a directory of 2,000 small
# InstanceType files: the ratio of their wall-clock times (medians of alternating runs) and
# the peak RSS of each, against DESIGN.md §4's target (at most 0.6× kubeconform's time,
# peak memory no higher); and, as a second opinion less sensitive to a busy machine but
# blind to what runs in parallel, the median processor time (user + system) of each.
#
#   scripts/kubeconform.sh [--runs N] [--quick] [--summary FILE] [--values FILE]
#
# kubeconform is installed at its pinned version into a temporary GOBIN through the Go
# module proxy; it is not added to any go.mod. Both tools must accept every input, so that
# neither does the work of reporting errors.
#
#   --runs N       runs of each program on each input (default 10; --quick: 3)
#   --summary FILE also write the result as a Markdown fragment to FILE
#   --values FILE  also write the numbers to FILE, one "name value" a line
set -euo pipefail

runs=10
summary=
values=
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--quick) runs=3; shift ;;
	--summary) summary=$2; shift 2 ;;
	--values) values=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "kubeconform.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

version=v0.8.0
echo "installing kubeconform $version into a temporary GOBIN; building instancetype" >&2
GOBIN=$work/bin GOFLAGS=-mod=mod go install "github.com/yannh/kubeconform/cmd/kubeconform@$version"
go build -o "$work/instancetype" ./cmd/instancetype
mkdir -p "$work/schemas" "$work/small"
go run ./scripts/crdschema client/manifests/crd/amlarc.azureml.com_instancetypes.yaml "$work/schemas"
go run ./scripts/genlist -n 20000 >"$work/list.yaml"
for i in $(seq 0 1999); do
	cat >"$work/small/it-$i.yaml" <<ITEM
apiVersion: amlarc.azureml.com/v1alpha1
kind: InstanceType
metadata:
  name: it-$i
spec:
  nodeSelector:
    pool: pool-$((i % 7))
  resources:
    requests:
      cpu: "$((100 + i % 900))m"
      memory: "$((256 + i % 1024))Mi"
    limits:
      cpu: "$((1 + i % 8))"
      memory: "$((2 + i % 16))Gi"
      nvidia.com/gpu: $((i % 2))
ITEM
done
kc=("$work/bin/kubeconform" -strict -summary -schema-location "$work/schemas/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json")
ours=("$work/instancetype" validate)

# Both must accept every input.
for input in "$work/list.yaml" "$work/small"; do
	if ! "${ours[@]}" "$input" >"$work/out" 2>&1; then
		echo "kubeconform.sh: instancetype validate refuses $input:" >&2; head -c 2000 "$work/out" >&2; exit 1
	fi
	if ! "${kc[@]}" "$input" >"$work/out" 2>&1; then
		echo "kubeconform.sh: kubeconform refuses $input:" >&2; head -c 2000 "$work/out" >&2; exit 1
	fi
done

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
		"$gnutime" -f '%M %U %S' -o "$work/rss" "$@" >/dev/null 2>&1 || true
		read -r rss cpu < <(tail -1 "$work/rss" | awk '{ printf "%s %d\n", $1, ($2 + $3) * 1000 }')
	else
		"$@" >/dev/null 2>&1 || true
	fi
	end=$(date +%s%N)
	echo "$name $(((end - start) / 1000)) $rss $cpu" >>"$work/samples"
}
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
ms() { if [ "$1" = NA ]; then echo "n/a"; else awk -v ms="$1" 'BEGIN { printf "%.3f s", ms / 1e3 }'; fi; }
cpuratio() { if [ "$1" = NA ] || [ "$2" = NA ]; then echo NA; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi; }
secs() { awk -v us="$1" 'BEGIN { printf "%.3f s", us / 1e6 }'; }
mb() { if [ "$1" = NA ]; then echo "n/a"; else awk -v k="$1" 'BEGIN { printf "%.0f MiB", k / 1024 }'; fi; }
# target RATIO OURS_RSS KC_RSS: whether DESIGN.md §4's target is met: at most 0.6× kubeconform's
# time, and a peak RSS no higher than its.
target() {
	awk -v r="$1" -v o="$2" -v k="$3" 'BEGIN {
		t = (r <= 0.6) ? "time met" : "time **not met**"
		if (o == "NA" || k == "NA") m = "memory not measured"
		else m = (o + 0 <= k + 0) ? "memory met" : "memory **not met**"
		print t "; " m
	}'
}

: >"$work/results"
for input in list small; do
	path=$work/list.yaml
	[ "$input" = small ] && path=$work/small
	"${ours[@]}" "$path" >/dev/null 2>&1 || true
	"${kc[@]}" "$path" >/dev/null 2>&1 || true
	: >"$work/samples"
	echo "timing $input: $runs runs of each, alternating" >&2
	for i in $(seq "$runs"); do
		if [ $((i % 2)) -eq 1 ]; then
			run ours "${ours[@]}" "$path"; run kubeconform "${kc[@]}" "$path"
		else
			run kubeconform "${kc[@]}" "$path"; run ours "${ours[@]}" "$path"
		fi
	done
	read -r om omin orss ocpu < <(stats ours)
	read -r km kmin krss kcpu < <(stats kubeconform)
	ratio=$(awk -v a="$om" -v b="$km" 'BEGIN { printf "%.2f", a / b }')
	echo "$input $om $omin $orss $km $kmin $krss $ratio $ocpu $kcpu $(cpuratio "$ocpu" "$kcpu")" >>"$work/results"
done

{
	echo "beside kubeconform $version (-strict), $runs runs of each, alternating:"
	while read -r input om omin orss km kmin krss ratio ocpu kcpu cratio; do
		what="20,000-item InstanceTypeList (one 5 MB file)"
		[ "$input" = small ] && what="2,000 InstanceType files (one object each)"
		echo "  $what: instancetype validate median $(secs "$om") (peak RSS $(mb "$orss"), processor time $(ms "$ocpu")), kubeconform $(secs "$km") ($(mb "$krss"), $(ms "$kcpu")): ${ratio}x (processor time ${cratio}x)"
	done <"$work/results"
} >&2

if [ -n "$summary" ]; then
	{
		echo "\`instancetype validate\` beside kubeconform $version (\`-strict\`, with JSON schemas made from the"
		echo "CRD by \`scripts/crdschema\`), both built binaries, $runs runs of each, alternating"
		echo "(\`scripts/kubeconform.sh\`):"
		echo
		echo "| input | \`instancetype validate\` median | peak RSS | kubeconform median | peak RSS | ours ÷ kubeconform | target: at most 0.6×, peak RSS no higher | processor time, ours / kubeconform (medians) |"
		echo "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
		while read -r input om omin orss km kmin krss ratio ocpu kcpu cratio; do
			what="a 20,000-item InstanceTypeList (5 MB)"
			[ "$input" = small ] && what="2,000 files of one InstanceType"
			echo "| $what | $(secs "$om") | $(mb "$orss") | $(secs "$km") | $(mb "$krss") | **${ratio}×** | $(target "$ratio" "$orss" "$krss") | $(ms "$ocpu") / $(ms "$kcpu") ($( [ "$cratio" = NA ] && echo n/a || echo "${cratio}×")) |"
		done <"$work/results"
	} >"$summary"
fi
if [ -n "$values" ]; then
	while read -r input om omin orss km kmin krss ratio ocpu kcpu cratio; do
		printf '%s_ours_median_us %s\n%s_ours_rss_kb %s\n%s_kc_median_us %s\n%s_kc_rss_kb %s\n%s_ratio %s\n' \
			"$input" "$om" "$input" "$orss" "$input" "$km" "$input" "$krss" "$input" "$ratio"
		printf '%s_ours_cpu_ms %s\n%s_kc_cpu_ms %s\n%s_cpu_ratio %s\n' "$input" "$ocpu" "$input" "$kcpu" "$input" "$cratio"
	done <"$work/results" >"$values"
fi
