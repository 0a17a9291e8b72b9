# The exercise screen shows NCCL's communication model after a check of an
# exercise that runs NCCL on four simulated devices (tensor-parallel-mlp's
# solution: 4 cases of 3 seeds, one all-reduce each), labelled as modelled.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
printf '#!/bin/sh\ncp "%s" "$1"\n' "$SRC/exercises/tensor-parallel-mlp/solution.cu" \
	>"$HOME_DIR/editor.sh"
chmod +x "$HOME_DIR/editor.sh"
EXTRA_ENV="EDITOR=$HOME_DIR/editor.sh VISUAL= CUDALAB_GPU=0"
COLS=120 ROWS=50
start read tensor-parallel-mlp
wait_for "Exercise:"
keys e
wait_for "press c to check"
keys c
wait_for "PASS" 180
keys v
wait_for "NCCL communication (modelled):"
wait_for "modelled, not measured"
wait_for "all_reduce: 12 calls"
wait_for "busbw"
keys q
keys q
wait_for "EXITED-0"
