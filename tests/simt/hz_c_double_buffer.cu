// Clean: two shared tiles used in turn; loading tile k+1 into the other
// buffer overlaps reading tile k, and one barrier per step orders a
// buffer's reads before it is filled again.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void sums(const int *in, int *out, int tiles)
{
    __shared__ int buf[2][64];
    int t = threadIdx.x, acc = 0;
    buf[0][t] = in[t];
    __syncthreads();
    for (int k = 0; k < tiles; k++) {
        if (k + 1 < tiles)
            buf[(k + 1) & 1][t] = in[(k + 1) * 64 + t];
        acc += buf[k & 1][63 - t];
        __syncthreads();
    }
    out[t] = acc;
}
int main()
{
    const int tiles = 5;
    int h[tiles * 64], got[64], *in, *out;
    for (int i = 0; i < tiles * 64; i++) h[i] = i % 17;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    sums<<<1, 64>>>(in, out, tiles);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++) {
        int want = 0;
        for (int k = 0; k < tiles; k++) want += h[k * 64 + 63 - t];
        expect_eq("acc", t, want, got[t]);
    }
    DONE("hz_c_double_buffer");
}
