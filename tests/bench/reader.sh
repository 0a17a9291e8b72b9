#!/bin/sh
# Reader benchmarks, each printed beside its reference:
#  1. `cudalab read FILE --plain` on a 1 MB Markdown file made from the
#     lessons, beside `lowdown -tterm` on the same file (target: no slower);
#  2. time from start to the first painted home screen with all the content
#     (target: under 50 ms), measured through a pseudo-terminal.
# Medians of RUNS runs (default 9).
set -eu
BIN=${CUDALAB_BIN:?CUDALAB_BIN must name the cudalab binary}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
RUNS=${RUNS:-9}
tmp=$(mktemp -d /tmp/cudalab-bench-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# 1 MB of real lesson Markdown (bodies only, front matter dropped)
: >"$tmp/big.md"
while [ "$(wc -c <"$tmp/big.md")" -lt 1048576 ]; do
	for f in "$SRC"/lessons/*.md; do sed '1,/^---$/d' "$f" >>"$tmp/big.md"; done
done
size=$(wc -c <"$tmp/big.md")

# median_ms CMD...: runs CMD RUNS times (output to /dev/null), prints the median
median_ms() {
	python3 - "$RUNS" "$@" <<'PY'
import subprocess, sys, time
runs = int(sys.argv[1]); cmd = sys.argv[2:]
times = []
for _ in range(runs):
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    times.append((time.perf_counter() - t) * 1000)
times.sort()
print("%.1f" % times[len(times) // 2])
PY
}

ours=$(median_ms "$BIN" read "$tmp/big.md" --plain --width 80)
if command -v lowdown >/dev/null 2>&1; then
	theirs=$(median_ms lowdown -tterm --term-width=80 "$tmp/big.md" 2>/dev/null ||
		median_ms lowdown -tterm "$tmp/big.md")
else
	theirs="n/a (apt-get install lowdown)"
fi
printf '%-44s %10s ms   lowdown -tterm: %s ms\n' "render $size bytes, --plain --width 80:" "$ours" "$theirs"

# start-up: spawn the lab in a pty and wait for the home screen's last row
python3 - "$BIN" "$SRC" "$RUNS" <<'PY'
import os, pty, select, sys, time, tempfile, signal
binary, src, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
home = tempfile.mkdtemp(prefix="cudalab-bench-home-")
times = []
for _ in range(runs):
    t = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(TERM="xterm-256color", LANG="C.UTF-8", CUDALAB_HOME=home,
                          CUDALAB_CONTENT=src, LINES="24", COLUMNS="80")
        os.environ.pop("NO_COLOR", None)
        os.execv(binary, [binary])
    seen = b""
    # the status bar is painted last: its hint, or a warning about content
    while b"q: quit" not in seen and b"validate')" not in seen:
        r, _, _ = select.select([fd], [], [], 5)
        if not r:
            raise SystemExit("no home screen within 5 s")
        seen += os.read(fd, 65536)
    times.append((time.perf_counter() - t) * 1000)
    os.write(fd, b"q")
    os.waitpid(pid, 0)
    os.close(fd)
times.sort()
print("%-44s %10.1f ms   target: < 50 ms" % ("start to first painted home screen:", times[len(times) // 2]))
PY
