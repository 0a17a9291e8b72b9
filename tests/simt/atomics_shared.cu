// Atomics on __shared__ memory, one set of counters per block (4 blocks of
// 256 threads): add on int/unsigned/ull/float/double, sub, min/max, inc/dec
// with wraparound, and/or/xor, exch, a CAS loop, a 16-bin histogram, and
// stream compaction where atomicAdd's return value picks each output slot.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { BLOCKS = 4, THREADS = 256, N = BLOCKS * THREADS, BINS = 16 };

struct Result {
    int add_i;
    unsigned add_u;
    unsigned long long add_ull;
    float add_f;
    double add_d;
    int sub_i, min_i, max_i;
    unsigned inc, dec, and_u, or_u, xor_u;
    int exch_i;
    unsigned mulmod;
    int count;
    unsigned hist[BINS];
};

__device__ unsigned shared_mulmod(unsigned *addr, unsigned factor)
{
    unsigned old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, (unsigned)((unsigned long long)assumed * factor % 65521u));
    } while (old != assumed);
    return old;
}

__global__ void shared_atomics(const int *in, Result *res, unsigned *inc_old,
                               unsigned *dec_old, int *exch_old, int *compact)
{
    __shared__ int s_add, s_sub, s_min, s_max, s_exch, s_count;
    __shared__ unsigned s_u, s_inc, s_dec, s_and, s_or, s_xor, s_mulmod;
    __shared__ unsigned long long s_ull;
    __shared__ float s_f;
    __shared__ double s_d;
    __shared__ unsigned hist[BINS];
    __shared__ int slots[THREADS];
    int t = threadIdx.x, b = blockIdx.x, g = b * THREADS + t;
    if (t == 0) {
        s_add = s_exch = s_count = 0;
        s_sub = 100000;
        s_min = 1 << 30;
        s_max = -(1 << 30);
        s_u = s_inc = s_or = s_xor = 0;
        s_dec = (unsigned)b;
        s_and = 0xffffffffu;
        s_mulmod = 1;
        s_ull = 0;
        s_f = 0.0f;
        s_d = 0.0;
    }
    if (t < BINS)
        hist[t] = 0;
    __syncthreads();

    int v = in[g];
    int val = (t * 59 + b * 17) % 301 - 150;
    atomicAdd(&s_add, t * (b + 1) - 100);
    atomicAdd(&s_u, (unsigned)t * 40503u + (unsigned)b);
    atomicAdd(&s_ull, ((unsigned long long)(b + 1) << 36) + (unsigned long long)t);
    atomicAdd(&s_f, (float)((t + b) % 8) * 0.5f);
    atomicAdd(&s_d, t * 0.25 + b);
    atomicSub(&s_sub, t);
    atomicMin(&s_min, val);
    atomicMax(&s_max, val);
    inc_old[g] = atomicInc(&s_inc, 16u);
    dec_old[g] = atomicDec(&s_dec, 6u);
    if (t % 11 == 0)
        atomicAnd(&s_and, ~(1u << ((t + b) % 32)));
    if (t % 13 == 0)
        atomicOr(&s_or, 1u << ((t * 5 + b) % 32));
    atomicXor(&s_xor, (unsigned)v * 2246822519u);
    exch_old[g] = atomicExch(&s_exch, t + 1);
    shared_mulmod(&s_mulmod, (unsigned)(v % 9 + 1));
    atomicAdd(&hist[v % BINS], 1u);
    if (v % 3 == 0) {
        int k = atomicAdd(&s_count, 1);
        slots[k] = v;
    }
    __syncthreads();

    if (t < s_count)
        compact[g] = slots[t];
    if (t == 0) {
        Result *r = res + b;
        r->add_i = s_add;
        r->add_u = s_u;
        r->add_ull = s_ull;
        r->add_f = s_f;
        r->add_d = s_d;
        r->sub_i = s_sub;
        r->min_i = s_min;
        r->max_i = s_max;
        r->inc = s_inc;
        r->dec = s_dec;
        r->and_u = s_and;
        r->or_u = s_or;
        r->xor_u = s_xor;
        r->exch_i = s_exch;
        r->mulmod = s_mulmod;
        r->count = s_count;
    }
    if (t < BINS)
        res[b].hist[t] = hist[t];
}

static void check_block(int b, const int *in, const Result *r, const unsigned *inc_old,
                        const unsigned *dec_old, const int *exch_old, const int *compact)
{
    Result w;
    memset(&w, 0, sizeof w);
    w.sub_i = 100000;
    w.min_i = 1 << 30;
    w.max_i = -(1 << 30);
    w.and_u = 0xffffffffu;
    w.mulmod = 1;
    int want_inc[17] = {0}, got_inc[17] = {0}, want_dec[7] = {0}, got_dec[7] = {0};
    static int seen[THREADS + 1];
    memset(seen, 0, sizeof seen);
    int kept[THREADS], got_kept[THREADS];
    unsigned dec = (unsigned)b;
    for (int t = 0; t < THREADS; t++) {
        int v = in[b * THREADS + t], val = (t * 59 + b * 17) % 301 - 150;
        w.add_i += t * (b + 1) - 100;
        w.add_u += (unsigned)t * 40503u + (unsigned)b;
        w.add_ull += ((unsigned long long)(b + 1) << 36) + (unsigned long long)t;
        w.add_f += (float)((t + b) % 8) * 0.5f;
        w.add_d += t * 0.25 + b;
        w.sub_i -= t;
        w.min_i = std::min(w.min_i, val);
        w.max_i = std::max(w.max_i, val);
        want_inc[t % 17]++;
        want_dec[dec]++;
        dec = (dec == 0 || dec > 6) ? 6 : dec - 1;
        if (t % 11 == 0)
            w.and_u &= ~(1u << ((t + b) % 32));
        if (t % 13 == 0)
            w.or_u |= 1u << ((t * 5 + b) % 32);
        w.xor_u ^= (unsigned)v * 2246822519u;
        w.mulmod = (unsigned)((unsigned long long)w.mulmod * (unsigned)(v % 9 + 1) % 65521u);
        w.hist[v % BINS]++;
        if (v % 3 == 0)
            kept[w.count++] = v;
    }
    w.inc = THREADS % 17;
    w.dec = dec;
    expect_eq("shared add int", b, w.add_i, r->add_i);
    expect_eq("shared add unsigned", b, w.add_u, r->add_u);
    expect_eq("shared add ull", b, w.add_ull, r->add_ull);
    expect_eq("shared add float", b, w.add_f, r->add_f);
    expect_eq("shared add double", b, w.add_d, r->add_d);
    expect_eq("shared sub", b, w.sub_i, r->sub_i);
    expect_eq("shared min", b, w.min_i, r->min_i);
    expect_eq("shared max", b, w.max_i, r->max_i);
    expect_eq("shared inc final", b, w.inc, r->inc);
    expect_eq("shared dec final", b, w.dec, r->dec);
    expect_eq("shared and", b, w.and_u, r->and_u);
    expect_eq("shared or", b, w.or_u, r->or_u);
    expect_eq("shared xor", b, w.xor_u, r->xor_u);
    expect_eq("shared CAS multiply-mod", b, w.mulmod, r->mulmod);
    expect_eq("shared compaction count", b, w.count, r->count);
    for (int k = 0; k < BINS; k++)
        expect_eq("shared histogram bin", b * BINS + k, w.hist[k], r->hist[k]);

    for (int t = 0; t < THREADS; t++) {
        unsigned io = inc_old[b * THREADS + t], dc = dec_old[b * THREADS + t];
        int eo = exch_old[b * THREADS + t];
        if (io < 17)
            got_inc[io]++;
        else
            expect_eq("shared inc old in range", b * THREADS + t, 0u, io);
        if (dc < 7)
            got_dec[dc]++;
        else
            expect_eq("shared dec old in range", b * THREADS + t, 0u, dc);
        if (eo >= 0 && eo <= THREADS)
            seen[eo]++;
        else
            expect_eq("shared exch old in range", b * THREADS + t, 0, eo);
    }
    if (r->exch_i >= 0 && r->exch_i <= THREADS)
        seen[r->exch_i]++;
    for (int k = 0; k < 17; k++)
        expect_eq("shared inc olds histogram", b * 17 + k, want_inc[k], got_inc[k]);
    for (int k = 0; k < 7; k++)
        expect_eq("shared dec olds histogram", b * 7 + k, want_dec[k], got_dec[k]);
    for (int k = 0; k <= THREADS; k++)
        expect_eq("shared exch value seen once", b * (THREADS + 1) + k, 1, seen[k]);

    if (r->count == w.count) {
        memcpy(got_kept, compact + b * THREADS, w.count * sizeof(int));
        std::sort(kept, kept + w.count);
        std::sort(got_kept, got_kept + w.count);
        for (int k = 0; k < w.count; k++)
            expect_eq("shared compaction (sorted)", b * THREADS + k, kept[k], got_kept[k]);
    }
}

int main(void)
{
    static int h_in[N], h_exch[N], h_compact[N];
    static unsigned h_inc[N], h_dec[N];
    static Result h_res[BLOCKS];
    unsigned x = 2463534242u;
    for (int i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        h_in[i] = (int)(x % 1000);
    }
    int *d_in, *d_exch, *d_compact;
    unsigned *d_inc, *d_dec;
    Result *d_res;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_exch, sizeof h_exch));
    CHECK(cudaMalloc(&d_compact, sizeof h_compact));
    CHECK(cudaMalloc(&d_inc, sizeof h_inc));
    CHECK(cudaMalloc(&d_dec, sizeof h_dec));
    CHECK(cudaMalloc(&d_res, sizeof h_res));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_compact, 0xff, sizeof h_compact));
    shared_atomics<<<BLOCKS, THREADS>>>(d_in, d_res, d_inc, d_dec, d_exch, d_compact);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_res, d_res, sizeof h_res, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_inc, d_inc, sizeof h_inc, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_dec, d_dec, sizeof h_dec, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_exch, d_exch, sizeof h_exch, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_compact, d_compact, sizeof h_compact, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++)
        check_block(b, h_in, &h_res[b], h_inc, h_dec, h_exch, h_compact);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_exch));
    CHECK(cudaFree(d_compact));
    CHECK(cudaFree(d_inc));
    CHECK(cudaFree(d_dec));
    CHECK(cudaFree(d_res));
    if (failures)
        return 1;
    printf("ok atomics_shared\n");
    return 0;
}
