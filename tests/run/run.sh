#!/bin/sh
# The runner end to end: check, bench, hint, solution, reset, watch and run
# driven through the real binary against the fixture exercise in
# tests/fixtures/run, with planted faults (syntax error, wrong answer,
# hang, crash, output flood, missing nvcc).  The fixture programs are host
# code only, so they build against the real CUDA runtime and run without a
# GPU (CUDALAB_GPU=1 tells cudalab to take the gpu backend anyway); the
# simt path links a stand-in library built here.  Expected values come
# from the fixtures, written by hand.  Ends with "run: N passed, M failed".
set -u
# Nothing here reads the terminal: programs that copy their stdin get
# an empty one, so the suite never waits for Ctrl-D.
exec </dev/null
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
if [ -z "${NVCC:-}" ]; then
	echo "run: nvcc not found: skipped (install the CUDA toolkit)"
	echo "run: 0 passed, 0 failed"
	exit 0
fi
# An absolute path: the cache test puts a wrapper named nvcc first in PATH,
# which must not find itself.
NVCC=$(command -v "$NVCC") || { echo "run: $NVCC not found"; exit 1; }
SRC=$(cd "$(dirname "$0")/../.." && pwd)
FIX=$SRC/tests/fixtures/run
SQ=$FIX/exercises/square
T=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-run-test.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM

export CUDALAB_HOME="$T/home" CUDALAB_CONTENT="$FIX" CUDALAB_NVCC="$NVCC" CUDALAB_GPU=1
unset XDG_DATA_HOME CUDALAB_SIMT_LIB
WORK=$CUDALAB_HOME/work/square/kernel.cu

. "$SRC/tests/lib.sh"

# --- helpers --------------------------------------------------------------
# fnv FILE: FNV-1a 64 of FILE's bytes, computed apart from cudalab
fnv() {
	python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("%016x" % h)' "$1"
}
# wait_count FILE TEXT N [SECONDS]: until FILE has N lines with TEXT
wait_count() {
	_i=0
	_limit=$(( ${4:-60} * 10 ))
	while [ "$_i" -lt "$_limit" ]; do
		[ "$(grep -cF -- "$2" "$1" 2>/dev/null)" -ge "$3" ] && return 0
		sleep 0.1
		_i=$((_i + 1))
	done
	note "$1: fewer than $3 lines with: $2"
	return 1
}
# hang.cu with a name of this run's own for its processes, and marked: the
# pids of those still alive
MARK=hang$$
HANG=$T/hang.cu
sed "s/cudalab-hang/$MARK/" "$FIX/variants/hang.cu" >"$HANG"
marked() {
	for d in /proc/[0-9]*; do
		[ "$(cat "$d/comm" 2>/dev/null)" = "$MARK" ] || continue
		gone "${d#/proc/}" || echo "${d#/proc/}"
	done
}
# compiles NVCC_LOG: how many builds (not --version probes) it logged
compiles() { grep -c -- ' -o ' "$1" 2>/dev/null || true; }


# --- check: verdicts -----------------------------------------------------
first_check_makes_the_copy() {
	cl check square
	expect_rc 1
	expect_err "$WORK"
	cmp -s "$WORK" "$SQ/kernel.cu" || note "the copy differs from the starter"
	expect_out "WRONG square"
}

syntax_error_names_the_file_and_line() {
	# variants/syntax.cu has its error on line 3.
	cl check square --file "$FIX/variants/syntax.cu"
	expect_rc 1
	expect_out "COMPILE ERROR square: compile error: $FIX/variants/syntax.cu:3:"
	expect_no_out "tmp-"
	cp "$FIX/variants/syntax.cu" "$WORK"
	cl check square --json
	expect_rc 1
	json_expect "d['status'] == 'compile_error'"
	json_expect "d['compile_errors'][0]['file'] == '$WORK'"
	json_expect "d['compile_errors'][0]['line'] == 3"
	json_expect "'$WORK(3)' in d['compile_log'] and 'tmp-' not in d['compile_log']"
	cp "$SQ/kernel.cu" "$WORK"
}

wrong_answer_is_wrong() {
	# variants/wrong.cu returns 290 for x = 17, the harness's input 3.
	cl check square --file "$FIX/variants/wrong.cu"
	expect_rc 1
	expect_out "WRONG square: wrong: case x=17, index 3: expected 289, got 290"
	cl check square --file "$FIX/variants/wrong.cu" --json
	json_expect "d['status'] == 'wrong' and d['mismatch']['index'] == 3"
	json_expect "[c['status'] for c in d['cases']] == ['pass', 'pass', 'pass', 'wrong', 'pass']"
}

hang_times_out_and_leaves_nothing() {
	start=$(date +%s)
	cl check square --file "$HANG" --timeout 2
	took=$(( $(date +%s) - start ))
	expect_rc 1
	expect_out "TIMEOUT square"
	[ "$took" -lt 40 ] || note "took $took s"
	[ -z "$(marked)" ] || note "processes still running: $(marked)"
	cl check square --file "$HANG" --timeout 1 --json
	json_expect "d['status'] == 'timeout' and d['timeout_s'] == 1"
}

crash_names_the_signal() {
	cl check square --file "$FIX/variants/crash.cu"
	expect_rc 1
	expect_out "RUNTIME ERROR square: runtime error: killed by SIGSEGV"
	cl check square --file "$FIX/variants/crash.cu" --json
	json_expect "d['status'] == 'runtime_error' and d['signal'] == 'SIGSEGV'"
}

flood_is_capped() {
	# 12 * 1024 lines of 1023 bytes; 1 MiB is kept.
	total=$((12 * 1024 * 1023))
	cl check square --file "$FIX/variants/flood.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and len(d['stdout']) == 1048576"
	json_expect "d['stdout_truncated_bytes'] == $total - 1048576"
	cl check square --file "$FIX/variants/flood.cu"
	expect_out "$((total - 1048576)) bytes of stdout"
	# a wrong answer shows the output's kept lines, which end mid-way
	sed 's/return x \* x;/return x * x + 1;/' "$FIX/variants/flood.cu" >"$T/flood-wrong.cu"
	cl check square --file "$T/flood-wrong.cu"
	expect_rc 1
	expect_out "stdout (the last lines of the first 1 MiB, which is what was kept):"
	expect_no_out "stdout (last lines):"
}

exit_without_result() {
	cl check square --file "$FIX/variants/noresult.cu"
	expect_rc 1
	expect_out "runtime error: no result"
}

nvcc_missing_is_an_environment_error() {
	clenv CUDALAB_NVCC=nvcc PATH=/usr/bin:/bin "$BIN" check square
	expect_rc 2
	expect_err "nvcc not found"
	clenv CUDALAB_NVCC="$T/no/nvcc" "$BIN" check square
	expect_rc 2
	expect_err "nvcc not found"
	clenv CUDALAB_NVCC=nvcc PATH=/usr/bin:/bin "$BIN" run "$FIX/programs/exit7.c"
	expect_rc 2
	expect_err "nvcc not found"
}

gpu_without_gpu_is_an_environment_error() {
	clenv CUDALAB_GPU=0 "$BIN" check square --backend gpu
	expect_rc 2
	expect_err "needs a usable GPU"
	cl check square --backend tpu
	expect_rc 2
	cl check no-such-exercise
	expect_rc 2
}

cache_hit_skips_nvcc() {
	# A stand-in nvcc earlier in PATH logs each call, then runs the real one.
	mkdir -p "$T/fake"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/nvcc.log" "$NVCC" >"$T/fake/nvcc"
	chmod +x "$T/fake/nvcc"
	cp "$SQ/solution.cu" "$T/mine.cu"
	# content of its own, with a harness library of two files
	cp -R "$FIX" "$T/content"
	mkdir -p "$T/content/include/cudalab/lab"
	echo '#include "lab/part.h"' >"$T/content/include/cudalab/lab.h"
	echo '/* a part */' >"$T/content/include/cudalab/lab/part.h"
	home=$T/cache-home
	viafake() { clenv PATH="$T/fake:$PATH" CUDALAB_NVCC= CUDALAB_HOME="$home" \
		CUDALAB_CONTENT="$T/content" "$BIN" "$@"; }
	harness_builds() { grep -c -- '/harness\.cu$' "$T/nvcc.log" 2>/dev/null || true; }
	: >"$T/nvcc.log"
	viafake check square --file "$T/mine.cu"
	expect_rc 0
	expect_out "build compiled"
	# The harness is compiled once to an object, then linked with the
	# learner's file (the worker) and with the solution (the checker).
	[ "$(compiles "$T/nvcc.log")" = 5 ] || note "first check: $(compiles "$T/nvcc.log") builds"
	[ "$(harness_builds)" = 1 ] || note "first check: the harness compiled $(harness_builds) times"
	viafake check square --file "$T/mine.cu"
	expect_rc 0
	expect_out "build cached"
	[ "$(compiles "$T/nvcc.log")" = 5 ] || note "unchanged re-check ran nvcc"
	viafake check square --file "$T/mine.cu" --json
	json_expect "d['cached'] is True"
	# nvcc's version is asked once while nvcc stays the same file, and
	# again once it is another (a new toolkit in its place)
	probes() { grep -c -- '^--version$' "$T/nvcc.log" 2>/dev/null || true; }
	[ "$(probes)" = 1 ] || note "nvcc --version asked $(probes) times over three checks"
	printf '#!/bin/sh\n# another toolkit\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$T/nvcc.log" \
		"$NVCC" >"$T/fake/nvcc"
	viafake check square --file "$T/mine.cu" --json
	json_expect "d['cached'] is True"
	[ "$(probes)" = 2 ] || note "a replaced nvcc: --version asked $(probes) times, not 2"
	# a hard link to a cached program moves its change time, not its
	# bytes: still cached, and the entry's digest says so from then on
	for d in "$home"/cache/[0-9a-f]*/; do ln -f "$d/prog" "$d/prog.link"; done
	viafake check square --file "$T/mine.cu" --json
	json_expect "d['cached'] is True and 'build_note' not in d"
	for d in "$home"/cache/[0-9a-f]*/; do
		python3 -c 'import os, sys
st = os.stat(sys.argv[1] + "/prog")
kept = open(sys.argv[1] + "/digest").read().split()[1:]
sys.exit(kept != [str(st.st_size), str(st.st_ino), str(st.st_ctime_ns // 10**9), str(st.st_ctime_ns % 10**9)])' \
			"$d" || note "the digest of $d was not brought up to date"
		rm -f "$d/prog.link"
	done
	echo "// changed" >>"$T/mine.cu"
	viafake check square --file "$T/mine.cu"
	expect_out "build compiled"
	n=$(compiles "$T/nvcc.log")
	[ "$n" = 7 ] || note "a changed file: $n builds in all, not 7"
	[ "$(harness_builds)" = 1 ] || note "the harness was compiled again"
	# a changed part of the harness library makes the harness object anew
	echo '/* changed */' >>"$T/content/include/cudalab/lab/part.h"
	viafake check square --file "$T/mine.cu"
	expect_out "build compiled"
	[ "$(harness_builds)" = 2 ] ||
		note "a changed lab/part.h left the harness object as it was"
	[ -z "$(find "$home/cache" -maxdepth 1 -name 'tmp-*')" ] ||
		note "a temporary build directory was left behind"
}

json_shape() {
	cp "$SQ/solution.cu" "$T/shape.cu"
	cl check square --file "$T/shape.cu" --json
	expect_rc 0
	for k in schema exercise status backend cases compile_log stdout stderr \
		stdout_truncated_bytes stderr_truncated_bytes summary source_hash cached; do
		json_expect "'$k' in d"
	done
	json_expect "d['schema'] == 1 and d['exercise'] == 'square' and d['status'] == 'pass'"
	json_expect "d['backend'] == 'gpu' and len(d['cases']) == 5"
	json_expect "all(set(c) >= {'name', 'status'} for c in d['cases'])"
	json_expect "d['source_hash'] == '$(fnv "$T/shape.cu")'"
}

attempts_are_recorded() {
	# Every check so far went to the store: those of --file as scratch
	# attempts, which leave the exercise as it was; a pass of the learner's
	# own copy passes it.
	cl list exercises --json
	json_expect "[e['status'] for e in d if e['id'] == 'square'] == ['attempted']"
	cp "$SQ/solution.cu" "$WORK"
	cl check square
	cp "$SQ/kernel.cu" "$WORK"
	cl list exercises --json
	json_expect "[e['status'] for e in d if e['id'] == 'square'] == ['passed']"
	python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("select mode, backend, status, source_hash, result_json, scratch"
                  " from attempt where exercise = ?", ("square",)).fetchall()
kinds = {r[2] for r in rows}
want = {"pass", "wrong", "compile_error", "runtime_error", "timeout"}
ok = want <= kinds and all(r[0] == "check" and r[1] == "gpu" and len(r[3]) == 16
                           and r[4].startswith("{") for r in rows)
own = [r[2] for r in rows if r[5] == 0]
ok = ok and "pass" in own and any(r[5] == 1 for r in rows)
sys.exit(0 if ok else 1)' "$CUDALAB_HOME/progress.db" || note "attempt rows are not as expected"
}

bench_reports_timing() {
	cl bench square --file "$SQ/solution.cu"
	expect_rc 0
	expect_out "median"
	expect_out "40.0% of peak"
	cl bench square --file "$SQ/solution.cu" --json
	json_expect "d['mode'] == 'bench' and d['timing']['median_ms'] == 0.25 and 'prediction' not in d"
	# with device files, a GPU bench puts simt's prediction for the same GPU
	# beside the measurement; a GPU no device file models gets a reason
	clenv CUDALAB_SIMT_DEVICES="$SRC/devices" "$BIN" bench square --file "$SQ/solution.cu" --json
	expect_rc 0
	json_expect "d['timing']['median_ms'] == 0.25 and d['prediction']['error'].startswith('no device file models this GPU') and d['prediction']['name'] == 'Fixture Device F100' and d['prediction']['device'] == ''"
}

simt_attaches_counters() {
	mkdir -p "$T/simt"
	if ! ${CC:-cc} -c -o "$T/fake-simt.o" "$FIX/fake-simt.c" ||
		! ar rcs "$T/simt/libcudalab-simt.a" "$T/fake-simt.o"; then
		note "cannot build the stand-in library"
	fi
	onsimt() { clenv CUDALAB_GPU=0 CUDALAB_SIMT_LIB="$T/simt/libcudalab-simt.a" "$BIN" "$@"; }
	onsimt bench square --file "$SQ/solution.cu" --json
	expect_rc 0
	json_expect "d['backend'] == 'simt' and d['simt']['total']['thread_instructions'] == 4242"
	onsimt bench square --file "$SQ/solution.cu"
	expect_out "emulation time, not GPU time"
	grep -qE 'thread_instructions +4242' "$T/out" || note "stdout lacks the counters"
	onsimt run --counters "$T/counters.json" "$FIX/programs/echo.cu" \
		-D GREETING='"hi"'
	expect_rc 0
	grep -q '"thread_instructions":4242' "$T/counters.json" 2>/dev/null ||
		note "run --counters wrote no counters"
}

# simt's hazard report makes any verdict a hazard; a pass is tried under a
# second schedule, and a verdict that changes with it is that verdict.
simt_hazards_and_schedules() {
	onsimt() { clenv CUDALAB_GPU=0 CUDALAB_SIMT_LIB="$T/simt/libcudalab-simt.a" "$BIN" "$@"; }
	onsimt check square --file "$FIX/variants/hazard.cu"
	expect_rc 1
	expect_out "HAZARD square: hazard: race: shared write at hazard.cu:13 by block (0,0,0) thread (32,0,0) and shared read at hazard.cu:15"
	expect_out "(and 2 more)"
	expect_out "simt reported 3 hazards"
	onsimt check square --file "$FIX/variants/hazard.cu" --json
	json_expect "d['status'] == 'hazard' and d['simt']['hazards']['total'] == 3 and d['schedule'] == 0"
	onsimt check square --file "$FIX/variants/schedule.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'wrong' and d['schedule'] == 1 and 'schedule 0 passed' in d['summary'] and d['nondeterminism'] == 'passed under schedule 0, wrong under schedule 1'"
	# bench runs once, under the default schedule
	onsimt bench square --file "$FIX/variants/schedule.cu" --json
	expect_rc 0
	python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("select status from attempt where exercise = ? and backend = ?",
                  ("square", "simt")).fetchall()
sys.exit(0 if ("hazard",) in rows and ("wrong",) in rows else 1)' \
		"$CUDALAB_HOME/progress.db" || note "hazard and wrong attempts not recorded"
}

# An exercise with "gpus: 3": simt is given three devices; a machine with
# one GPU (CUDALAB_GPU=1) refuses --backend gpu, and auto falls back to
# simt, saying so; over SLURM, srun is asked for three GPUs.
exercise_needing_three_gpus() {
	DV=$FIX/exercises/devices
	if [ ! -f "$T/simt/libcudalab-simt.a" ]; then
		mkdir -p "$T/simt"
		${CC:-cc} -c -o "$T/fake-simt.o" "$FIX/fake-simt.c" &&
			ar rcs "$T/simt/libcudalab-simt.a" "$T/fake-simt.o" ||
			note "cannot build the stand-in library"
	fi
	lib=$T/simt/libcudalab-simt.a
	clenv CUDALAB_GPU=0 CUDALAB_SIMT_LIB="$lib" "$BIN" check devices --file "$DV/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['backend'] == 'simt' and d['device']['name'] == 'CUDALAB_SIMT_GPUS=3' and 'backend_note' not in d"
	cl check devices --backend gpu --file "$DV/solution.cu"
	expect_rc 2
	expect_err "this exercise needs 3 GPUs and this machine has 1; use --backend simt (or auto)"
	clenv CUDALAB_SIMT_LIB="$lib" "$BIN" check devices --file "$DV/solution.cu"
	expect_rc 0
	expect_err "this exercise needs 3 GPUs and this machine has 1: it runs on simt"
	clenv CUDALAB_SIMT_LIB="$lib" "$BIN" check devices --file "$DV/solution.cu" --json
	expect_rc 0
	json_expect "d['backend'] == 'simt' and d['device']['name'] == 'CUDALAB_SIMT_GPUS=3' and 'needs 3 GPUs' in d['backend_note']"
	# one GPU needed: no note, the GPU used
	cl check square --file "$SQ/solution.cu" --json
	expect_rc 0
	json_expect "d['backend'] == 'gpu' and 'backend_note' not in d"
	far=$T/far-devices
	mkdir -p "$far"
	log=$T/standin-devices.log
	clenv PATH="$SRC/tests/fixtures/remote:$(dirname "$BIN"):$PATH" REMOTE_HOME="$far" \
		STANDIN_LOG="$log" CUDALAB_SIMT_LIB="$lib" \
		"$BIN" check devices --backend slurm --file "$DV/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['remote_backend'] == 'simt' and d['device']['name'] == 'CUDALAB_SIMT_GPUS=3'"
	grep -q -- "^srun --job-name=cudalab-[0-9]*-[0-9]* --ntasks=1 --gpus=3 .*remote --protocol 2$" "$log" ||
		note "srun was not asked for three GPUs"
}

# The racy reduce-sum (blocks add into *out with a plain +=) on the real
# simt, with the shipped exercise: a hazard under every input seed and
# never recorded as passed; `cudalab run` of a racy program exits 123.
racy_reduce_sum_is_never_a_pass() {
	lib=$SRC/${BUILD:-build}/libcudalab-simt.a
	if [ ! -f "$lib" ]; then
		note "no simt library at $lib"
		return
	fi
	home=$T/racy-home
	sed 's/atomicAdd(out, acc);/*out += acc;/' "$SRC/exercises/reduce-sum/solution.cu" \
		>"$T/racy.cu"
	grep -q '\*out += acc;' "$T/racy.cu" || note "the solution changed: no atomicAdd(out, acc)"
	real() { clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" \
		CUDALAB_SIMT_LIB="$lib" "$BIN" "$@"; }
	for seed in default 1 2 3 4 5; do
		if [ $seed = default ]; then
			real check reduce-sum --file "$T/racy.cu" --json
		else
			real check reduce-sum --file "$T/racy.cu" --seed $seed --json
		fi
		expect_rc 1
		json_expect "d['status'] == 'hazard' and d['simt']['hazards']['races'] >= 1 and any(h['kind'] == 'race' and h['space'] == 'global' and [s['line'] for s in h['sites']] == [52, 52] for h in d['simt']['hazards']['hazards'])"
	done
	real list exercises --json
	json_expect "[e['status'] for e in d if e['id'] == 'reduce-sum'] != ['passed']"
	real check reduce-sum --file "$SRC/exercises/reduce-sum/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['simt']['hazards']['total'] == 0"
	clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_SIMT_LIB="$lib" \
		"$BIN" run --backend simt "$SRC/tests/simt/rt_racecheck.cu"
	expect_rc 123
	expect_err "race: shared write at rt_racecheck.cu:13"
	expect_err "simt reported 2 hazards (above); exit status 123 (the program's own was 0)"
}

# A bench on simt predicts the time on a GPU (simt's time model): by
# default on an H100 SXM, with --predict on another, never with predict =
# off; an unknown device or a bad config value is an error that names the
# known ones.  vector-add at its GPU size moves 3 x 2^26 x 4 bytes, which
# at the H100 SXM datasheet's 3.35 TB/s takes 240 us: the prediction
# cannot be faster, and a bandwidth-bound kernel is not twice as slow.
simt_bench_predicts_the_gpu_time() {
	lib=$SRC/${BUILD:-build}/libcudalab-simt.a
	home=$T/predict-home
	mkdir -p "$home"
	real() { clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" \
		CUDALAB_SIMT_LIB="$lib" "$BIN" "$@"; }
	sol=$SRC/exercises/vector-add/solution.cu
	real bench vector-add --file "$sol" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['prediction']['device'] == 'h100-sxm' and 240.4 <= d['prediction']['ms'] * 1000 <= 400 and d['prediction']['launches'][0]['kernel'] == 'add_kernel' and 'DRAM' in d['prediction']['launches'][0]['limits'] and 'predicted' in d['summary']"
	# its share of the H100's FP32 peak, 66.9 TFLOP/s by the datasheet
	json_expect "d['prediction']['tflops'] > 0 and abs(d['prediction']['pct_peak_flops'] - 100 * d['prediction']['tflops'] / 66.9) <= 1e-3 * d['prediction']['pct_peak_flops']"
	cp "$T/out" "$T/predicted.json"
	# the attempt keeps the prediction in its own fields, apart from median_ms
	python3 -c 'import json, sqlite3, sys
d = json.load(open(sys.argv[2]))
db = sqlite3.connect(sys.argv[1])
rows = db.execute("select median_ms, predicted_ms, predicted_device from attempt"
                  " where mode = ? and predicted_device is not null", ("bench",)).fetchall()
sys.exit(0 if rows == [(None, d["prediction"]["ms"], "h100-sxm")] else 1)' \
		"$home/progress.db" "$T/predicted.json" || note "the attempt does not keep the prediction"
	real bench vector-add --file "$sol"
	expect_out "predicted on NVIDIA H100 SXM5 80GB (h100-sxm): "
	expect_out "limited by DRAM bandwidth"
	real check vector-add --file "$sol" --predict t4 --json
	expect_rc 0
	json_expect "d['prediction']['device'] == 't4' and 'ms' not in d['prediction'] and d['prediction']['launches'][0]['kernel'] == 'add_kernel' and d['prediction']['launches'][0]['blocks'] == d['prediction']['launches'][0]['blocks_run']"
	# a device other than the default: the check's prediction (made in the
	# worker, the verdict the checker's) is that device's, in name and time
	real check vector-add --file "$sol" --predict rtx4090
	expect_rc 0
	expect_out "predicted on NVIDIA GeForce RTX 4090 (rtx4090), per kernel"
	! grep "predicted on" "$T/out" | grep -q H100 || note "an H100 in the prediction for rtx4090"
	real check vector-add --file "$sol" --predict rtx4090 --json
	cp "$T/out" "$T/rtx4090.json"
	real check vector-add --file "$sol" --predict h100-sxm --json
	python3 -c 'import json, sys
a, b = (json.load(open(p))["prediction"] for p in sys.argv[1:])
ok = (a["device"], a["name"]) == ("rtx4090", "NVIDIA GeForce RTX 4090") and \
    b["device"] == "h100-sxm" and a["launches"][0]["us"] != b["launches"][0]["us"]
sys.exit(0 if ok else 1)' "$T/rtx4090.json" "$T/out" ||
		note "the check's prediction for rtx4090 is not the rtx4090's"
	real check vector-add --file "$sol" --predict nosuch
	expect_rc 2
	expect_err "unknown device 'nosuch'"
	expect_err "known: a100-sxm h100-pcie h100-sxm"
	printf 'predict = off\n' >"$home/config"
	real bench vector-add --file "$sol" --json
	expect_rc 0
	json_expect "'prediction' not in d"
	printf '# mine\npredict = h100 sxm\n' >"$home/config"
	real bench vector-add --file "$sol"
	expect_rc 2
	expect_err "config:2: predict 'h100 sxm' is neither a device id"
	rm -f "$home/config"
	# the learner's shell does not make the bench's check skip its
	# comparisons (a predicted run compares nothing)
	clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" CUDALAB_SIMT_LIB="$lib" \
		CUDALAB_SIMT_PREDICT=h100-sxm "$BIN" bench vector-add \
		--file "$SRC/exercises/vector-add/kernel.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'wrong' and 'prediction' not in d"
}

# A multi-device ring whose streams wait for no events passes every value
# check on simt (it runs one operation at a time) but is a hazard: the
# stream order finds the peer copies and kernels that nothing orders.
ring_without_events_is_a_hazard() {
	lib=$SRC/${BUILD:-build}/libcudalab-simt.a
	if [ ! -f "$lib" ]; then
		note "no simt library at $lib"
		return
	fi
	home=$T/ring-home
	grep -v 'cudaStreamWaitEvent' "$SRC/exercises/ring-allreduce-peer/solution.cu" \
		>"$T/ring.cu"
	cmp -s "$T/ring.cu" "$SRC/exercises/ring-allreduce-peer/solution.cu" &&
		note "the solution changed: no cudaStreamWaitEvent to take out"
	clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" CUDALAB_SIMT_LIB="$lib" \
		"$BIN" check ring-allreduce-peer --file "$T/ring.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'hazard' and all(c['status'] == 'pass' for c in d['cases']) and any(h['kind'] == 'race' and 'different streams' in h['message'] and any(s.get('operation') == 'cudaMemcpyAsync' and s['stream'] > 0 for s in h['sites']) for h in d['simt']['hazards']['hazards'])"
	# the counters' total counts every occurrence, copies' included
	json_expect "d['simt']['total']['hazards'] == sum(h['count'] for h in d['simt']['hazards']['hazards'])"
}

# Races met outside kernels reach the verdict too: simt's report file must
# stay readable when a site is the host (no stream) or a graph node, or
# `cudalab run` would count no hazards and exit with the program's 0.
host_and_graph_races_reach_the_verdict() {
	lib=$SRC/${BUILD:-build}/libcudalab-simt.a
	if [ ! -f "$lib" ]; then
		note "no simt library at $lib"
		return
	fi
	runsimt() { clenv CUDALAB_GPU=0 CUDALAB_HOME="$T/hg-home" CUDALAB_SIMT_LIB="$lib" \
		"$BIN" run --backend simt -I "$SRC/tests/simt" "$@"; }
	runsimt "$SRC/tests/simt/hz_b_host_sync.cu"
	expect_rc 123
	expect_err "and a host read of managed memory"
	expect_err "simt reported 3 hazards (above); exit status 123 (the program's own was 0)"
	runsimt "$SRC/tests/simt/hz_b_graph_branches.cu"
	expect_rc 123
	expect_err "in branches of a graph with no path of dependencies between them"
	expect_err "simt reported 3 hazards (above); exit status 123 (the program's own was 0)"
}

# A kernel that never ends is stopped within a few seconds of emulation,
# not at the wall-clock limit: the reference solution's longest launch,
# measured once and kept in the cache, sets the budget; the verdict is a
# timeout naming the line and thread where it spun.  A solution that
# merely needs more than the floor still passes.
# vector-add's add_kernel, spinning: one launch that never ends.
write_spin() {
	cat >"$T/spin.cu" <<'CU'
#include <cuda_runtime.h>
__global__ void add_kernel(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (i < n) {
        c[i] = a[i] + b[i];
    }
}
void solve(const float* a, const float* b, float* c, int n)
{
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
CU
}

runaway_kernel_stopped_early() {
	lib=$SRC/${BUILD:-build}/libcudalab-simt.a
	if [ ! -f "$lib" ]; then
		note "no simt library at $lib"
		return
	fi
	home=$T/runaway-home
	write_spin
	real() { clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" \
		CUDALAB_SIMT_LIB="$lib" "$BIN" "$@"; }
	for round in measured cached; do
		real check vector-add --file "$T/spin.cu" --json
		expect_rc 1
		json_expect "d['status'] == 'timeout' and d['summary'].startswith('stopped early: one launch of add_kernel ran ') and 'of the reference solution' in d['summary'] and 'still running at spin.cu:6 ' in d['summary'] and 'thread (' in d['summary'] and 'after 60 s' not in d['summary']"
	done
	ls "$home"/cache/reference-* >/dev/null 2>&1 || note "no reference figure in the cache"
	# the learner's own limit wins
	clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" CUDALAB_SIMT_LIB="$lib" \
		CUDALAB_SIMT_MAX_INSTRUCTIONS=100000 "$BIN" check vector-add --file "$T/spin.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'runtime_error' and 'budget of 100000 warp instructions' in d['stderr']"
	real check vector-add --file "$SRC/exercises/vector-add/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass'"
}

# The reference solution's budget run counts every block of its launches,
# so it runs with simt's time model off (which would run only a sample of
# a large grid's blocks), whatever CUDALAB_SIMT_PREDICT the shell holds.
# The content is a copy whose vector-add solution writes down the variable
# as each call of solve sees it.
budget_run_ignores_the_shells_predict() {
	lib=$SRC/${BUILD:-build}/libcudalab-simt.a
	if [ ! -f "$lib" ]; then
		note "no simt library at $lib"
		return
	fi
	content=$T/seen-content
	mkdir -p "$content/exercises"
	ln -s "$SRC/lessons" "$content/lessons"
	ln -s "$SRC/include" "$content/include"
	for ex in "$SRC"/exercises/*/; do
		ex=$(basename "$ex")
		[ "$ex" = vector-add ] || ln -s "$SRC/exercises/$ex" "$content/exercises/$ex"
	done
	cp -R "$SRC/exercises/vector-add" "$content/exercises/vector-add"
	cat >"$content/exercises/vector-add/solution.cu" <<'CU'
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
__global__ void add_kernel(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
void solve(const float* a, const float* b, float* c, int n)
{
    const char *seen = getenv("SEEN_PREDICT"), *p = getenv("CUDALAB_SIMT_PREDICT");
    FILE* f = seen ? fopen(seen, "a") : NULL;
    if (f) {
        fprintf(f, "[%s]\n", p ? p : "unset");
        fclose(f);
    }
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
CU
	write_spin
	clenv CUDALAB_GPU=0 CUDALAB_HOME="$T/seen-home" CUDALAB_CONTENT="$content" \
		CUDALAB_SIMT_LIB="$lib" CUDALAB_SIMT_PREDICT=h100-sxm SEEN_PREDICT="$T/seen" \
		"$BIN" check vector-add --file "$T/spin.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'timeout' and 'of the reference solution' in d['summary']"
	seen=$(sort -u "$T/seen" 2>/dev/null)
	[ "$seen" = "[]" ] ||
		note "the reference's budget run saw CUDALAB_SIMT_PREDICT as: ${seen:-nothing (it never ran)}"
}

# Remote checks through stand-ins for ssh, srun and scancel
# (tests/fixtures/remote): the far side is this same cudalab, run here in a
# home of its own; the same verdicts as a local check, attempts recorded
# under the remote backend, a timeout and a cancel that leave no process
# behind, and each failure as one line naming the fix, exit status 2 and
# nothing recorded.
remote_over_ssh_and_slurm() {
	far=$T/far
	mkdir -p "$far"
	rpath="$SRC/tests/fixtures/remote:$(dirname "$BIN"):$PATH"
	log=$T/standin.log
	r() { clenv PATH="$rpath" REMOTE_HOME="$far" STANDIN_LOG="$log" "$@"; }
	rows() { python3 -c 'import os, sqlite3, sys
if not os.path.exists(sys.argv[1]): sys.exit(0)
db = sqlite3.connect(sys.argv[1])
print(" ".join(b + "/" + s for b, s in db.execute(
    "select backend, status from attempt where exercise = ? order by id", ("square",))))' \
		"$CUDALAB_HOME/progress.db"; }
	before=$(rows)
	r "$BIN" check square --backend ssh:gpubox --file "$SQ/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['backend'] == 'ssh:gpubox' and d['remote_backend'] == 'gpu'"
	r "$BIN" check square --backend ssh:gpubox --file "$FIX/variants/wrong.cu"
	expect_rc 1
	expect_out "WRONG square: wrong: case x=17, index 3: expected 289, got 290"
	expect_out "backend: ssh:gpubox (host $(uname -n)), on gpu there"
	# the far side's paths come back as the learner's own
	r "$BIN" check square --backend ssh:gpubox --file "$FIX/variants/syntax.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'compile_error' and d['compile_errors'][0]['file'] == '$FIX/variants/syntax.cu' and d['compile_errors'][0]['line'] == 3"
	r "$BIN" check square --backend slurm --file "$SQ/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['backend'] == 'slurm'"
	grep -q -- "^srun --job-name=cudalab-[0-9]*-[0-9]* --ntasks=1 --gpus=1 .*remote --protocol 2$" "$log" ||
		note "srun was not asked for one GPU"
	after=$(rows)
	[ "$after" = "${before:+$before }ssh:gpubox/pass ssh:gpubox/wrong ssh:gpubox/compile_error slurm/pass" ] ||
		note "attempts recorded: '$after'"
	# a timeout on the far side ends every process there
	r "$BIN" check square --backend ssh:gpubox --file "$HANG" --timeout 2 --json
	expect_rc 1
	json_expect "d['status'] == 'timeout'"
	[ -z "$(marked)" ] || note "far processes still running: $(marked)"
	# a cancel (Ctrl-C) ends the far side, and through scancel the job
	for be in ssh:gpubox slurm; do
		PATH="$rpath" REMOTE_HOME="$far" STANDIN_LOG="$log" \
			"$BIN" check square --backend "$be" --file "$HANG" \
			>"$T/out" 2>"$T/err" &
		cpid=$!
		i=0
		while [ -z "$(marked)" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
		[ -n "$(marked)" ] || note "$be: the far side never started the program"
		kill -INT "$cpid"
		wait "$cpid"
		sleep 1
		[ -z "$(marked)" ] || note "$be: far processes still running after a cancel: $(marked)"
	done
	grep -q "^scancel " "$log" || note "the cancelled job was not scancelled"
	[ "$(rows)" = "$after ssh:gpubox/timeout" ] || note "a cancel was recorded: '$(rows)'"
	# failures: one line each, exit 2, nothing recorded
	for case in "ssh:unknown|ssh cannot find the host unknown" \
		"ssh:denied|ssh could not log in to denied without a password prompt: set up a key" \
		"ssh:nocudalab|nocudalab has no cudalab in PATH: install it there (make install PREFIX=~/.local)" \
		"ssh:old|old runs cudalab 9.9.9, which speaks remote protocol 3; this cudalab" ; do
		r "$BIN" check square --backend "${case%%|*}" --file "$SQ/solution.cu"
		expect_rc 2
		expect_err "${case#*|}"
		[ "$(wc -l <"$T/err")" -eq 1 ] || note "${case%%|*}: more than one line on stderr"
	done
	r SRUN_REJECT=1 "$BIN" check square --backend slurm --file "$SQ/solution.cu"
	expect_rc 2
	expect_err "SLURM rejected the job: srun: error: Unable to allocate resources: Invalid partition name specified (options go in CUDALAB_SLURM_ARGS"
	mkdir -p "$T/nothing"
	clenv PATH="$T/nothing" "$BIN" check square --backend slurm --file "$SQ/solution.cu"
	expect_rc 2
	expect_err "srun is not in PATH"
	[ "$(rows)" = "$after ssh:gpubox/timeout" ] || note "a failure was recorded: '$(rows)'"
	# a remote bench puts simt's prediction for the far side's GPU beside
	# the measurement, built and run here; the device file is the one
	# whose name matches the GPU's (the fixture's "Fixture Device F100"),
	# and the fixture's harness, which only speaks the judge's roles, is
	# built for simt and run here alone, where it refuses to work
	r CUDALAB_SIMT_DEVICES="$SRC/devices" "$BIN" bench square --backend ssh:gpubox \
		--predict h100-sxm --file "$SQ/solution.cu" --json
	expect_rc 0
	json_expect "d['backend'] == 'ssh:gpubox' and d['timing']['median_ms'] == 0.25 and d['prediction']['error'].startswith('no device file models this GPU') and d['prediction']['name'] == 'Fixture Device F100'"
	mkdir -p "$T/fixdev"
	{
		printf 'source fixture = the run suite\n'
		sed 's/^name = .*/name = Fixture Device F100   [fixture]/' "$SRC/devices/h100-sxm.gpu"
	} >"$T/fixdev/fixture.gpu"
	r CUDALAB_SIMT_DEVICES="$T/fixdev" "$BIN" bench square --backend slurm \
		--predict fixture --file "$SQ/solution.cu" --json
	expect_rc 0
	json_expect "d['backend'] == 'slurm' and d['timing']['median_ms'] == 0.25 and d['prediction']['device'] == 'fixture' and d['prediction']['error'].startswith(\"the run at the GPU's sizes failed\") and 'no CUDALAB_JUDGE' in d['prediction']['error']"
	# cudalab run on the far side: output as it comes, the far side's exit
	# status (the program's own, 123 for a hazard, 124 timeout, 125 compile
	# error), headers beside the source travel with it
	mkdir -p "$T/prog"
	printf '#define TIMES 3\n' >"$T/prog/times.h"
	cat >"$T/prog/p.cu" <<'CU'
#include <cstdio>
#include "times.h"
int main(int argc, char **argv)
{
    printf("out %d %s\n", 2 * TIMES, argc > 1 ? argv[1] : "-");
    fprintf(stderr, "err line\n");
    return 7;
}
CU
	printf 'int main() { oops }\n' >"$T/prog/bad.cu"
	r "$BIN" run --backend ssh:gpubox "$T/prog/p.cu" -- "two words"
	expect_rc 7
	expect_out "out 6 two words"
	expect_err "err line"
	r "$BIN" run --backend slurm "$T/prog/bad.cu"
	expect_rc 125
	expect_err "bad.cu(1): error"
	grep -q "remote/run-" "$T/err" && note "the far side's paths showed"
	# doctor asks the far side; the config names the default backend
	r "$BIN" doctor --backend ssh:gpubox
	expect_rc 0
	expect_out "ok    remote    ssh:gpubox is reachable: cudalab "
	expect_out "ok    backend   checks sent to ssh:gpubox run on gpu there"
	r CUDALAB_SLURM_ARGS="-p debug --time=5" "$BIN" doctor --backend slurm
	expect_out "ok    remote    slurm is reachable"
	grep -q -- "^srun .* -p debug --time=5 .*remote --protocol 2 --doctor$" "$log" ||
		note "the slurm options did not reach srun"
	printf '# where checks go\nbackend = ssh:gpubox\n' >"$CUDALAB_HOME/config"
	r "$BIN" check square --file "$SQ/solution.cu" --json
	json_expect "d['backend'] == 'ssh:gpubox'"
	# doctor follows the config: the backend it names, and the far side
	r "$BIN" doctor
	expect_out "ok    backend   ssh:gpubox, from $CUDALAB_HOME/config: checks run there"
	expect_out "ok    remote    ssh:gpubox is reachable: cudalab "
	expect_no_out "auto uses"
	# a check that cannot run on the config's backend names the config
	printf 'backend = ssh:unknown\n' >"$CUDALAB_HOME/config"
	r "$BIN" check square --file "$SQ/solution.cu"
	expect_rc 2
	expect_err "(the backend ssh:unknown is set in $CUDALAB_HOME/config)"
	r "$BIN" doctor
	expect_rc 2
	expect_out "FAIL  remote    ssh:unknown"
	printf 'backend = gpu\n' >"$CUDALAB_HOME/config"
	r CUDALAB_GPU=0 "$BIN" doctor
	expect_out "FAIL  backend   gpu, from $CUDALAB_HOME/config: "
	printf 'backend = ssh:gpubox\nbackend: simt\n' >"$CUDALAB_HOME/config"
	r "$BIN" check square --file "$SQ/solution.cu"
	expect_rc 2
	expect_err "$CUDALAB_HOME/config:2: expected \"key = value\""
	printf 'colour = blue\n' >"$CUDALAB_HOME/config"
	r "$BIN" check square --file "$SQ/solution.cu"
	expect_rc 2
	expect_err "$CUDALAB_HOME/config:1: unknown setting 'colour'"
	rm -f "$CUDALAB_HOME/config"
	r "$BIN" check square --backend ssh:-oProxyCommand=x --file "$SQ/solution.cu"
	expect_rc 2
	expect_err "--backend needs auto, gpu, simt, ssh:HOST or slurm"
}

# A far side that misbehaves once its cudalab has answered: one that
# leaves a process holding the stream open ends within the check's time
# all the same; one that sends a second result, or a result that does not
# carry the request's nonce, is refused and nothing is recorded.  The
# verdict names the host it came from, and remote_cudalab from the config
# reaches the far side's shell as one word, whatever it holds.
remote_far_side_misbehaves() {
	far=$T/far-odd
	mkdir -p "$far"
	rpath="$SRC/tests/fixtures/remote:$(dirname "$BIN"):$PATH"
	r() { clenv PATH="$rpath" REMOTE_HOME="$far" "$@"; }
	count() { python3 -c 'import os, sqlite3, sys
if not os.path.exists(sys.argv[1]): print(0); sys.exit(0)
db = sqlite3.connect(sys.argv[1])
print(db.execute("select count(*) from attempt where exercise = ?", ("square",)).fetchone()[0])' \
		"$CUDALAB_HOME/progress.db"; }
	start=$(date +%s)
	r "$BIN" check square --backend ssh:linger --file "$SQ/solution.cu" --timeout 5 --json
	took=$(( $(date +%s) - start ))
	[ -f "$far/linger.pid" ] && kill "$(cat "$far/linger.pid")" 2>/dev/null
	expect_rc 0
	json_expect "d['status'] == 'pass' and d['backend'] == 'ssh:linger' and d['remote_host'] == '$(uname -n)'"
	[ "$took" -lt 30 ] || note "a process left holding the far side's stream kept the check $took s"
	before=$(count)
	for host in twice forged; do
		r "$BIN" check square --backend "ssh:$host" --file "$SQ/solution.cu"
		expect_rc 2
		case $host in
		twice) expect_err "its answer is refused: it sent more than one result" ;;
		forged) expect_err "its answer is refused: it sent a result that does not answer this request" ;;
		esac
	done
	[ "$(count)" = "$before" ] || note "a refused answer was recorded"
	# remote_cudalab: a path with a blank and a quote runs; one with a
	# command in it runs nothing
	mkdir -p "$T/far bin"
	ln -sf "$BIN" "$T/far bin/cud'alab"
	printf "remote_cudalab = %s\n" "$T/far bin/cud'alab" >"$CUDALAB_HOME/config"
	r "$BIN" check square --backend ssh:gpubox --file "$SQ/solution.cu"
	expect_rc 0
	expect_out "backend: ssh:gpubox (host $(uname -n)), on gpu there"
	printf 'remote_cudalab = cudalab; touch %s\n' "$T/injected" >"$CUDALAB_HOME/config"
	r "$BIN" check square --backend ssh:gpubox --file "$SQ/solution.cu"
	expect_rc 2
	[ ! -e "$T/injected" ] || note "remote_cudalab ran a command of its own on the far side"
	rm -f "$CUDALAB_HOME/config"
}

# A learner's program cannot forge a pass: a solve() that writes a passing
# result to every descriptor it can (the channel to the checker among
# them) and to stdout gets no pass, neither against the fixture harness nor
# against a lab.h harness on simt, where it also looks for a key at static
# initialisation: the verdict is the checker's, which runs none of it.
forged_result_is_not_a_pass() {
	home=$T/forge-home
	clenv CUDALAB_HOME="$home" "$BIN" check square --file "$FIX/variants/forge.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'runtime_error' and 'did not come whole' in d['summary']"
	lib=$SRC/${BUILD:-build}/libcudalab-simt.a
	if [ ! -f "$lib" ]; then
		note "no simt library at $lib"
		return
	fi
	clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" CUDALAB_SIMT_LIB="$lib" \
		"$BIN" check vector-add --file "$FIX/variants/forge-lab.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'runtime_error' and 'not the harness' in d['summary']"
	clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" CUDALAB_SIMT_LIB="$lib" \
		"$BIN" check vector-add --file "$SRC/exercises/vector-add/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass' and 'key' not in d"
}

# Each way a learner's file once got a non-solution recorded as passed,
# against vector-add's lab.h harness on the real simt: none is a pass now,
# and nothing is recorded as passed.  The sandbox's protections are then
# taken away (a user namespace that allows no more), and the checks that do
# not lean on them still hold; a cache entry the program changed is built
# again.
attacks_are_refused() {
	lib=$SRC/${BUILD:-build}/libcudalab-simt.a
	if [ ! -f "$lib" ]; then
		note "no simt library at $lib"
		return
	fi
	A=$FIX/attacks
	home=$T/attack-home
	mkdir -p "$home"
	real() { clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" \
		CUDALAB_SIMT_LIB="$lib" "$BIN" "$@"; }
	# the learner's own copy of vector-add is what each attack replaces
	real check vector-add
	work=$home/work/vector-add/kernel.cu
	cp "$work" "$T/starter.cu"
	attack() { cp "$1" "$work"; real check vector-add --json; expect_rc 1; }
	attack "$A/specialise.cu"
	json_expect "d['status'] == 'compile_error' and 'defines lab::(an unnamed namespace)' in d['compile_log']"
	attack "$A/define-lab.cu"
	json_expect "d['status'] == 'compile_error' and 'defines lab::pass_everything' in d['compile_log']"
	attack "$A/early-constructor.cu"
	json_expect "d['status'] == 'runtime_error' and 'found CUDALAB_RESULT' not in d['stderr']"
	attack "$A/interpose.cu"
	json_expect "d['status'] == 'wrong'"
	attack "$A/include-solution.cu"
	json_expect "d['status'] == 'compile_error'"
	sol=$SRC/exercises/vector-add/solution.cu
	sed "s|@SOLUTION@|$sol|" "$A/include-solution-path.cu" >"$T/isp.cu"
	attack "$T/isp.cu"
	json_expect "d['status'] == 'compile_error' and 'includes $sol, a file of the exercise' in d['summary']"
	ln -sf "$sol" "$T/elsewhere.cu"
	sed "s|@SOLUTION@|$T/elsewhere.cu|" "$A/include-solution-path.cu" >"$T/isp.cu"
	attack "$T/isp.cu"
	json_expect "d['status'] == 'compile_error' and 'includes $T/elsewhere.cu, a file of the exercise' in d['summary']"
	# the solution read by the assembler, which the preprocessor never sees
	sed "s|@SOLUTION@|$sol|" "$A/incbin-solution.cu" >"$T/incbin.cu"
	attack "$T/incbin.cu"
	json_expect "d['status'] == 'compile_error' and '(.incbin), which a check refuses' in d['summary'] and '$sol' in d['summary']"
	sed "s|@SOLUTION@|$sol|" "$A/macro-incbin.cu" >"$T/incbin.cu"
	attack "$T/incbin.cu"
	json_expect "d['status'] == 'compile_error' and '(.macro), which a check refuses' in d['summary']"
	sed "s|/nonexistent/progress.db|$home/progress.db|" "$A/write-progress.cu" >"$T/wp.cu"
	attack "$T/wp.cu"
	json_expect "d['status'] == 'wrong' and 'for writing: refused' in d['stderr']"
	sed "s|\"/nonexistent\"|\"$home/cache\"|" "$A/replace-cache.cu" >"$T/rc.cu"
	attack "$T/rc.cu"
	json_expect "d['status'] == 'wrong' and 'cache files written: 0' in d['stderr'] and 'namespaces' in d['sandbox']"
	# a race, with simt's checks turned off in the shell, in a constructor,
	# or its report kept from being written
	sed 's/atomicAdd(out, acc);/*out += acc;/' "$SRC/exercises/reduce-sum/solution.cu" >"$T/racy.cu"
	clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" CUDALAB_SIMT_LIB="$lib" \
		CUDALAB_SIMT_CHECKS=0 "$BIN" check reduce-sum --file "$T/racy.cu" --json
	expect_rc 1
	json_expect "d['status'] == 'hazard'"
	for call in 'setenv("CUDALAB_SIMT_CHECKS", "0", 1)' 'unsetenv("CUDALAB_SIMT_HAZARDS")'; do
		{ cat "$T/racy.cu"; printf '#include <cstdlib>\n__attribute__((constructor(100))) static void off() { %s; }\n' "$call"; } >"$T/off.cu"
		real check reduce-sum --file "$T/off.cu" --json
		expect_rc 1
		# the race's sum is right or wrong by the schedule's luck: a
		# right one without a report is no pass, a wrong one is wrong
		json_expect "d['status'] in ('hazard', 'runtime_error', 'wrong')"
	done
	real list exercises --json
	json_expect "[e['status'] for e in d if e['id'] in ('vector-add', 'reduce-sum') and e['status'] == 'passed'] == []"
	python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n = db.execute("select count(*) from attempt where exercise = ?", ("vector-add",)).fetchone()[0]
sys.exit(0 if n >= 8 else 1)' "$home/progress.db" || note "the progress database lost attempts"
	# without namespaces: the program can write the cache; what it changed
	# is built again, and the starter is no pass
	cp "$T/rc.cu" "$work"
	noroom() { clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" \
		CUDALAB_SIMT_LIB="$lib" unshare --user --map-root-user --mount sh -c \
		'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' sh "$BIN" "$@"; }
	noroom check vector-add --json
	expect_rc 1
	json_expect "d['status'] == 'wrong' and 'cache files written: 0' not in d['stderr'] and 'namespaces' not in d.get('sandbox', []) and 'seccomp' in d['sandbox']"
	cp "$T/starter.cu" "$work"
	noroom check vector-add --json
	expect_rc 1
	json_expect "d['status'] == 'wrong' and 'had changed since it was built' in d['build_note']"
	# and a process that leaves with setsid still ends with the check
	clenv CUDALAB_HOME="$home" unshare --user --map-root-user --mount sh -c \
		'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' sh \
		"$BIN" check square --file "$HANG" --timeout 2 --json
	json_expect "d['status'] == 'timeout' and 'sweep' in d['sandbox']"
	sleep 1
	[ -z "$(marked)" ] || note "without namespaces, processes still running: $(marked)"
}

# The sandbox as the unprivileged user a learner is (the tests run as
# root, where the kernel's checks differ): as nobody, a check passes inside
# user and mount namespaces when the kernel allows them unprivileged, and a
# program that writes the progress database is refused; the database keeps
# every attempt.
unprivileged_user_is_sandboxed() {
	# not root: every other test runs unprivileged already
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null || return 0
	nh=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-nobody.XXXXXX")
	chmod 755 "$nh"
	chown 65534:65534 "$nh"
	bin=$BIN fix=$FIX tree=
	if ! setpriv --reuid=65534 --regid=65534 --clear-groups \
		test -x "$BIN" -a -r "$FIX/exercises/square/harness.cu" 2>/dev/null; then
		# the tree lies inside a directory the unprivileged user cannot
		# enter (a private clone): it checks with a copy of what a check
		# reads, owned by root like the tree
		tree=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-tree.XXXXXX")
		mkdir -p "$tree/build" "$tree/tests/fixtures"
		cp "$BIN" "$tree/build/"
		[ ! -f "$(dirname "$BIN")/libcudalab-simt.a" ] ||
			cp "$(dirname "$BIN")/libcudalab-simt.a" "$tree/build/"
		cp -R "$SRC/include" "$tree/"
		cp -R "$FIX" "$tree/tests/fixtures/"
		chmod -R a+rX "$tree"
		bin=$tree/build/cudalab fix=$tree/tests/fixtures/run
	fi
	nobody() { clenv setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$nh" \
		CUDALAB_HOME="$nh" CUDALAB_CONTENT="$fix" TMPDIR="$nh" "$bin" "$@"; }
	attempts() { python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select count(*) from attempt").fetchone()[0])' \
		"$nh/progress.db" 2>/dev/null; }
	nobody check square --json
	expect_rc 1
	if [ "$(cat /proc/sys/user/max_user_namespaces 2>/dev/null || echo 0)" -gt 0 ]; then
		json_expect "all(p in d['sandbox'] for p in ('namespaces', 'readonly', 'solutions_hidden', 'seccomp', 'sweep'))"
	else
		json_expect "'namespaces' not in d['sandbox'] and 'seccomp' in d['sandbox']"
	fi
	nobody check square --file "$fix/exercises/square/solution.cu" --json
	expect_rc 0
	json_expect "d['status'] == 'pass'"
	before=$(attempts)
	sed "s|@PROGRESS_DB@|$nh/progress.db|" "$fix/variants/write-home.cu" >"$nh/work/square/kernel.cu"
	nobody check square --json
	expect_rc 1
	json_expect "d['status'] == 'wrong' and 'for writing: refused' in d['stderr']"
	[ "$(attempts)" = $((before + 1)) ] || note "the progress database lost attempts: $before, then $(attempts)"
	rm -rf "$nh" ${tree:+"$tree"}
}

# --file must be a regular file of bounded size (a device or a FIFO is
# refused at once, never read); any name works, a newline in it included;
# what the CLI shows of a program's output carries no control characters.
file_inputs_are_checked() {
	cl check square --file /dev/zero
	expect_rc 2
	expect_err "/dev/zero is not a regular file"
	mkfifo "$T/fifo.cu"
	start=$(date +%s)
	cl check square --file "$T/fifo.cu"
	expect_rc 2
	expect_err "$T/fifo.cu is not a regular file"
	[ $(( $(date +%s) - start )) -lt 10 ] || note "a FIFO held the check"
	head -c 5000000 /dev/zero | tr '\0' ' ' >"$T/big.cu"
	cl check square --file "$T/big.cu"
	expect_rc 2
	expect_err "at most 4 MiB"
	odd="$T/two
lines \"quoted\".cu"
	cp "$FIX/variants/wrong.cu" "$odd"
	cl check square --file "$odd" --json
	expect_rc 1
	json_expect "d['status'] == 'wrong'"
	printf 'int solve(int x) { return x * x }\n' >"$odd"
	cl check square --file "$odd" --json
	expect_rc 1
	json_expect "d['status'] == 'compile_error' and 'lines \"quoted\".cu' in d['compile_log'] and 'tmp-' not in d['compile_log']"
	json_expect "d['compile_errors'][0]['file'] == '$T/two\\nlines \"quoted\".cu' and d['compile_errors'][0]['line'] == 1"
	cl check square --file "$FIX/variants/escapes.cu"
	expect_rc 1
	expect_out "?]52;c;cm0gLXJmIH4=?"
	! grep -q "$(printf '\033')" "$T/out" || note "a control character reached the terminal"
}

# A real kernel: on a GPU it must pass and be timed; without one the
# harness's own runtime error must come through with its message.
device_kernel() {
	ongpu() { clenv CUDALAB_GPU= "$BIN" "$@"; }
	if nvidia-smi -L >/dev/null 2>&1; then
		ongpu check twice --file "$FIX/exercises/twice/solution.cu" --json
		expect_rc 0
		json_expect "d['status'] == 'pass' and d['backend'] == 'gpu'"
		ongpu check twice
		expect_rc 1
		expect_out "WRONG twice: wrong: case n=1, index 0: expected -96, got NaN"
		ongpu bench twice --file "$FIX/exercises/twice/solution.cu"
		expect_rc 0
		expect_out "% of peak"
		expect_out "build cached"
	else
		cl check twice --file "$FIX/exercises/twice/solution.cu"
		expect_rc 1
		expect_out "RUNTIME ERROR twice: runtime error: cudaGetDeviceProperties"
	fi
}

# --- hint, solution, reset -----------------------------------------------
hints_in_order_and_remembered() {
	cl hint square
	expect_out "Hint 1 of 3: First hint, about multiplying."
	cl hint square
	expect_out "Hint 2 of 3: Second hint, about x times x."
	cl hint square
	expect_out "Hint 3 of 3: Third hint, the last one."
	expect_out "last hint"
	cl hint square
	expect_rc 0
	expect_out "No more hints"
	cl hint square
	expect_out "No more hints"
}

solution_only_after_a_pass() {
	home=$T/sol-home
	clenv CUDALAB_HOME="$home" "$BIN" solution square
	expect_rc 1
	expect_no_out "SOLUTION-MARKER"
	expect_err "--force"
	clenv CUDALAB_HOME="$home" "$BIN" solution square --force
	expect_rc 0
	expect_out "SOLUTION-MARKER"
	expect_err "warning"
	# a pass of some other file (a scratch attempt) does not count, and
	# says so, naming the learner's copy
	clenv CUDALAB_HOME="$home" "$BIN" check square --file "$SQ/solution.cu"
	expect_rc 0
	expect_out "PASS square"
	expect_err "not counted: $SQ/solution.cu is not your copy of square ($home/work/square/kernel.cu)"
	clenv CUDALAB_HOME="$home" "$BIN" solution square
	expect_rc 1
	mkdir -p "$home/work/square"
	cp "$SQ/solution.cu" "$home/work/square/kernel.cu"
	clenv CUDALAB_HOME="$home" "$BIN" check square
	clenv CUDALAB_HOME="$home" "$BIN" solution square
	expect_rc 0
	expect_out "SOLUTION-MARKER"
	[ ! -s "$T/err" ] || note "a warning after a pass"
}

reset_keeps_a_backup() {
	echo "// my edits" >"$WORK"
	cl reset square
	expect_rc 0
	cmp -s "$WORK" "$SQ/kernel.cu" || note "the copy is not the starter"
	[ "$(cat "$WORK.bak" 2>/dev/null)" = "// my edits" ] || note "no .bak with the old copy"
	expect_out "$WORK.bak"
}

# --- watch ------------------------------------------------------------------
watch_rechecks_on_save() {
	home=$T/watch-home
	work=$home/work/square/kernel.cu
	CUDALAB_HOME=$home "$BIN" watch square >"$T/wout" 2>"$T/werr" &
	wpid=$!
	if wait_count "$T/wout" "Watching" 1 60; then
		# Saved the way many editors do: a new file renamed over the old.
		cp "$SQ/solution.cu" "$work.new" && mv "$work.new" "$work"
		wait_count "$T/wout" "PASS square" 1 60
		# Saved in place.
		cat "$FIX/variants/wrong.cu" >"$work"
		wait_count "$T/wout" "WRONG square" 2 60
	fi
	kill -INT "$wpid" 2>/dev/null
	wait "$wpid"
	wrc=$?
	[ "$wrc" = 0 ] || note "watch ended with $wrc after Ctrl-C"
	cp "$T/wout" "$T/out"
}

# --- what the counters say ---------------------------------------------------
# Each rule that gives advice fires on the kernel written for it
# (fixtures/run/programs/insight_rules.cu), naming that kernel; the
# harness suite checks that none fires on a reference solution.
insight_rules_fire_on_their_kernels() {
	tool=$(dirname "$BIN")/insight-lines
	[ -x "$tool" ] || { note "no $tool (make builds it)"; return; }
	cl run --backend simt --counters "$T/insight.json" "$FIX/programs/insight_rules.cu"
	expect_rc 0
	python3 -c 'import json, sys
print(json.dumps({"status": "pass", "simt": json.load(open(sys.argv[1]))}))' \
		"$T/insight.json" | "$tool" >"$T/findings" 2>&1 || note "$tool failed"
	for want in "advice coalescing: global stores in scatter_store: 32.0 sectors" \
		"advice banks: shared memory in column_read:" \
		"advice divergence: " "advice local: local memory in local_array:"; do
		grep -qF -- "$want" "$T/findings" || note "no finding: $want"
	done
	grep -q "^advice divergence: .* in sparse_branch diverged" "$T/findings" ||
		note "the divergence advice does not name sparse_branch"
	[ "$(grep -c '^advice' "$T/findings")" = 4 ] || note "$(cat "$T/findings")"
}

# --- the time model ----------------------------------------------------------
# A prediction depends on the program and the device alone: the same in
# every run, though the arena's base moves each time (its kernel reread's
# time turns on which lines share a cache set), and with one worker, two
# or three (busy is sampled, and the budget counts instructions, never
# seconds): fixtures/run/programs/predict_repeat.cu.
simt_predictions_repeat_exactly() {
	for k in 1 2 3; do
		rm -f "$T/pred$k"
		clenv CUDALAB_CONTENT="$SRC" CUDALAB_SIMT_THREADS=$k CUDALAB_SIMT_PREDICT_BUDGET=1 \
			CUDALAB_SIMT_PREDICT_OUT="$T/pred$k" "$BIN" run --backend simt \
			--predict h100-sxm "$FIX/programs/predict_repeat.cu"
		expect_rc 0
	done
	python3 -c 'import json, sys
runs = [[json.loads(l) for l in open(f)] for f in sys.argv[1:]]
keys = [[(x["kernel"], x["us"], x["blocks_run"], x["warp_instructions_run"]) for x in r]
        for r in runs]
for k in keys[1:]:
    if k != keys[0]:
        sys.exit("runs differ: %s and %s" % (keys[0], k))
first = {x["kernel"]: x for x in runs[0]}
if first["busy"]["blocks_run"] >= first["busy"]["blocks"]:
    sys.exit("busy was not sampled: the budget did not bite")
if first["reread"]["blocks_run"] != first["reread"]["blocks"]:
    sys.exit("reread was sampled")' "$T/pred1" "$T/pred2" "$T/pred3" >"$T/why" 2>&1 ||
		note "$(cat "$T/why")"
}

# An exercise whose check reads simt's modelled timeline ("timeline: true":
# ring-attention-peer asks its copies to overlap its kernels) is checked
# with the time model on even when predictions are off, and shows no
# prediction then: a ring that queues its copies on the attention's
# stream fails the overlap case, the reference passes.
timeline_exercise_needs_no_predict() {
	home=$T/timeline-home
	mkdir -p "$home"
	printf 'predict = off\n' >"$home/config"
	sed -f "$SRC/tests/harness/wrong/ring-attention-peer/copy-on-the-compute-stream.sed" \
		"$SRC/exercises/ring-attention-peer/solution.cu" >"$T/serial.cu"
	for f in "$T/serial.cu" "$SRC/exercises/ring-attention-peer/solution.cu"; do
		clenv CUDALAB_GPU=0 CUDALAB_HOME="$home" CUDALAB_CONTENT="$SRC" \
			"$BIN" check ring-attention-peer --file "$f" --json
		cp "$T/out" "$T/timeline-$(basename "$f").json"
	done
	cp "$T/timeline-serial.cu.json" "$T/out"
	json_expect "d['status'] == 'wrong' and 'prediction' not in d and [c['name'] for c in d['cases'] if c['status'] != 'pass'] == ['copy/compute overlap ranks=3 n=33 d=16', 'copy/compute overlap ranks=4 n=16 d=32']"
	cp "$T/timeline-solution.cu.json" "$T/out"
	json_expect "d['status'] == 'pass' and 'prediction' not in d and sum(1 for c in d['cases'] if c['name'].startswith('copy/compute overlap') and 'not checked' not in c['name']) == 2"
}

# --- run ------------------------------------------------------------------
run_returns_the_programs_code() {
	cl run "$FIX/programs/exit7.c" -- one "two words"
	expect_rc 7
	expect_out "arg 2: two words"
	echo "from stdin" |
		"$BIN" run -D 'GREETING="hello"' "$FIX/programs/echo.cu" >"$T/out" 2>"$T/err"
	rc=$?
	expect_rc 0
	expect_out "from stdin"
	expect_out "hello"
	cl run "$FIX/programs/answer.cc"
	expect_rc 3
	expect_out "cc: 42"
}

run_signal_timeout_compile_error() {
	cl run "$FIX/programs/abort.cpp"
	expect_rc $((128 + 6))
	start=$(date +%s)
	cl run --timeout 1 "$FIX/programs/spin.c"
	expect_rc 124
	[ $(( $(date +%s) - start )) -lt 30 ] || note "the timeout did not stop it"
	cl run "$FIX/programs/broken.cu"
	expect_rc 125
	expect_err "broken.cu(3): error"
	# what simt lacks is named after the linker's own lines
	cl run --backend simt "$FIX/programs/semaphore.cu"
	expect_rc 125
	expect_err "cudalab: run: simt does not implement cudaImportExternalSemaphore, cudaSignalExternalSemaphoresAsync ("
}

# The GPU bench report (tests/bench/exercises.sh) from recorded results:
# medians of three runs and each bar's verdict, worked out by hand from the
# fixtures in tests/fixtures/bench.
bench_exercises_report() {
	clenv BENCH_JSON_DIR="$SRC/tests/fixtures/bench" CUDALAB_BIN="$BIN" \
		sh "$SRC/tests/bench/exercises.sh" saxpy-bandwidth histogram transpose \
		sgemm-regblock sgemm-tiled stream-overlap ring-allreduce-peer tensor-parallel-mlp \
		ring-attention-peer
	expect_rc 1
	for re in \
		'^saxpy-bandwidth +pass +0\.2 +4100\.5 +83\.4 +0\.34 +ok: >= 80 % of peak bandwidth$' \
		'^histogram +pass +0\.1 +2700 +54\.9 +null +MISSED: < 80 % of peak bandwidth$' \
		'^transpose +wrong .*MISSED: the solution did not pass: wrong: 0/1 cases' \
		'^sgemm-regblock +pass +5\.0 .* +27\.5 +ok: 56\.0 % of cuBLAS \(49\.09 TFLOP/s\), bar 50 %$' \
		'^sgemm-tiled +pass +20 .* +6\.9 +ok: >= 10 % of peak FLOP/s$' \
		'^stream-overlap +pass +9\.0 +59\.6 +1\.2 +0\.03 +ok: 1\.32x back-to-back copies \(45\.00 GB/s\), bar 1\.2x$' \
		"^ring-allreduce-peer +pass +0\\.6 .*ok: 1\\.20x the model's 0\\.500 ms on h100-sxm, bar 1\\.5x\$" \
		"^tensor-parallel-mlp +pass +2\\.2 .*MISSED: 1\\.76x the model's 1\\.250 ms on h100-sxm, bar 1\\.5x\$" \
		'^ring-attention-peer +- .*\(no recorded result\)$'; do
		grep -qE -- "$re" "$T/out" || note "no line matching: $re"
	done
	clenv BENCH_JSON_DIR="$SRC/tests/fixtures/bench" CUDALAB_BIN="$BIN" \
		sh "$SRC/tests/bench/exercises.sh" saxpy-bandwidth sgemm-regblock
	expect_rc 0
	# every exercise has a bar, and every bar an exercise
	sed -n '/^BARS="/,/"$/p' "$SRC/tests/bench/exercises.sh" | sed 's/^BARS="//' |
		awk '{ print $1 }' | sort >"$T/bars"
	for d in "$SRC"/exercises/*/; do basename "$d"; done | sort >"$T/exercises"
	cmp -s "$T/bars" "$T/exercises" ||
		note "tests/bench/exercises.sh: bars and exercises differ: $(diff "$T/bars" "$T/exercises" | grep '^[<>]' | tr '\n' ' ')"
}

run_usage_errors() {
	cl run --frobnicate "$FIX/programs/exit7.c"
	expect_rc 2
	[ "$(wc -l <"$T/err")" = 1 ] || note "not one line"
	cl run "$T/missing.cu"
	expect_rc 2
	cl run "$FIX/exercises/square/exercise.md"
	expect_rc 2
	expect_err "not a .cu, .cpp, .cc or .c file"
	cl run
	expect_rc 2
}

echo "run: $BIN, nvcc $NVCC"
for name in first_check_makes_the_copy syntax_error_names_the_file_and_line \
	wrong_answer_is_wrong hang_times_out_and_leaves_nothing crash_names_the_signal \
	flood_is_capped exit_without_result nvcc_missing_is_an_environment_error \
	gpu_without_gpu_is_an_environment_error cache_hit_skips_nvcc json_shape \
	attempts_are_recorded bench_reports_timing simt_attaches_counters \
	simt_hazards_and_schedules exercise_needing_three_gpus racy_reduce_sum_is_never_a_pass simt_bench_predicts_the_gpu_time ring_without_events_is_a_hazard host_and_graph_races_reach_the_verdict runaway_kernel_stopped_early budget_run_ignores_the_shells_predict remote_over_ssh_and_slurm remote_far_side_misbehaves forged_result_is_not_a_pass attacks_are_refused unprivileged_user_is_sandboxed file_inputs_are_checked device_kernel \
	hints_in_order_and_remembered solution_only_after_a_pass reset_keeps_a_backup \
	watch_rechecks_on_save run_returns_the_programs_code run_signal_timeout_compile_error \
	bench_exercises_report run_usage_errors insight_rules_fire_on_their_kernels \
	simt_predictions_repeat_exactly timeline_exercise_needs_no_predict; do
	# RUN_ONLY="name ..." runs just those
	case " ${RUN_ONLY:-$name} " in *" $name "*) t "$name" ;; esac
done
[ -z "$failed" ] || echo "run: failed:$failed"
echo "run: $pass passed, $fail failed"
[ "$fail" = 0 ]
