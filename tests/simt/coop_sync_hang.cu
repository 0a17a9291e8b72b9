// expect: exit=1 env=CUDALAB_SIMT_MAX_INSTRUCTIONS=20000000 stderr=a grid.sync() can never complete [simt-only]
// Must fail on simt: block 2 of a cooperative launch returns before the
// grid.sync() that the others wait at, so the sync never completes (a GPU
// hangs). simt stops the launch at its instruction budget, says how many
// blocks had finished, and the launch reports cudaErrorLaunchTimeout.
// Exit status 1 when it does.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void early_return(int *out)
{
    if (blockIdx.x == 2)
        return;
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
    cg::this_grid().sync();
    out[blockIdx.x * blockDim.x + threadIdx.x] = 2;
}

int main()
{
    int *d;
    if (cudaMalloc(&d, 4 * 64 * sizeof(int)) != cudaSuccess)
        return 2;
    void *args[] = {&d};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)early_return, dim3(4), dim3(64),
                                                args, 0, 0);
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    if (e == cudaErrorLaunchTimeout)
        return 1;
    fprintf(stderr, "FAIL expected cudaErrorLaunchTimeout, got %s\n", cudaGetErrorName(e));
    return 2;
}
