// expect: exit=1 stderr=Assertion
// Must fail, on a GPU as well as on simt: a device assert() fails in one
// thread (block 1, thread 3) and the launch (cudaGetLastError) or
// cudaDeviceSynchronize must report cudaErrorAssert; the runtime prints the
// assertion message on stderr. Exit status: 1 when cudaErrorAssert is seen, 0
// when the failed assertion went unnoticed, 2 for any other error.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void check_positive(const int *v, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(v[i] > 0);
    out[i] = v[i] * 2;
}

int main(void)
{
    const int n = 64;
    int h[n], *d_v = nullptr, *d_out = nullptr;
    for (int i = 0; i < n; i++)
        h[i] = i == 35 ? 0 : i + 1;
    if (cudaMalloc(&d_v, sizeof h) != cudaSuccess || cudaMalloc(&d_out, sizeof h) != cudaSuccess ||
        cudaMemcpy(d_v, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "FAIL setup\n");
        return 2;
    }
    check_positive<<<2, 32>>>(d_v, d_out);
    // The fault may already be reported at launch (an implementation that
    // runs kernels synchronously) or only by the synchronisation.
    return expect_kernel_error(cudaErrorAssert);
}
