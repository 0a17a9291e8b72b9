#!/bin/sh
# How long an unchanged re-check takes next to the program's own run: the
# target is the program's time plus at most 100 ms.  Medians of 5 runs.
#
#   CUDALAB_BIN=/abs/build/cudalab NVCC=nvcc sh tests/run/bench.sh [EX [FILE]]
#
# EX defaults to the fixture exercise "square" (host code only, built as
# for a GPU, so it runs anywhere); give CUDALAB_CONTENT to time a real
# exercise, and BACKEND=gpu|simt to choose the backend.  FILE defaults to
# the exercise's solution.cu.  Prints both times side by side and exits 1
# when the overhead is over the target.
set -u
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
if [ -z "${NVCC:-}" ]; then
	echo "bench: nvcc not found: skipped"
	exit 0
fi
SRC=$(cd "$(dirname "$0")/../.." && pwd)
EX=${1:-square}
if [ -z "${CUDALAB_CONTENT:-}" ]; then
	CUDALAB_CONTENT=$SRC/tests/fixtures/run
	# The fixture needs no device: build it as for a GPU wherever this runs.
	export CUDALAB_GPU="${CUDALAB_GPU:-1}"
fi
FILE=${2:-$CUDALAB_CONTENT/exercises/$EX/solution.cu}
T=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
export CUDALAB_HOME="$T/home" CUDALAB_CONTENT CUDALAB_NVCC="$NVCC"

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
median() { sort -n | sed -n 3p; }

# The first check builds the program into the cache.
if ! "$BIN" check "$EX" --file "$FILE" --backend "${BACKEND:-auto}" >"$T/first" 2>&1; then
	echo "bench: the first check of $EX did not pass:"
	sed 's/^/  | /' "$T/first"
	exit 1
fi
prog=$(find "$CUDALAB_HOME/cache" -name prog -type f | head -n 1)
: >"$T/check"
: >"$T/prog"
for _ in 1 2 3 4 5; do
	t0=$(now_ms)
	"$BIN" check "$EX" --file "$FILE" --backend "${BACKEND:-auto}" >/dev/null 2>&1
	t1=$(now_ms)
	"$prog" --mode check >/dev/null 2>&1
	t2=$(now_ms)
	echo $((t1 - t0)) >>"$T/check"
	echo $((t2 - t1)) >>"$T/prog"
done
check=$(median <"$T/check")
alone=$(median <"$T/prog")
over=$((check - alone))
printf '%-28s %8s ms\n' "cached re-check ($EX)" "$check" "program alone" "$alone" \
	"overhead (target < 100)" "$over"
[ "$over" -lt 100 ]
