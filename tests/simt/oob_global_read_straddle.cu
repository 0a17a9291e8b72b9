// expect: exit=1 stderr=out-of-bounds global read [simt-only]
// Must fail on simt: one thread reads a 2-byte value at byte n - 1 of an
// n = 999-byte allocation, so the read starts inside the allocation and
// ends one byte past it.  The address is even (n - 1 is), so the read is
// aligned and only the bounds check can refuse it.  A GPU does not fault
// on such a small overrun, so the program only runs under simt.  Exit
// status: 1 when the launch or cudaDeviceSynchronize reports
// cudaErrorIllegalAddress, 0 when the read went unnoticed, 2 for any other
// error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void read_last_pair(const unsigned char *p, int n, unsigned short *out)
{
    *out = *(const unsigned short *)(p + n - 1);
}

int main(void)
{
    const int n = 999;
    unsigned char *d = nullptr;
    unsigned short *out = nullptr;
    if (cudaMalloc(&d, n) != cudaSuccess ||
        cudaMalloc(&out, sizeof *out) != cudaSuccess ||
        cudaMemset(d, 7, n) != cudaSuccess) {
        fprintf(stderr, "FAIL setup\n");
        return 2;
    }
    read_last_pair<<<1, 1>>>(d, n, out);
    return expect_kernel_error(cudaErrorIllegalAddress);
}
