// Warp votes: __ballot_sync, __all_sync, __any_sync and __activemask with the
// full warp, a partial last warp (blocks of 40 threads), odd/even divergent
// branches with matching member masks, nested divergence, lanes that have
// exited, and a loop that runs while any lane still has work.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { NREC = 12 };

__global__ void vote_kernel(const int *in, unsigned *out)
{
    int t = threadIdx.x, lane = t % 32;
    int live = min(32, (int)blockDim.x - (t - lane));
    unsigned warp_mask = live == 32 ? 0xffffffffu : (1u << live) - 1;
    unsigned *rec = out + (blockIdx.x * blockDim.x + t) * NREC;
    int v = in[blockIdx.x * blockDim.x + t];

    rec[0] = __activemask();
    rec[1] = __ballot_sync(warp_mask, v % 3 == 0);
    rec[2] = __all_sync(warp_mask, v >= 0) != 0;
    rec[3] = __any_sync(warp_mask, v == 17) != 0;
    rec[4] = __all_sync(warp_mask, lane != 30) != 0;
    if (lane & 1) {
        unsigned odd = warp_mask & 0xaaaaaaaau;
        rec[5] = __ballot_sync(odd, v % 3 == 0);
        rec[6] = __all_sync(odd, lane > 0) != 0;
        rec[7] = __any_sync(odd, lane == 0) != 0;
        rec[8] = __activemask();
    } else {
        unsigned even = warp_mask & 0x55555555u;
        rec[5] = __ballot_sync(even, v % 5 == 0);
        rec[6] = __all_sync(even, (lane & 1) == 0) != 0;
        rec[7] = __any_sync(even, lane == 6) != 0;
        rec[8] = __activemask();
    }
    if (lane < 20) {
        if (lane >= 4)
            rec[9] = __ballot_sync(warp_mask & 0x000ffff0u, v & 1);
        else
            rec[9] = 0xdeadu;
    } else {
        rec[9] = 0xbeefu;
    }
    rec[10] = __ballot_sync(warp_mask, 1);

    int work = v % 7, iters = 0;
    while (__any_sync(warp_mask, work > 0)) {
        work--;
        iters++;
    }
    rec[11] = iters;
}

__global__ void vote_after_exit(const int *in, unsigned *out)
{
    int t = threadIdx.x, lane = t % 32;
    if (lane >= 24)
        return;
    out[2 * t] = __ballot_sync(0x00ffffffu, in[t] & 2);
    out[2 * t + 1] = __activemask();
}

static int run_votes(int threads, int blocks)
{
    int n = threads * blocks;
    int *h_in = new int[n];
    unsigned *h_out = new unsigned[n * NREC];
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 37 + 11) % 64;
    int *d_in;
    unsigned *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * NREC * sizeof(unsigned)));
    CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    vote_kernel<<<blocks, threads>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, n * NREC * sizeof(unsigned), cudaMemcpyDeviceToHost));

    for (int g = 0; g < n; g++) {
        int t = g % threads, lane = t % 32, wt = t - lane;
        int live = threads - wt < 32 ? threads - wt : 32;
        const int *w = h_in + (g - lane);
        unsigned warp_mask = 0, b3 = 0, odd3 = 0, even5 = 0, mid_odd = 0;
        int all_nonneg = 1, any17 = 0, max_work = 0;
        for (int l = 0; l < live; l++) {
            warp_mask |= 1u << l;
            b3 |= (unsigned)(w[l] % 3 == 0) << l;
            odd3 |= (unsigned)((l & 1) && w[l] % 3 == 0) << l;
            even5 |= (unsigned)(!(l & 1) && w[l] % 5 == 0) << l;
            mid_odd |= (unsigned)(l >= 4 && l < 20 && (w[l] & 1)) << l;
            all_nonneg &= w[l] >= 0;
            any17 |= w[l] == 17;
            max_work = w[l] % 7 > max_work ? w[l] % 7 : max_work;
        }
        unsigned branch = warp_mask & ((lane & 1) ? 0xaaaaaaaau : 0x55555555u);
        unsigned want[NREC] = {
            warp_mask,
            b3,
            (unsigned)all_nonneg,
            (unsigned)any17,
            live <= 30 ? 1u : 0u,
            (lane & 1) ? odd3 : even5,
            1u,
            (lane & 1) ? 0u : (live > 6 ? 1u : 0u),
            0u,
            lane < 4 ? 0xdeadu : (lane < 20 ? mid_odd : 0xbeefu),
            warp_mask,
            (unsigned)max_work,
        };
        const unsigned *rec = h_out + g * NREC;
        for (int k = 0; k < NREC; k++) {
            if (k == 8)
                continue;
            expect_eq("vote case", g * NREC + k, want[k], rec[k]);
        }
        // Lanes inside a branch need not all be reported together, but the
        // caller must be in the mask and no lane of the other branch may be.
        unsigned am = rec[8];
        if (!((am >> lane) & 1) || (am & ~branch))
            expect_eq("activemask in branch (subset)", (long)g, branch, am);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    delete[] h_in;
    delete[] h_out;
    return 0;
}

static int run_after_exit(void)
{
    const int threads = 64;
    int h_in[threads];
    unsigned h_out[2 * threads];
    for (int i = 0; i < threads; i++)
        h_in[i] = i * 5 + (i >> 3);
    int *d_in;
    unsigned *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemset(d_out, 0, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    vote_after_exit<<<1, threads>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        int lane = t % 32;
        if (lane >= 24) {
            expect_eq("exited lane untouched", t, 0u, h_out[2 * t]);
            continue;
        }
        unsigned want = 0;
        for (int l = 0; l < 24; l++)
            want |= (unsigned)((h_in[t - lane + l] & 2) != 0) << l;
        expect_eq("ballot after exit", t, want, h_out[2 * t]);
        unsigned am = h_out[2 * t + 1];
        if (!((am >> lane) & 1) || (am & ~0x00ffffffu))
            expect_eq("activemask after exit (subset)", t, 0x00ffffffu, am);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

int main(void)
{
    if (run_votes(64, 2) || run_votes(40, 2) || run_after_exit())
        return 1;
    if (failures)
        return 1;
    printf("ok vote\n");
    return 0;
}
