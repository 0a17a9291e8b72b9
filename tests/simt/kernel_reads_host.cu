// expect: exit=1 stderr=is host memory (not from cudaMalloc, cudaMallocManaged or cudaHostAlloc) [simt-only]
// A kernel handed a pointer to plain malloc memory, which the host never
// registered: on a GPU without HMM the read faults; simt says that the
// address is the host's own memory, not that it ran past some nearby
// allocation of simt's (the kernel's parameters lie close to the C heap).
// The exit status follows expect_kernel_error (check.h).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "check.h"

__global__ void first(const int *in, int *out)
{
    *out = in[0];
}

int main(void)
{
    int *h = (int *)malloc(16 * sizeof(int));
    for (int i = 0; i < 16; i++)
        h[i] = i;
    int *out;
    CHECK(cudaMalloc(&out, sizeof(int)));
    first<<<1, 1>>>(h, out);
    return expect_kernel_error(cudaErrorIllegalAddress);
}
