# lib.sh — helpers shared by the script suites that drive the cudalab
# binary (tests/run/run.sh, tests/remote/run.sh).  The sourcing script sets
# BIN (the binary) and T (a scratch directory); a test is a shell function
# that calls note for each thing that is wrong, run by t.
pass=0
fail=0
failed=""

# cl ARGS: runs cudalab; stdout in $T/out, stderr in $T/err, status in $rc
cl() {
	"$BIN" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
# clenv NAME=VALUE... "$BIN" ARGS: the same with a changed environment
clenv() {
	env "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
note() { why="$why
       $1"; }
expect_rc() { [ "$rc" = "$1" ] || note "exit status $rc, expected $1"; }
expect_out() { grep -qF -- "$1" "$T/out" || note "stdout lacks: $1"; }
expect_no_out() { ! grep -qF -- "$1" "$T/out" || note "stdout has: $1"; }
expect_err() { grep -qF -- "$1" "$T/err" || note "stderr lacks: $1"; }
# json_expect EXPR: EXPR, a Python expression over d (stdout parsed), holds
json_expect() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$T/out" "$1" 2>/dev/null || note "json: $1"
}
# gone PID: no such process, or only a zombie left
gone() {
	[ ! -e "/proc/$1" ] || [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]
}
# t NAME: runs the test function NAME and reports it
t() {
	why=""
	"$1"
	if [ -z "$why" ]; then
		pass=$((pass + 1))
		echo "  ok   $1"
	else
		fail=$((fail + 1))
		failed="$failed $1"
		echo "  FAIL $1$why"
		sed -n '1,15s/^/       | /p' "$T/out" "$T/err" 2>/dev/null
	fi
}
