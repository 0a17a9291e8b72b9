# A check that hangs is cancelled with Esc, then with Ctrl-C: the screen
# stays alive meanwhile (phase and elapsed time on the status line), says
# "cancelled", leaves no process of the check behind, records nothing,
# and keys typed during the check are dropped, not replayed afterwards.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
# the learner's solve() never returns: it sleeps on the host
cat >"$HOME_DIR/hang.cu" <<'CU'
#include <cuda_runtime.h>
#include <unistd.h>
__global__ void add_kernel(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
void solve(const float* a, const float* b, float* c, int n)
{
    for (;;)
        sleep(1);
}
CU
printf '#!/bin/sh\ncp "%s" "$1"\n' "$HOME_DIR/hang.cu" >"$HOME_DIR/editor.sh"
chmod +x "$HOME_DIR/editor.sh"
EXTRA_ENV="EDITOR=$HOME_DIR/editor.sh VISUAL= CUDALAB_GPU=0"
COLS=120 ROWS=40
start read vector-add
wait_for "Exercise: Vector add"
keys e
wait_for "press c to check"
keys c
wait_for "check: running case n=1" 240
wait_for "Esc or Ctrl-C: cancel"
# the elapsed time moves while the check runs
t1=$(screen | grep -o 'case n=1, seed [0-9]* · [0-9.]* s')
sleep 1.5
t2=$(screen | grep -o 'case n=1, seed [0-9]* · [0-9.]* s')
[ "$t1" != "$t2" ]
# a key typed meanwhile (q would leave the screen) is dropped
keys q
pgrep -f "$HOME_DIR/cache/" >/dev/null
keys Escape
wait_for "cancelled: the check was stopped" 30
sleep 0.5
screen | grep -qF "Exercise: Vector add"
! pgrep -f "$HOME_DIR/cache/" >/dev/null
# again, with Ctrl-C
keys c
wait_for "check: running case n=1" 60
keys C-c
wait_for "cancelled: the check was stopped" 30
screen | grep -qF "Exercise: Vector add"
! pgrep -f "$HOME_DIR/cache/" >/dev/null
# nothing was recorded
cli list exercises --json | tr -d ' \t\n' | grep -q '"id":"vector-add","[^}]*"status":"new"'
keys q
keys q
wait_for "EXITED-0" 30
