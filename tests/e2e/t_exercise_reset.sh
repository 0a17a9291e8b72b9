# After `cudalab reset` the exercise screen does not show the verdict of
# the file that was there before as the learner's last check: it says
# the file changed since.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
mkdir -p "$HOME_DIR/work/vector-add"
cp "$SRC/exercises/vector-add/solution.cu" "$HOME_DIR/work/vector-add/kernel.cu"
EXTRA_ENV="CUDALAB_GPU=0"
CUDALAB_GPU=0 cli check vector-add >/dev/null 2>&1
start read vector-add
wait_for "Your last check"
wait_for "PASS  pass"
keys q q
wait_for "EXITED-0"
cli reset vector-add >/dev/null
start read vector-add
wait_for "Your file changed since your last check (PASS,"
! screen | grep -qF "PASS  pass"
keys q q
wait_for "EXITED-0"
