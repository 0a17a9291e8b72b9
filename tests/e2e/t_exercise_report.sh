# What explains a verdict is on the exercise screen without scrolling or
# another key, at 80x24 and at 120x40: where a kernel read out of bounds
# and the line (not "no memory at all"), a compile error's line with the
# compiler's caret (and 'o' shows the compiler's output), what an empty
# file lacks (not linker lines), a race's accesses, line and fix, and an
# unwritten shared element by its name.
if [ -z "${NVCC:-}" ]; then echo "no nvcc: skipped"; return 0; fi
# the editor puts in the file named by $HOME_DIR/next
printf '#!/bin/sh\ncp "$(cat "%s")" "$1"\n' "$HOME_DIR/next" >"$HOME_DIR/editor.sh"
chmod +x "$HOME_DIR/editor.sh"
EXTRA_ENV="EDITOR=$HOME_DIR/editor.sh VISUAL= CUDALAB_GPU=0"
# every thread reads a[i] and b[i], also past n
cat >"$HOME_DIR/oob.cu" <<'CU'
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

void solve(const float* a, const float* b, float* c, int n)
{
    add_kernel<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
CU
# a statement without its ';' at line 5: nvcc names line 6
sed 's/int i = blockIdx.x \* blockDim.x + threadIdx.x;/int i = blockIdx.x * blockDim.x + threadIdx.x/' \
	"$HOME_DIR/oob.cu" >"$HOME_DIR/syntax.cu"
: >"$HOME_DIR/empty.cu"
sed 's/atomicAdd(out, acc);/*out += acc;/' "$SRC/exercises/reduce-sum/solution.cu" \
	>"$HOME_DIR/racy.cu"
# warp 1 never writes its sum: warp_sums[1], 4 bytes into shared memory
sed 's/        warp_sums\[warp\] = acc;/        if (warp != 1) warp_sums[warp] = acc;/' \
	"$SRC/exercises/reduce-sum/solution.cu" >"$HOME_DIR/unwritten.cu"
grep -q 'warp != 1' "$HOME_DIR/unwritten.cu"
check_with() {
	echo "$HOME_DIR/$1" >"$HOME_DIR/next"
	keys e
	wait_for "press c to check"
	keys c
	wait_for "$2" 240
}
for size in 80x24 120x40; do
	COLS=${size%x*} ROWS=${size#*x}
	start read vector-add
	wait_for "Exercise: Vector add"
	check_with oob.cu "RUNTIME ERROR"
	wait_for "out-of-bounds global read of 4 bytes"
	wait_for "in add_kernel at kernel.cu:6, block (0,0,0) thread (1,0,0)"
	wait_for "6 | c[i] = a[i] + b[i];"
	keys v
	wait_for "backend simt"
	! screen | grep -qF "no memory at all"
	keys v
	check_with syntax.cu "COMPILE ERROR"
	wait_for 'kernel.cu:6: expected a ";"'
	wait_for "    c[i] = a[i] + b[i];"
	wait_for "    ^"
	keys o
	wait_for "compiler output:"
	wait_for 'kernel.cu(6): error: expected a ";"'
	keys q
	wait_for "COMPILE ERROR"
	check_with empty.cu "COMPILE ERROR"
	wait_for "your file must define \`void solve(const float* a, const float* b, float* c,"
	! screen | grep -qF "(null)"
	! screen | grep -qF "undefined reference"
	keys q
	wait_for "1 Lessons"
	keys q
	wait_for "EXITED-0"
	start read reduce-sum
	wait_for "Exercise:"
	check_with racy.cu "HAZARD"
	wait_for "race on out[0] in global memory in sum_kernel"
	wait_for "global read at kernel.cu:52, block ("
	wait_for "global write at kernel.cu:52, block ("
	wait_for "52 | *out += acc;"
	wait_for "fix: atomicAdd(out, acc) at line 52"
	check_with unwritten.cu "HAZARD"
	wait_for "uninitialized read of warp_sums[1] in shared memory in sum_kernel"
	wait_for "49 | acc = lane < WARPS ? warp_sums[lane] : 0.0f;"
	wait_for "fix: write every element the block reads, then __syncthreads()"
	keys q
	wait_for "1 Lessons"
	keys q
	wait_for "EXITED-0"
done
