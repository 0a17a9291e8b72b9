# The exercise screen end to end: a wrong answer, then an edit that brings
# in the solution, then a pass; the home screen shows the new status.
# Needs nvcc and the simt library (skipped without nvcc).
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
printf '#!/bin/sh\ncp "%s" "$1"\n' "$SRC/exercises/vector-add/solution.cu" >"$HOME_DIR/editor.sh"
chmod +x "$HOME_DIR/editor.sh"
EXTRA_ENV="EDITOR=$HOME_DIR/editor.sh VISUAL="
start read vector-add
wait_for "Exercise: Vector add"
wait_for "It is new: a copy of the starter."
wait_for "Your file: $HOME_DIR/work/vector-add/kernel.cu"
keys c
wait_for "WRONG ANSWER" 180
wait_for "first mismatch: case n=1, index 0"
keys e
wait_for "press c to check"
keys c
wait_for "PASS" 180
wait_for "passed"
# after a pass: the next exercise of the ladder is offered
wait_for "Next: "
wait_for "press n to open it"
# the solution beside the file, then as a diff (the file is the solution:
# no line removed or added)
keys s
wait_for "Solution"
keys d
wait_for "Your code (-) against the solution (+)"
! screen | grep -q '^[-+]'
keys q
wait_for "Exercise: Vector add"
# the history: two attempts, a wrong one then a pass
wait_for "2 attempts  x✓"
# a bench: the counters' reading, its long lines wrapped to the width
keys b
wait_for "predicted on NVIDIA H100 SXM5 80GB (h100-sxm)" 300
wait_for "of emulation time"
keys v
# the counters' reading comes after the prediction, at the end of the
# results: scroll up from the end until it shows
keys G
for _ in 1 2 3 4 5 6; do
	sleep 0.3
	screen | grep -qF "sets the pace" && break
	keys k
done
wait_for "sets the pace"
keys q
wait_for "1 Lessons"
keys 3
wait_for "Vector add"
wait_for "passed"
# each exercise shows the id the command line takes; a title too long
# for the row ends in an ellipsis
wait_for "vector-add"
wait_for "flash-attention-forward"
wait_for "…"
keys q
wait_for "EXITED-0"
# reopened, the exercise shows its last verdict, and n opens the next one
start read vector-add
wait_for "Your last bench"
wait_for "PASS  pass"
wait_for "press n to open it"
# a hint opens above the verdict, which stays
keys h
wait_for "hint 1/"
screen | grep -qF "PASS  pass"
keys H
wait_gone "hint 1/"
keys n
wait_for "Exercise: "
! screen | grep -qF "Exercise: Vector add"
keys q
wait_for "Exercise: Vector add"
keys q
keys q
wait_for "EXITED-0"
cli list exercises --json | tr -d ' \t\n' | grep -q '"id":"vector-add".*"status":"passed"'
