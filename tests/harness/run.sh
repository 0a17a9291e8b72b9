#!/bin/sh
# Tests of the exercise harness: the host-side checks of lab.h
# (tests/harness/test_lab.cu), lab::Lab end to end against a stand-in CUDA
# runtime (tests/harness/test_lab_device.cpp), then every exercise: its
# harness builds with its solution and with its starter, and both run (on
# simt judged as cudalab judges a check: a worker and a checker).
# With a GPU the solution must pass and the starter must not; without one,
# both must report a well-formed runtime_error on the result descriptor and
# exit 2.  When $BUILD/libcudalab-simt.a links an exercise, it runs there too,
# with as many simulated devices as its "gpus: N" asks for, and so do the
# known wrong solutions of tests/harness/wrong/EXERCISE/ (see
# wrong_solutions below): each must fail as its header says.  Exercises that
# include nccl.h are linked with -lnccl for the GPU, and run on simt only
# when no NCCL library is installed or the machine has fewer GPUs than they
# need.
#
# Run from the repository root with NVCC naming nvcc (empty: skipped);
# SANITIZE=address,undefined builds the two test programs with sanitizers.
# Ends with "harness: N passed, M failed".
set -u
# Nothing here reads the terminal: programs that copy their stdin get
# an empty one, so the suite never waits for Ctrl-D.
exec </dev/null
NVCC=${NVCC:-}
BUILD=${BUILD:-build}
if [ -z "$NVCC" ]; then
	echo "harness: nvcc not found: skipped (install the CUDA toolkit)"
	echo "harness: 0 passed, 0 failed"
	exit 0
fi

pass=0
fail=0
failed=""
ok() { pass=$((pass + 1)); }
bad() {
	fail=$((fail + 1))
	failed="$failed $1"
	echo "FAIL $1${2:+: $2}"
}

TMP=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-harness.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT INT TERM

# --- lab.h: host checks, then the Lab against a stand-in runtime ----------
# tally NAME OUTPUT_FILE RC: adds a test program's "NAME: N checks passed,
# M failed" line to the totals; a crash or a missing line is one failure.
tally() {
	line=$(grep "^$1: " "$2" | tail -n 1)
	np=$(echo "$line" | sed -n 's/^.*: \([0-9]*\) checks passed, \([0-9]*\) failed$/\1/p')
	nf=$(echo "$line" | sed -n 's/^.*: \([0-9]*\) checks passed, \([0-9]*\) failed$/\2/p')
	if [ -n "$np" ] && [ -n "$nf" ]; then
		pass=$((pass + np))
		fail=$((fail + nf))
		[ "$nf" -eq 0 ] || failed="$failed $1"
	fi
	if [ "$3" -ne 0 ] && { [ -z "$nf" ] || [ "$nf" -eq 0 ]; }; then
		bad "$1" "exited $3"
	fi
}

# With SANITIZE (as make passes it: "address,undefined") both test programs
# are built with those sanitizers.  nvcc splits -Xcompiler values at commas,
# so each one goes on its own.
san=""
if [ -n "${SANITIZE:-}" ]; then
	for s in $(echo "$SANITIZE" | tr ',' ' '); do
		san="$san -Xcompiler=-fsanitize=$s"
	done
	san="$san -Xcompiler=-fno-sanitize-recover=all -Xcompiler=-fno-omit-frame-pointer"
fi

# test_lab is CUDA C++ (linked with the CUDA runtime, never calling it);
# test_lab_device is plain C++ that brings its own runtime.
for t in test_lab test_lab_device; do
	case $t in
	test_lab) src=tests/harness/test_lab.cu; lang= ;;
	*) src=tests/harness/test_lab_device.cpp; lang="-x c++ -cudart none" ;;
	esac
	# shellcheck disable=SC2086
	if "$NVCC" -std=c++17 $lang $san -Iinclude -Xcompiler -Wall,-Wextra,-Wshadow,-Werror \
		"$src" -o "$TMP/$t" -lcjson >"$TMP/log" 2>&1; then
		ok
		"$TMP/$t" >"$TMP/out" 2>&1
		rc=$?
		cat "$TMP/out"
		tally "$t" "$TMP/out" "$rc"
	else
		cat "$TMP/log"
		bad "$t" "does not compile"
	fi
done

# --- lab.h's GPU timing on simt's modelled timeline -------------------------
# tests/harness/lab_timing.cu runs lab.time's GPU path (sample(), the L2
# flush, the events of every device) in a predicted bench, against times
# worked out by hand from the fixture device file tests/simt/devices/.
if [ -f "$BUILD/libcudalab-simt.a" ]; then
	lt_link=
	nm "$BUILD/libcudalab-simt.a" 2>/dev/null | grep -q __asan_init &&
		lt_link="$lt_link -Xcompiler=-fsanitize=address"
	nm "$BUILD/libcudalab-simt.a" 2>/dev/null | grep -q __ubsan_handle_ &&
		lt_link="$lt_link -Xcompiler=-fsanitize=undefined"
	# shellcheck disable=SC2086
	if "$NVCC" -std=c++17 -O2 --no-compress -arch=compute_80 -code=compute_80 -cudart none \
		-Iinclude $lt_link tests/harness/lab_timing.cu -L"$BUILD" -lcudalab-simt \
		-lpthread -lm -o "$TMP/lab_timing" >"$TMP/log" 2>&1; then
		for m in legacy nonblocking devices; do
			gpus=1
			[ "$m" = devices ] && gpus=2
			ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} CUDALAB_SIMT_GPUS=$gpus \
				CUDALAB_SIMT_PREDICT=timeline CUDALAB_SIMT_DEVICES=tests/simt/devices \
				CUDALAB_SIMT_PREDICT_QUIET=1 "$TMP/lab_timing" "$m" --mode bench \
				>"$TMP/out" 2>&1
			rc=$?
			sed "s/^/[$m] /" "$TMP/out" | grep -v '^\[[a-z]*\] {"schema"'
			tally lab_timing "$TMP/out" "$rc"
		done
	else
		cat "$TMP/log"
		bad lab_timing "does not compile"
	fi
fi

# status FILE: the "status" of a result file, empty when it is not one.
status() { "$TMP/test_lab" --status "$1" 2>/dev/null; }

# Each program run is limited in time (a starter may well loop forever).
limit=""
command -v timeout >/dev/null 2>&1 && limit="timeout 300"

# run_check NAME PROG [CHECKER [DEVICE]]: runs PROG --mode check with the
# result on fd 3 (and on simt $need simulated devices, and the counters in
# $TMP/NAME.counters); with CHECKER, as cudalab's judge runs it: PROG is
# the worker and CHECKER (the harness with the reference solution) judges
# it (judge.py); with DEVICE, both under simt's time model for that device
# file of devices/, as 'cudalab check --predict DEVICE' runs them.  Sets
# rc, st (its status) and nodev (1 when no device could be used); judged,
# $TMP/NAME.void holds a line for a run ahead that ended void (judge.py).
need=1
run_check() {
	judge=""
	[ -n "${3:-}" ] && judge="python3 tests/harness/judge.py $3"
	model_env=
	[ -z "${4:-}" ] || model_env="CUDALAB_SIMT_PREDICT=$4 CUDALAB_SIMT_DEVICES=devices
		CUDALAB_SIMT_PREDICT_QUIET=1 CUDALAB_SIMT_PREDICT_BUDGET=0"
	rm -f "$TMP/$1.void"
	# shellcheck disable=SC2086
	env $model_env CUDALAB_SIMT_GPUS=$need CUDALAB_SIMT_COUNTERS="$TMP/$1.counters" \
		JUDGE_VOID_LOG="$TMP/$1.void" \
		CUDALAB_RESULT_FD=3 $limit $judge "$2" --mode check 3>"$TMP/$1.json" \
		>"$TMP/$1.stdout" 2>"$TMP/$1.stderr"
	rc=$?
	st=$(status "$TMP/$1.json")
	nodev=0
	grep -q '"device":null' "$TMP/$1.json" 2>/dev/null && nodev=1
	if grep -q '"schema"' "$TMP/$1.stdout"; then
		bad "$1" "the result went to stdout, not to CUDALAB_RESULT_FD"
	fi
}

# no_advice EX: what cudalab reads in the counters of EX's reference
# solution on simt (run_insight_list, through $BUILD/insight-lines) gives
# no advice: the reference is the kernel the exercise holds up as right.
INSIGHTS=$BUILD/insight-lines
no_advice() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["backend"] = "simt"
d["simt"] = json.load(open(sys.argv[2]))
print(json.dumps(d))' "$TMP/$1-solution-simt.json" "$TMP/$1-solution-simt.counters" \
		>"$TMP/$1.result" 2>/dev/null || { bad "$1/solution (simt)" "no counters"; return; }
	"$INSIGHTS" <"$TMP/$1.result" >"$TMP/$1.findings"
	if grep -q '^advice' "$TMP/$1.findings"; then
		bad "$1/solution (simt)" "advice on a reference solution"
		grep '^advice' "$TMP/$1.findings"
	else
		ok
	fi
}

# verdict EX FILE: the solution must pass, the starter must be wrong (or
# fail at run time, which a starter may do on purpose).
verdict() {
	if [ "$2" = solution ]; then
		if [ "$rc" -eq 0 ] && [ "$st" = pass ]; then ok; return; fi
		bad "$1/solution${3:-}" "exit $rc, status '$st' (want 0, pass)"
	else
		if [ "$rc" -ne 0 ] && [ -n "$st" ] && [ "$st" != pass ]; then ok; return; fi
		bad "$1/kernel${3:-}" "the starter must fail its check: exit $rc, status '$st'"
	fi
	head -c 2000 "$TMP/$1-$2${3:+-simt}.json"
	head -c 2000 "$TMP/$1-$2${3:+-simt}.stderr"
}

# --- known wrong solutions -------------------------------------------------
# tests/harness/wrong/EX/NAME.cu is a whole wrong solution of exercise EX;
# NAME.sed is a sed script that turns EX's solution.cu into one (a script
# that no longer changes anything is a failure: the bug it plants is gone).
# Each is a corner the exercise teaches and its check must catch.  Lines
#     expect: STATUS   the status the check must end with (wrong, ...)
#     case: NAME       the first case that must fail (the result's mismatch)
# anywhere in the file, after a comment marker, say what catching it means;
# "expect: hazard" instead wants simt to report a hazard (a race between
# streams, say), whatever the values, and names no case.  A program that
# must die of a signal (which the runner reports as a runtime_error) says
#     expect: runtime_error
#     signal: SIGSEGV  (the signal's name, as kill -l gives it)
#     stderr: TEXT     a text its stderr must hold (one line each)
# A check that needs simt's time model (the overlap of copies and kernels
# on the modelled timeline) says
#     predict: DEVICE  (a device file of devices/)
# and then runs as 'cudalab check --predict DEVICE' runs it; so does EX's
# reference solution, once per DEVICE, which must pass there too.
# They run on simt only, where a run is the same on every machine.

# predicted_reference EX DEVICE: EX's reference passes, without a hazard,
# under the time model for DEVICE.
predicted_reference() {
	run_check "$1-solution-$2" "$TMP/$1-solution-simt" "$TMP/$1-solution-simt" "$2"
	if [ "$rc" -eq 0 ] && [ "$st" = pass ] &&
		! grep -q '^simt: ERROR SUMMARY' "$TMP/$1-solution-$2.stderr"; then
		ok
	else
		bad "$1/solution (simt, predicting $2)" "exit $rc, status '$st' (want 0, pass)"
		head -c 2000 "$TMP/$1-solution-$2.json"
	fi
}

# wrong_solutions EX DIR: builds and runs EX's wrong solutions against the
# harness object built for it.
wrong_solutions() {
	predicted=
	for w in tests/harness/wrong/"$1"/*.cu tests/harness/wrong/"$1"/*.sed; do
		[ -f "$w" ] || continue
		name=$1/$(basename "$w")
		want_st=$(sed -n 's/^[#/ ]*expect: *//p' "$w" | head -n 1)
		model=$(sed -n 's/^[#/ ]*predict: *//p' "$w" | head -n 1)
		[ -z "$model" ] || case " $predicted " in
		*" $model "*) ;;
		*)
			predicted="$predicted $model"
			predicted_reference "$1" "$model"
			;;
		esac
		want_case=$(sed -n 's/^[#/ ]*case: *//p' "$w" | head -n 1)
		want_sig=$(sed -n 's/^[#/ ]*signal: *SIG//p' "$w" | head -n 1)
		want_err=$(sed -n 's/^[#/ ]*stderr: *//p' "$w")
		src=$w
		case $w in
		*.sed)
			src=$TMP/wrong.cu
			sed -f "$w" "$2/solution.cu" >"$src"
			if cmp -s "$src" "$2/solution.cu"; then
				bad "$name" "the script no longer changes $2/solution.cu"
				continue
			fi
			;;
		esac
		# shellcheck disable=SC2086
		if ! "$NVCC" -std=c++17 -O2 -g --no-compress -arch=compute_80 -code=compute_80 \
			-Iinclude -c "$src" -o "$TMP/wrong.o" >"$TMP/log" 2>&1 ||
			! "$NVCC" -cudart none $SIMT_LINK "$TMP/$1-harness.o" "$TMP/wrong.o" \
				-L"$BUILD" -lcudalab-simt -lpthread -lm -o "$TMP/wrong-simt" \
				>>"$TMP/log" 2>&1; then
			cat "$TMP/log"
			bad "$name" "does not build with simt"
			continue
		fi
		run_check wrong "$TMP/wrong-simt" "$TMP/$1-solution-simt" "$model"
		if [ "$want_st" = wrong ]; then
			wrongs=$((wrongs + 1))
			[ -s "$TMP/wrong.void" ] && voids=$((voids + 1))
		fi
		if [ "$want_st" = hazard ]; then
			if grep -q '^simt: ERROR SUMMARY' "$TMP/wrong.stderr"; then ok; else
				bad "$name (simt)" "simt reported no hazard (exit $rc, status '$st')"
			fi
			continue
		fi
		if [ -n "$want_sig" ]; then
			# killed by that signal (the shell's status 128 + its number)
			lacks=$(printf '%s\n' "$want_err" | while IFS= read -r t; do
				[ -z "$t" ] || grep -qF -- "$t" "$TMP/wrong.stderr" || echo "$t"
			done)
			got_sig=
			[ "$rc" -le 128 ] || got_sig=$(kill -l $((rc - 128)))
			if [ "$got_sig" = "$want_sig" ] && [ -z "$lacks" ]; then
				ok
			else
				bad "$name (simt)" "exit $rc, want death by SIG$want_sig and stderr with: $lacks"
				head -c 2000 "$TMP/wrong.stderr"
			fi
			continue
		fi
		got_case=$(sed -n 's/.*"mismatch":{"case":"\([^"]*\)".*/\1/p' "$TMP/wrong.json")
		if [ "$rc" -ne 0 ] && [ -n "$want_st" ] && [ "$st" = "$want_st" ] &&
			[ "$got_case" = "$want_case" ]; then
			ok
		else
			bad "$name (simt)" "exit $rc, status '$st', first wrong case '$got_case' (want status '$want_st', case '$want_case')"
		fi
	done
}

# --- every exercise, on the GPU when there is one and on simt --------------
# Each source is compiled once, as PTX for compute_80 (what the runner builds
# for simt; a GPU of compute capability 8.0 or later runs it too), then
# linked with the CUDA runtime and, when the library is there, with simt.
SIMT_LIB=$BUILD/libcudalab-simt.a
# A library built with SANITIZE=... needs the sanitizer runtimes at link
# time; the harnesses' own host allocations are no leak of simt's.
SIMT_LINK=
if [ -f "$SIMT_LIB" ] && nm "$SIMT_LIB" 2>/dev/null | grep -q __asan_init; then
	SIMT_LINK="$SIMT_LINK -Xcompiler=-fsanitize=address"
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
	export ASAN_OPTIONS
fi
if [ -f "$SIMT_LIB" ] && nm "$SIMT_LIB" 2>/dev/null | grep -q __ubsan_handle_; then
	SIMT_LINK="$SIMT_LINK -Xcompiler=-fsanitize=undefined"
fi
# Devices on this machine (0 without nvidia-smi), and whether an NCCL
# library is there to link the exercises that include nccl.h against.
gpus_here=0
if command -v nvidia-smi >/dev/null 2>&1; then
	gpus_here=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')
fi
have_nccl=0
if printf 'int main(void){return 0;}\n' >"$TMP/nccl-probe.c" &&
	${CC:-cc} "$TMP/nccl-probe.c" -o "$TMP/nccl-probe" -lnccl >/dev/null 2>&1; then
	have_nccl=1
fi
ngpu=0
wrongs=0
voids=0
for dir in exercises/*/; do
	ex=$(basename "$dir")
	[ -f "$dir/harness.cu" ] || continue
	# HARNESS_ONLY="ex ..." runs just those exercises
	case " ${HARNESS_ONLY:-$ex} " in *" $ex "*) ;; *) continue ;; esac
	# "gpus: N" in the front matter: simt gets N devices, and a machine
	# with fewer GPUs skips the GPU run (the runner would refuse it too).
	need=$(sed -n 's/^gpus:[[:space:]]*\([0-9][0-9]*\)[[:space:]]*$/\1/p' "$dir/exercise.md" | head -n 1)
	need=${need:-1}
	nccl=""
	if grep -q '#include <nccl.h>' "$dir"/*.cu; then nccl=-lnccl; fi
	gpu_run=1
	if [ -n "$nccl" ] && [ "$have_nccl" -eq 0 ]; then
		echo "harness: $ex: no NCCL library here (libnccl): run on simt only"
		gpu_run=0
	elif [ "$need" -gt 1 ] && [ "$gpus_here" -gt 0 ] && [ "$gpus_here" -lt "$need" ]; then
		echo "harness: $ex needs $need GPUs, this machine has $gpus_here: run on simt only"
		gpu_run=0
	fi
	built=1
	for f in harness solution kernel; do
		# -g as the runner builds for simt, whose report of host code
		# touching device memory names its lines
		if ! "$NVCC" -std=c++17 -O2 -g --no-compress -lineinfo -arch=compute_80 \
			-code=compute_80 -Iinclude -c "$dir/$f.cu" -o "$TMP/$ex-$f.o" \
			>"$TMP/log" 2>&1; then
			cat "$TMP/log"
			bad "$ex/$f.cu" "does not compile"
			built=0
		fi
	done
	[ "$built" -eq 1 ] || continue
	for f in solution kernel; do
		if [ "$gpu_run" -eq 0 ]; then
			:
		elif "$NVCC" "$TMP/$ex-harness.o" "$TMP/$ex-$f.o" -o "$TMP/$ex-$f" $nccl \
			>"$TMP/log" 2>&1; then
			ok
			run_check "$ex-$f" "$TMP/$ex-$f"
			if [ "$nodev" -eq 1 ]; then
				# No usable GPU here: the failure must still be reported properly.
				if [ "$rc" -eq 2 ] && [ "$st" = runtime_error ]; then ok; else
					bad "$ex/$f" "without a device: exit $rc, status '$st'"
				fi
			else
				ngpu=1
				verdict "$ex" "$f"
			fi
		else
			cat "$TMP/log"
			bad "$ex/$f" "does not link"
			continue
		fi
		[ -f "$SIMT_LIB" ] || continue
		# shellcheck disable=SC2086
		if ! "$NVCC" -cudart none $SIMT_LINK "$TMP/$ex-harness.o" "$TMP/$ex-$f.o" \
			-L"$BUILD" -lcudalab-simt -lpthread -lm -o "$TMP/$ex-$f-simt" \
			>"$TMP/log" 2>&1; then
			cat "$TMP/log"
			bad "$ex/$f" "does not link with simt"
			continue
		fi
		# judged as a check is: the solution's own program is the checker
		run_check "$ex-$f-simt" "$TMP/$ex-$f-simt" "$TMP/$ex-solution-simt"
		verdict "$ex" "$f" "(simt)"
		# a reference solution is clean: no race, barrier misuse or
		# uninitialized read, in kernels, between streams or with the host
		if [ "$f" = solution ]; then
			# every output right: the run ahead is the run, never void
			[ ! -s "$TMP/$ex-$f-simt.void" ] ||
				bad "$ex/solution (simt)" "the run ahead ended void: an output was not right"
			if grep -q '^simt: ERROR SUMMARY' "$TMP/$ex-$f-simt.stderr"; then
				bad "$ex/solution (simt)" "simt reported hazards"
				grep '^simt: ' "$TMP/$ex-$f-simt.stderr" | head -c 2000
			else
				ok
			fi
			[ -x "$INSIGHTS" ] && no_advice "$ex"
		fi
	done
	[ -f "$SIMT_LIB" ] && wrong_solutions "$ex" "${dir%/}"
done
# a wrong solution's run ahead goes past its wrong output, ends void and
# is run again in lockstep: that path decided some wrong solution's verdict
if [ "$wrongs" -gt 0 ]; then
	if [ "$voids" -gt 0 ]; then ok; else
		bad "judge" "none of $wrongs wrong solutions' runs ahead ended void: the lockstep run after one was never tried"
	fi
fi
[ -x "$INSIGHTS" ] || echo "harness: $INSIGHTS not built: reference solutions not read for advice"
[ "$ngpu" -eq 1 ] || echo "harness: no usable GPU: runs checked for a proper runtime_error only"
[ -f "$SIMT_LIB" ] || echo "harness: $SIMT_LIB not built: nothing run on simt"

[ -z "$failed" ] || echo "harness: failed:$failed"
echo "harness: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
