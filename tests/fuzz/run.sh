#!/bin/sh
# run.sh TARGET... — runs each libFuzzer target $FUZZ_DIR/fuzz_TARGET for
# $FUZZ_SECONDS seconds, $FUZZ_JOBS of them at a time, starting from the
# seeds in tests/fuzz/corpus/TARGET (read, never written: new inputs go to
# a scratch directory).  An input that crashes, leaks, trips a sanitizer,
# runs over 1 s or allocates past the limits is saved under
# $FUZZ_DIR/crashes/TARGET/ and the whole log kept in
# $FUZZ_DIR/logs/TARGET.log.  Prints one line per target,
#   fuzz TARGET: N runs, C crashes
# and exits 1 when any target found something.
set -u
FUZZ_DIR=${FUZZ_DIR:-build/fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-20}
FUZZ_JOBS=${FUZZ_JOBS:-1}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-fuzz.XXXXXX")
trap 'rm -rf "$SCRATCH"' EXIT INT TERM
mkdir -p "$FUZZ_DIR/logs" "$FUZZ_DIR/crashes"

# One target; writes "RUNS CRASHES" to $SCRATCH/TARGET.result.
fuzz_one() {
	t=$1
	bin=$FUZZ_DIR/fuzz_$t
	art=$FUZZ_DIR/crashes/$t
	log=$FUZZ_DIR/logs/$t.log
	mkdir -p "$art" "$SCRATCH/$t"
	before=$(ls "$art" | wc -l)
	# TMPDIR: the targets that need files make them in the scratch area
	TMPDIR=$SCRATCH "$bin" -max_total_time="$FUZZ_SECONDS" -timeout=1 \
		-rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
		-close_fd_mask=3 -artifact_prefix="$art/" \
		"$SCRATCH/$t" "$SRC/tests/fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
	if [ -z "$runs" ]; then
		runs=$(sed -n 's/^#\([0-9][0-9]*\)[[:space:]].*/\1/p' "$log" | tail -n 1)
	fi
	crashes=$(( $(ls "$art" | wc -l) - before ))
	if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
		crashes=1
	fi
	echo "${runs:-0} $crashes" >"$SCRATCH/$t.result"
}

status=0
set -- "$@"
while [ $# -gt 0 ]; do
	batch=""
	i=0
	while [ $# -gt 0 ] && [ "$i" -lt "$FUZZ_JOBS" ]; do
		if [ ! -x "$FUZZ_DIR/fuzz_$1" ] || [ ! -d "$SRC/tests/fuzz/corpus/$1" ]; then
			echo "fuzz $1: no target $FUZZ_DIR/fuzz_$1 or no corpus tests/fuzz/corpus/$1" >&2
			exit 2
		fi
		fuzz_one "$1" &
		batch="$batch $1"
		i=$((i + 1))
		shift
	done
	wait
	for t in $batch; do
		read -r runs crashes <"$SCRATCH/$t.result"
		echo "fuzz $t: $runs runs, $crashes crashes"
		[ "$crashes" -eq 0 ] || status=1
	done
done
exit $status
