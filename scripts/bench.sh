#!/usr/bin/env bash
# The benchmark suite, beside apimachinery, strconv, sigs.k8s.io/yaml, yaml.v3 or a naive
# scan doing the same thing, summarised with benchstat; then the end-to-end comparisons
# (scripts/e2e.sh, scripts/kubeconform.sh) and the memory of a large cluster's nodes
# (scripts/nodes.sh). It writes BENCHMARKS.md, a generated file (how it was produced, then
# every table with its ratios; the webhook's section, which scripts/bench-webhook.sh
# writes, is kept as it is), and a short summary table into README.md between the lines
# <!-- bench:summary:start --> and <!-- bench:summary:end -->; without those markers it
# prints the summary and leaves README.md alone.
#
#   scripts/bench.sh [--count N] [--benchtime D] [--quick] [--no-e2e] [--no-readme] [--raw FILE]
#
#   --count N      rounds of the whole suite (default 6, or $COUNT); benchstat wants 6 or
#                  more for its confidence intervals
#   --benchtime D  go test -benchtime of each benchmark (default 1s, or $BENCHTIME)
#   --quick        one round, -benchtime 100ms, 3 end-to-end runs (2 of scripts/nodes.sh at
#                  each GOMAXPROCS), for trying the script
#                  out: the results go to bench.out/ and are printed; BENCHMARKS.md and
#                  README.md are not changed
#   --no-e2e       skip the end-to-end comparison
#   --no-readme    print the summary instead of writing it to README.md
#   --raw FILE     do not run the suite: summarise the results of an earlier run (its
#                  bench.out/raw.txt), for example after changing this script's tables; the
#                  end-to-end result is taken from e2e.txt and e2e.md beside FILE, if there
#
# Each round runs every package's benchmarks once (-count 1), one package at a time, so that
# ours and the other way of each comparison run minutes apart at most in every round, and
# slow drift of a shared machine spreads over both. Results, the benchstat tables and the
# generated Markdown stay in bench.out/ (git-ignored). benchstat is installed at a pinned
# version into a temporary GOBIN through the Go module proxy; it is not added to go.mod.
#
# Some benchmark names put the implementation in the middle (BenchmarkParse/ours/1Gi,
# BenchmarkInstanceType/valid/apimachinery), which benchstat cannot use as columns; the
# results are rewritten to key=value form (BenchmarkParse/impl=ours/in=1Gi; BenchmarkDecodeList
# of package lint is named so already: BenchmarkDecodeList/impl=sigsyaml/items=20k) so that
# `benchstat -col /impl` puts ours and the others side by side, and the ratios are computed
# from its CSV output with awk.
set -euo pipefail

cmdline="scripts/bench.sh${*:+ $*}"
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
	--raw) rawin=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
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

# The packages with benchmarks.
pkgs=(./quantity ./validate ./resolve ./selector ./fit ./plan ./lint)

# revision names the code measured: $BENCH_REVISION when set (for a copy of the tree
# without its .git), else the commit checked out, "+ changes" when the tree differs from it.
revision() {
	if [ -n "${BENCH_REVISION:-}" ]; then
		echo "$BENCH_REVISION"
	elif git rev-parse --short HEAD >/dev/null 2>&1; then
		echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD 2>/dev/null || echo ' + changes')"
	else
		echo unknown
	fi
}

# The settings of a run are recorded at the top of its results (benchstat shows them as
# its configuration), so that --raw can describe the run it summarises.
raw=$out/raw.txt
if [ -n "$rawin" ]; then
	cp "$rawin" "$tmp/raw.txt"
	raw=$tmp/raw.txt
	for f in e2e.txt e2e.md; do
		if [ -f "$(dirname "$rawin")/$f" ]; then cp "$(dirname "$rawin")/$f" "$tmp/$f"; fi
	done
	if [ "$e2e" = 0 ] || [ ! -f "$tmp/e2e.txt" ] || [ ! -f "$tmp/e2e.md" ]; then rm -f "$tmp/e2e.txt" "$tmp/e2e.md"; fi
else
	{
		echo "rounds: $count"
		echo "benchtime: $benchtime"
		echo "command: $cmdline"
		echo "goversion: $(go env GOVERSION)"
		echo "revision: $(revision)"
		echo "started: $(date -u +%Y-%m-%dT%H:%MZ)"
		echo "load-at-start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)"
	} >"$raw"
	rm -f "$out/e2e.txt" "$out/e2e.md"
	for round in $(seq "$count"); do
		for pkg in "${pkgs[@]}"; do
			echo "round $round/$count: $pkg" >&2
			go test -run '^$' -bench . -benchmem -benchtime "$benchtime" -count 1 "$pkg" >"$tmp/round.txt"
			cat "$tmp/round.txt" >>"$raw"
		done
	done
	# Not a configuration line (benchstat ignores it): when the suite ended.
	echo "# finished $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)" >>"$raw"
	if [ "$e2e" = 1 ]; then
		e2eargs=(--summary "$tmp/e2e.md" --values "$tmp/e2e.txt")
		if [ "$quick" = 1 ]; then e2eargs+=(--quick); fi
		scripts/e2e.sh "${e2eargs[@]}" >&2
		# Beside kubeconform: its numbers join the end-to-end ones (list_*, small_*).
		kcargs=(--summary "$tmp/kc.md" --values "$tmp/kc.txt")
		if [ "$quick" = 1 ]; then kcargs+=(--quick); fi
		scripts/kubeconform.sh "${kcargs[@]}" >&2
		cat "$tmp/kc.txt" >>"$tmp/e2e.txt"
		printf '\n' >>"$tmp/e2e.md"
		cat "$tmp/kc.md" >>"$tmp/e2e.md"
		# A large cluster's nodes: time and peak RSS (nodes_*).
		ndargs=(--summary "$tmp/nodes.md" --values "$tmp/nodes.txt")
		if [ "$quick" = 1 ]; then ndargs+=(--quick); fi
		scripts/nodes.sh "${ndargs[@]}" >&2
		cat "$tmp/nodes.txt" >>"$tmp/e2e.txt"
		printf '\n' >>"$tmp/e2e.md"
		cat "$tmp/nodes.md" >>"$tmp/e2e.md"
		cp "$tmp/e2e.md" "$tmp/e2e.txt" "$out/"
	fi
fi
# first prints the first line a command prints. The whole output is read, then cut: under
# pipefail, "| head -1" can end the command with SIGPIPE (status 141) when head exits
# first, and set -e would end this script there.
first() {
	local out
	out=$("$@") || return
	printf '%s\n' "${out%%$'\n'*}"
}
meta() { first sed -n "s/^$1: //p" "$raw"; }
count=$(meta rounds)
benchtime=$(meta benchtime)
runcmd=$(meta command)
started=$(meta started)
load_start=$(meta load-at-start)
finished=$(sed -n 's/^# finished \([^,]*\), load average \(.*\)$/\1/p' "$raw" | tail -1)
load_end=$(sed -n 's/^# finished \([^,]*\), load average \(.*\)$/\2/p' "$raw" | tail -1)

# Rewrite names so that the implementation is a key (impl=ours first, as the baseline).
sed -E \
	-e 's#^Benchmark(Parse|Cmp|String|AppendText)/(ours|apimachinery|strconv)/#Benchmark\1/impl=\2/in=#' \
	-e 's#^BenchmarkInstanceType/(valid|invalid)/parse\+validate#BenchmarkInstanceType/obj=\1/impl=ours#' \
	-e 's#^BenchmarkInstanceType/(valid|invalid)/validate#BenchmarkInstanceType/obj=\1/impl=ours-decoded#' \
	-e 's#^BenchmarkInstanceType/(valid|invalid)/apimachinery#BenchmarkInstanceType/obj=\1/impl=apimachinery#' \
	-e 's#^BenchmarkWorkload/mlflow-on-type/validate#BenchmarkWorkload/case=mlflow-on-type/impl=ours#' \
	-e 's#^BenchmarkWorkload/validate#BenchmarkWorkload/case=gpu-deployment/impl=ours#' \
	-e 's#^BenchmarkWorkload/apimachinery#BenchmarkWorkload/case=gpu-deployment/impl=apimachinery#' \
	-e 's#/impl=(selector|resolve|index)([/ \t-])#/impl=ours\2#' \
	"$raw" >"$tmp/normalized.txt"
# Comparisons (an impl key) apart from the benchmarks of ours alone, each result kept after
# the pkg: line it belongs to.
awk '!/^Benchmark/ || /\/impl=/' "$tmp/normalized.txt" >"$tmp/compared.txt"
awk '!/^Benchmark/ || !/\/impl=/' "$tmp/normalized.txt" >"$tmp/alone.txt"

cols='/impl@(ours ours-1cpu ours-decoded lint apimachinery strconv sigsyaml yamlv3node naive)'
units='.unit:(sec/op OR allocs/op)'
"$benchstat" -col "$cols" -filter "$units" "$tmp/compared.txt" >"$out/benchstat-compared.txt" 2>/dev/null
"$benchstat" -col "$cols" -filter "$units" -format csv "$tmp/compared.txt" >"$out/benchstat-compared.csv" 2>/dev/null
"$benchstat" -filter "$units" "ours=$tmp/alone.txt" >"$out/benchstat-alone.txt" 2>/dev/null
"$benchstat" -filter "$units" -format csv "ours=$tmp/alone.txt" >"$out/benchstat-alone.csv" 2>/dev/null

# The machine: the CPU as go test names it (and /proc/cpuinfo, when it differs), the cores
# of this machine (the GOMAXPROCS of the runs is the -N suffix of every benchmark name).
cpu=$(first sed -n 's/^cpu: *//p' "$raw")
cpu=${cpu%"${cpu##*[! ]}"} # without trailing spaces
model=$(first sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo 2>/dev/null || true)
if [ -n "$model" ] && [ "$model" != "$cpu" ]; then cpu="$cpu ($model in /proc/cpuinfo)"; fi
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
procs=$(first sed -n 's/^Benchmark[^ \t]*-\([0-9][0-9]*\)[ \t].*/\1/p' "$raw")
goversion=$(first sed -n 's/^goversion: //p' "$raw")
coderev=$(first sed -n 's/^revision: //p' "$raw" || true)
: "${goversion:=$(go env GOVERSION)}"
goosarch=$(first sed -n 's/^goos: //p' "$raw")/$(first sed -n 's/^goarch: //p' "$raw")
kernel=$(uname -sr 2>/dev/null || echo unknown)
memory=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || echo unknown)
date=${started%%T*}
: "${date:=$(date -u +%Y-%m-%d)}"

# The ratio tables, from benchstat's CSV; with summary= set, the summary table too.
cat >"$tmp/tables.awk" <<'AWK'
# human(s): a time in seconds, to three significant digits (tenths of a nanosecond).
function human(s) {
	if (s == "") return "–"
	if (s < 1e-6) return sprintf("%.1f ns", s * 1e9)
	if (s < 1e-3) return sig3(s * 1e6) " µs"
	if (s < 1) return sig3(s * 1e3) " ms"
	return sig3(s) " s"
}
function sig3(v) { return sprintf(v < 10 ? "%.2f" : (v < 100 ? "%.1f" : "%.0f"), v) }
function poss(s) { return s (s ~ /s$/ ? "'" : "'s") }
function times(r) { return (r >= 10) ? sprintf("%.0f×", r) : (r >= 1 ? sprintf("%.1f×", r) : sprintf("%.2f×", r)) }
function commas(n,   s, t) { s = sprintf("%.0f", n); t = ""; while (length(s) > 3) { t = "," substr(s, length(s) - 2) t; s = substr(s, 1, length(s) - 3) }; return s t }
function allocs(a) { return (a == "") ? "–" : commas(a) }
function span(lo, hi) { return (lo == hi) ? allocs(lo) : allocs(lo) "–" allocs(hi) }
function lab(fam, im) { return ((fam, im) in flabel) ? flabel[fam, im] : label[im] }
BEGIN {
	FS = ","
	label["ours"] = "ours"; label["ours-decoded"] = "ours, validate only"; label["ours-1cpu"] = "ours on one processor"; label["lint"] = "`lint.Run`"
	label["apimachinery"] = "apimachinery"; label["strconv"] = "strconv.ParseInt"
	label["sigsyaml"] = "sigs.k8s.io/yaml"; label["yamlv3node"] = "yaml.v3 nodes"; label["naive"] = "naive"
	flabel["Check", "ours"] = "fit.Index"; flabel["Check", "naive"] = "naive scan"
	flabel["DecodeList", "ours"] = "source + decode"; flabel["DecodeList", "ours-1cpu"] = "source + decode on one processor"
	flabel["Suggest", "ours"] = "the index"; flabel["Suggest", "naive"] = "a pass over the names"
	title["Parse"] = "`quantity.Parse` — beside `resource.ParseQuantity`, and `strconv.ParseInt` on the value's bare digits"
	title["Cmp"] = "`Quantity.Cmp` — beside `resource.Quantity.Cmp`"
	title["String"] = "`Quantity.String` — beside `resource.Quantity.String` of a computed quantity (no cached text)"
	title["AppendText"] = "`Quantity.AppendText` — beside `resource.Quantity.CanonicalizeBytes`"
	title["DecodeList"] = "Reading an InstanceTypeList as `instancetype validate` reads it — `source.Scan` + `decode.Document` (kubectl's values, strict decoding), and `lint.Run` of the same bytes (every rule, the report), beside a bare `sigs.k8s.io/yaml.Unmarshal` into `instancetype.InstanceTypeList` and a bare `go.yaml.in/yaml/v3` parse into nodes (what looking up a finding's position parses, on demand)"
	title["InstanceType"] = "Validating an instance type — ours from text (`ParseAmount` + `validate.InstanceType`) beside apimachinery's validators and `resource.ParseQuantity` from the same text; and ours on an already decoded object"
	title["Workload"] = "Validating a deployment against its instance type — `validate.Workload` beside parsing and comparing with apimachinery"
	title["Resolve"] = "Resolving a deployment — `resolve.Resolve` and `resolve.Store` beside a map (behind a `sync.RWMutex` in parallel), `labels.Merge` and `resource.Quantity.Cmp`"
	title["ValidateLabels"] = "Validating a node selector — `selector.ValidateLabels` beside apimachinery's label checks"
	title["LabelKey"] = "One label key — `selector.ValidLabelKey` beside `content.IsLabelKey`"
	title["Suggest"] = "Did-you-mean for an instance type the catalog lacks — `resolve`'s suggestions from an index of the names (a trie walked with the edit distance), beside a pass over every name, in catalogs of names alike (`gpu-a100-1234`, asked about `gpu-a10-…`)"
	title["Check"] = "Fitting instance types to nodes — `fit.Index.Check` beside a naive scan of every node, for each demand of a set (time per op is the whole set)"
	first["Parse"] = "value"; first["String"] = "value"; first["AppendText"] = "value"; first["Cmp"] = "comparison"
	first["DecodeList"] = "list"; first["InstanceType"] = "instance type"; first["Workload"] = "deployment"
	first["Resolve"] = "case"; first["ValidateLabels"] = "selector"; first["LabelKey"] = "key"; first["Check"] = "cluster and demands"; first["Suggest"] = "catalog"
	# Benchmarks of ours alone.
	atitle["Resolve"] = "`resolve.Store.Resolve` from parallel goroutines while a writer replaces instance types"
	atitle["CatalogLookup"] = "`resolve.Catalog.Lookup` — a hit, and a miss with its suggestions"
	atitle["NewCatalog"] = "`resolve.NewCatalog` of 10,000 types"
	atitle["StoreSet"] = "`resolve.Store.Set` — replacing an instance type"
	atitle["Merge"] = "`selector.Merge`"
	atitle["Matches"] = "`selector.Matches`"
	atitle["NewIndex"] = "`fit.NewIndex` of the cluster"
	atitle["Compute"] = "`plan.Compute` — every instance type planned on every node pool it may use (time linear in nodes × types)"
	atitle["ManyFindingsInOneMapping"] = "`lint.Run` of one mapping with many findings (invalid node selector keys)"
	atitle["Misses"] = "`lint.Run` of as many jobs as instance types and compute targets, each job naming an instance type and a compute target that are missing but close to many (did-you-mean at scale; the catalog holds at most 25,000 types)"
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
	fam = name; sub(/\/.*/, "", fam); sub(/-[0-9]+$/, "", fam)
	row = name; if (row ~ /\//) sub(/^[^\/]*\//, "", row); else row = ""
	sub(/-[0-9]+$/, "", row); sub(/^(in|obj|case|key)=/, "", row)
	if (row == "") row = "–"
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
# stats(fam, im): over the rows where both ours and im were measured, the geometric mean of
# im's time over ours (g), the mean times per row (mo, mi: total over rows), the smallest
# and largest ratio and their rows, and the range of im's and ours' allocations.
function stats(fam, im,   r, row, t, base, ratio, a) {
	st_n = 0; st_log = 0; st_to = 0; st_ti = 0; st_min = ""; st_max = ""
	st_alo = ""; st_ahi = ""; st_olo = ""; st_ohi = ""
	for (r = 1; r <= nrows[fam]; r++) {
		row = rows[fam, r]
		base = val["sec/op", fam, row, "ours"]; t = val["sec/op", fam, row, im]
		if (t == "" || base == "") continue
		ratio = t / base
		st_n++; st_log += log(ratio); st_to += base; st_ti += t
		if (st_min == "" || ratio < st_min) { st_min = ratio; st_minrow = row }
		if (st_max == "" || ratio > st_max) { st_max = ratio; st_maxrow = row }
		a = val["allocs/op", fam, row, im]
		if (a != "") { if (st_alo == "" || a + 0 < st_alo) st_alo = a + 0; if (st_ahi == "" || a + 0 > st_ahi) st_ahi = a + 0 }
		a = val["allocs/op", fam, row, "ours"]
		if (a != "") { if (st_olo == "" || a + 0 < st_olo) st_olo = a + 0; if (st_ohi == "" || a + 0 > st_ohi) st_ohi = a + 0 }
	}
	if (st_n == 0) return 0
	st_g = exp(st_log / st_n); st_mo = st_to / st_n; st_mi = st_ti / st_n
	return 1
}
# demands(row): the number of demands a row of BenchmarkCheck checks per op.
function demands(row,   d) { d = row; if (!sub(/.*demands=/, "", d)) return 0; sub(/[^0-9].*/, "", d); return d + 0 }
function table(fam,   k, im, hdr, sep, isfirst, r, row, base, line, t, a, summary, nd, s, o, o1, l, l1, y) {
	printf "\n### %s\n\n", (fam in title) ? title[fam] : fam
	hdr = "| " ((fam in first) ? first[fam] : "benchmark") " |"; sep = "| --- |"
	for (k = 1; k <= nimpl[fam]; k++) {
		im = impls[fam, k]
		hdr = hdr " " lab(fam, im) " |"; sep = sep " ---: |"
		if (im != "ours") { hdr = hdr " ÷ " lab(fam, "ours") " |"; sep = sep " ---: |" }
	}
	hdr = hdr " allocs/op (" ; isfirst = 1
	for (k = 1; k <= nimpl[fam]; k++) { hdr = hdr (isfirst ? "" : " / ") lab(fam, impls[fam, k]); isfirst = 0 }
	print hdr ") |"; print sep " ---: |"
	for (r = 1; r <= nrows[fam]; r++) {
		row = rows[fam, r]
		base = val["sec/op", fam, row, "ours"]
		line = "| " row " |"
		for (k = 1; k <= nimpl[fam]; k++) {
			im = impls[fam, k]; t = val["sec/op", fam, row, im]
			line = line " " human(t) " |"
			if (im == "ours") continue
			line = line " " ((t != "" && base != "") ? times(t / base) : "–") " |"
		}
		a = ""
		for (k = 1; k <= nimpl[fam]; k++) a = a (k > 1 ? " / " : "") allocs(val["allocs/op", fam, row, impls[fam, k]])
		print line " " a " |"
	}
	# The geometric mean of the per-row ratios: each row counts once.
	summary = ""
	for (k = 1; k <= nimpl[fam]; k++) {
		im = impls[fam, k]
		if (im == "ours" || im == "ours-decoded" || im == "ours-1cpu" || im == "lint" || !stats(fam, im)) continue
		summary = summary (summary == "" ? "" : "; ") lab(fam, im) " takes **" times(st_g) "** " poss(lab(fam, "ours")) " time"
		if (st_n > 1)
			summary = summary sprintf(" in geometric mean over the %d rows (from %s on %s to %s on %s)", st_n, times(st_min), st_minrow, times(st_max), st_maxrow)
	}
	if (summary != "") print "\n" summary "."
	if (fam == "Parse" && stats(fam, "apimachinery"))
		printf "\nPer value on average (the total time of the %d values, divided by %d): apimachinery takes %s a value, ours %s: **%s**.\n", st_n, st_n, human(st_mi), human(st_mo), times(st_ti / st_to)
	if (fam == "Cmp" && stats(fam, "apimachinery"))
		printf "\nPer comparison on average (the total time of the %d comparisons, divided by %d): apimachinery takes %s, ours %s: **%s**.\n", st_n, st_n, human(st_mi), human(st_mo), times(st_ti / st_to)
	if (fam == "DecodeList") {
		# DESIGN.md §4: instancetype validate at most 1.2× the bare sigs.k8s.io/yaml decode.
		s = val["sec/op", fam, "items=20k", "sigsyaml"]
		o = val["sec/op", fam, "items=20k", "ours"]; o1 = val["sec/op", fam, "items=20k", "ours-1cpu"]; l = val["sec/op", fam, "items=20k", "lint"]
		if (s != "" && o != "") printf "\nOf the 20,000-item list, `source.Scan` + `decode.Document` take %s the time of the bare `sigs.k8s.io/yaml.Unmarshal`%s%s (DESIGN.md §4's target for the command: at most 1.2×).\n", times(o / s), (o1 != "" ? sprintf(" (%s on one processor)", times(o1 / s)) : ""), (l != "" ? sprintf(", and `lint.Run` %s", times(l / s)) : "")
		l1 = val["sec/op", fam, "items=20k-one-finding", "lint"]
		if (l != "" && l1 != "") printf "\nOne finding in the list (an unknown field in item 10,000) makes `lint.Run` take %s its time without findings: the cost of finding where the finding is, asked of yaml.v3 only when there is one.\n", times(l1 / l)
	}
	if (fam == "Resolve") {
		small = val["sec/op", fam, "catalog=10", "ours"]; big = val["sec/op", fam, "catalog=10000", "ours"]
		if (small != "" && big != "") printf "\nResolving against 10,000 types takes %s the time of resolving against 10.\n", times(big / small)
	}
	if (fam == "Check") {
		for (r = 1; r <= nrows[fam]; r++) {
			row = rows[fam, r]; nd = demands(row)
			if (nd == 0 || val["sec/op", fam, row, "ours"] == "" || val["sec/op", fam, row, "naive"] == "") continue
			printf "\nPer demand (%s): fit.Index %s, the naive scan %s.\n", row, human(val["sec/op", fam, row, "ours"] / nd), human(val["sec/op", fam, row, "naive"] / nd)
		}
	}
}
# A table of benchmarks of ours alone: time and allocations.
function alonetable(fam,   r, row, small, big) {
	printf "\n### %s (package %s)\n\n", (fam in atitle) ? atitle[fam] : fam, fampkg[fam]
	print "| benchmark | time | allocs/op |"
	print "| --- | ---: | ---: |"
	for (r = 1; r <= nrows[fam]; r++) {
		row = rows[fam, r]
		print "| " row " | " human(val["sec/op", fam, row, "ours"]) " | " allocs(val["allocs/op", fam, row, "ours"]) " |"
	}
	if (fam == "ManyFindingsInOneMapping") {
		small = val["sec/op", fam, "keys=3000", "ours"]; big = val["sec/op", fam, "keys=30000", "ours"]
		if (small != "" && big != "") printf "\n30,000 findings in one mapping take %s the time of 3,000 (linear: 10×; a scan of the mapping per finding: 100×).\n", times(big / small)
	}
	if (fam == "Misses") {
		small = val["sec/op", fam, "names=4000", "ours"]; big = val["sec/op", fam, "names=40000", "ours"]
		if (small != "" && big != "") printf "\n40,000 jobs and names take %s the time of 4,000 (linear: 10×; a pass over the names per miss: 100×).\n", times(big / small)
	}
}
function summaryrow(what, ours, other, theirs, ratio, al) {
	printf "| %s | %s | %s | %s | %s | %s |\n", what, ours, other, theirs, ratio, al > summary
}
function e2eval(k) { return (k in e2ev) ? e2ev[k] : "" }
# cpupart(k): ", X× its processor time" from the end-to-end value k, when measured.
function cpupart(k) { return (e2eval(k) == "" || e2eval(k) == "NA") ? "" : ", " e2eval(k) "× its processor time" }
function mib(kb) { return (kb == "" || kb == "NA") ? "n/a" : sprintf("%.0f MiB", kb / 1024) }
function writesummary(   fam, row, o, t, nd, ratio, line) {
	print "| measured | ours | compared with | its time | its time ÷ ours | allocs/op (ours / its) |" > summary
	print "| --- | ---: | --- | ---: | ---: | ---: |" > summary
	if (stats("Parse", "apimachinery"))
		summaryrow(sprintf("`quantity.Parse`, mean of %d values", st_n),
			human(st_mo), "`resource.ParseQuantity`", human(st_mi),
			"**" times(st_ti / st_to) "** on average; **" times(st_g) "** in geometric mean (" times(st_min) " on " st_minrow " to " times(st_max) " on " st_maxrow ")",
			span(st_olo, st_ohi) " / " span(st_alo, st_ahi))
	if (stats("Parse", "strconv"))
		summaryrow(sprintf("`quantity.Parse`, mean of the same %d", st_n),
			human(st_mo), "`strconv.ParseInt` on the bare digits", human(st_mi),
			"**" times(st_ti / st_to) "** on average; **" times(st_g) "** in geometric mean (" times(st_min) " to " times(st_max) ")", span(st_olo, st_ohi) " / " span(st_alo, st_ahi))
	if (stats("Cmp", "apimachinery"))
		summaryrow(sprintf("`Quantity.Cmp`, mean of %d comparisons", st_n),
			human(st_mo), "`resource.Quantity.Cmp`", human(st_mi),
			"**" times(st_ti / st_to) "** on average; **" times(st_g) "** in geometric mean (" times(st_min) " on " st_minrow " to " times(st_max) " on " st_maxrow ")", span(st_olo, st_ohi) " / " span(st_alo, st_ahi))
	o = val["sec/op", "DecodeList", "items=20k", "ours"]; t = val["sec/op", "DecodeList", "items=20k", "sigsyaml"]
	if (o != "" && t != "")
		summaryrow("`source.Scan` + `decode.Document` (kubectl's values, strict decoding), 20,000-item InstanceTypeList", human(o),
			"a bare `sigs.k8s.io/yaml.Unmarshal` into `instancetype.InstanceTypeList`", human(t), "**" times(t / o) "** (ours takes " times(o / t) " its time)",
			allocs(val["allocs/op", "DecodeList", "items=20k", "ours"]) " / " allocs(val["allocs/op", "DecodeList", "items=20k", "sigsyaml"]))
	o = val["sec/op", "DecodeList", "items=20k", "lint"]
	if (o != "" && t != "")
		summaryrow("`lint.Run` (reading, every rule, the report), the same list", human(o),
			"the same bare decode", human(t), "**" times(t / o) "** (ours takes " times(o / t) " its time)",
			allocs(val["allocs/op", "DecodeList", "items=20k", "lint"]) " / " allocs(val["allocs/op", "DecodeList", "items=20k", "sigsyaml"]))
	o = val["sec/op", "InstanceType", "valid", "ours"]; t = val["sec/op", "InstanceType", "valid", "apimachinery"]
	if (o != "" && t != "")
		summaryrow("validating an instance type from text (`ParseAmount` + `validate.InstanceType`)", human(o),
			"apimachinery's validators and `resource.ParseQuantity`", human(t), "**" times(t / o) "**",
			allocs(val["allocs/op", "InstanceType", "valid", "ours"]) " / " allocs(val["allocs/op", "InstanceType", "valid", "apimachinery"]))
	o = val["sec/op", "Resolve", "catalog=10000", "ours"]; t = val["sec/op", "Resolve", "catalog=10000", "apimachinery"]
	if (o != "" && t != "")
		summaryrow("`resolve.Resolve` of a deployment, 10,000 instance types", human(o),
			"a map, `labels.Merge` and `resource.Quantity.Cmp`", human(t), "**" times(t / o) "**",
			allocs(val["allocs/op", "Resolve", "catalog=10000", "ours"]) " / " allocs(val["allocs/op", "Resolve", "catalog=10000", "apimachinery"]))
	for (r = 1; r <= nrows["Check"]; r++) {
		row = rows["Check", r]
		if (row ~ /fitting/) continue
		nd = demands(row); o = val["sec/op", "Check", row, "ours"]; t = val["sec/op", "Check", row, "naive"]
		if (nd == 0 || o == "" || t == "") continue
		line = row; sub(/^nodes=/, "", line); sub(/\/.*/, "", line)
		summaryrow("`fit.Index.Check`, " commas(line) " nodes × " commas(nd) " demands, per demand", human(o / nd), "a naive scan of every node", human(t / nd),
			"**" times(t / o) "**", allocs(val["allocs/op", "Check", row, "ours"]) " / " allocs(val["allocs/op", "Check", row, "naive"]) " per " nd " demands")
		break
	}
	if (e2eval("ratio") != "") {
		ratio = e2eval("bare_median_us") / e2eval("ours_median_us")
		summaryrow(sprintf("`instancetype validate`, %s-item list (%.1f MB), median of %d runs", commas(e2eval("items")), e2eval("bytes") / 1e6, e2eval("runs")),
			sprintf("%.3f s", e2eval("ours_median_us") / 1e6), "a bare `sigs.k8s.io/yaml` decode (`scripts/sigsdecode`)", sprintf("%.3f s", e2eval("bare_median_us") / 1e6),
			"**" times(ratio) "** (ours takes " e2eval("ratio") "× its time" cpupart("cpu_ratio") ")",
			"peak RSS " mib(e2eval("ours_rss_kb")) " / " mib(e2eval("bare_rss_kb")) (e2eval("rss_ratio") != "NA" ? " (" e2eval("rss_ratio") "×)" : ""))
	} else
		summaryrow("`instancetype validate` of a 20,000-item list", "–", "a bare `sigs.k8s.io/yaml` decode", "–", "not measured in this run", "–")
	if (e2eval("list_ratio") != "")
		summaryrow("`instancetype validate`, the same list", sprintf("%.3f s", e2eval("list_ours_median_us") / 1e6),
			"kubeconform v0.8.0 `-strict`, schemas from the CRD (`scripts/kubeconform.sh`)", sprintf("%.3f s", e2eval("list_kc_median_us") / 1e6),
			"**" times(e2eval("list_kc_median_us") / e2eval("list_ours_median_us")) "** (ours takes " e2eval("list_ratio") "× its time" cpupart("list_cpu_ratio") ")",
			"peak RSS " mib(e2eval("list_ours_rss_kb")) " / " mib(e2eval("list_kc_rss_kb")))
	if (e2eval("small_ratio") != "")
		summaryrow("`instancetype validate`, 2,000 files of one InstanceType", sprintf("%.3f s", e2eval("small_ours_median_us") / 1e6),
			"kubeconform v0.8.0 `-strict`", sprintf("%.3f s", e2eval("small_kc_median_us") / 1e6),
			"**" times(e2eval("small_kc_median_us") / e2eval("small_ours_median_us")) "** (ours takes " e2eval("small_ratio") "× its time" cpupart("small_cpu_ratio") ")",
			"peak RSS " mib(e2eval("small_ours_rss_kb")) " / " mib(e2eval("small_kc_rss_kb")))
	if (e2eval("nodes_p2_median_us") != "")
		summaryrow(sprintf("`instancetype validate --nodes`, %s nodes (`kubectl get nodes -o yaml`, %.0f MB), GOMAXPROCS 1 / 2 / 16", commas(e2eval("nodes_count")), e2eval("nodes_bytes") / 1e6),
			sprintf("%.2f s / %.2f s / %.2f s", e2eval("nodes_p1_median_us") / 1e6, e2eval("nodes_p2_median_us") / 1e6, e2eval("nodes_p16_median_us") / 1e6),
			"the bound of 512 MiB of peak memory (`scripts/nodes.sh`)", "–", "–",
			"peak RSS " mib(e2eval("nodes_p1_rss_kb")) " / " mib(e2eval("nodes_p2_rss_kb")) " / " mib(e2eval("nodes_p16_rss_kb")))
}
END {
	if (e2e != "") while ((getline line < e2e) > 0) { split(line, kv, " "); e2ev[kv[1]] = kv[2] }
	# The families in order: quantity, decode, validate, resolve, selector, fit; then any other.
	if (alone) n = split("Resolve CatalogLookup NewCatalog StoreSet Merge Matches NewIndex ManyFindingsInOneMapping Misses", order, " ")
	else n = split("Parse Cmp String AppendText DecodeList InstanceType Workload Resolve Suggest ValidateLabels LabelKey Check", order, " ")
	for (f = 1; f <= nfam; f++) { known = 0; for (i = 1; i <= n; i++) if (order[i] == fams[f]) known = 1; if (!known) order[++n] = fams[f] }
	for (f = 1; f <= n; f++) {
		fam = order[f]
		if (!(fam in fampkg)) continue
		if (alone) alonetable(fam); else table(fam)
	}
	if (summary != "") writesummary()
}
AWK
e2evalues=
if [ -f "$tmp/e2e.txt" ]; then e2evalues=$tmp/e2e.txt; fi
awk -v summary="$tmp/summary-table.md" -v e2e="$e2evalues" -f "$tmp/tables.awk" "$out/benchstat-compared.csv" >"$tmp/tables.md"
awk -v alone=1 -f "$tmp/tables.awk" "$out/benchstat-alone.csv" >"$tmp/alone.md"

# How the numbers were produced, for BENCHMARKS.md.
perround=$(printf ' %s' "${pkgs[@]}")
{
	echo "- **Date**: $date (UTC)${started:+, the suite started at ${started#*T}}${finished:+ and ended at ${finished#*T}}."
	echo "- **Machine**: $cpu; $cores cores, GOMAXPROCS ${procs:-$cores}; $memory of memory; $kernel; shared with other work (load average at the start ${load_start:-unknown}${load_end:+, at the end $load_end})."
	echo "- **Go**: $goversion $goosarch; benchstat \`golang.org/x/perf/cmd/benchstat@$benchstat_version\`."
	echo "- **Code**: ${coderev:-unknown} (the commit measured)."
	echo "- **Command**: \`${runcmd:-scripts/bench.sh}\`: $count round$([ "$count" = 1 ] || echo s); in each round, for each of${perround} in turn,"
	echo "  \`go test -run '^\$' -bench . -benchmem -benchtime $benchtime -count 1 <package>\`."
	if [ -f "$tmp/e2e.txt" ]; then
		echo "  Then \`scripts/e2e.sh\` and \`scripts/kubeconform.sh\`: $(sed -n 's/^runs //p' "$tmp/e2e.txt") runs of each program, alternating;"
		echo "  and \`scripts/nodes.sh\`: $(sed -n 's/^nodes_runs //p' "$tmp/e2e.txt") runs at each GOMAXPROCS."
	else
		echo "  The end-to-end comparison (\`scripts/e2e.sh\`) was not part of this run."
	fi
	if [ -n "$rawin" ]; then
		echo "- **Summarised** on $(date -u +%Y-%m-%d) from the results of that run, by \`scripts/bench.sh --raw ${rawin#"$root"/}\`."
	fi
	echo "- **Reading**: times are benchstat's medians over the rounds; a ratio is the other's median"
	echo "  time divided by ours, so above 1 ours takes less time. Shared cores are noisy: compare the"
	echo "  ratios within this run, not the absolute times with other runs, and see the confidence"
	echo "  intervals in the full benchstat output at the end."
} >"$tmp/produced.md"

# The summary block for README.md.
{
	echo "Measured by \`scripts/bench.sh\` on $date (Go ${goversion#go}, $goosarch, $cores shared cores; $count round$([ "$count" = 1 ] || echo s) of"
	echo "\`-benchtime $benchtime\`); how, and every table, in [BENCHMARKS.md](BENCHMARKS.md). A ratio is the other's"
	echo "time divided by ours: above 1, ours takes less time."
	echo
	cat "$tmp/summary-table.md"
} >"$out/summary.md"

{
	echo "# Benchmarks"
	echo
	echo "<!-- Generated by scripts/bench.sh; do not edit. -->"
	echo
	echo "Generated by \`scripts/bench.sh\`: every benchmark of this module beside the other way of"
	echo "doing the same thing (apimachinery, \`strconv\`, \`sigs.k8s.io/yaml\`, \`go.yaml.in/yaml/v3\`, a naive"
	echo "scan), then \`instancetype validate\` end to end."
	echo
	echo "## How these numbers were produced"
	echo
	cat "$tmp/produced.md"
	echo
	echo "## Summary"
	echo
	cat "$tmp/summary-table.md"
	echo
	echo "## Comparisons"
	cat "$tmp/tables.md"
	echo
	echo "## End to end"
	echo
	if [ -f "$tmp/e2e.md" ]; then cat "$tmp/e2e.md"; else echo "Not measured in this run."; fi
	echo
	echo "## Benchmarks of ours alone"
	cat "$tmp/alone.md"
	echo
	echo "## Full benchstat output"
	echo
	echo "<details><summary>Comparisons, then benchmarks of ours alone</summary>"
	echo
	echo '```'
	cat "$out/benchstat-compared.txt"
	echo
	cat "$out/benchstat-alone.txt"
	echo '```'
	echo
	echo "</details>"
	# The client module's section (client/hack/bench-capacity.sh writes it), kept as it is.
	if [ -f BENCHMARKS.md ] && grep -q '<!-- client:capacity:start -->' BENCHMARKS.md; then
		echo
		sed -n '/<!-- client:capacity:start -->/,/<!-- client:capacity:end -->/p' BENCHMARKS.md
	fi
} >"$out/BENCHMARKS.md"

# The webhook's section, written by scripts/bench-webhook.sh, is kept as it is, at the end.
if grep -qxF '<!-- bench:webhook:start -->' BENCHMARKS.md 2>/dev/null; then
	{ echo; sed -n '/^<!-- bench:webhook:start -->$/,/^<!-- bench:webhook:end -->$/p' BENCHMARKS.md; } >>"$out/BENCHMARKS.md"
fi

if [ "$quick" = 1 ]; then
	cat "$out/BENCHMARKS.md"
	echo "bench.sh: --quick: bench.out/BENCHMARKS.md and bench.out/summary.md written; BENCHMARKS.md and README.md not changed" >&2
	exit 0
fi
cp "$out/BENCHMARKS.md" BENCHMARKS.md
echo "bench.sh: BENCHMARKS.md written (raw results in bench.out/)" >&2

start='<!-- bench:summary:start -->'
end='<!-- bench:summary:end -->'
if [ "$readme" = 0 ]; then
	cat "$out/summary.md"
	echo "bench.sh: summary printed (also in bench.out/summary.md); README.md not changed" >&2
	exit 0
fi
if [ "$(grep -cxF "$start" README.md)" != 1 ] || [ "$(grep -cxF "$end" README.md)" != 1 ] ||
	[ "$(grep -nxF "$start" README.md | cut -d: -f1)" -gt "$(grep -nxF "$end" README.md | cut -d: -f1)" ]; then
	cat "$out/summary.md"
	echo "bench.sh: README.md lacks the lines $start and $end (once each, in that order):" >&2
	echo "bench.sh: the summary is printed above (and in bench.out/summary.md); README.md not changed" >&2
	exit 0
fi
# Replace what lies between the markers, keeping them and everything else.
awk -v start="$start" -v end="$end" -v block="$out/summary.md" '
	$0 == start { print; while ((getline line < block) > 0) print line; skip = 1; next }
	$0 == end { skip = 0 }
	!skip { print }
' README.md >"$tmp/README.md"
cat "$tmp/README.md" >README.md
echo "bench.sh: README.md summary rewritten between $start and $end" >&2
