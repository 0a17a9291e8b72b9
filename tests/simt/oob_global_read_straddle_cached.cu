// expect: exit=1 stderr=out-of-bounds global read [simt-only]
// Must fail on simt: one thread reads the first 2 bytes of an n = 999-byte
// allocation, then 2 bytes at byte n - 1, which end one byte past it.  The
// first read puts the allocation in simt's cache of allocations and its
// fast window, so the second, aligned (n - 1 is even), is judged first by
// those two, which must refuse it as well (the straddling read of
// oob_global_read_straddle, the thread's first access, meets only the
// table of allocations).  A GPU
// does not fault on such a small overrun, so the program only runs under
// simt.  Exit status: 1 when the launch or cudaDeviceSynchronize reports
// cudaErrorIllegalAddress, 0 when the read went unnoticed, 2 for any other
// error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void read_first_then_last_pair(const unsigned char *p, int n, unsigned short *out)
{
    const volatile unsigned short *q = (const volatile unsigned short *)p;
    out[0] = q[0];
    out[1] = *(const volatile unsigned short *)(p + n - 1);
}

int main(void)
{
    const int n = 999;
    unsigned char *d = nullptr;
    unsigned short *out = nullptr;
    if (cudaMalloc(&d, n) != cudaSuccess ||
        cudaMalloc(&out, 2 * sizeof *out) != cudaSuccess ||
        cudaMemset(d, 7, n) != cudaSuccess) {
        fprintf(stderr, "FAIL setup\n");
        return 2;
    }
    read_first_then_last_pair<<<1, 1>>>(d, n, out);
    return expect_kernel_error(cudaErrorIllegalAddress);
}
