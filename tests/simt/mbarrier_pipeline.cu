// cuda::pipeline with two stages: a thread-scoped pipeline where each
// thread copies its own elements, and a block-scoped one
// (pipeline_shared_state, whose stages are mbarrier objects) where the
// block copies whole tiles.  producer_acquire / producer_commit /
// consumer_wait / consumer_release over more tiles than stages, so every
// stage is reused; results checked against the host.
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda/pipeline>
#include <cuda_runtime.h>

#include "check.h"

#pragma nv_diag_suppress 20054

namespace cg = cooperative_groups;
enum { THREADS = 64, STAGES = 2, TILES = 5 };

// out[t] = sum over tiles k of in[k * THREADS + t] * (k + 1)
__global__ void per_thread(const int *in, int *out)
{
    __shared__ int buf[STAGES][THREADS];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    int t = threadIdx.x, acc = 0, fetch = 0;
    for (; fetch < STAGES; fetch++) {
        pipe.producer_acquire();
        cuda::memcpy_async(&buf[fetch % STAGES][t], &in[fetch * THREADS + t],
                           sizeof(int), pipe);
        pipe.producer_commit();
    }
    for (int k = 0; k < TILES; k++) {
        pipe.consumer_wait();
        acc += buf[k % STAGES][t] * (k + 1);
        pipe.consumer_release();
        if (fetch < TILES) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[fetch % STAGES][t],
                               &in[fetch * THREADS + t], sizeof(int), pipe);
            pipe.producer_commit();
            fetch++;
        }
    }
    out[t] = acc;
}

// out[t] = sum over tiles k of in[k * THREADS + THREADS - 1 - t] * (k + 1):
// each thread reads an element another thread's part of the copy brought.
__global__ void per_block(const int *in, int *out)
{
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    __shared__ int buf[STAGES][THREADS];
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    int t = threadIdx.x, acc = 0, fetch = 0;
    for (; fetch < STAGES; fetch++) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, buf[fetch % STAGES], in + fetch * THREADS,
                           sizeof buf[0], pipe);
        pipe.producer_commit();
    }
    for (int k = 0; k < TILES; k++) {
        pipe.consumer_wait();
        acc += buf[k % STAGES][THREADS - 1 - t] * (k + 1);
        pipe.consumer_release();
        if (fetch < TILES) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, buf[fetch % STAGES], in + fetch * THREADS,
                               sizeof buf[0], pipe);
            pipe.producer_commit();
            fetch++;
        }
    }
    out[t] = acc;
}

int main()
{
    int h[TILES * THREADS], r[THREADS], *din, *dout;
    for (int i = 0; i < TILES * THREADS; i++)
        h[i] = (i * 29 + 3) % 97;
    CHECK(cudaMalloc(&din, sizeof h));
    CHECK(cudaMalloc(&dout, sizeof r));
    CHECK(cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice));
    for (int pass = 0; pass < 2; pass++) {
        CHECK(cudaMemset(dout, 0, sizeof r));
        if (pass == 0)
            per_thread<<<1, THREADS>>>(din, dout);
        else
            per_block<<<1, THREADS>>>(din, dout);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost));
        for (int t = 0; t < THREADS; t++) {
            int want = 0;
            for (int k = 0; k < TILES; k++)
                want += h[k * THREADS + (pass ? THREADS - 1 - t : t)] * (k + 1);
            expect_eq(pass ? "per_block" : "per_thread", t, want, r[t]);
        }
    }
    if (failures)
        return 1;
    printf("ok mbarrier_pipeline\n");
    return 0;
}
