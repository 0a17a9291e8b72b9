// Clean: a cooperative launch; every block writes its slot, grid.sync(),
// then every block reads its neighbour's.
#include <cooperative_groups.h>
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
namespace cg = cooperative_groups;
__global__ void ring(int *a, int *out)
{
    cg::grid_group grid = cg::this_grid();
    int b = blockIdx.x, n = gridDim.x;
    if (threadIdx.x == 0)
        a[b] = b * b;
    grid.sync();
    if (threadIdx.x == 0)
        out[b] = a[(b + 1) % n];
}
int main()
{
    const int blocks = 4;
    int *a, *out, got[blocks];
    CHECK(cudaMalloc(&a, sizeof got));
    CHECK(cudaMalloc(&out, sizeof got));
    void *args[] = { &a, &out };
    CHECK(cudaLaunchCooperativeKernel((void *)ring, dim3(blocks), dim3(32), args, 0, 0));
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        expect_eq("out", b, ((b + 1) % blocks) * ((b + 1) % blocks), got[b]);
    DONE("hz_c_grid_sync");
}
