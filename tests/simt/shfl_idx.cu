// __shfl_sync (indexed mode): broadcast, a permutation, source lanes past the
// width (taken modulo the width, inside the caller's segment), negative
// source lanes, widths 8 and 16, float/double/long long payloads, and a
// shuffle among the even lanes only inside a divergent branch.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 64, BLOCKS = 2, N = THREADS * BLOCKS, NREC = 9 };
#define FULL 0xffffffffu

__global__ void shfl_idx_kernel(const int *in, int *out, float *fout, double *dout,
                                long long *llout)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[g];
    int *rec = out + g * NREC;
    rec[0] = __shfl_sync(FULL, v, 0);
    rec[1] = __shfl_sync(FULL, v, (lane * 7 + 3) % 32);
    rec[2] = __shfl_sync(FULL, v, lane + 5);
    rec[3] = __shfl_sync(FULL, v, 3, 8);
    rec[4] = __shfl_sync(FULL, v, lane + 13, 16);
    rec[5] = __shfl_sync(FULL, v, lane - 9, 16);
    rec[6] = __shfl_sync(FULL, v, 31 - lane, 32);
    rec[7] = __shfl_sync(FULL, v, 2 * lane, 8);
    if (lane % 2 == 0)
        rec[8] = __shfl_sync(0x55555555u, v, (lane + 2) % 32);
    else
        rec[8] = -7;
    fout[g] = __shfl_sync(FULL, (float)v * 0.25f, (lane + 1) % 32);
    dout[g] = __shfl_sync(FULL, (double)v + 1e10, 30 - lane, 16);
    llout[g] = __shfl_sync(FULL, ((long long)v << 35) | g, lane ^ 9);
}

// Source lane of an indexed shuffle: low bits of src inside the caller's
// segment of `width` lanes.
static int src_lane(int lane, int src, int width)
{
    return (lane & ~(width - 1)) | (src & (width - 1));
}

int main(void)
{
    static int h_in[N], h_out[N * NREC];
    static float h_f[N];
    static double h_d[N];
    static long long h_ll[N];
    for (int i = 0; i < N; i++)
        h_in[i] = i * i * 3 + 11;
    int *d_in, *d_out;
    float *d_f;
    double *d_d;
    long long *d_ll;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMalloc(&d_f, sizeof h_f));
    CHECK(cudaMalloc(&d_d, sizeof h_d));
    CHECK(cudaMalloc(&d_ll, sizeof h_ll));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    shfl_idx_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, d_f, d_d, d_ll);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_d, d_d, sizeof h_d, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_ll, d_ll, sizeof h_ll, cudaMemcpyDeviceToHost));

    for (int g = 0; g < N; g++) {
        int lane = g % 32, wb = g - lane;
        const int *w = h_in + wb;
        int want[NREC] = {
            w[0],
            w[(lane * 7 + 3) % 32],
            w[(lane + 5) % 32],
            w[src_lane(lane, 3, 8)],
            w[src_lane(lane, lane + 13, 16)],
            w[src_lane(lane, lane - 9, 16)],
            w[31 - lane],
            w[src_lane(lane, 2 * lane, 8)],
            lane % 2 == 0 ? w[(lane + 2) % 32] : -7,
        };
        for (int k = 0; k < NREC; k++)
            expect_eq("shfl_idx int case", g * NREC + k, want[k], h_out[g * NREC + k]);
        expect_eq("shfl_idx float", g, (float)w[(lane + 1) % 32] * 0.25f, h_f[g]);
        expect_eq("shfl_idx double", g, (double)w[src_lane(lane, 30 - lane, 16)] + 1e10,
                  h_d[g]);
        int s = lane ^ 9;
        expect_eq("shfl_idx long long", g, ((long long)w[s] << 35) | (wb + s), h_ll[g]);
    }
    // Spot values worked out by hand, independent of src_lane().
    expect_eq("hand: width 16, lane 16 gets lane 23", 16L, h_in[23], h_out[16 * NREC + 5]);
    expect_eq("hand: width 16, lane 0 gets lane 7 (src -9)", 0L, h_in[7], h_out[0 * NREC + 5]);
    expect_eq("hand: width 8, lane 13 gets lane 10", 13L, h_in[10], h_out[13 * NREC + 7]);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_d));
    CHECK(cudaFree(d_ll));
    if (failures)
        return 1;
    printf("ok shfl_idx\n");
    return 0;
}
