// expect: exit=1 stderr=global read of 4 bytes in a 1024-byte allocation of device 0 by a kernel on device 1, which has no peer access to device 0
// gpus: 2
// Must fail: a kernel on device 1 reads memory of device 0 without peer
// access enabled, and the launch (cudaGetLastError) or
// cudaDeviceSynchronize must report cudaErrorIllegalAddress. Exit status:
// 1 when that error is seen (and device 0, whose context did not fault,
// still works), 0 when the read went unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy(int *dst, const int *src)
{
    dst[threadIdx.x] = src[threadIdx.x];
}

int main(void)
{
    int *src = nullptr, *dst = nullptr;
    if (cudaSetDevice(0) != cudaSuccess || cudaMalloc(&src, 256 * sizeof(int)) != cudaSuccess ||
        cudaMemset(src, 0, 256 * sizeof(int)) != cudaSuccess ||
        cudaSetDevice(1) != cudaSuccess || cudaMalloc(&dst, 256 * sizeof(int)) != cudaSuccess) {
        fprintf(stderr, "FAIL setting up two devices\n");
        return 2;
    }
    copy<<<1, 256>>>(dst, src);
    cudaError_t err = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (err == cudaSuccess)
        err = sync;
    if (err == cudaErrorIllegalAddress) {
        fprintf(stderr, "the kernel failed with %s (%s), as expected\n",
                cudaGetErrorName(err), cudaGetErrorString(err));
        // the error is device 1's: device 0 still works
        int back = -1;
        if (cudaSetDevice(0) != cudaSuccess ||
            cudaMemcpy(&back, src, sizeof back, cudaMemcpyDeviceToHost) != cudaSuccess ||
            back != 0) {
            fprintf(stderr, "FAIL device 0 unusable after device 1's fault\n");
            return 2;
        }
        return 1;
    }
    fprintf(stderr, "FAIL expected cudaErrorIllegalAddress got %s\n", cudaGetErrorName(err));
    return err == cudaSuccess ? 0 : 2;
}
