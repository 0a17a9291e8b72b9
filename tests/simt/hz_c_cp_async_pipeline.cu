// Clean: a two-stage cp.async pipeline; each thread waits for its own
// copies (__pipeline_wait_prior) and a barrier makes every thread's copies
// visible before any thread reads the tile; a second barrier keeps the
// next copy from overwriting a tile still being read.
#include <cuda_pipeline.h>
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void sums(const int *in, int *out, int tiles)
{
    __shared__ int buf[2][64];
    int t = threadIdx.x, acc = 0;
    __pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(int));
    __pipeline_commit();
    for (int k = 0; k < tiles; k++) {
        if (k + 1 < tiles)
            __pipeline_memcpy_async(&buf[(k + 1) & 1][t], &in[(k + 1) * 64 + t], sizeof(int));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        __syncthreads();
        acc += buf[k & 1][(t + 1) % 64];
        __syncthreads();
    }
    out[t] = acc;
}
int main()
{
    const int tiles = 4;
    int h[tiles * 64], got[64], *in, *out;
    for (int i = 0; i < tiles * 64; i++) h[i] = (i * 7) % 19;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    sums<<<1, 64>>>(in, out, tiles);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int want = 0;
        for (int k = 0; k < tiles; k++) want += h[k * 64 + (t + 1) % 64];
        expect_eq("acc", t, want, got[t]);
    }
    DONE("hz_c_cp_async_pipeline");
}
