// cooperative_groups::grid_group in a cooperative launch with a 3D grid of
// 3D blocks: thread_rank(), size(), num_threads(), num_blocks(),
// block_rank(), block_index(), thread_index(), dim_blocks() and
// is_valid(), checked against the same quantities worked out on the host;
// the split barrier (barrier_arrive() then barrier_wait()) orders a write
// before it against a read of another block's value after it, while one
// block first runs a long loop (the others wait for it at the barrier for
// a long time without that being a deadlock). An ordinary launch of the
// same kind of kernel sees is_valid() false.
#include <cstdio>
#include <utility>
#include <vector>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "check.h"

namespace cg = cooperative_groups;

enum { F_RANK, F_SIZE, F_NTHREADS, F_NBLOCKS, F_BRANK, F_BIDX, F_TIDX, F_DIMB, F_VALID,
       F_MIRROR, F_WORK, NF };

static const int WORK_BLOCK = 5, WORK_STEPS = 4000;

// A linear congruential walk of `steps` steps from x.
__host__ __device__ static unsigned long long walk(unsigned long long x, int steps)
{
    for (int i = 0; i < steps; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull + (x >> 29);
    return x;
}

// Packs three coordinates below 1024 into one value.
__host__ __device__ static unsigned long long pack3(unsigned x, unsigned y, unsigned z)
{
    return ((unsigned long long)z << 20) | ((unsigned long long)y << 10) | x;
}

// Writes the grid's view of each thread into rec[linear thread][field];
// `linear` is computed from the built-in indices, not from cg.
__global__ void record(unsigned long long *rec, unsigned long long *mark)
{
    cg::grid_group grid = cg::this_grid();
    unsigned bx = blockIdx.x, by = blockIdx.y, bz = blockIdx.z;
    unsigned block = (bz * gridDim.y + by) * gridDim.x + bx;
    unsigned per = blockDim.x * blockDim.y * blockDim.z;
    unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned long long linear = (unsigned long long)block * per + t;
    unsigned long long *r = rec + linear * NF;

    r[F_RANK] = grid.thread_rank();
    r[F_SIZE] = grid.size();
    r[F_NTHREADS] = grid.num_threads();
    r[F_NBLOCKS] = grid.num_blocks();
    r[F_BRANK] = grid.block_rank();
    dim3 bi = grid.block_index(), ti = grid.thread_index(), db = grid.dim_blocks();
    r[F_BIDX] = pack3(bi.x, bi.y, bi.z);
    r[F_TIDX] = pack3(ti.x, ti.y, ti.z);
    r[F_DIMB] = pack3(db.x, db.y, db.z);
    r[F_VALID] = grid.is_valid();
    mark[linear] = linear * 3 + 1;
    r[F_WORK] = block == WORK_BLOCK && t == 0 ? walk(linear, WORK_STEPS) : 0;
    auto token = grid.barrier_arrive();
    grid.barrier_wait(std::move(token));
    unsigned long long total = (unsigned long long)per * gridDim.x * gridDim.y * gridDim.z;
    r[F_MIRROR] = mark[total - 1 - linear];
}

// For an ordinary launch: only is_valid(), since grid.sync() would trap.
__global__ void validity(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = cg::this_grid().is_valid() ? 1 : 2;
}

int main(void)
{
    const dim3 grid(3, 2, 2), block(8, 4, 2);
    const unsigned nblocks = grid.x * grid.y * grid.z, per = block.x * block.y * block.z;
    const unsigned total = nblocks * per;

    unsigned long long *rec, *mark;
    CHECK(cudaMalloc(&rec, (size_t)total * NF * sizeof *rec));
    CHECK(cudaMalloc(&mark, (size_t)total * sizeof *mark));
    CHECK(cudaMemset(rec, 0xff, (size_t)total * NF * sizeof *rec));
    void *args[] = {&rec, &mark};
    CHECK(cudaLaunchCooperativeKernel((void *)record, grid, block, args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned long long> got((size_t)total * NF);
    CHECK(cudaMemcpy(got.data(), rec, got.size() * sizeof got[0], cudaMemcpyDeviceToHost));

    for (unsigned bz = 0; bz < grid.z; bz++)
        for (unsigned by = 0; by < grid.y; by++)
            for (unsigned bx = 0; bx < grid.x; bx++)
                for (unsigned tz = 0; tz < block.z; tz++)
                    for (unsigned ty = 0; ty < block.y; ty++)
                        for (unsigned tx = 0; tx < block.x; tx++) {
                            unsigned long long b = (bz * grid.y + by) * grid.x + bx;
                            unsigned long long t = (tz * block.y + ty) * block.x + tx;
                            unsigned long long lin = b * per + t;
                            const unsigned long long *r = &got[lin * NF];
                            long i = (long)lin;
                            expect_eq("thread_rank", i, lin, r[F_RANK]);
                            expect_eq("size", i, (unsigned long long)total, r[F_SIZE]);
                            expect_eq("num_threads", i, (unsigned long long)total,
                                      r[F_NTHREADS]);
                            expect_eq("num_blocks", i, (unsigned long long)nblocks,
                                      r[F_NBLOCKS]);
                            expect_eq("block_rank", i, b, r[F_BRANK]);
                            expect_eq("block_index", i, pack3(bx, by, bz), r[F_BIDX]);
                            expect_eq("thread_index", i,
                                      pack3(bx * block.x + tx, by * block.y + ty,
                                            bz * block.z + tz),
                                      r[F_TIDX]);
                            expect_eq("dim_blocks", i, pack3(grid.x, grid.y, grid.z),
                                      r[F_DIMB]);
                            expect_eq("is_valid (cooperative)", i, 1ull, r[F_VALID]);
                            expect_eq("long walk", i,
                                      b == WORK_BLOCK && t == 0 ? walk(lin, WORK_STEPS) : 0ull,
                                      r[F_WORK]);
                            expect_eq("value after the split barrier", i,
                                      (total - 1 - lin) * 3 + 1, r[F_MIRROR]);
                        }

    int *valid, hv[4 * 64];
    CHECK(cudaMalloc(&valid, sizeof hv));
    validity<<<4, 64>>>(valid);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hv, valid, sizeof hv, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4 * 64; i++)
        expect_eq("is_valid (ordinary launch)", i, 2, hv[i]);
    CHECK(cudaFree(valid));
    CHECK(cudaFree(rec));
    CHECK(cudaFree(mark));
    if (failures)
        return 1;
    printf("ok coop_grid_group\n");
    return 0;
}
