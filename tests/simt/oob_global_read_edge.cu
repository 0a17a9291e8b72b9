// expect: exit=1 stderr=out-of-bounds global read [simt-only]
// Must fail on simt: a stencil reads the element before the start of its
// input (index -1) in thread 0. Real GPUs do not fault on this, so the
// program only runs under simt. Exit status: 1 when the launch or
// cudaDeviceSynchronize reports cudaErrorIllegalAddress, 0 when the read went
// unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void left_neighbour(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] - in[i - 1];
}

int main(void)
{
    const int n = 200;
    float *in = nullptr, *out = nullptr;
    if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&out, n * sizeof(float)) != cudaSuccess ||
        cudaMemset(in, 0, n * sizeof(float)) != cudaSuccess) {
        fprintf(stderr, "FAIL setup\n");
        return 2;
    }
    left_neighbour<<<2, 128>>>(in, out, n);
    // The fault may already be reported at launch (an implementation that
    // runs kernels synchronously) or only by the synchronisation.
    return expect_kernel_error(cudaErrorIllegalAddress);
}
