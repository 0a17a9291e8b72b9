// vector-add, reference answer: one thread per element.
//
// The grid is rounded up to whole blocks, so the last block may have threads
// past the end of the arrays; the bounds check keeps them from touching
// memory.  Consecutive threads touch consecutive floats, so each warp's loads
// and stores are fully coalesced, and the kernel is limited by DRAM
// bandwidth (12 bytes per FLOP), not by arithmetic.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

void solve(const float* a, const float* b, float* c, int n)
{
    const int threads = 256;
    int blocks = (n + threads - 1) / threads; // round up to cover all n
    add_kernel<<<blocks, threads>>>(a, b, c, n);
}
