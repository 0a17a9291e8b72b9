// cooperative_groups tiles wider than a warp (tiled_partition<64> and
// <128> of a 256-thread block), which keep their barrier and exchange
// state in the block's reserved shared memory (%reserved_smem_offset_*)
// when built for sm_80 and later, in block_tile_memory before that:
// thread_rank(), num_threads(), meta_group_rank(), meta_group_size(),
// sync() ordering a shared-memory exchange within the tile, and cg::reduce
// over the whole tile, checked against values worked out on the host. The
// kernel also has static and dynamic shared memory of its own, which the
// reserved region must not overlap.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "check.h"

namespace cg = cooperative_groups;

static const int THREADS = 256, BLOCKS = 3, NF = 10;

template <unsigned Size>
__device__ void tile_fields(const cg::thread_block &block, int *own, int *r, int base)
{
    cg::thread_block_tile<Size> tile = cg::tiled_partition<Size>(block);
    unsigned t = block.thread_rank();
    own[t] = (int)(t * 7 + 3) ^ (int)blockIdx.x;
    tile.sync();
    // the mirror-image thread of the same tile
    unsigned first = t - tile.thread_rank();
    r[base + 0] = (int)tile.thread_rank();
    r[base + 1] = (int)tile.num_threads();
    r[base + 2] = (int)tile.meta_group_rank();
    r[base + 3] = (int)tile.meta_group_size();
    r[base + 4] = own[first + (Size - 1 - tile.thread_rank())];
    tile.sync();
}

__global__ void tiles(int *out)
{
    __shared__ int own[THREADS];
    // the scratch older GPUs need; empty from sm_80 on
    __shared__ cg::block_tile_memory<THREADS> scratch;
    extern __shared__ int dyn[];
    cg::thread_block block = cg::this_thread_block(scratch);
    unsigned t = block.thread_rank();
    int *r = out + ((size_t)blockIdx.x * THREADS + t) * NF;

    dyn[t] = (int)t + 1000;
    tile_fields<64>(block, own, r, 0);
    cg::thread_block_tile<128> tile = cg::tiled_partition<128>(block);
    r[5] = cg::reduce(tile, (int)t + (int)blockIdx.x, cg::plus<int>());
    block.sync();
    r[6] = dyn[THREADS - 1 - t];
    r[7] = tile.meta_group_rank();
    r[8] = tile.thread_rank();
    r[9] = 0;
}

int main(void)
{
    int *d;
    const size_t n = (size_t)BLOCKS * THREADS * NF;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemset(d, 0xff, n * sizeof(int)));
    tiles<<<BLOCKS, THREADS, THREADS * sizeof(int)>>>(d);
    CHECK(cudaGetLastError());
    static int got[BLOCKS * THREADS * NF];
    CHECK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < THREADS; t++) {
            const int *r = &got[((size_t)b * THREADS + t) * NF];
            long i = (long)b * THREADS + t;
            int first = t / 64 * 64, mirror = first + (63 - t % 64);
            expect_eq("tile64 thread_rank", i, t % 64, r[0]);
            expect_eq("tile64 num_threads", i, 64, r[1]);
            expect_eq("tile64 meta_group_rank", i, t / 64, r[2]);
            expect_eq("tile64 meta_group_size", i, THREADS / 64, r[3]);
            expect_eq("tile64 exchange", i, (mirror * 7 + 3) ^ b, r[4]);
            int sum = 0;
            for (int u = t / 128 * 128; u < t / 128 * 128 + 128; u++)
                sum += u + b;
            expect_eq("tile128 reduce", i, sum, r[5]);
            expect_eq("dynamic shared", i, THREADS - 1 - t + 1000, r[6]);
            expect_eq("tile128 meta_group_rank", i, t / 128, r[7]);
            expect_eq("tile128 thread_rank", i, t % 128, r[8]);
            expect_eq("last field", i, 0, r[9]);
        }
    CHECK(cudaFree(d));
    if (failures)
        return 1;
    printf("ok coop_block_tile\n");
    return 0;
}
