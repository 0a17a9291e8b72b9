// cuda::barrier<thread_scope_block> (an mbarrier in shared memory): a
// stencil that runs several phases with arrive_and_wait, warps that arrive,
// do unequal amounts of their own work and then wait for the others'
// results with wait(token), and lanes of one warp that wait on lanes of
// the same warp.  Every value is recomputed on the host.
#include <cstdio>
#include <cuda/barrier>
#include <cuda_runtime.h>

#include "check.h"

#pragma nv_diag_suppress 20054

enum { THREADS = 128, WARPS = THREADS / 32, STEPS = 5, BLOCKS = 3 };
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// STEPS phases of a[t] = a[t-1] + 2*a[t] + a[t+1] (mod 1000) on a ring,
// reading in one phase and writing in the next.
__global__ void stencil(const int *in, int *out)
{
    __shared__ block_barrier bar;
    __shared__ int a[THREADS];
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, THREADS);
    a[t] = in[blockIdx.x * THREADS + t];
    __syncthreads();
    for (int s = 0; s < STEPS; s++) {
        int v = a[(t + THREADS - 1) % THREADS] + 2 * a[t] + a[(t + 1) % THREADS];
        bar.arrive_and_wait();
        a[t] = v % 1000;
        bar.arrive_and_wait();
    }
    out[blockIdx.x * THREADS + t] = a[t];
}

// Each warp publishes its sum, arrives, does warp-dependent private work,
// then waits and reads the sum of the next warp.
__global__ void split(const int *in, int *out, int *work)
{
    __shared__ block_barrier bar;
    __shared__ int part[WARPS];
    int t = threadIdx.x, w = t / 32, lane = t % 32;
    if (t == 0)
        init(&bar, THREADS);
    __syncthreads();
    int v = in[t];
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0)
        part[w] = v;
    block_barrier::arrival_token tok = bar.arrive();
    int x = t;
    for (int i = 0; i < 40 * (WARPS - w); i++)
        x = (x * 7 + i) % 10007;
    work[t] = x;
    bar.wait(std::move(tok));
    out[t] = part[(w + 1) % WARPS] + lane;
}

// Lanes 0-15 of warp 0 wait for values lanes 16-31 store before arriving;
// a barrier of 32 threads that only warp 0 uses.
__global__ void lanes(int *out)
{
    __shared__ block_barrier bar;
    __shared__ int v[32];
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, 32);
    __syncthreads();
    if (t >= 32)
        return;
    if (t < 16) {
        bar.arrive_and_wait();
        out[t] = v[t + 16] * 3;
    } else {
        int x = t;
        for (int i = 0; i < 50; i++)
            x = (x * 5 + 1) % 101;
        v[t] = x;
        bar.arrive_and_wait();
        out[t] = x;
    }
}

int main()
{
    const int n = BLOCKS * THREADS;
    int h[n], r[n], *din, *dout, *dwork;
    for (int i = 0; i < n; i++)
        h[i] = (i * 37 + 11) % 1000;
    CHECK(cudaMalloc(&din, sizeof h));
    CHECK(cudaMalloc(&dout, sizeof r));
    CHECK(cudaMalloc(&dwork, sizeof r));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));

    stencil<<<BLOCKS, THREADS>>>(din, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++) {
        int a[THREADS], na[THREADS];
        for (int t = 0; t < THREADS; t++)
            a[t] = h[b * THREADS + t];
        for (int s = 0; s < STEPS; s++) {
            for (int t = 0; t < THREADS; t++)
                na[t] = (a[(t + THREADS - 1) % THREADS] + 2 * a[t] +
                         a[(t + 1) % THREADS]) % 1000;
            for (int t = 0; t < THREADS; t++)
                a[t] = na[t];
        }
        for (int t = 0; t < THREADS; t++)
            expect_eq("stencil", b * THREADS + t, a[t], r[b * THREADS + t]);
    }

    split<<<1, THREADS>>>(din, dout, dwork);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, dout, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
    int sums[WARPS] = {0};
    for (int t = 0; t < THREADS; t++)
        sums[t / 32] += h[t];
    for (int t = 0; t < THREADS; t++)
        expect_eq("split", t, sums[(t / 32 + 1) % WARPS] + t % 32, r[t]);
    CHECK(cudaMemcpy(r, dwork, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < THREADS; t++) {
        int x = t;
        for (int i = 0; i < 40 * (WARPS - t / 32); i++)
            x = (x * 7 + i) % 10007;
        expect_eq("split work", t, x, r[t]);
    }

    lanes<<<1, 64>>>(dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, dout, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 16; t < 32; t++) {
        int x = t;
        for (int i = 0; i < 50; i++)
            x = (x * 5 + 1) % 101;
        expect_eq("lanes", t, x, r[t]);
        expect_eq("lanes", t - 16, x * 3, r[t - 16]);
    }
    if (failures)
        return 1;
    printf("ok mbarrier_split\n");
    return 0;
}
