#!/bin/sh
# `make bench-simt`: simt's speed in thread-instructions per second on a
# mix of an ALU-bound loop, a memory-bound saxpy and a shared-memory
# transpose, each beside the time the same work takes as single-threaded C
# (gcc -O2 -march=native), with simt's hazard checks off and on.  Medians
# of RUNS runs (default 5).  Then, on its own line, a register-tiled SGEMM
# (float4 shared tiles, 8x8 outputs per thread) the same way; simt's
# cuBLAS, a 1024^3 cublasSgemm (native C on every core, not interpreted),
# in GFLOP/s beside the plain single-threaded triple loop; and, each way
# (median of up to 3 runs), the tiled GEMM of the CUDA samples' matrixMul
# at its default size.  Targets, all with the checks on: at least 1 G
# thread-instructions/s on the mix and at most 10x native C (on/C), 500 M
# on the SGEMM, under 20 s for the matrixMul-style GEMM.
set -eu
BUILD=${BUILD:-build}
NVCC=${NVCC:?NVCC must name nvcc}
RUNS=${RUNS:-5}
dir=$(cd "$(dirname "$0")" && pwd)/simt
out=$BUILD/bench-simt
mkdir -p "$out"
for p in alu saxpy transpose sgemm cublas matmul; do
	"$NVCC" --no-compress -lineinfo -cudart none -arch=sm_80 "$dir/$p.cu" -o "$out/$p" \
		-L"$BUILD" -lcudalab-simt -lpthread -lm
	[ -f "$dir/$p.c" ] || continue
	${CC:-cc} -O2 -march=native -std=c11 -D_GNU_SOURCE "$dir/$p.c" -o "$out/$p-native" -lm
done
python3 - "$out" "$RUNS" <<'PY'
import json, os, subprocess, sys
out, runs = sys.argv[1], int(sys.argv[2])
def median(xs):
    xs = sorted(xs); return xs[len(xs) // 2]
def simt_run(p, checks):
    counters = os.path.join(out, p + ".json")
    env = dict(os.environ, CUDALAB_SIMT_COUNTERS=counters, CUDALAB_SIMT_CHECKS=checks)
    subprocess.run([os.path.join(out, p)], env=env, check=True, stdout=subprocess.DEVNULL)
    total = json.load(open(counters))["total"]
    return total["thread_instructions"], total["seconds"]
print("simt with its hazard checks off (CUDALAB_SIMT_CHECKS=0) and on (the default),")
print("beside single-threaded native C; medians of %d runs" % runs)
print("%-10s %13s %9s %9s %9s %9s %8s %10s %6s %6s" % (
    "program", "thread-instr", "off s", "off M/s", "on s", "on M/s", "on/off",
    "native s", "off/C", "on/C"))
def measure(p):
    offs, ons, natives, instrs = [], [], [], 0
    for _ in range(runs):
        instrs, s = simt_run(p, "0"); offs.append(s)
        _, s = simt_run(p, "1"); ons.append(s)
        r = subprocess.run([os.path.join(out, p + "-native")], check=True,
                           capture_output=True, text=True)
        natives.append(float(r.stdout.split("seconds=")[1].split()[0]))
    return instrs, median(offs), median(ons), median(natives)
def row(p, instrs, off, on, n):
    print("%-10s %13d %9.4f %9.1f %9.4f %9.1f %7.2fx %10.5f %5.1fx %5.1fx" % (
        p, instrs, off, instrs / off / 1e6, on, instrs / on / 1e6, on / off, n,
        off / n, on / n))
tot = {"i": 0, "off": 0.0, "on": 0.0, "n": 0.0}
for p in ("alu", "saxpy", "transpose"):
    instrs, off, on, n = measure(p)
    tot["i"] += instrs; tot["off"] += off; tot["on"] += on; tot["n"] += n
    row(p, instrs, off, on, n)
row("mix", tot["i"], tot["off"], tot["on"], tot["n"])
print("target: >= 1000 M thread-instructions/s on the mix with checks on, and at most 10x the native C "
      "time (on/C; this machine: %d cores)" % os.cpu_count())
print()
row("sgemm", *measure("sgemm"))
print("target: >= 500 M thread-instructions/s on the register-tiled SGEMM")
print()
def gflops(cmd):
    r = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return float(r.split("seconds=")[1].split()[0]), float(r.split("gflops=")[1].split()[0])
cb = [gflops([os.path.join(out, "cublas")]) for _ in range(runs)]
nv = [gflops([os.path.join(out, "cublas-native")]) for _ in range(runs)]
s, g = median(cb)
ns, ng = median(nv)
print("cublasSgemm 1024^3 on simt: %.3f s, %.1f GFLOP/s; plain triple loop in C "
      "(one thread, -O2 -march=native): %.3f s, %.1f GFLOP/s" % (s, g, ns, ng))
print("target: well under 1 s")
print()
# Timed as a learner runs it (no counters, which cost extra work per
# access), at most 3 runs each way: the 301 launches take 10 to 20 s.
import time
mruns = max(1, min(runs, 3))
for checks in ("0", "1"):
    env = dict(os.environ, CUDALAB_SIMT_CHECKS=checks)
    env.pop("CUDALAB_SIMT_COUNTERS", None)
    walls = []
    for _ in range(mruns):
        t0 = time.monotonic()
        subprocess.run([os.path.join(out, "matmul")], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        walls.append(time.monotonic() - t0)
    print("matrixMul-style tiled GEMM (320x320 * 320x640, 32x32 tiles, 301 launches), "
          "checks %s: %.1f s wall (median of %d)" % (
              "off" if checks == "0" else "on", median(walls), mruns))
print("target: < 20 s at this size with the checks on")
PY
