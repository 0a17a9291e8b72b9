// Shared-memory loads whose lanes lie in a line (all at one word, or a
// rising run) several times through one address register, as unrolled
// tile loops make them, with the register changing between groups of
// loads: in straight-line code (an unrolled loop), across a loop's back
// branch, and under a predicate that turns a broadcast into a run for
// some iterations.  Every sum is worked out on the host.
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"

#define N 256

__global__ void sums(const int *in, int *out, int rounds)
{
    __shared__ int s[N];
    int t = threadIdx.x;

    for (int i = t; i < N; i += 32)
        s[i] = in[i];
    __syncthreads();
    int acc = 0;
    // unrolled: the address changes between groups without a branch
#pragma unroll
    for (int it = 0; it < 6; it++) {
        int base = (it & 1) ? t : 5 * it;
#pragma unroll
        for (int k = 0; k < 4; k++)
            acc += s[base + 32 * k] * (k + 1);
    }
    // a real loop: the address changes across the back branch
    for (int it = 0; it < rounds; it++) {
        int base = (it % 3 == 1) ? t : (it * 7) % 64;
#pragma unroll
        for (int k = 0; k < 4; k++)
            acc += s[base + 32 * k] * (k + 2);
    }
    out[t] = acc;
}

int main()
{
    int h_in[N], h_out[32], *d_in, *d_out, rounds = 9;

    for (int i = 0; i < N; i++)
        h_in[i] = (i * 37) % 101 - 50;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    sums<<<1, 32>>>(d_in, d_out, rounds);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++) {
        int acc = 0;

        for (int it = 0; it < 6; it++) {
            int base = (it & 1) ? t : 5 * it;

            for (int k = 0; k < 4; k++)
                acc += h_in[base + 32 * k] * (k + 1);
        }
        for (int it = 0; it < rounds; it++) {
            int base = (it % 3 == 1) ? t : (it * 7) % 64;

            for (int k = 0; k < 4; k++)
                acc += h_in[base + 32 * k] * (k + 2);
        }
        expect_eq("sum", t, acc, h_out[t]);
    }
    if (failures)
        return 1;
    printf("ok shared_line_reuse\n");
    return 0;
}
