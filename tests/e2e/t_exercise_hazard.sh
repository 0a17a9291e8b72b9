# The exercise screen shows a race with both accesses and their source
# lines: reduce-sum with blocks adding into *out with a plain += (the
# reference solution with its atomicAdd taken out).  The check is a
# hazard, not a pass, and is not recorded as passed.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
sed 's/atomicAdd(out, acc);/*out += acc;/' "$SRC/exercises/reduce-sum/solution.cu" \
	>"$HOME_DIR/racy.cu"
# an editor variable with an option in it, as "vim -u NONE" has
printf '#!/bin/sh\n[ "$1" = -x ] && cp "%s" "$2"\n' "$HOME_DIR/racy.cu" >"$HOME_DIR/editor.sh"
chmod +x "$HOME_DIR/editor.sh"
EXTRA_ENV="EDITOR='$HOME_DIR/editor.sh -x' VISUAL= CUDALAB_GPU=0"
COLS=120 ROWS=50
start read reduce-sum
wait_for "Exercise:"
keys e
wait_for "press c to check"
keys c
wait_for "HAZARD" 180
keys v
wait_for "race on out[0] in global memory in sum_kernel"
# which two blocks are shown first depends on how the host threads ran
wait_for "global read at kernel.cu:52, block ("
wait_for "global write at kernel.cu:52, block ("
wait_for "52 | *out += acc;"
wait_for "no synchronization orders them"
keys q
keys q
wait_for "EXITED-0"
cli list exercises --json | tr -d ' \t\n' | grep -q '"id":"reduce-sum","[^}]*"status":"attempted"'
