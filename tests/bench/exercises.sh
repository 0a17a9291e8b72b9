#!/bin/sh
# `make bench-exercises`: every exercise's reference solution, benched on
# the GPU through `cudalab bench --json` (the learner's own path), beside
# the bar the solutions are held to:
#   bw[:P]     memory-bound: at least P % (80 unless given) of the device's
#              peak DRAM bandwidth, counting the bytes the harness counts
#   flops:P    compute-bound: at least P % of the peak the harness measures
#              the work against (FP32 without tensor cores, or the FP16
#              tensor-core peak)
#   cublas     at least 50 % of cuBLAS SGEMM on the same operands (the
#              harness times cuBLAS and prints it as a reference line)
#   overlap:F  at least F times the rate of the same copies done back to
#              back (the harness times them and prints a reference line)
#   check      nothing to time: passing the check is the bar
#   model:F    several GPUs, whose time no single-GPU peak bounds: at most
#              F times the time simt's time model predicts for this GPU
#              (`cudalab bench EX --backend simt --predict ID`, which
#              models the links: NVLink with peer access, PCIe without),
#              where ID is the device file `cudalab doctor` says models
#              this machine's GPU (PREDICT_DEVICE=ID chooses another);
#              run only on a machine with the GPUs the exercise needs
# The percentages are what each exercise's statement says a good solution
# reaches ("What fast means"); where it names no figure, the bar is a
# floor well below what it describes.
# Each exercise is benched RUNS times (default 3) and the median of the
# runs is quoted.  Exits 1 when a solution fails or misses its bar, 0
# otherwise; without a usable GPU it says so and exits 0, since there is
# nothing to measure.
#
#   CUDALAB_BIN=/abs/build/cudalab NVCC=nvcc sh tests/bench/exercises.sh [EX...]
#
# BENCH_JSON_DIR=DIR reads DIR/EX.N.json (N = 1..RUNS), and DIR/EX.model.json
# for a model bar, instead of running anything: the report from recorded
# results (tests/run uses it).
set -u
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
RUNS=${RUNS:-3}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CONTENT=${CUDALAB_CONTENT:-$SRC}

# exercise bar: every exercise of the lab and what its solution must reach.
BARS="vector-add bw
saxpy-bandwidth bw
grid-stride bw
transpose bw
stream-overlap overlap:1.2
reduce-sum bw
prefix-scan bw
histogram bw
softmax-online bw
rmsnorm-fused bw
sparsify-2-4 bw
quantize-int8 bw
selective-scan bw
kv-cache-decode bw
sgemm-tiled flops:10
sgemm-regblock cublas
hgemm-wmma flops:10
flash-attention-forward flops:20
merge-attention-partials bw
causal-conv1d bw
layernorm-backward bw:70
fp8-e4m3-cast bw
top-k-sampling bw:10
ring-allreduce bw
cross-entropy-fused bw:50
monarch-matmul flops:10
ssd-chunked flops:5
profile-channel-stats bw:70
mfu-calculator check
pipeline-schedule model:1.5
ring-allreduce-peer model:1.5
ring-attention-peer model:1.5
tensor-parallel-mlp model:1.5"
BW_TARGET=80
CUBLAS_TARGET=50

# The value of "key" in cudalab's JSON (one key per line, first match).
field() {
	sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([^,]*\),\{0,1\}\$/\1/p" "$2" | head -n 1 |
		tr -d '"'
}
# The same inside the result's "prediction" object.
pfield() {
	sed -n '/"prediction":/,$p' "$2" | sed -n "s/^[[:space:]]*\"$1\":[[:space:]]*\([^,{]*\),\{0,1\}\$/\1/p" |
		head -n 1 | tr -d '"'
}
# cuBLAS's TFLOP/s from the harness's reference line (inside "stdout").
cublas_tflops() {
	grep -o 'cuBLAS sgemm [0-9x]*: median [0-9.]* ms, [0-9.]* TFLOP/s' "$1" |
		head -n 1 | sed 's/.*, \([0-9.]*\) TFLOP\/s/\1/'
}
# The back-to-back copies' GB/s from stream-overlap's reference line.
copies_gbps() {
	grep -o 'back-to-back copies of [0-9]* bytes each way: median [0-9.]* ms, [0-9.]* GB/s' "$1" |
		head -n 1 | sed 's/.*, \([0-9.]*\) GB\/s/\1/'
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
# The GPUs an exercise needs ("gpus: N" in its front matter, 1 without).
gpus_needed() {
	n=$(sed -n 's/^gpus:[[:space:]]*\([0-9][0-9]*\)[[:space:]]*$/\1/p' \
		"$CONTENT/exercises/$1/exercise.md" 2>/dev/null | head -n 1)
	echo "${n:-1}"
}

# verdict BAR: the bar's verdict from the medians in $pct, $pctf, $ratio
# and $ref; a line starting "MISSED" when the solution falls short.
verdict() {
	case $1 in
	bw | bw:*)
		t=${1#bw}
		t=${t#:}
		awk -v p="$pct" -v t="${t:-$BW_TARGET}" 'BEGIN {
			if (p == "" || p == "null") print "MISSED: no peak bandwidth known for this device"
			else if (p + 0 >= t) printf "ok: >= %d %% of peak bandwidth\n", t
			else printf "MISSED: < %d %% of peak bandwidth\n", t }'
		;;
	flops:*)
		awk -v p="$pctf" -v t="${1#flops:}" 'BEGIN {
			if (p == "" || p == "null") print "MISSED: no compute peak known for this device"
			else if (p + 0 >= t) printf "ok: >= %d %% of peak FLOP/s\n", t
			else printf "MISSED: < %d %% of peak FLOP/s\n", t }'
		;;
	cublas)
		awk -v r="$ratio" -v c="$ref" -v t="$CUBLAS_TARGET" 'BEGIN {
			if (r == "") print "MISSED: no cuBLAS reference line (library not found?)"
			else if (r + 0 >= t) printf "ok: %.1f %% of cuBLAS (%s TFLOP/s), bar %d %%\n", r, c, t
			else printf "MISSED: %.1f %% of cuBLAS (%s TFLOP/s), bar %d %%\n", r, c, t }'
		;;
	overlap:*)
		awk -v r="$ratio" -v c="$ref" -v t="${1#overlap:}" 'BEGIN {
			if (r == "") print "MISSED: no reference line of back-to-back copies"
			else if (r / 100 >= t) printf "ok: %.2fx back-to-back copies (%s GB/s), bar %sx\n", r / 100, c, t
			else printf "MISSED: %.2fx back-to-back copies (%s GB/s), bar %sx\n", r / 100, c, t }'
		;;
	model:*)
		awk -v m="$ms" -v p="$predicted" -v d="$device" -v t="${1#model:}" 'BEGIN {
			if (p == "" || p == "null") print "MISSED: no prediction for this GPU (" d ")"
			else if (m / p <= t) printf "ok: %.2fx the model'"'"'s %.3f ms on %s, bar %sx\n", m / p, p, d, t
			else printf "MISSED: %.2fx the model'"'"'s %.3f ms on %s, bar %sx\n", m / p, p, d, t }'
		;;
	check) echo "ok: passes (nothing to time)" ;;
	*) echo "MISSED: unknown bar '$1'" ;;
	esac
}

T=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-bench-ex.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
J=${BENCH_JSON_DIR:-$T}
gpus_here=0
model_device=
measure=1
if [ -z "${BENCH_JSON_DIR:-}" ]; then
	if [ -z "${NVCC:-}" ]; then
		echo "bench-exercises: nvcc not found: skipped"
		exit 0
	fi
	export CUDALAB_HOME="$T/home" CUDALAB_CONTENT="$CONTENT" CUDALAB_NVCC="$NVCC"
	if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
		echo "bench-exercises: no usable GPU here (nvidia-smi lists none): nothing to measure;"
		echo "simt's predictions for ${PREDICT_DEVICE:=h100-sxm} follow"
		measure=0
	fi
	gpus_here=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
	# the device file that models this machine's GPU, for the model bars
	model_device=$("$BIN" doctor 2>/dev/null |
		sed -n 's/.*this machine.s GPU is modelled by \([A-Za-z0-9_.-]*\).*/\1/p' | head -n 1)
fi

[ "$measure" = 1 ] && printf '%-24s %-6s %10s %9s %9s %11s  %s\n' exercise status "median ms" \
	"GB/s" "% peak" "TFLOP/s" "bar"
[ "$measure" = 1 ] && echo "$BARS" | while read -r ex bar; do
	if [ $# -gt 0 ]; then
		case " $* " in *" $ex "*) ;; *) continue ;; esac
	fi
	# An exercise for several GPUs runs only where they are (or where
	# results were recorded for it).
	need=$(gpus_needed "$ex")
	if [ -n "${BENCH_JSON_DIR:-}" ] && [ ! -f "$J/$ex.1.json" ]; then
		printf '%-24s %-6s %10s %9s %9s %11s  %s\n' "$ex" - - - - - "(no recorded result)"
		continue
	fi
	if [ -z "${BENCH_JSON_DIR:-}" ] && [ "$gpus_here" -lt "$need" ]; then
		printf '%-24s %-6s %10s %9s %9s %11s  %s\n' "$ex" skip - - - - \
			"(needs $need GPUs, this machine has $gpus_here)"
		continue
	fi
	for f in ms pct pctf gbps tf ratio ref; do
		: >"$T/$ex.$f"
	done
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
		gbps=$(field gbps "$j")
		echo "$gbps" >>"$T/$ex.gbps"
		field pct_peak_bw "$j" >>"$T/$ex.pct"
		field pct_peak_flops "$j" >>"$T/$ex.pctf"
		tf=$(field tflops "$j")
		echo "$tf" >>"$T/$ex.tf"
		# A reference line, and this run against it in percent.
		case $bar in
		cublas) ref=$(cublas_tflops "$j") got=$tf ;;
		overlap:*) ref=$(copies_gbps "$j") got=$gbps ;;
		*) ref='' got='' ;;
		esac
		if [ -n "$ref" ]; then
			echo "$ref" >>"$T/$ex.ref"
			awk -v a="$got" -v b="$ref" 'BEGIN { if (b > 0) printf "%.1f\n", 100 * a / b }' \
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
	# A model bar: the time simt predicts for this GPU.
	predicted='' device=${PREDICT_DEVICE:-$model_device}
	case $bar in
	model:*)
		if [ -z "${BENCH_JSON_DIR:-}" ] && [ -n "$device" ]; then
			"$BIN" bench "$ex" --file "$CONTENT/exercises/$ex/solution.cu" \
				--backend simt --predict "$device" --timeout 900 --json \
				>"$J/$ex.model.json" 2>"$T/$ex.model.err"
		fi
		if [ -f "$J/$ex.model.json" ]; then
			predicted=$(pfield ms "$J/$ex.model.json")
			device=$(pfield device "$J/$ex.model.json")
		fi
		;;
	esac
	ms=$(median <"$T/$ex.ms")
	gbps=$(median <"$T/$ex.gbps")
	pct=$(median <"$T/$ex.pct")
	pctf=$(median <"$T/$ex.pctf")
	tf=$(median <"$T/$ex.tf")
	ratio=$(median <"$T/$ex.ratio")
	ref=$(median <"$T/$ex.ref")
	v=$(verdict "$bar")
	case $v in MISSED*) echo 1 >"$T/missed" ;; esac
	printf '%-24s %-6s %10s %9s %9s %11s  %s\n' "$ex" pass "$ms" "$gbps" "$pct" "$tf" "$v"
done
[ "$measure" = 1 ] &&
	echo "(medians of $RUNS runs of \`cudalab bench EX --backend gpu\` on the reference solutions)"

# simt's prediction of every reference solution, for the device that
# models this GPU (beside the measured median), or PREDICT_DEVICE; and the
# seconds each prediction took (recorded results: "-").
device=${PREDICT_DEVICE:-$model_device}
echo
printf '%-24s %-10s %12s %12s %8s  %s\n' exercise device "predicted ms" "measured ms" \
	"ratio" "model s"
echo "$BARS" | while read -r ex bar; do
	if [ $# -gt 0 ]; then
		case " $* " in *" $ex "*) ;; *) continue ;; esac
	fi
	m=$J/$ex.model.json
	secs=-
	if [ -z "${BENCH_JSON_DIR:-}" ] && [ ! -f "$m" ] && [ -n "$device" ]; then
		t0=$(date +%s.%N)
		"$BIN" bench "$ex" --file "$CONTENT/exercises/$ex/solution.cu" --backend simt \
			--predict "$device" --timeout 900 --json >"$m" 2>"$T/$ex.model.err"
		secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }')
	fi
	predicted=$(pfield ms "$m" 2>/dev/null)
	dev=$(pfield device "$m" 2>/dev/null)
	measured=
	[ -f "$T/$ex.ms" ] && measured=$(median <"$T/$ex.ms")
	if [ -z "$predicted" ]; then
		why=$(pfield error "$m" 2>/dev/null)
		[ -n "$why" ] || why=$(field summary "$m" 2>/dev/null)
		printf '%-24s %-10s %12s %12s %8s  %s\n' "$ex" "${dev:-${device:--}}" - \
			"${measured:--}" - "${secs} (${why:-no prediction})"
		continue
	fi
	ratio=$(awk -v m="$measured" -v p="$predicted" 'BEGIN {
		if (m == "" || p <= 0) print "-"; else printf "%.2f", m / p }')
	printf '%-24s %-10s %12s %12s %8s  %s\n' "$ex" "$dev" "$predicted" "${measured:--}" \
		"$ratio" "$secs"
done
echo "(predicted: \`cudalab bench EX --backend simt --predict DEVICE\`, a model estimate;"
echo " ratio: measured / predicted)"
[ ! -f "$T/missed" ]
