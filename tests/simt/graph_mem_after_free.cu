// expect: exit=1 stderr=0 bytes into a 1024-byte allocation that was already freed [simt-only]
// Must fail: a kernel launched after a graph whose free node released the
// graph's allocation still writes through its address.  Exit status: 1
// when cudaErrorIllegalAddress is reported, 0 when the access went
// unnoticed (on a GPU the pages may still be mapped), 2 for any other
// error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void touch(int *p) { p[threadIdx.x] += 1; }

int main(void)
{
    cudaGraph_t g;
    cudaGraphNode_t a, f;
    cudaGraphExec_t x;
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = 1024;
    if (cudaGraphCreate(&g, 0) != cudaSuccess ||
        cudaGraphAddMemAllocNode(&a, g, NULL, 0, &ap) != cudaSuccess ||
        cudaGraphAddMemFreeNode(&f, g, &a, 1, ap.dptr) != cudaSuccess ||
        cudaGraphInstantiate(&x, g, 0) != cudaSuccess ||
        cudaGraphLaunch(x, 0) != cudaSuccess) {
        fprintf(stderr, "FAIL building the graph\n");
        return 2;
    }
    touch<<<1, 32>>>((int *)ap.dptr);
    return expect_kernel_error(cudaErrorIllegalAddress);
}
