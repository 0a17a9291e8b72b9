#!/bin/sh
# `make bench-judge`: what a check costs with this build beside a reference
# build: `cudalab check EX --backend simt --file exercises/EX/solution.cu`
# for every exercise (the build cached), the wall time and the CPU time
# (user + system of every process of the check), A and B alternating,
# medians of RUNS runs each (default 3).  Target: each within 1.3x of the
# reference's.
#
# The reference is REF_TREE, a source tree with its own build (build/cudalab),
# or else the git revision REF (default main), built once under
# $BUILD/bench-judge-ref/.  EXERCISES="a b" measures only those.
set -eu
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
BUILD=${BUILD:-build}
RUNS=${RUNS:-3}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
if [ -z "${REF_TREE:-}" ]; then
	rev=$(git -C "$SRC" rev-parse --verify "${REF:-main}^{commit}")
	REF_TREE=$(cd "$SRC" && mkdir -p "$BUILD/bench-judge-ref" && cd "$BUILD/bench-judge-ref" && pwd)/$rev
	if [ ! -x "$REF_TREE/build/cudalab" ]; then
		echo "building the reference ${REF:-main} ($rev) in $REF_TREE"
		rm -rf "$REF_TREE"
		mkdir -p "$REF_TREE"
		git -C "$SRC" archive "$rev" | tar -x -C "$REF_TREE"
		make -C "$REF_TREE" -j2 >"$REF_TREE.log" 2>&1 ||
			{ echo "bench-judge: building the reference failed: $REF_TREE.log" >&2; exit 1; }
	fi
fi
[ -x "$REF_TREE/build/cudalab" ] ||
	{ echo "bench-judge: $REF_TREE/build/cudalab is not a built cudalab" >&2; exit 1; }
home=$(mktemp -d "${TMPDIR:-/tmp}/cudalab-bench-judge.XXXXXX")
trap 'rm -rf "$home"' EXIT INT TERM
python3 - "$REF_TREE" "$BIN" "$SRC" "$home" "$RUNS" ${EXERCISES:-} <<'PY'
import math, os, resource, subprocess, sys, time
ref, binary, src, home, runs = sys.argv[1:6]
runs, only = int(runs), sys.argv[6:]
sides = {"ref": (os.path.join(ref, "build", "cudalab"), ref), "this": (binary, src)}
def median(xs):
    xs = sorted(xs); return xs[len(xs) // 2]
def check(side, ex):
    """Wall and CPU seconds of one check, and its verdict's first word."""
    exe, tree = sides[side]
    env = dict(os.environ, CUDALAB_HOME=os.path.join(home, side), CUDALAB_CONTENT=tree,
               CUDALAB_GPU="0")
    env.pop("CUDALAB_SIMT_CHECKS", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    r = subprocess.run([exe, "check", ex, "--backend", "simt", "--file",
                        os.path.join(tree, "exercises", ex, "solution.cu")],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, (r.stdout.split("\n")[0].split(" ") or ["?"])[0]
exs = only or sorted(e for e in os.listdir(os.path.join(src, "exercises"))
                     if os.path.exists(os.path.join(src, "exercises", e, "solution.cu")))
print("%-26s %8s %8s %6s   %8s %8s %6s  %s" % ("exercise", "ref s", "wall s", "ratio",
      "ref cpu", "cpu s", "ratio", "verdicts (ref, this)"), flush=True)
logs = {"wall": [], "cpu": []}
over = []
for ex in exs:
    for s in sides:
        check(s, ex)  # builds; from then on the cache serves
    t = {s: {"wall": [], "cpu": []} for s in sides}
    v = {}
    for i in range(runs):
        for s in (("ref", "this") if i % 2 == 0 else ("this", "ref")):
            wall, cpu, v[s] = check(s, ex)
            t[s]["wall"].append(wall)
            t[s]["cpu"].append(cpu)
    m = {s: {k: median(t[s][k]) for k in ("wall", "cpu")} for s in sides}
    ratio = {k: m["this"][k] / max(m["ref"][k], 1e-6) for k in ("wall", "cpu")}
    for k in ratio:
        logs[k].append(math.log(ratio[k]))
    mark = "  over 1.3x" if max(ratio.values()) > 1.3 else ""
    if mark:
        over.append(ex)
    print("%-26s %8.2f %8.2f %5.2fx   %8.2f %8.2f %5.2fx  %s, %s%s" % (
        ex, m["ref"]["wall"], m["this"]["wall"], ratio["wall"], m["ref"]["cpu"],
        m["this"]["cpu"], ratio["cpu"], v["ref"], v["this"], mark), flush=True)
print("%-26s %8s %8s %5.2fx   %8s %8s %5.2fx  (geometric means, %d exercises, "
      "medians of %d runs)" % ("all", "", "", math.exp(sum(logs["wall"]) / len(exs)), "", "",
                               math.exp(sum(logs["cpu"]) / len(exs)), len(exs), runs))
print("target: every exercise within 1.3x of the reference, wall and CPU; over: %s"
      % (", ".join(over) or "none"))
PY
