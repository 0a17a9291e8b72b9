// __shfl_down_sync: lanes whose source would pass the end of their segment
// keep their own value. Several deltas and widths, a tree reduction whose
// every lane (not just lane 0) is checked against a host simulation of the
// clamp rule, a segmented reduction, a float payload, and a shuffle among the
// upper 16 lanes only inside a divergent branch.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 64, BLOCKS = 2, N = THREADS * BLOCKS, NREC = 9 };
#define FULL 0xffffffffu

__global__ void shfl_down_kernel(const int *in, int *out, float *fout)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[g];
    int *rec = out + g * NREC;
    rec[0] = __shfl_down_sync(FULL, v, 1);
    rec[1] = __shfl_down_sync(FULL, v, 7);
    rec[2] = __shfl_down_sync(FULL, v, 3, 8);
    rec[3] = __shfl_down_sync(FULL, v, 9, 16);
    rec[4] = __shfl_down_sync(FULL, v, 31);
    rec[5] = __shfl_down_sync(FULL, v, 16, 16);

    int x = v;
    for (int off = 16; off > 0; off /= 2)
        x += __shfl_down_sync(FULL, x, off);
    rec[6] = x;

    int s = v;
    for (int off = 4; off > 0; off /= 2)
        s += __shfl_down_sync(FULL, s, off, 8);
    rec[7] = s;

    if (lane >= 16)
        rec[8] = __shfl_down_sync(0xffff0000u, v, 5);
    else
        rec[8] = -4;
    fout[g] = __shfl_down_sync(FULL, (float)v * 0.5f, 2, 16);
}

// Lane whose value a down-shuffle by `delta` delivers.
static int down_lane(int lane, int delta, int width)
{
    int end = (lane & ~(width - 1)) + width - 1;
    return lane + delta <= end ? lane + delta : lane;
}

// Runs the device's reduction loop on the host, lane by lane, so that the
// partial sums left in lanes other than the first are checked too.
static void simulate_reduce(const int *w, int first_off, int width, int *res)
{
    int x[32], y[32];
    for (int l = 0; l < 32; l++)
        x[l] = w[l];
    for (int off = first_off; off > 0; off /= 2) {
        for (int l = 0; l < 32; l++)
            y[l] = x[l] + x[down_lane(l, off, width)];
        for (int l = 0; l < 32; l++)
            x[l] = y[l];
    }
    for (int l = 0; l < 32; l++)
        res[l] = x[l];
}

int main(void)
{
    static int h_in[N], h_out[N * NREC];
    static float h_f[N];
    for (int i = 0; i < N; i++)
        h_in[i] = (i * 53) % 97 - 40;
    int *d_in, *d_out;
    float *d_f;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMalloc(&d_f, sizeof h_f));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    shfl_down_kernel<<<BLOCKS, THREADS>>>(d_in, d_out, d_f);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_f, d_f, sizeof h_f, cudaMemcpyDeviceToHost));

    for (int wb = 0; wb < N; wb += 32) {
        const int *w = h_in + wb;
        int red[32], seg[32], total = 0;
        simulate_reduce(w, 16, 32, red);
        simulate_reduce(w, 4, 8, seg);
        for (int l = 0; l < 32; l++)
            total += w[l];
        expect_eq("shfl_down reduction lane 0 = warp sum", wb, total, h_out[wb * NREC + 6]);
        for (int lane = 0; lane < 32; lane++) {
            int g = wb + lane;
            int want[NREC] = {
                w[down_lane(lane, 1, 32)],
                w[down_lane(lane, 7, 32)],
                w[down_lane(lane, 3, 8)],
                w[down_lane(lane, 9, 16)],
                w[down_lane(lane, 31, 32)],
                w[lane],
                red[lane],
                seg[lane],
                lane >= 16 ? w[down_lane(lane, 5, 32)] : -4,
            };
            for (int k = 0; k < NREC; k++)
                expect_eq("shfl_down case", g * NREC + k, want[k], h_out[g * NREC + k]);
            expect_eq("shfl_down float", g, (float)w[down_lane(lane, 2, 16)] * 0.5f, h_f[g]);
        }
    }
    // Worked by hand: width 8, delta 3 — lane 4 reads lane 7, lane 5 keeps
    // its own value (8 is in the next segment).
    expect_eq("hand: width 8 lane 4 reads lane 7", 4L, h_in[7], h_out[4 * NREC + 2]);
    expect_eq("hand: width 8 lane 5 keeps own", 5L, h_in[5], h_out[5 * NREC + 2]);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_f));
    if (failures)
        return 1;
    printf("ok shfl_down\n");
    return 0;
}
