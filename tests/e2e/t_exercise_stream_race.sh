# The exercise screen shows a race between streams with both sides: the
# ring-allreduce-peer reference solution with its cudaStreamWaitEvent
# calls taken out.  Every value matches (simt runs one operation at a
# time), and the check is still a hazard naming the kernel's line, the
# copy and the two streams.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
grep -v 'cudaStreamWaitEvent' "$SRC/exercises/ring-allreduce-peer/solution.cu" \
	>"$HOME_DIR/nowait.cu"
printf '#!/bin/sh\ncp "%s" "$1"\n' "$HOME_DIR/nowait.cu" >"$HOME_DIR/editor.sh"
chmod +x "$HOME_DIR/editor.sh"
EXTRA_ENV="EDITOR='$HOME_DIR/editor.sh' VISUAL= CUDALAB_GPU=0"
COLS=160 ROWS=50
start read ring-allreduce-peer
wait_for "Exercise:"
keys e
wait_for "press c to check"
keys c
wait_for "HAZARD" 240
keys v
wait_for "race in global memory in add_chunk"
wait_for "global write at kernel.cu:14, block (0,0,0) thread (0,0,0) on stream"
wait_for "global read by cudaMemcpyAsync on stream"
wait_for "14 | dst[i] += src[i];"
wait_for "in different streams with no event or synchronization between them"
keys q
keys q
wait_for "EXITED-0"
