// __shfl_xor_sync (butterfly): masks inside the width, and masks that reach
// past it — a lane may read from an earlier segment, while one that would
// read from a later segment keeps its own value. Also butterfly all-reduce
// (sum over the warp, max over segments of 8) in int, float and double.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 64, BLOCKS = 2, N = THREADS * BLOCKS, NREC = 9 };
#define FULL 0xffffffffu

__global__ void shfl_xor_kernel(const int *in, int *out, float *fout, double *dout)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[g];
    int *rec = out + g * NREC;
    rec[0] = __shfl_xor_sync(FULL, v, 1);
    rec[1] = __shfl_xor_sync(FULL, v, 16);
    rec[2] = __shfl_xor_sync(FULL, v, 31);
    rec[3] = __shfl_xor_sync(FULL, v, 5, 8);
    rec[4] = __shfl_xor_sync(FULL, v, 8, 8);
    rec[5] = __shfl_xor_sync(FULL, v, 16, 16);
    rec[6] = __shfl_xor_sync(FULL, v, 24, 8);

    int x = v;
    for (int m = 16; m > 0; m /= 2)
        x += __shfl_xor_sync(FULL, x, m);
    rec[7] = x;

    int mx = v;
    for (int m = 4; m > 0; m /= 2)
        mx = max(mx, __shfl_xor_sync(FULL, mx, m, 8));
    rec[8] = mx;

    float f = (float)v;
    for (int m = 1; m < 32; m *= 2)
        f += __shfl_xor_sync(FULL, f, m);
    fout[g] = f;

    double d = (double)v * 0.25;
    for (int m = 1; m < 16; m *= 2)
        d += __shfl_xor_sync(FULL, d, m, 16);
    dout[g] = d;
}

// Lane whose value a butterfly shuffle delivers: lane ^ mask unless that
// lies beyond the end of the caller's segment.
static int xor_lane(int lane, int mask, int width)
{
    int j = lane ^ mask;
    int end = lane | (width - 1);
    return j <= end ? j : lane;
}

int main(void)
{
    static int h_in[N], h_out[N * NREC];
    static float h_f[N];
    static double h_d[N];
    for (int i = 0; i < N; i++)
        h_in[i] = (i * 71) % 113 - 50;
    int *d_in, *d_out;
    float *d_f;
    double *d_d;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMalloc(&d_f, sizeof h_f));
    CHECK(cudaMalloc(&d_d, sizeof h_d));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    shfl_xor_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, d_f, d_d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_d, d_d, sizeof h_d, cudaMemcpyDeviceToHost));

    for (int wb = 0; wb < N; wb += 32) {
        const int *w = h_in + wb;
        int total = 0;
        for (int l = 0; l < 32; l++)
            total += w[l];
        for (int lane = 0; lane < 32; lane++) {
            int g = wb + lane, seg = lane & ~7, half = lane & ~15;
            int seg_max = w[seg], half_sum = 0;
            for (int l = seg; l < seg + 8; l++)
                seg_max = w[l] > seg_max ? w[l] : seg_max;
            for (int l = half; l < half + 16; l++)
                half_sum += w[l];
            int want[NREC] = {
                w[lane ^ 1],
                w[lane ^ 16],
                w[lane ^ 31],
                w[xor_lane(lane, 5, 8)],
                w[xor_lane(lane, 8, 8)],
                w[xor_lane(lane, 16, 16)],
                w[xor_lane(lane, 24, 8)],
                total,
                seg_max,
            };
            for (int k = 0; k < NREC; k++)
                expect_eq("shfl_xor case", g * NREC + k, want[k], h_out[g * NREC + k]);
            expect_eq("shfl_xor float sum", g, (float)total, h_f[g]);
            expect_eq("shfl_xor double segment sum", g, half_sum * 0.25, h_d[g]);
        }
    }
    // Worked by hand, width 8 and mask 8: lane 3 would read lane 11 in a later
    // segment and keeps its own value; lane 11 reads lane 3 in an earlier one.
    expect_eq("hand: lane 3 keeps own", 3L, h_in[3], h_out[3 * NREC + 4]);
    expect_eq("hand: lane 11 reads lane 3", 11L, h_in[3], h_out[11 * NREC + 4]);
    // Width 8 and mask 24: lane 9 keeps its own, lane 26 reads lane 2.
    expect_eq("hand: lane 9 keeps own", 9L, h_in[9], h_out[9 * NREC + 6]);
    expect_eq("hand: lane 26 reads lane 2", 26L, h_in[2], h_out[26 * NREC + 6]);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_d));
    if (failures)
        return 1;
    printf("ok shfl_xor\n");
    return 0;
}
