#!/usr/bin/env bash
# The webhook's benchmarks, written into their own section of BENCHMARKS.md (between the
# lines <!-- bench:webhook:start --> and <!-- bench:webhook:end -->, added at the end when
# missing); scripts/bench.sh, which generates the rest of the file, keeps that section as
# it is.
#
#   scripts/bench-webhook.sh [--count N] [--benchtime D] [--print]
#
#   --count N      rounds (default 5, or $COUNT); each number is the median of the rounds
#   --benchtime D  go test -benchtime of each benchmark (default 1s, or $BENCHTIME)
#   --print        print the section instead of writing it into BENCHMARKS.md
#
# Measured, in each round:
#   - BenchmarkLoad (client/cmd/instancetype-webhook): the webhook's binary, built with
#     CGO_ENABLED=0 and run as a process, answering AdmissionReviews over TLS on loopback
#     from 1, 8 and 64 clients at once (one kept-alive connection each): throughput, and the
#     p50 and p99 latency the clients saw. Clients and server share the machine's cores.
#   - BenchmarkServeHTTP and BenchmarkReview (client/webhook): the handler in process,
#     with and without reading and writing the AdmissionReview JSON.
#   - BenchmarkManyFindings (client/webhook): Handler.Review of 3,000 and of 30,000 invalid
#     node selector keys, a CREATE and an UPDATE that ratchets every one of them, and the
#     ratio of the two (issue 17 asks at most 12; TestManyFindingsLinear holds it).
#   - BenchmarkInstanceType (validate, the root module): validating the instance type
#     alone, from text.
# Raw results stay in bench.out/webhook-raw.txt (git-ignored).
set -euo pipefail

count=${COUNT:-5}
benchtime=${BENCHTIME:-1s}
print=0
while [ $# -gt 0 ]; do
	case $1 in
	--count) count=$2; shift 2 ;;
	--benchtime) benchtime=$2; shift 2 ;;
	--print) print=1; shift ;;
	-h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench-webhook.sh: unknown argument $1 (try --help)" >&2; exit 2 ;;
	esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=$root/bench.out
mkdir -p "$out"
raw=$out/webhook-raw.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

started=$(date -u +%Y-%m-%dT%H:%MZ)
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
: >"$raw"
for round in $(seq "$count"); do
	echo "round $round/$count" >&2
	(cd client && go test -run '^$' -bench 'BenchmarkLoad' -benchtime "$benchtime" -count 1 ./cmd/instancetype-webhook) >>"$raw"
	(cd client && go test -run '^$' -bench 'BenchmarkServeHTTP|BenchmarkReview|BenchmarkManyFindings' -benchmem -benchtime "$benchtime" -count 1 ./webhook) >>"$raw"
	go test -run '^$' -bench 'BenchmarkInstanceType/valid/(parse\+validate|validate)$' -benchmem -benchtime "$benchtime" -count 1 ./validate >>"$raw"
done
finished=$(date -u +%Y-%m-%dT%H:%MZ)
load_end=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
# The first line only, cut from the whole output: under pipefail, "| head -1" can end sed
# with SIGPIPE (status 141) when head exits first, and set -e would end this script there.
cpu=$(sed -n 's/^cpu: *//p' "$raw")
cpu=${cpu%%$'\n'*}
cpu=${cpu%"${cpu##*[![:space:]]}"} # go test pads the name with spaces

# median NAME FIELD: the median over the rounds of the value before the unit FIELD on the
# benchmark lines named NAME (the -N suffix dropped).
cat >"$tmp/median.awk" <<'AWK'
/^Benchmark/ {
	name = $1; sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i += 2) { key = name SUBSEP $(i + 1); n[key]++; v[key, n[key]] = $i }
	if (!(name in seen)) { seen[name] = 1; names[++nn] = name }
}
function median(key,   k, i, j, t, a) {
	k = n[key]; if (k == 0) return ""
	for (i = 1; i <= k; i++) a[i] = v[key, i] + 0
	for (i = 2; i <= k; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return (k % 2) ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
function human(ns) {
	if (ns == "") return "–"
	if (ns < 1000) return sprintf("%.0f ns", ns)
	if (ns < 1e6) return sprintf("%.1f µs", ns / 1e3)
	return sprintf("%.1f ms", ns / 1e6)
}
function us(x) { return (x == "") ? "–" : (x < 1000 ? sprintf("%.0f µs", x) : sprintf("%.1f ms", x / 1000)) }
END {
	print "| object | clients | reviews/s | p50 latency | p99 latency | wall time per review |"
	print "| --- | ---: | ---: | ---: | ---: | ---: |"
	for (i = 1; i <= nn; i++) {
		name = names[i]
		if (name !~ /^BenchmarkLoad\//) continue
		split(name, p, "/"); obj = p[2]; sub(/^obj=/, "", obj); c = p[3]; sub(/^clients=/, "", c)
		printf "| %s | %s | %.0f | %s | %s | %s |\n", obj, c, median(name SUBSEP "reviews/s"), us(median(name SUBSEP "p50-µs")), us(median(name SUBSEP "p99-µs")), human(median(name SUBSEP "ns/op"))
	}
	print ""
	print "| in process | object | time per review | allocs/op | B/op |"
	print "| --- | --- | ---: | ---: | ---: |"
	for (i = 1; i <= nn; i++) {
		name = names[i]
		what = ""
		if (name ~ /^BenchmarkServeHTTP\//) what = "`Handler.ServeHTTP`: AdmissionReview JSON in and out, no TLS"
		else if (name ~ /^BenchmarkReview\//) what = "`Handler.Review`: strict decoding, `validate.InstanceType`, the response"
		else if (name ~ /^BenchmarkInstanceType\/valid\/parse\+validate/) what = "`validate.InstanceType` with `ParseAmount` of each value (root module)"
		else if (name ~ /^BenchmarkInstanceType\/valid\/validate/) what = "`validate.InstanceType` of a decoded object (root module)"
		else continue
		obj = name; sub(/^[^\/]*\//, "", obj); sub(/\/.*/, "", obj); sub(/^obj=/, "", obj)
		printf "| %s | %s | %s | %.0f | %.0f |\n", what, obj, human(median(name SUBSEP "ns/op")), median(name SUBSEP "allocs/op"), median(name SUBSEP "B/op")
	}
	print ""
	print "| `Handler.Review` of invalid node selector keys | 3,000 keys | 30,000 keys | 30,000 ÷ 3,000 |"
	print "| --- | ---: | ---: | ---: |"
	split("CREATE UPDATE", ops, " ")
	for (i = 1; i <= 2; i++) {
		small = median("BenchmarkManyFindings/op=" ops[i] "/keys=3000" SUBSEP "ns/op")
		large = median("BenchmarkManyFindings/op=" ops[i] "/keys=30000" SUBSEP "ns/op")
		if (small == "" || large == "") continue
		printf "| %s | %s | %s | %.1f× |\n", ops[i], human(small), human(large), large / small
	}
}
AWK
awk -f "$tmp/median.awk" "$raw" >"$tmp/tables.md"

{
	echo '<!-- bench:webhook:start -->'
	echo '## The admission webhook'
	echo
	echo "<!-- Generated by scripts/bench-webhook.sh; scripts/bench.sh keeps this section as it is. -->"
	echo
	echo "- **Date**: ${started%%T*} (UTC), from ${started#*T} to ${finished#*T}; load average ${load_start} at the start, ${load_end} at the end."
	echo "- **Machine**: ${cpu:-unknown}; $(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc) cores, shared with other work; $(go env GOVERSION) $(go env GOOS)/$(go env GOARCH)."
	echo "- **Command**: \`scripts/bench-webhook.sh --count $count --benchtime $benchtime\`: each number is the median of $count rounds."
	echo "- **Load**: \`BenchmarkLoad\` runs the webhook's binary (\`CGO_ENABLED=0\`, \`--max-in-flight 64\`, logging"
	echo "  every review at info level as in a cluster) and sends AdmissionReviews of one instance type over TLS"
	echo "  on loopback from 1, 8 and 64 clients at once, each on its own kept-alive HTTP/1.1 connection; the"
	echo "  clients share the cores with the server, so the throughput is a floor, not the server's ceiling."
	echo "  \"valid\" is a typical instance type (allowed); \"broken\" has a mistake in most fields (denied with 7 causes)."
	echo
	cat "$tmp/tables.md"
	echo
	echo "The in-process rows split a review's cost: reading and writing the AdmissionReview's JSON (\`ServeHTTP\`"
	echo "less \`Review\`), reading and decoding the object strictly with packages source and decode (\`Review\` less \`validate.InstanceType\`),"
	echo "and validation itself (the last rows); what the load adds to \`ServeHTTP\` is TLS, HTTP and the clients."
	echo "\`8000-bad-keys\` is the hostile object of the integration test: its answer is bounded at 101 causes."
	echo "The last table is the cost of many findings in one object (issue 17 asks that 30,000 take at most 12"
	echo "times 3,000): a CREATE, denied, and an UPDATE that removes a finalizer and ratchets every finding"
	echo "against the old object, which is decoded and validated too. Wall time of the benchmarks, garbage"
	echo "collection on the other core included; \`TestManyFindingsLinear\` compares processor time instead."
	echo '<!-- bench:webhook:end -->'
} >"$out/webhook.md"

if [ "$print" = 1 ]; then
	cat "$out/webhook.md"
	exit 0
fi
start='<!-- bench:webhook:start -->'
end='<!-- bench:webhook:end -->'
if grep -qxF "$start" BENCHMARKS.md && grep -qxF "$end" BENCHMARKS.md; then
	awk -v start="$start" -v end="$end" -v block="$out/webhook.md" '
		$0 == start { while ((getline line < block) > 0) print line; skip = 1; next }
		$0 == end { skip = 0; next }
		!skip { print }
	' BENCHMARKS.md >"$tmp/BENCHMARKS.md"
else
	{ cat BENCHMARKS.md; echo; cat "$out/webhook.md"; } >"$tmp/BENCHMARKS.md"
fi
cat "$tmp/BENCHMARKS.md" >BENCHMARKS.md
echo "bench-webhook.sh: BENCHMARKS.md's webhook section written (raw results in bench.out/webhook-raw.txt)" >&2
