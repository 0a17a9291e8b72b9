// grid-stride, reference answer: a grid-stride loop with 64-bit indices.
//
// Each thread starts at its global index and advances by the number of
// threads in the grid, so any grid covers any n, and every pass of the grid
// is one coalesced sweep over gridDim.x * blockDim.x consecutive elements.
// The index is 64-bit: with n past 2^31 a 32-bit index would wrap.
#include <cuda_runtime.h>

__global__ void square_plus_one(const float* __restrict__ x,
                                float* __restrict__ y, long long n)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += stride)
        y[i] = fmaf(x[i], x[i], 1.0f);
}

void solve(const float* x, float* y, long long n, int max_blocks)
{
    const int threads = 256;
    // No more blocks than allowed, and none that would find no work.
    long long needed = (n + threads - 1) / threads;
    int blocks = needed < max_blocks ? (int)needed : max_blocks;
    if (blocks < 1)
        blocks = 1;
    square_plus_one<<<blocks, threads>>>(x, y, n);
}
