// vector-add: c[i] = a[i] + b[i] for every i in [0, n).
//
// Two things are left for you: the kernel body, and the number of blocks
// solve() launches.  As it stands the kernel writes nothing, so the check
// reports the output as never written.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n)
{
    // TODO: work out which element this thread owns from blockIdx.x,
    // blockDim.x and threadIdx.x; if that index is below n, store
    // a[i] + b[i] into c[i].  Threads whose index is n or more must not
    // touch memory.
}

// Called by the harness with device pointers to n floats each.
void solve(const float* a, const float* b, float* c, int n)
{
    int threads = 256;
    int blocks = 1; // TODO: enough blocks of `threads` threads to cover n
    add_kernel<<<blocks, threads>>>(a, b, c, n);
}
