#!/bin/sh
# regress.sh — every fuzz target, built with the normal compiler and
# driver.c (no libFuzzer) in $BUILD/fuzz-regress, runs each seed in
# tests/fuzz/corpus/TARGET and each input that once broke it, kept in
# tests/fuzz/regress/TARGET.  A crash or a sanitizer report fails the suite.
# Ends with "fuzz-regress: N passed, M failed".
set -u
BUILD=${BUILD:-build}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-fuzz-regress.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0
for src in "$SRC"/tests/fuzz/fuzz_*.c; do
	t=${src##*/fuzz_}
	t=${t%.c}
	bin=$BUILD/fuzz-regress/fuzz_$t
	dirs=""
	for d in "$SRC/tests/fuzz/corpus/$t" "$SRC/tests/fuzz/regress/$t"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	if [ ! -x "$bin" ]; then
		echo "fuzz-regress: $bin is missing"
		fail=$((fail + 1))
		continue
	fi
	# shellcheck disable=SC2086
	if TMPDIR=$T "$bin" $dirs >"$T/log" 2>&1 && ! grep -q 'Sanitizer' "$T/log"; then
		pass=$((pass + 1))
	else
		echo "fuzz-regress: $t failed:"
		tail -n 40 "$T/log"
		fail=$((fail + 1))
	fi
done
echo "fuzz-regress: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
