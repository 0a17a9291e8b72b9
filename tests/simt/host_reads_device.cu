// expect: fail stderr=simt: the host read device memory, byte 12 of a 1024-byte allocation from cudaMalloc [simt-only]
// Must fail: the host reads a kernel's result straight through the device
// pointer, forgetting the cudaMemcpy.  On a GPU without unified access
// to device memory that read faults; simt keeps device memory out of the
// host's reach between calls, so it faults here too, and says why first.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *a)
{
    a[threadIdx.x] = (float)threadIdx.x;
}

int main(void)
{
    float *a, h[4];
    cudaMalloc(&a, 256 * sizeof(float));
    fill<<<1, 256>>>(a);
    cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);  // the right way
    if (h[3] != 3.0f)
        return 2;
    printf("%g\n", a[3]);  // the wrong way
    return 0;
}
