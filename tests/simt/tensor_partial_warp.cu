// expect: exit=1 stderr=warp-level matrix instruction executed by 16 of the 32 threads [simt-only]
// Must fail on simt: only half of a warp calls wmma::load_matrix_sync.  The
// warp-level matrix operations take their operands from all 32 threads, so
// a GPU leaves the result undefined; simt stops the kernel and names the
// call.  Exit status: 1 when the launch or cudaDeviceSynchronize reports
// cudaErrorLaunchFailure, 0 when the partial call went unnoticed, 2 for
// any other error.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
#include "check.h"

using namespace nvcuda;

__global__ void half_warp(const half *a, float *out)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fill_fragment(fa, __float2half(0.0f));
    if (threadIdx.x < 16)
        wmma::load_matrix_sync(fa, a, 16);
    out[threadIdx.x] = __half2float(fa.x[0]);
}

int main(void)
{
    half *a = nullptr;
    float *out = nullptr;
    if (cudaMalloc(&a, 256 * sizeof(half)) != cudaSuccess ||
        cudaMalloc(&out, 32 * sizeof(float)) != cudaSuccess ||
        cudaMemset(a, 0, 256 * sizeof(half)) != cudaSuccess) {
        fprintf(stderr, "FAIL cudaMalloc\n");
        return 2;
    }
    half_warp<<<1, 32>>>(a, out);
    return expect_kernel_error(cudaErrorLaunchFailure);
}
