#!/bin/sh
# run.sh — the layer check, build-aux/check-layers.sh, against the tree as
# it is (it must pass) and against copies of the tree with one fault
# planted each, which it must find and name: an include that reaches up a
# room, two rooms that include each other, an include without its room, a
# file outside every room, and an application module including a header
# the module table of docs/architecture.md does not give it.
# Ends with "layers: N passed, M failed".
set -u
SRC=$(cd "$(dirname "$0")/../.." && pwd)
CHECK=$SRC/build-aux/check-layers.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-layers.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "  ok   $1"; }
bad() {
	fail=$((fail + 1))
	echo "  FAIL $1: $2"
	sed 's/^/       | /' "$T/out"
}

# A fresh copy of what the check reads.
fresh() {
	rm -rf "$T/tree"
	mkdir -p "$T/tree/docs"
	cp -R "$SRC/src" "$SRC/include" "$T/tree/" &&
		cp "$SRC/docs/architecture.md" "$T/tree/docs/"
}

# plant FILE TEXT: puts the line TEXT after the first #include of FILE (in
# the copy) and sets $at to "FILE:LINE" of the planted line.
plant() {
	n=$(grep -n '^#include' "$T/tree/$1" | head -n 1 | cut -d: -f1)
	awk -v n="$n" -v t="$2" '{ print } NR == n { print t }' "$T/tree/$1" >"$T/planted" &&
		mv "$T/planted" "$T/tree/$1"
	at="$1:$((n + 1))"
}

# expect_fail NAME TEXT: the check fails on the copy and prints TEXT.
expect_fail() {
	if sh "$CHECK" "$T/tree" >"$T/out" 2>&1; then
		bad "$1" "passed"
	elif ! grep -qF -- "$2" "$T/out"; then
		bad "$1" "no line with: $2"
	elif ! grep -q '^check-layers: [0-9]* passed, [1-9][0-9]* failed$' "$T/out"; then
		bad "$1" "no count of the failed files"
	else
		ok "$1"
	fi
}

fresh
if sh "$CHECK" "$T/tree" >"$T/out" 2>&1 && grep -q ', 0 failed$' "$T/out"; then
	ok the_tree_passes
else
	bad the_tree_passes "failed"
fi

fresh
plant src/simt/exec/sched.c '#include "check/hazard.h"'
expect_fail upward_include "$at: exec includes check/hazard.h: check is above exec"

fresh
plant src/simt/exec/exec.c '#include "runtime/runtime.h"'
expect_fail rooms_include_each_other "exec and runtime include each other: src/simt/$(echo "$at" | sed 's|^src/simt/||') (exec -> runtime)"

fresh
plant src/simt/ptx/ptx.c '#include "ptx_int.h"'
expect_fail include_without_room "$at: includes \"ptx_int.h\" without its room"

fresh
printf '/* nothing */\n' >"$T/tree/src/simt/stray.c"
expect_fail file_outside_rooms "src/simt/stray.c:1: not in a room"

fresh
plant src/store/store.c '#include "cudalab/tui.h"'
expect_fail module_reaches_up "$at: store includes cudalab/tui.h, which the module table of docs/architecture.md does not give it"

echo "layers: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
