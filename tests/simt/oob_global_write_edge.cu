// expect: exit=1 stderr=out-of-bounds global write [simt-only]
// Must fail on simt: one thread writes the element just past the end of a
// 256-float allocation. A GPU does not fault on such a small overrun (the
// allocation is padded), so this program only runs under simt. Exit status: 1
// when the launch or cudaDeviceSynchronize reports cudaErrorIllegalAddress, 0
// when the write went unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void write_one_past(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        p[i] = 2.0f * i;
}

int main(void)
{
    const int n = 256;
    float *d = nullptr;
    cudaError_t err = cudaMalloc(&d, n * sizeof(float));
    if (err != cudaSuccess) {
        fprintf(stderr, "FAIL cudaMalloc returned %s\n", cudaGetErrorName(err));
        return 2;
    }
    write_one_past<<<3, 128>>>(d, n);
    // The fault may already be reported at launch (an implementation that
    // runs kernels synchronously) or only by the synchronisation.
    return expect_kernel_error(cudaErrorIllegalAddress);
}
