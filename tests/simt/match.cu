// __match_any_sync and __match_all_sync on int, 64-bit, float (compared as
// bit patterns, so -0.0f and 0.0f differ) and double values, inside a
// divergent branch with a partial member mask, and the predicate output.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 64, NREC = 14 };
#define FULL 0xffffffffu

__global__ void match_kernel(const int *in, unsigned *out)
{
    int t = threadIdx.x, lane = t % 32;
    int v = in[t];
    unsigned *rec = out + t * NREC;
    int pred = -1;

    rec[0] = __match_any_sync(FULL, v);
    long long big = ((long long)(lane % 3) << 40) | 7;
    rec[1] = __match_any_sync(FULL, big);
    rec[2] = __match_all_sync(FULL, 42, &pred);
    rec[3] = pred;
    rec[4] = __match_all_sync(FULL, v, &pred);
    rec[5] = pred;
    float f = lane == 0 ? -0.0f : (float)(lane / 8) * 0.0f;
    rec[6] = __match_any_sync(FULL, f);
    double d = lane < 16 ? 1.0 : 1.0 + 0x1p-52;
    rec[7] = __match_any_sync(FULL, d);
    unsigned long long u = lane < 31 ? 5ull : 5ull | (1ull << 63);
    rec[8] = __match_all_sync(FULL, u, &pred);
    rec[9] = pred;
    if (lane < 16) {
        rec[10] = __match_any_sync(0x0000ffffu, lane / 4);
        rec[11] = __match_all_sync(0x0000ffffu, (unsigned)(t / 32), &pred);
        rec[12] = pred;
    } else {
        rec[10] = rec[11] = rec[12] = 0xabcu;
    }
    rec[13] = __match_any_sync(FULL, (float)(lane % 4) * 1.5f);
}

int main(void)
{
    int h_in[THREADS];
    static unsigned h_out[THREADS * NREC];
    for (int i = 0; i < THREADS; i++)
        h_in[i] = (i % 32) % 5 + (i / 32) * 100;
    int *d_in;
    unsigned *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    match_kernel<<<1, THREADS>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));

    for (int t = 0; t < THREADS; t++) {
        int lane = t % 32;
        unsigned mod5 = 0, mod3 = 0, quarter = 0, mod4 = 0;
        for (int l = 0; l < 32; l++) {
            mod5 |= (unsigned)(l % 5 == lane % 5) << l;
            mod3 |= (unsigned)(l % 3 == lane % 3) << l;
            if (l < 16)
                quarter |= (unsigned)(l / 4 == lane / 4) << l;
            mod4 |= (unsigned)(l % 4 == lane % 4) << l;
        }
        unsigned f_group = lane == 0 ? 1u : 0xfffffffeu;
        unsigned d_group = lane < 16 ? 0x0000ffffu : 0xffff0000u;
        unsigned want[NREC] = {
            mod5, mod3, FULL, 1u, 0u, 0u, f_group, d_group, 0u, 0u,
            lane < 16 ? quarter : 0xabcu,
            lane < 16 ? 0x0000ffffu : 0xabcu,
            lane < 16 ? 1u : 0xabcu,
            mod4,
        };
        for (int k = 0; k < NREC; k++)
            expect_eq("match case", t * NREC + k, want[k], h_out[t * NREC + k]);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    if (failures)
        return 1;
    printf("ok match\n");
    return 0;
}
