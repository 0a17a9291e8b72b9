// expect: exit=1 stderr=of a memory pool of device 0 by a kernel on device 1, which the pool gives no access (give it with cudaMemPoolSetAccess; cudaDeviceEnablePeerAccess does not apply to pool memory) [simt-only]
// gpus: 2
// Must fail: memory from device 0's default pool (cudaMallocAsync) is
// reachable from device 1 only once cudaMemPoolSetAccess gives it access;
// peer access enabled with cudaDeviceEnablePeerAccess does not cover pool
// memory.  Exit status: 1 when the kernel on device 1 fails with
// cudaErrorIllegalAddress, 0 when its write went unnoticed, 2 for any
// other error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

int main(void)
{
    int *p = nullptr;
    if (cudaSetDevice(0) != cudaSuccess || cudaMallocAsync(&p, 256 * sizeof(int), 0) != cudaSuccess ||
        cudaStreamSynchronize(0) != cudaSuccess || cudaSetDevice(1) != cudaSuccess ||
        cudaDeviceEnablePeerAccess(0, 0) != cudaSuccess) {
        fprintf(stderr, "FAIL setting up two devices\n");
        return 2;
    }
    fill<<<1, 256>>>(p);
    return expect_kernel_error(cudaErrorIllegalAddress);
}
