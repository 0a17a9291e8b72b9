#!/bin/sh
# `make bench-checks`: the wall time of `cudalab check EX --backend simt`
# with every exercise's reference solution (the build cached), with simt's
# hazard checks on (the default) and off (CUDALAB_SIMT_CHECKS=0).  Both run
# the two schedules a check uses.  Medians of RUNS runs (default 5).
# Target: checks on within 2x of checks off.
set -eu
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
RUNS=${RUNS:-5}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
home=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-bench-checks.XXXXXX")
trap 'rm -rf "$home"' EXIT INT TERM
python3 - "$BIN" "$SRC" "$home" "$RUNS" <<'PY'
import math, os, subprocess, sys, time
binary, src, home, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def median(xs):
    xs = sorted(xs); return xs[len(xs) // 2]
def check(ex, checks):
    env = dict(os.environ, CUDALAB_HOME=home, CUDALAB_CONTENT=src, CUDALAB_GPU="0",
               CUDALAB_SIMT_CHECKS=checks)
    start = time.monotonic()
    r = subprocess.run([binary, "check", ex, "--backend", "simt", "--file",
                        os.path.join(src, "exercises", ex, "solution.cu")],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return time.monotonic() - start, r.stdout.split("\n")[0]
print("%-26s %10s %10s %7s  %s" % ("exercise", "on s", "off s", "on/off", "verdict"))
logs, bad = [], 0
for ex in sorted(os.listdir(os.path.join(src, "exercises"))):
    if not os.path.exists(os.path.join(src, "exercises", ex, "solution.cu")):
        continue
    check(ex, "1")  # builds, then the cache serves
    on, off = [], []
    for _ in range(runs):
        t, verdict = check(ex, "1"); on.append(t)
        t, _ = check(ex, "0"); off.append(t)
    a, b = median(on), median(off)
    logs.append(math.log(a / b))
    bad += not verdict.startswith("PASS")
    print("%-26s %10.3f %10.3f %6.2fx  %s" % (ex, a, b, a / b, verdict.split(":")[0]))
print("%-26s %10s %10s %6.2fx  (geometric mean)" % ("all", "", "", math.exp(sum(logs) / len(logs))))
print("target: checks on within 2x of checks off (this machine: %d cores)" % os.cpu_count())
sys.exit(1 if bad else 0)
PY
