// __shfl_up_sync: lanes whose source would fall below the start of their
// segment keep their own value. Deltas 0..16, widths 8/16/32, a delta equal
// to the width, a warp-wide and a segmented inclusive scan, a double payload,
// and a shuffle among the lower 16 lanes only inside a divergent branch.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 64, BLOCKS = 2, N = THREADS * BLOCKS, NREC = 10 };
#define FULL 0xffffffffu

__global__ void shfl_up_kernel(const int *in, int *out, double *dout)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[g];
    int *rec = out + g * NREC;
    rec[0] = __shfl_up_sync(FULL, v, 1);
    rec[1] = __shfl_up_sync(FULL, v, 5);
    rec[2] = __shfl_up_sync(FULL, v, 3, 8);
    rec[3] = __shfl_up_sync(FULL, v, 4, 16);
    rec[4] = __shfl_up_sync(FULL, v, 16);
    rec[5] = __shfl_up_sync(FULL, v, 8, 8);
    rec[6] = __shfl_up_sync(FULL, v, 0);

    int x = v;
    for (int off = 1; off < 32; off *= 2) {
        int y = __shfl_up_sync(FULL, x, off);
        if (lane >= off)
            x += y;
    }
    rec[7] = x;

    int s = v;
    for (int off = 1; off < 8; off *= 2) {
        int y = __shfl_up_sync(FULL, s, off, 8);
        if (lane % 8 >= off)
            s += y;
    }
    rec[8] = s;

    if (lane < 16)
        rec[9] = __shfl_up_sync(0x0000ffffu, v, 2, 16);
    else
        rec[9] = -3;
    dout[g] = __shfl_up_sync(FULL, (double)v * 0.5 + 1e12, 2);
}

// Lane whose value an up-shuffle by `delta` delivers: lane - delta when it
// stays inside the caller's segment, the caller itself otherwise.
static int up_lane(int lane, int delta, int width)
{
    int start = lane & ~(width - 1);
    return lane - delta >= start ? lane - delta : lane;
}

int main(void)
{
    static int h_in[N], h_out[N * NREC];
    static double h_d[N];
    for (int i = 0; i < N; i++)
        h_in[i] = (i * 37) % 101 + 1000 * (i % 3);
    int *d_in, *d_out;
    double *d_d;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMalloc(&d_d, sizeof h_d));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    shfl_up_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, d_d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_d, d_d, sizeof h_d, cudaMemcpyDeviceToHost));

    for (int g = 0; g < N; g++) {
        int lane = g % 32;
        const int *w = h_in + (g - lane);
        int scan = 0, seg_scan = 0;
        for (int l = 0; l <= lane; l++)
            scan += w[l];
        for (int l = lane & ~7; l <= lane; l++)
            seg_scan += w[l];
        int want[NREC] = {
            w[up_lane(lane, 1, 32)],
            w[up_lane(lane, 5, 32)],
            w[up_lane(lane, 3, 8)],
            w[up_lane(lane, 4, 16)],
            w[up_lane(lane, 16, 32)],
            w[lane],
            w[lane],
            scan,
            seg_scan,
            lane < 16 ? w[up_lane(lane, 2, 16)] : -3,
        };
        for (int k = 0; k < NREC; k++)
            expect_eq("shfl_up case", g * NREC + k, want[k], h_out[g * NREC + k]);
        expect_eq("shfl_up double", g, (double)w[up_lane(lane, 2, 32)] * 0.5 + 1e12, h_d[g]);
    }
    // Worked by hand: with width 8 and delta 3, lane 10 (segment 8..15) would
    // read lane 7, outside its segment, so it keeps its own value.
    expect_eq("hand: width 8 lane 10 keeps own", 10L, h_in[10], h_out[10 * NREC + 2]);
    expect_eq("hand: width 8 lane 11 reads lane 8", 11L, h_in[8], h_out[11 * NREC + 2]);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_d));
    if (failures)
        return 1;
    printf("ok shfl_up\n");
    return 0;
}
