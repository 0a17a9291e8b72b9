// expect: exit=0 env=CUDALAB_SIMT_PREDICT=timeline env=CUDALAB_SIMT_DEVICES=tests/simt/devices stderr=simt: predict: scale<<<(2,1,1),(64,1,1)>>> [simt-only]
// A kernel in an anonymous namespace (what a static kernel in a file
// of its own often is) keeps its name in the time model's report: its
// demangled name begins with "(anonymous namespace)::", whose "(" is not
// the start of its parameter list.
#include <cstdio>
#include <cuda_runtime.h>

namespace {
__global__ void scale(float* x, float a)
{
    x[blockIdx.x * blockDim.x + threadIdx.x] *= a;
}
}

int main()
{
    float* x;
    if (cudaMalloc(&x, 128 * sizeof(float)) != cudaSuccess)
        return 1;
    cudaMemset(x, 0, 128 * sizeof(float));
    scale<<<2, 64>>>(x, 2.0f);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
