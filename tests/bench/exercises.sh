#!/bin/sh
# `make bench-exercises`: every exercise's reference solution, benched on
# the GPU through `cudalab bench --json` (the learner's own path), beside
# the bar the solutions are held to:
#   bw     memory-bound: at least 80 % of the device's peak DRAM bandwidth
#   cublas at least 50 % of cuBLAS SGEMM on the same operands (the
#          harness times cuBLAS and prints it as a reference line)
#   -      no bar: the figure alone
# Each exercise is benched RUNS times (default 3) and the median of the
# runs is quoted.  Exits 1 when a solution fails or misses its bar, 0
# otherwise; without a usable GPU it says so and exits 0, since there is
# nothing to measure.
#
#   CUDALAB_BIN=/abs/build/cudalab NVCC=nvcc sh tests/bench/exercises.sh [EX...]
#
# BENCH_JSON_DIR=DIR reads DIR/EX.N.json (N = 1..RUNS) instead of running
# anything: the report from recorded results (tests/run uses it).
set -u
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
RUNS=${RUNS:-3}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CONTENT=${CUDALAB_CONTENT:-$SRC}

# exercise bar: the reference solutions and what each must reach.
BARS="vector-add bw
saxpy-bandwidth bw
grid-stride bw
transpose bw
stream-overlap -
reduce-sum bw
prefix-scan bw
histogram bw
softmax-online bw
rmsnorm-fused bw
sparsify-2-4 bw
quantize-int8 bw
selective-scan bw
kv-cache-decode bw
sgemm-tiled -
sgemm-regblock cublas
hgemm-wmma -
flash-attention-forward -
merge-attention-partials -
causal-conv1d -
layernorm-backward -
fp8-e4m3-cast -
top-k-sampling -
ring-allreduce -
cross-entropy-fused -
monarch-matmul -
ssd-chunked -
profile-channel-stats -"
BW_TARGET=80
CUBLAS_TARGET=50

# The value of "key" in cudalab's JSON (one key per line, first match).
field() {
	sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([^,]*\),\{0,1\}\$/\1/p" "$2" | head -n 1 |
		tr -d '"'
}
# cuBLAS's TFLOP/s from the harness's reference line (inside "stdout").
cublas_tflops() {
	grep -o 'cuBLAS sgemm [0-9x]*: median [0-9.]* ms, [0-9.]* TFLOP/s' "$1" |
		head -n 1 | sed 's/.*, \([0-9.]*\) TFLOP\/s/\1/'
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

T=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-bench-ex.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
J=${BENCH_JSON_DIR:-$T}
if [ -z "${BENCH_JSON_DIR:-}" ]; then
	if [ -z "${NVCC:-}" ]; then
		echo "bench-exercises: nvcc not found: skipped"
		exit 0
	fi
	if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
		echo "bench-exercises: no usable GPU here (nvidia-smi lists none): nothing to measure"
		exit 0
	fi
	export CUDALAB_HOME="$T/home" CUDALAB_CONTENT="$CONTENT" CUDALAB_NVCC="$NVCC"
fi

printf '%-24s %-6s %10s %9s %9s %11s  %s\n' exercise status "median ms" "GB/s" \
	"% peak" "TFLOP/s" "bar"
echo "$BARS" | while read -r ex bar; do
	if [ $# -gt 0 ]; then
		case " $* " in *" $ex "*) ;; *) continue ;; esac
	fi
	: >"$T/$ex.ms"
	: >"$T/$ex.pct"
	: >"$T/$ex.gbps"
	: >"$T/$ex.tf"
	: >"$T/$ex.ratio"
	: >"$T/$ex.ref"
	status=pass
	n=1
	while [ "$n" -le "$RUNS" ]; do
		j=$J/$ex.$n.json
		if [ -z "${BENCH_JSON_DIR:-}" ]; then
			"$BIN" bench "$ex" --file "$CONTENT/exercises/$ex/solution.cu" \
				--backend gpu --timeout 300 --json >"$j" 2>"$T/$ex.$n.err"
		fi
		st=$(field status "$j")
		if [ "$st" != pass ]; then
			status=${st:-error}
			break
		fi
		field median_ms "$j" >>"$T/$ex.ms"
		field gbps "$j" >>"$T/$ex.gbps"
		field pct_peak_bw "$j" >>"$T/$ex.pct"
		tf=$(field tflops "$j")
		echo "$tf" >>"$T/$ex.tf"
		ref=$(cublas_tflops "$j")
		if [ -n "$ref" ]; then
			echo "$ref" >>"$T/$ex.ref"
			awk -v a="$tf" -v b="$ref" 'BEGIN { if (b > 0) printf "%.1f\n", 100 * a / b }' \
				>>"$T/$ex.ratio"
		fi
		n=$((n + 1))
	done
	if [ "$status" != pass ]; then
		why=$(field summary "$j")
		[ -n "$why" ] || why=$(head -n 1 "$T/$ex.$n.err" 2>/dev/null)
		printf '%-24s %-6s %10s %9s %9s %11s  %s\n' "$ex" "$status" - - - - \
			"MISSED: the solution did not pass: ${why:-no result}"
		echo 1 >"$T/missed"
		continue
	fi
	ms=$(median <"$T/$ex.ms")
	gbps=$(median <"$T/$ex.gbps")
	pct=$(median <"$T/$ex.pct")
	tf=$(median <"$T/$ex.tf")
	case $bar in
	bw)
		verdict=$(awk -v p="$pct" -v t="$BW_TARGET" 'BEGIN {
			if (p == "" || p == "null") print "MISSED: no peak bandwidth known for this device"
			else if (p + 0 >= t) printf "ok: >= %d %% of peak bandwidth\n", t
			else printf "MISSED: < %d %% of peak bandwidth\n", t }')
		;;
	cublas)
		ratio=$(median <"$T/$ex.ratio")
		ref=$(median <"$T/$ex.ref")
		verdict=$(awk -v r="$ratio" -v c="$ref" -v t="$CUBLAS_TARGET" 'BEGIN {
			if (r == "") print "MISSED: no cuBLAS reference line (library not found?)"
			else if (r + 0 >= t) printf "ok: %.1f %% of cuBLAS (%s TFLOP/s), bar %d %%\n", r, c, t
			else printf "MISSED: %.1f %% of cuBLAS (%s TFLOP/s), bar %d %%\n", r, c, t }')
		;;
	*) verdict="(no bar)" ;;
	esac
	case $verdict in MISSED*) echo 1 >"$T/missed" ;; esac
	printf '%-24s %-6s %10s %9s %9s %11s  %s\n' "$ex" pass "$ms" "$gbps" "$pct" "$tf" \
		"$verdict"
done
echo "(medians of $RUNS runs of \`cudalab bench EX --backend gpu\` on the reference solutions)"
[ ! -f "$T/missed" ]
