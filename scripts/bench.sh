#!/usr/bin/env bash
# The benchmark suite, beside the apimachinery way of doing the same thing, summarised with
# benchstat; then the end-to-end comparison (scripts/e2e.sh); then the README's benchmark
# section, between <!-- bench:start --> and <!-- bench:end -->, rewritten from the results.
#
#   scripts/bench.sh [--count N] [--benchtime D] [--quick] [--no-e2e] [--no-readme] [--raw FILE]
#
#   --count N      rounds of the whole suite (default 6, or $COUNT); benchstat wants 6 or
#                  more for its confidence intervals
#   --benchtime D  go test -benchtime of each benchmark (default 1s, or $BENCHTIME)
#   --quick        one round, -benchtime 100ms, 3 end-to-end runs, for trying the script
#                  out: the section is printed, not written to the README
#   --no-e2e       skip the end-to-end comparison
#   --no-readme    print the section instead of writing it to the README
#   --raw FILE     do not run the suite: summarise the results of an earlier run (its
#                  bench.out/raw.txt), for example after changing this script's tables
#
# Each round runs every package's benchmarks once (-count 1), one package at a time, so that
# ours and the apimachinery way of each comparison run minutes apart at most in every
# round, and slow drift of a shared machine spreads over both. Results and the benchstat
# tables stay in bench.out/ (git-ignored). benchstat is installed at a pinned version into
# a temporary GOBIN through the Go module proxy; it is not added to go.mod.
#
# The existing benchmark names put the implementation in the middle (BenchmarkParse/ours/1Gi,
# BenchmarkDecodeList/sigsyaml/items=100), which benchstat cannot use as columns; the results
# are rewritten to key=value form (BenchmarkParse/impl=ours/in=1Gi) so that
# `benchstat -col /impl` puts ours and the others side by side, and the ratios are computed
# from its CSV output with awk.
set -euo pipefail

count=${COUNT:-6}
benchtime=${BENCHTIME:-1s}
quick=0
e2e=1
readme=1
rawin=
while [ $# -gt 0 ]; do
	case $1 in
	--count) count=$2; shift 2 ;;
	--benchtime) benchtime=$2; shift 2 ;;
	--quick) quick=1; count=1; benchtime=100ms; readme=0; shift ;;
	--no-e2e) e2e=0; shift ;;
	--no-readme) readme=0; shift ;;
	--raw) rawin=$2; shift 2 ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$root/bench.out
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

benchstat_version=v0.0.0-20260908200009-22c9c6c9d4da
echo "installing benchstat@$benchstat_version into a temporary GOBIN" >&2
GOBIN=$tmp/bin go install "golang.org/x/perf/cmd/benchstat@$benchstat_version"
benchstat=$tmp/bin/benchstat

# The packages with benchmarks; scripts/apimachineryresolve holds resolve's comparison.
pkgs=(./quantity ./manifest ./validate ./resolve ./selector ./scripts/apimachineryresolve)

raw=$out/raw.txt
if [ -n "$rawin" ]; then
	cp "$rawin" "$tmp/raw.txt"
	raw=$tmp/raw.txt
	# The settings of that run, recorded at the top of its results.
	count=$(sed -n 's/^rounds: //p' "$raw" | head -1)
	benchtime=$(sed -n 's/^benchtime: //p' "$raw" | head -1)
	: "${count:=?}" "${benchtime:=?}"
else
	printf 'rounds: %s\nbenchtime: %s\n' "$count" "$benchtime" >"$raw"
	for round in $(seq "$count"); do
		for pkg in "${pkgs[@]}"; do
			echo "round $round/$count: $pkg" >&2
			go test -run '^$' -bench . -benchmem -benchtime "$benchtime" -count 1 "$pkg" >"$tmp/round.txt"
			cat "$tmp/round.txt" >>"$raw"
		done
	done
fi

# Rewrite names so that the implementation is a key (impl=ours first, as the baseline).
sed -E \
	-e 's#^Benchmark(Parse|Cmp|String|AppendText)/(ours|apimachinery|strconv)/#Benchmark\1/impl=\2/in=#' \
	-e 's#^BenchmarkDecodeList/manifest/#BenchmarkDecodeList/impl=ours/#' \
	-e 's#^BenchmarkDecodeList/(sigsyaml|yamlv3node)/#BenchmarkDecodeList/impl=\1/#' \
	-e 's#^BenchmarkInstanceType/(valid|invalid)/parse\+validate#BenchmarkInstanceType/obj=\1/impl=ours#' \
	-e 's#^BenchmarkInstanceType/(valid|invalid)/validate#BenchmarkInstanceType/obj=\1/impl=ours-decoded#' \
	-e 's#^BenchmarkInstanceType/(valid|invalid)/apimachinery#BenchmarkInstanceType/obj=\1/impl=apimachinery#' \
	-e 's#^BenchmarkWorkload/mlflow-on-type/validate#BenchmarkWorkload/case=mlflow-on-type/impl=ours#' \
	-e 's#^BenchmarkWorkload/validate#BenchmarkWorkload/case=gpu-deployment/impl=ours#' \
	-e 's#^BenchmarkWorkload/apimachinery#BenchmarkWorkload/case=gpu-deployment/impl=apimachinery#' \
	-e 's#/impl=(selector|resolve)([/ \t-])#/impl=ours\2#' \
	"$raw" >"$tmp/normalized.txt"
# Comparisons (an impl key) apart from the benchmarks of ours alone, each result kept after
# the pkg: line it belongs to.
awk '!/^Benchmark/ || /\/impl=/' "$tmp/normalized.txt" >"$tmp/compared.txt"
awk '!/^Benchmark/ || !/\/impl=/' "$tmp/normalized.txt" >"$tmp/alone.txt"

cols='/impl@(ours ours-decoded apimachinery strconv sigsyaml yamlv3node)'
units='.unit:(sec/op OR allocs/op)'
"$benchstat" -col "$cols" -filter "$units" "$tmp/compared.txt" >"$out/benchstat-compared.txt" 2>/dev/null
"$benchstat" -col "$cols" -filter "$units" -format csv "$tmp/compared.txt" >"$out/benchstat-compared.csv" 2>/dev/null
"$benchstat" -filter "$units" "ours=$tmp/alone.txt" >"$out/benchstat-alone.txt" 2>/dev/null

# The machine.
cpu=$(sed -n 's/^cpu: *//p' "$raw" | head -1 | sed 's/ *$//')
model=$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null | head -1 || true)
if [ -n "$model" ] && [ "$model" != "$cpu" ]; then cpu="$cpu ($model in /proc/cpuinfo)"; fi
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
goversion=$(go env GOVERSION)
goosarch=$(go env GOOS)/$(go env GOARCH)
date=$(date -u +%Y-%m-%d)

# The ratio tables, from benchstat's CSV.
cat >"$tmp/tables.awk" <<'AWK'
function human(s) {
	if (s == "") return "–"
	if (s < 1e-6) return sprintf("%.1f ns", s * 1e9)
	if (s < 1e-3) return sprintf("%.2f µs", s * 1e6)
	if (s < 1) return sprintf("%.2f ms", s * 1e3)
	return sprintf("%.2f s", s)
}
function times(r) { return (r >= 10) ? sprintf("%.0f×", r) : (r >= 1 ? sprintf("%.1f×", r) : sprintf("%.2f×", r)) }
function allocs(a) { return (a == "") ? "–" : sprintf("%.0f", a) }
BEGIN {
	FS = ","
	label["ours"] = "ours"; label["ours-decoded"] = "ours, validate only"
	label["apimachinery"] = "apimachinery"; label["strconv"] = "strconv.ParseInt"
	label["sigsyaml"] = "sigs.k8s.io/yaml"; label["yamlv3node"] = "yaml.v3 nodes"
	title["Parse"] = "`quantity.Parse` — beside `resource.ParseQuantity`, and `strconv.ParseInt` on the value's bare digits"
	title["Cmp"] = "`Quantity.Cmp` — beside `resource.Quantity.Cmp`"
	title["String"] = "`Quantity.String` — beside `resource.Quantity.String` of a computed quantity (no cached text)"
	title["AppendText"] = "`Quantity.AppendText` — beside `resource.Quantity.CanonicalizeBytes`"
	title["DecodeList"] = "Decoding an InstanceTypeList — `manifest.Parse` (strict, every node's position, findings) beside `sigs.k8s.io/yaml` into the API types and a bare `go.yaml.in/yaml/v3` parse into nodes"
	title["InstanceType"] = "Validating an instance type — ours from text (`ParseAmount` + `validate.InstanceType`) beside apimachinery's validators and `resource.ParseQuantity` from the same text; and ours on an already decoded object"
	title["Workload"] = "Validating a deployment against its instance type — `validate.Workload` beside parsing and comparing with apimachinery"
	title["Resolve"] = "Resolving a deployment — `resolve.Resolve` and `resolve.Store` beside a map (behind a `sync.RWMutex` in parallel), `labels.Merge` and `resource.Quantity.Cmp`"
	title["ValidateLabels"] = "Validating a node selector — `selector.ValidateLabels` beside apimachinery's label checks"
	title["LabelKey"] = "One label key — `selector.ValidLabelKey` beside `content.IsLabelKey`"
	first["Parse"] = "value"; first["String"] = "value"; first["AppendText"] = "value"; first["Cmp"] = "comparison"
	first["DecodeList"] = "list"; first["InstanceType"] = "instance type"; first["Workload"] = "deployment"
	first["Resolve"] = "case"; first["ValidateLabels"] = "selector"; first["LabelKey"] = "key"
}
/^pkg: / { pkg = $0; sub(/^pkg: .*\//, "", pkg); next }
/^$/ { state = 0; next }
/^,/ && state == 0 {
	ncol = 0
	for (i = 2; i <= NF; i++) if ($i != "") { ncol++; colname[ncol] = $i; colpos[ncol] = i }
	state = 1; next
}
/^,/ && state == 1 { unit = $2; state = 2; next }
state == 2 {
	name = $1
	if (name == "geomean") next
	fam = name; sub(/\/.*/, "", fam)
	row = name; sub(/^[^\/]*\//, "", row); sub(/-[0-9]+$/, "", row); sub(/^(in|obj|case|key)=/, "", row)
	if (!((fam, row) in seen)) {
		seen[fam, row] = 1; nrows[fam]++; rows[fam, nrows[fam]] = row
		if (!(fam in fampkg)) { fampkg[fam] = pkg; nfam++; fams[nfam] = fam }
	}
	for (c = 1; c <= ncol; c++) {
		v = $(colpos[c])
		if (v == "") continue
		val[unit, fam, row, colname[c]] = v
		if (!((fam, colname[c]) in hascol)) { hascol[fam, colname[c]] = 1; nimpl[fam]++; impls[fam, nimpl[fam]] = colname[c] }
	}
}
END {
	# The families in the order of the issue: quantity, decode, validate, resolve, selector.
	n = split("Parse Cmp String AppendText DecodeList InstanceType Workload Resolve ValidateLabels LabelKey", order, " ")
	for (f = 1; f <= nfam; f++) { known = 0; for (i = 1; i <= n; i++) if (order[i] == fams[f]) known = 1; if (!known) order[++n] = fams[f] }
	for (f = 1; f <= n; f++) {
		fam = order[f]
		if (!(fam in fampkg)) continue
		printf "\n#### %s\n\n", (fam in title) ? title[fam] : fam
		hdr = "| " ((fam in first) ? first[fam] : "benchmark") " |"; sep = "| --- |"
		for (k = 1; k <= nimpl[fam]; k++) {
			im = impls[fam, k]
			hdr = hdr " " label[im] " |"; sep = sep " ---: |"
			if (im != "ours") { hdr = hdr " ÷ ours |"; sep = sep " ---: |" }
		}
		hdr = hdr " allocs/op (" ; isfirst = 1
		for (k = 1; k <= nimpl[fam]; k++) { hdr = hdr (isfirst ? "" : " / ") label[impls[fam, k]]; isfirst = 0 }
		print hdr ") |"; print sep " ---: |"
		for (k = 1; k <= nimpl[fam]; k++) { lsum[k] = 0; lnum[k] = 0; rmin[k] = ""; rmax[k] = ""; tsum[k] = 0; bsum[k] = 0 }
		for (r = 1; r <= nrows[fam]; r++) {
			row = rows[fam, r]
			base = val["sec/op", fam, row, "ours"]
			line = "| " row " |"
			for (k = 1; k <= nimpl[fam]; k++) {
				im = impls[fam, k]; t = val["sec/op", fam, row, im]
				line = line " " human(t) " |"
				if (im == "ours") continue
				if (t != "" && base != "") {
					tsum[k] += t; bsum[k] += base
					ratio = t / base; line = line " " times(ratio) " |"
					lsum[k] += log(ratio); lnum[k]++
					if (rmin[k] == "" || ratio < rmin[k]) { rmin[k] = ratio; rminrow[k] = row }
					if (rmax[k] == "" || ratio > rmax[k]) { rmax[k] = ratio; rmaxrow[k] = row }
				} else line = line " – |"
			}
			a = ""
			for (k = 1; k <= nimpl[fam]; k++) a = a (k > 1 ? " / " : "") allocs(val["allocs/op", fam, row, impls[fam, k]])
			print line " " a " |"
		}
		# The geometric mean of the per-row ratios: each row counts once.
		summary = ""
		for (k = 1; k <= nimpl[fam]; k++) {
			if (impls[fam, k] == "ours" || impls[fam, k] == "ours-decoded" || lnum[k] == 0) continue
			g = exp(lsum[k] / lnum[k])
			geo[fam, impls[fam, k]] = g
			summary = summary (summary == "" ? "" : "; ") label[impls[fam, k]] " takes **" times(g) "** ours' time"
			if (lnum[k] > 1)
				summary = summary sprintf(" in geometric mean over the %d rows (from %s on %s to %s on %s)", lnum[k], times(rmin[k]), rminrow[k], times(rmax[k]), rmaxrow[k])
		}
		if (summary != "") print "\n" summary "."
		if (fam == "Parse") {
			# The mean time per value, as the issue measured apimachinery ("about 210 ns
			# per value on the values instance types carry"): total over total.
			for (k = 1; k <= nimpl[fam]; k++) if (impls[fam, k] == "apimachinery" && bsum[k] > 0) {
				mean = tsum[k] / bsum[k]
				printf "\nPer value on average (the total time of the %d values, as the issue measured apimachinery at about 210 ns a value): apimachinery takes %s a value, ours %s: **%s**, which %s the 15× target. Per value the ratio runs from %s to %s: apimachinery is quick on the values its int64 path takes, and slow (25 allocations) on fractional binary ones.\n", lnum[k], human(tsum[k] / lnum[k]), human(bsum[k] / lnum[k]), times(mean), (mean >= 15) ? "meets" : "misses", times(rmin[k]), times(rmax[k])
			}
			printf "\nDESIGN.md §4 asks Parse to be at least 15× faster than apimachinery on these values and within 1.5× of strconv.ParseInt on their digits, with 0 allocations: %s and %s.\n",
				(geo[fam, "apimachinery"] >= 15) ? "the first is **met** in geometric mean" : "the first is **not met** in geometric mean (" times(geo[fam, "apimachinery"]) ")",
				(1 / geo[fam, "strconv"] <= 1.5) ? "the second is **met** (ours takes " times(1 / geo[fam, "strconv"]) " strconv's time)" : "the second is **not met**: ours takes " times(1 / geo[fam, "strconv"]) " strconv's time in geometric mean"
		}
		if (fam == "Cmp")
			printf "\nDESIGN.md §4 asks Cmp to be at least 10× faster than apimachinery's: **%s** in geometric mean (%s).\n", (geo[fam, "apimachinery"] >= 10) ? "met" : "not met", times(geo[fam, "apimachinery"])
		if (fam == "Resolve") {
			small = val["sec/op", fam, "catalog=10", "ours"]; big = val["sec/op", fam, "catalog=10000", "ours"]
			if (small != "" && big != "") printf "\nConstant time (DESIGN.md §4): resolving against 10,000 types takes %s the time of resolving against 10.\n", times(big / small)
		}
	}
}
AWK
awk -f "$tmp/tables.awk" "$out/benchstat-compared.csv" >"$tmp/tables.md"

{
	echo "Generated by \`scripts/bench.sh\` on $date: Go $goversion $goosarch; CPU: $cpu; $cores cores"
	echo "(GOMAXPROCS $cores); \`-count $count\` (rounds of the whole suite), \`-benchtime $benchtime\`. Times are"
	echo "benchstat's medians; a ratio is the other's median time divided by ours, so above 1 ours is"
	echo "faster. Shared cores are noisy: read the ratios, not the absolute times, and the confidence"
	echo "intervals in the full benchstat output below."
	cat "$tmp/tables.md"
	if [ "$e2e" = 1 ]; then
		echo
		echo "#### End to end"
		echo
		e2eargs=(--summary "$tmp/e2e.md")
		if [ "$quick" = 1 ]; then e2eargs+=(--quick); fi
		scripts/e2e.sh "${e2eargs[@]}" >&2
		cat "$tmp/e2e.md"
	fi
	echo
	echo "<details><summary>Full benchstat output (comparisons, then benchmarks of ours alone)</summary>"
	echo
	echo '```'
	cat "$out/benchstat-compared.txt"
	echo
	cat "$out/benchstat-alone.txt"
	echo '```'
	echo
	echo "</details>"
} >"$out/section.md"

if [ "$readme" = 0 ]; then
	cat "$out/section.md"
	echo "bench.sh: section in bench.out/section.md; README.md not changed" >&2
	exit 0
fi

# Replace what lies between the markers, keeping them and everything else.
if ! grep -q '^<!-- bench:start -->$' README.md || ! grep -q '^<!-- bench:end -->$' README.md; then
	echo "bench.sh: README.md lacks the <!-- bench:start --> and <!-- bench:end --> markers" >&2
	exit 1
fi
awk -v section="$out/section.md" '
	/^<!-- bench:start -->$/ { print; while ((getline line < section) > 0) print line; skip = 1; next }
	/^<!-- bench:end -->$/ { skip = 0 }
	!skip { print }
' README.md >"$tmp/README.md"
cat "$tmp/README.md" >README.md
echo "bench.sh: README.md benchmark section rewritten (raw results in bench.out/)" >&2
