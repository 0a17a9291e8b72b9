// Staging tiles of global memory in shared memory with
// cuda::memcpy_async(block, dst, src, bytes, barrier) completed by a
// cuda::barrier (cp.async with cp.async.mbarrier.arrive), and with
// cooperative_groups::memcpy_async + cg::wait.  Each block sums columns of
// its tiles; the sums are checked against the host.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

#include "check.h"

#pragma nv_diag_suppress 20054

namespace cg = cooperative_groups;
enum { THREADS = 64, TILE = 256, TILES = 6, BLOCKS = 2 };

// Tile k of block b starts at in[(b * TILES + k) * TILE]; thread t adds
// the tile's elements t, t + 64, ... reversed within the tile, so each
// thread reads what other threads' copies brought in.
__global__ void staged(const int *in, int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int tile[TILE];
    auto block = cg::this_thread_block();
    int t = threadIdx.x, acc = 0;
    if (t == 0)
        init(&bar, THREADS);
    block.sync();
    for (int k = 0; k < TILES; k++) {
        cuda::memcpy_async(block, tile, in + (blockIdx.x * TILES + k) * TILE,
                           sizeof tile, bar);
        bar.arrive_and_wait();
        for (int i = t; i < TILE; i += THREADS)
            acc += tile[TILE - 1 - i] * (k + 1);
        bar.arrive_and_wait();   // everyone is done with the tile
    }
    out[blockIdx.x * THREADS + t] = acc;
}

__global__ void staged_cg(const int *in, int *out)
{
    __shared__ int tile[2][TILE];
    auto block = cg::this_thread_block();
    int t = threadIdx.x, acc = 0;
    cg::memcpy_async(block, tile[0], in + blockIdx.x * TILES * TILE,
                     sizeof tile[0]);
    for (int k = 0; k < TILES; k++) {
        if (k + 1 < TILES)
            cg::memcpy_async(block, tile[(k + 1) & 1],
                             in + (blockIdx.x * TILES + k + 1) * TILE,
                             sizeof tile[0]);
        if (k + 1 < TILES)
            cg::wait_prior<1>(block);
        else
            cg::wait(block);
        for (int i = t; i < TILE; i += THREADS)
            acc += tile[k & 1][TILE - 1 - i] * (k + 1);
        block.sync();
    }
    out[blockIdx.x * THREADS + t] = acc;
}

int main()
{
    const int n = BLOCKS * TILES * TILE;
    static int h[n];
    int r[BLOCKS * THREADS], *din, *dout;
    for (int i = 0; i < n; i++)
        h[i] = (i * 13 + 5) % 211 - 100;
    CHECK(cudaMalloc(&din, sizeof h));
    CHECK(cudaMalloc(&dout, sizeof r));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    int want[BLOCKS * THREADS] = {0};
    for (int b = 0; b < BLOCKS; b++)
        for (int k = 0; k < TILES; k++)
            for (int i = 0; i < TILE; i++)
                want[b * THREADS + i % THREADS] +=
                    h[(b * TILES + k) * TILE + TILE - 1 - i] * (k + 1);

    for (int pass = 0; pass < 2; pass++) {
        CHECK(cudaMemset(dout, 0, sizeof r));
        if (pass == 0)
            staged<<<BLOCKS, THREADS>>>(din, dout);
        else
            staged_cg<<<BLOCKS, THREADS>>>(din, dout);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
        for (int i = 0; i < BLOCKS * THREADS; i++)
            expect_eq(pass ? "staged_cg" : "staged", i, want[i], r[i]);
    }
    if (failures)
        return 1;
    printf("ok mbarrier_memcpy_async\n");
    return 0;
}
