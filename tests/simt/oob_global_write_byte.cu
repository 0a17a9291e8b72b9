// expect: exit=1 stderr=out-of-bounds global write [simt-only]
// Must fail on simt: a byte buffer of n = 1055 bytes written at p[i] for
// every i <= n, so the last warp (i = 1024..1055, all 32 lanes in a rising
// run) ends with p[n], the byte just past the end.  Tests with 4-byte
// elements cannot tell a bounds check that lets an access end one byte
// past the allocation from a right one; this one can.  A GPU does not
// fault on such a small overrun, so the program only runs under simt.
// Exit status: 1 when the launch or cudaDeviceSynchronize reports
// cudaErrorIllegalAddress, 0 when the write went unnoticed, 2 for any
// other error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void write_through_end(unsigned char *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        p[i] = (unsigned char)i;
}

int main(void)
{
    const int n = 1055;
    unsigned char *d = nullptr;
    cudaError_t err = cudaMalloc(&d, n);
    if (err != cudaSuccess) {
        fprintf(stderr, "FAIL cudaMalloc returned %s\n", cudaGetErrorName(err));
        return 2;
    }
    write_through_end<<<(n + 1) / 32, 32>>>(d, n);
    return expect_kernel_error(cudaErrorIllegalAddress);
}
