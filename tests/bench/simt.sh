#!/bin/sh
# `make bench-simt`: simt's speed in thread-instructions per second on a
# mix of an ALU-bound loop, a memory-bound saxpy and a shared-memory
# transpose, each beside the time the same work takes as single-threaded C
# (gcc -O2 -march=native).  Medians of RUNS runs (default 5).
# Target: at least 250 M thread-instructions/s on the mix.
set -eu
BUILD=${BUILD:-build}
NVCC=${NVCC:?NVCC must name nvcc}
RUNS=${RUNS:-5}
dir=$(cd "$(dirname "$0")" && pwd)/simt
out=$BUILD/bench-simt
mkdir -p "$out"
for p in alu saxpy transpose; do
	"$NVCC" --no-compress -lineinfo -cudart none -arch=sm_80 "$dir/$p.cu" -o "$out/$p" \
		-L"$BUILD" -lcudalab-simt -lpthread -lm
	${CC:-cc} -O2 -march=native -std=c11 -D_GNU_SOURCE "$dir/$p.c" -o "$out/$p-native" -lm
done
python3 - "$out" "$RUNS" <<'PY'
import json, os, subprocess, sys
out, runs = sys.argv[1], int(sys.argv[2])
def median(xs):
    xs = sorted(xs); return xs[len(xs) // 2]
print("%-10s %14s %12s %12s %12s %9s" % ("program", "thread-instr", "simt s", "M instr/s",
                                         "native C s", "slowdown"))
tot_i = tot_s = tot_n = 0.0
for p in ("alu", "saxpy", "transpose"):
    secs, natives, instrs = [], [], 0
    for _ in range(runs):
        counters = os.path.join(out, p + ".json")
        env = dict(os.environ, CUDALAB_SIMT_COUNTERS=counters)
        subprocess.run([os.path.join(out, p)], env=env, check=True, stdout=subprocess.DEVNULL)
        total = json.load(open(counters))["total"]
        instrs = total["thread_instructions"]; secs.append(total["seconds"])
        r = subprocess.run([os.path.join(out, p + "-native")], check=True,
                           capture_output=True, text=True)
        natives.append(float(r.stdout.split("seconds=")[1].split()[0]))
    s, n = median(secs), median(natives)
    tot_i += instrs; tot_s += s; tot_n += n
    print("%-10s %14d %12.4f %12.1f %12.5f %8.0fx" % (p, instrs, s, instrs / s / 1e6, n, s / n))
print("%-10s %14d %12.4f %12.1f %12.5f %8.0fx" % ("mix", tot_i, tot_s, tot_i / tot_s / 1e6, tot_n,
                                                  tot_s / tot_n))
print("target: >= 250 M thread-instructions/s on the mix (this machine: %d cores)" % os.cpu_count())
PY
