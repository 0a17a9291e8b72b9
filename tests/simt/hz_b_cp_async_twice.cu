// expect-hazard: race: shared cp.async write at hz_b_cp_async_twice.cu:26 ... and shared cp.async write at hz_b_cp_async_twice.cu:26 ... two asynchronous copies of one thread to the same bytes in flight at once
//
// A multi-stage cp.async pipeline that fetches one stage too many: with
// STAGES buffers, the loop keeps STAGES + 1 tiles in flight (<= where <
// belongs), so the newest copy goes into the buffer the oldest one is
// still filling, before anything has waited for it.  Two asynchronous
// copies of one thread to the same bytes are unordered; which lands last
// is up to the hardware.  The input is constant, so the sum is the same
// either way, and the bug stays hidden on a GPU.
#include <cuda/pipeline>
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define STAGES 3
#define TILES 8

__global__ void staged(const float *g, float *out)
{
    __shared__ alignas(16) float buf[STAGES][128];
    auto pipe = cuda::make_pipeline();
    float acc = 0;
    int fetched = 0;
    for (int t = 0; t < TILES; t++) {
        for (; fetched <= t + STAGES && fetched < TILES; fetched++) {
            pipe.producer_acquire();
            cuda::memcpy_async(&buf[fetched % STAGES][threadIdx.x * 4],
                               &g[fetched * 128 + threadIdx.x * 4],
                               cuda::aligned_size_t<16>(16), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        __syncthreads();
        for (int k = 0; k < 4; k++)
            acc += buf[t % STAGES][threadIdx.x * 4 + k];
        __syncthreads();
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}

int main()
{
    float *g, *out, h[TILES * 128], got[32];
    for (int i = 0; i < TILES * 128; i++)
        h[i] = 1.0f;
    CHECK(cudaMalloc(&g, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(g, h, sizeof h, cudaMemcpyHostToDevice));
    staged<<<1, 32>>>(g, out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        expect_eq("sum", i, (float)(4 * TILES), got[i]);
    DONE("hz_b_cp_async_twice");
}
