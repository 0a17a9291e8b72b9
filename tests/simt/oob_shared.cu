// expect: exit=1 stderr=out-of-bounds shared write [simt-only]
// Must fail on simt: threads write to a static __shared__ array of 64 ints at
// an index (taken from a kernel argument) far beyond the block's shared
// memory. GPUs do not reliably fault on shared-memory overruns, so the
// program only runs under simt. Exit status: 1 when the launch or
// cudaDeviceSynchronize reports cudaErrorIllegalAddress, 0 when the write
// went unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void overrun(int *out, int offset)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x == 7)
        s[threadIdx.x + offset] = -1;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

int main(void)
{
    int *d = nullptr;
    if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess) {
        fprintf(stderr, "FAIL cudaMalloc\n");
        return 2;
    }
    overrun<<<1, 64>>>(d, 4096);
    // The fault may already be reported at launch (an implementation that
    // runs kernels synchronously) or only by the synchronisation.
    return expect_kernel_error(cudaErrorIllegalAddress);
}
