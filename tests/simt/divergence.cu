// Divergence and reconvergence inside warps: nested if/else on lane parity,
// loops whose trip count depends on the lane with break and continue, a
// do-while, a switch statement with eight cases and a default, lanes that
// return early, and a warp-wide shuffle and __syncwarp exchange through
// shared memory after the divergent code, which only work if every lane
// reconverged. The control-flow function is ordinary C++ shared with the
// host, which runs it as the reference.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 96, BLOCKS = 2, N = THREADS * BLOCKS, NREC = 6 };
#define FULL 0xffffffffu

__host__ __device__ int nested(int lane, int v)
{
    int r;
    if (lane % 2 == 0) {
        if (lane % 4 == 0)
            r = v * 3;
        else if (v > 50)
            r = v - 50;
        else
            r = -v;
    } else {
        if (lane > 16) {
            r = v ^ 0x55;
            if (v & 1)
                r += 1000;
        } else {
            r = lane * v;
        }
    }
    return r;
}

__host__ __device__ int looping(int lane, int v)
{
    int acc = 0;
    for (int k = 0; k < lane + v % 4; k++) {
        if (k % 3 == 1)
            continue;
        if (acc > 400)
            break;
        acc += k * (v % 13 + 1);
    }
    int m = v % 7 + lane % 3;
    do {
        acc += m;
        m -= 2;
    } while (m > 0);
    return acc;
}

__host__ __device__ int switched(int lane, int v)
{
    switch ((lane + v) % 10) {
    case 0: return v + 1;
    case 1: return v * 2;
    case 2: return v - 7;
    case 3: return v * v;
    case 4: return -v;
    case 5: return v / 3;
    case 6: return v % 5;
    case 7: return 77;
    default: return lane;
    }
}

__global__ void diverge(const int *in, int *out)
{
    __shared__ int stage[THREADS];
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = in[g];
    int a = nested(lane, v);
    int b = looping(lane, v);
    int c = switched(lane, v);
    int r = a + b + c;
    int *rec = out + g * NREC;
    rec[0] = a;
    rec[1] = b;
    rec[2] = c;
    rec[3] = __shfl_sync(FULL, r, (lane + 1) % 32);
    stage[threadIdx.x] = r;
    __syncwarp();
    rec[4] = stage[threadIdx.x - lane + (31 - lane)];
    rec[5] = __ballot_sync(FULL, r & 1);
}

__global__ void early_return(const int *in, int *out)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[g];
    if (v % 5 == 0)
        return;
    if (v % 7 == 0) {
        out[g] = -v;
        return;
    }
    int lane = threadIdx.x % 32;
    unsigned live = __activemask();
    out[g] = v + lane;
    if (((live >> lane) & 1) == 0)
        out[g] = 0x7fffffff;
}

int main(void)
{
    int h_in[N];
    static int h_out[N * NREC], h_early[N];
    for (int i = 0; i < N; i++)
        h_in[i] = (i * 37 + 11) % 101;
    int *d_in, *d_out, *d_early;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMalloc(&d_early, sizeof h_early));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_early, 0x11, sizeof h_early));
    diverge<<<BLOCKS, THREADS>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    early_return<<<BLOCKS, THREADS>>>(d_in, d_early);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_early, d_early, sizeof h_early, cudaMemcpyDeviceToHost));

    for (int g = 0; g < N; g++) {
        int lane = g % 32, base = g - lane;
        int r[32];
        unsigned odd = 0;
        for (int l = 0; l < 32; l++) {
            int v = h_in[base + l];
            r[l] = nested(l, v) + looping(l, v) + switched(l, v);
            odd |= (unsigned)(r[l] & 1) << l;
        }
        int v = h_in[g];
        int want[NREC] = {
            nested(lane, v), looping(lane, v), switched(lane, v), r[(lane + 1) % 32],
            r[31 - lane], (int)odd,
        };
        for (int k = 0; k < NREC; k++)
            expect_eq("divergent result", g * NREC + k, want[k], h_out[g * NREC + k]);
        int early = v % 5 == 0 ? 0x11111111 : v % 7 == 0 ? -v : v + lane;
        expect_eq("early return", g, early, h_early[g]);
    }
    // Hand-worked: lane 0, v = 11 -> nested 33; switch (0 + 11) % 10 = 1 -> 22.
    expect_eq("hand: nested(0, 11)", 0L, 33, h_out[0]);
    expect_eq("hand: switched(0, 11)", 0L, 22, h_out[2]);
    // looping(0, 11): trip count 0 + 11 % 4 = 3, k = 0 and 2 add k * 12 = 24;
    // then m = 11 % 7 + 0 = 4: adds 4 and 2 -> 30.
    expect_eq("hand: looping(0, 11)", 0L, 30, h_out[1]);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_early));
    if (failures)
        return 1;
    printf("ok divergence\n");
    return 0;
}
