// Clean: cooperative_groups::reduce over 32-thread tiles, the tiles' sums
// combined by thread 0 after block.sync().
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
namespace cg = cooperative_groups;
__global__ void sum(const int *x, int *out)
{
    __shared__ int part[8];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int v = cg::reduce(tile, x[blockIdx.x * 256 + threadIdx.x], cg::plus<int>());
    if (tile.thread_rank() == 0)
        part[tile.meta_group_rank()] = v;
    block.sync();
    if (threadIdx.x == 0) {
        int s = 0;
        for (int i = 0; i < 8; i++)
            s += part[i];
        out[blockIdx.x] = s;
    }
}
int main()
{
    const int n = 2 * 256;
    int h[n], *x, *out, got[2];
    for (int i = 0; i < n; i++) h[i] = i % 13;
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    sum<<<2, 256>>>(x, out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 2; b++) {
        int want = 0;
        for (int i = 0; i < 256; i++) want += h[b * 256 + i];
        expect_eq("block sum", b, want, got[b]);
    }
    DONE("hz_c_cg_reduce");
}
