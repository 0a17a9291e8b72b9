// expect: exit=1 stderr=misaligned
// Must fail, on a GPU as well as on simt: a kernel stores an int through a
// pointer one byte past an aligned address. GPUs require natural alignment,
// so the launch (cudaGetLastError) or cudaDeviceSynchronize must report
// cudaErrorMisalignedAddress. Exit status: 1 when that error is seen, 0 when
// the store went unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void store_unaligned(char *base, int offset)
{
    if (threadIdx.x == 0)
        *(int *)(base + offset) = 0x01020304;
}

int main(void)
{
    char *d = nullptr;
    if (cudaMalloc(&d, 64) != cudaSuccess) {
        fprintf(stderr, "FAIL cudaMalloc\n");
        return 2;
    }
    store_unaligned<<<1, 32>>>(d, 1);
    // The fault may already be reported at launch (an implementation that
    // runs kernels synchronously) or only by the synchronisation.
    return expect_kernel_error(cudaErrorMisalignedAddress);
}
