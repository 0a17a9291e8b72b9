// expect: exit=0 stderr=launch of fill(int*) not started: a grid of (0,1,1) blocks has no block to run [simt-only]
// A launch with an empty grid (a block count rounded down from an empty
// input) fails with cudaErrorInvalidConfiguration, as on a GPU; simt also
// says why, naming the kernel and the grid.
#include "check.h"

__global__ void fill(int *p)
{
    p[threadIdx.x] = 1;
}

int main()
{
    int *p, n = 0;
    CHECK(cudaMalloc(&p, 64 * sizeof(int)));
    fill<<<n / 256, 256>>>(p);
    expect_eq("launch error", 0, (int)cudaErrorInvalidConfiguration, (int)cudaGetLastError());
    fill<<<1, 2048>>>(p);
    expect_eq("launch error", 1, (int)cudaErrorInvalidConfiguration, (int)cudaGetLastError());
    CHECK(cudaFree(p));
    if (failures)
        return 1;
    printf("ok rt_launch_config_message\n");
    return 0;
}
