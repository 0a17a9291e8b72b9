# An uninitialized register is shown on the exercise screen as what it
# is: reduce-sum with the per-thread sum declared without `= 0.0f` (the
# reference solution otherwise) is a hazard "in a register", with the
# line of the first read, not a pass.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
sed 's/float acc = 0.0f;/float acc;/' "$SRC/exercises/reduce-sum/solution.cu" \
	>"$HOME_DIR/unset.cu"
grep -q '^    float acc;$' "$HOME_DIR/unset.cu" || { echo "the solution changed: no 'float acc = 0.0f;'"; return 1; }
printf '#!/bin/sh\ncp "%s" "$1"\n' "$HOME_DIR/unset.cu" >"$HOME_DIR/editor.sh"
chmod +x "$HOME_DIR/editor.sh"
EXTRA_ENV="EDITOR='$HOME_DIR/editor.sh' VISUAL= CUDALAB_GPU=0"
COLS=120 ROWS=50
start read reduce-sum
wait_for "Exercise:"
keys e
wait_for "press c to check"
keys c
wait_for "HAZARD" 180
keys v
wait_for "uninitialized read in a register in sum_kernel"
wait_for "register read at kernel.cu:41"
keys q
keys q
wait_for "EXITED-0"
