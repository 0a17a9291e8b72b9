// saxpy-bandwidth: y[i] = a * x[i] + y[i] for every i in [0, n).
//
// The kernel body is yours to write, and so is the launch configuration.
// As it stands the kernel leaves y untouched, so the check reports wrong
// values.  Start with one thread per element; once that passes, measure it
// and try wider loads (float4) and a grid-stride loop.
#include <cuda_runtime.h>

__global__ void saxpy_kernel(int n, float a, const float* x, float* y)
{
    // TODO: each thread updates the element(s) it owns:
    //     y[i] = a * x[i] + y[i];
    // and no thread may touch memory at an index of n or more.
}

// Called by the harness with device pointers to n floats each.
void solve(int n, float a, const float* x, float* y)
{
    int threads = 256;
    int blocks = 1; // TODO: enough blocks to cover n (or a grid sized to the GPU)
    saxpy_kernel<<<blocks, threads>>>(n, a, x, y);
}
