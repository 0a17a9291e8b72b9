// expect: exit=1 stderr=out-of-bounds global write of 4 bytes, 2048 bytes past a 4096-byte allocation [simt-only]
// Must fail on simt: a kernel writes half an array past the end of its
// 1024-float output.  Two buffers from cudaMalloc in a row often lie next
// to each other, so on a GPU (and in an emulator that packs allocations)
// the write lands in the input allocated after it and goes unnoticed;
// simt leaves unmapped space after every allocation, as large as the
// allocation, so it is reported.  Exit status: 1 when the launch fails
// with cudaErrorIllegalAddress, 0 when the write went unnoticed.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spill(float *out, int n)
{
    out[n + n / 2 + threadIdx.x] = 1.0f;
}

int main(void)
{
    const int n = 1024;
    float *out, *in;
    cudaMalloc(&out, n * sizeof(float));
    cudaMalloc(&in, n * sizeof(float));
    spill<<<1, 32>>>(out, n);
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaErrorIllegalAddress)
        return 1;
    fprintf(stderr, "FAIL the write went unnoticed (%s)\n", cudaGetErrorName(err));
    return 0;
}
