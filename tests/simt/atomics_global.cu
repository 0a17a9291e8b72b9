// Atomics on global memory from 1024 threads in 8 blocks: atomicAdd on int,
// unsigned, unsigned long long, float and double (integer-valued, so any
// order gives the exact sum), atomicSub, atomicMin/Max on signed, unsigned
// and 64-bit values, atomicInc/atomicDec with wraparound (the returned old
// values are checked as a multiset), atomicAnd/Or/Xor in 32 and 64 bits,
// atomicExch on int and float, block- and system-scoped adds, and atomicCAS
// loops implementing a multiply-mod, a saturating 64-bit add and a float max.
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { BLOCKS = 8, THREADS = 128, N = BLOCKS * THREADS };
#define MULMOD_P 1000003u
#define SAT_LIMIT 1000000000000ull

struct Counters {
    int add_i;
    unsigned add_u;
    unsigned long long add_ull;
    float add_f;
    double add_d;
    int sub_i;
    int min_i, max_i;
    unsigned min_u, max_u;
    long long min_ll, max_ll;
    unsigned long long max_ull;
    unsigned inc, dec, dec_high;
    unsigned and_u, or_u, xor_u;
    unsigned long long and_ull, or_ull, xor_ull;
    int exch_i;
    float exch_f;
    unsigned mulmod;
    unsigned long long satadd;
    float fmax;
    int add_sys;
    int add_block[BLOCKS];
};

struct Olds {
    unsigned inc[N], dec[N], dec_high[N];
    int exch_i[N];
    float exch_f[N];
};

__device__ unsigned atomic_mulmod(unsigned *addr, unsigned factor)
{
    unsigned old = *addr, assumed;
    do {
        assumed = old;
        unsigned next = (unsigned)((unsigned long long)assumed * factor % MULMOD_P);
        old = atomicCAS(addr, assumed, next);
    } while (old != assumed);
    return old;
}

__device__ unsigned long long atomic_satadd(unsigned long long *addr, unsigned long long v)
{
    unsigned long long old = *addr, assumed;
    do {
        assumed = old;
        unsigned long long next = assumed + v < SAT_LIMIT ? assumed + v : SAT_LIMIT;
        old = atomicCAS(addr, assumed, next);
    } while (old != assumed);
    return old;
}

__device__ float atomic_fmax(float *addr, float v)
{
    int *iaddr = (int *)addr;
    int old = *iaddr, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= v)
            break;
        old = atomicCAS(iaddr, assumed, __float_as_int(v));
    } while (old != assumed);
    return __int_as_float(old);
}

__global__ void atomics_kernel(Counters *c, Olds *o)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int val = (i * 37 % 1001) - 500;
    atomicAdd(&c->add_i, (i % 7) - 3);
    atomicAdd(&c->add_u, (unsigned)i * 2654435761u);
    atomicAdd(&c->add_ull, (1ull << 33) + (unsigned long long)i);
    atomicAdd(&c->add_f, (float)(i % 16));
    atomicAdd(&c->add_d, i * 0.5);
    atomicSub(&c->sub_i, i);
    atomicMin(&c->min_i, val);
    atomicMax(&c->max_i, val);
    atomicMin(&c->min_u, (unsigned)i * 2654435761u);
    atomicMax(&c->max_u, (unsigned)i * 2654435761u);
    atomicMin(&c->min_ll, (long long)val * 10000000000ll + i);
    atomicMax(&c->max_ll, (long long)val * 10000000000ll - i);
    atomicMax(&c->max_ull, (unsigned long long)i * 0x9E3779B97F4A7C15ull);
    o->inc[i] = atomicInc(&c->inc, 100u);
    o->dec[i] = atomicDec(&c->dec, 9u);
    o->dec_high[i] = i < 5 ? atomicDec(&c->dec_high, 9u) : 0xffffffffu;
    if (i < 60 && i % 3 == 0)
        atomicAnd(&c->and_u, ~(1u << (i % 29)));
    if (i < 20)
        atomicOr(&c->or_u, 1u << ((i * 7) % 32));
    atomicXor(&c->xor_u, (unsigned)i * 0x01000193u);
    if (i % 7 == 0)
        atomicAnd(&c->and_ull, ~(1ull << (i % 64)));
    if (i % 5 == 0 && i < 200)
        atomicOr(&c->or_ull, 1ull << ((i * 3) % 64));
    atomicXor(&c->xor_ull, ((unsigned long long)i << 40) | (unsigned)(i * 3));
    o->exch_i[i] = atomicExch(&c->exch_i, i + 1);
    o->exch_f[i] = atomicExch(&c->exch_f, (float)i);
    atomic_mulmod(&c->mulmod, (unsigned)(i % 5 + 2));
    atomic_satadd(&c->satadd, (unsigned long long)i * 1000003ull);
    atomic_fmax(&c->fmax, (float)((i * 613) % 1024) - 100.5f);
    atomicAdd_system(&c->add_sys, 2);
    atomicAdd_block(&c->add_block[blockIdx.x], blockIdx.x + 1);
}

static void init_counters(Counters *c)
{
    memset(c, 0, sizeof *c);
    c->sub_i = 1000000;
    c->min_i = 1 << 30;
    c->max_i = -(1 << 30);
    c->min_u = 0xffffffffu;
    c->min_ll = 1ll << 62;
    c->max_ll = -(1ll << 62);
    c->dec = 5;
    c->dec_high = 50;
    c->and_u = 0xffffffffu;
    c->and_ull = ~0ull;
    c->exch_f = -1.0f;
    c->mulmod = 1;
}

// The olds plus the final value must hold the initial 0 and each stored
// value 1..N exactly once, whatever order the exchanges ran in.
static void check_exchange_int(const int *olds, int final_value)
{
    static int seen[N + 1];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i <= N; i++) {
        int v = i < N ? olds[i] : final_value;
        if (v < 0 || v > N) {
            expect_eq("atomicExch int value in range", i, 0, v);
            continue;
        }
        seen[v]++;
    }
    for (int v = 0; v <= N; v++)
        expect_eq("atomicExch int value seen once", v, 1, seen[v]);
}

// Same for floats: initial -1, stored values 0..N-1.
static void check_exchange_float(const float *olds, float final_value)
{
    static int seen[N + 1];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i <= N; i++) {
        float v = i < N ? olds[i] : final_value;
        int k = (int)v + 1;
        if (v != (float)(k - 1) || k < 0 || k > N) {
            expect_eq("atomicExch float value in range", i, 0.0f, v);
            continue;
        }
        seen[k]++;
    }
    for (int k = 0; k <= N; k++)
        expect_eq("atomicExch float value seen once", k, 1, seen[k]);
}

// atomicInc/atomicDec return the counter's successive values whatever the
// order; compare histograms of the olds against that sequence.
static void check_olds(const char *what, const unsigned *olds, int count,
                       const unsigned *sequence)
{
    static int want[256], got[256];
    memset(want, 0, sizeof want);
    memset(got, 0, sizeof got);
    for (int i = 0; i < count; i++) {
        want[sequence[i]]++;
        if (olds[i] < 256)
            got[olds[i]]++;
        else
            expect_eq(what, i, sequence[i], olds[i]);
    }
    for (int v = 0; v < 256; v++)
        expect_eq(what, v, want[v], got[v]);
}

int main(void)
{
    static Counters h_c, want;
    static Olds h_o;
    init_counters(&h_c);
    init_counters(&want);
    Counters *d_c;
    Olds *d_o;
    CHECK(cudaMalloc(&d_c, sizeof h_c));
    CHECK(cudaMalloc(&d_o, sizeof h_o));
    CHECK(cudaMemcpy(d_c, &h_c, sizeof h_c, cudaMemcpyHostToDevice));
    atomics_kernel<<<BLOCKS, THREADS>>>(d_c, d_o);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&h_c, d_c, sizeof h_c, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&h_o, d_o, sizeof h_o, cudaMemcpyDeviceToHost));

    static unsigned inc_seq[N], dec_seq[N];
    unsigned long long mul = 1;
    float fmax = -1e30f;
    for (int i = 0; i < N; i++) {
        int val = (i * 37 % 1001) - 500;
        unsigned hash = (unsigned)i * 2654435761u;
        long long lmin = (long long)val * 10000000000ll + i;
        long long lmax = (long long)val * 10000000000ll - i;
        unsigned long long uh = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
        want.add_i += (i % 7) - 3;
        want.add_u += hash;
        want.add_ull += (1ull << 33) + (unsigned long long)i;
        want.add_f += (float)(i % 16);
        want.add_d += i * 0.5;
        want.sub_i -= i;
        want.min_i = val < want.min_i ? val : want.min_i;
        want.max_i = val > want.max_i ? val : want.max_i;
        want.min_u = hash < want.min_u ? hash : want.min_u;
        want.max_u = hash > want.max_u ? hash : want.max_u;
        want.min_ll = lmin < want.min_ll ? lmin : want.min_ll;
        want.max_ll = lmax > want.max_ll ? lmax : want.max_ll;
        want.max_ull = uh > want.max_ull ? uh : want.max_ull;
        inc_seq[i] = (unsigned)(i % 101);
        dec_seq[i] = (unsigned)(((5 - i) % 10 + 10) % 10);
        if (i < 60 && i % 3 == 0)
            want.and_u &= ~(1u << (i % 29));
        if (i < 20)
            want.or_u |= 1u << ((i * 7) % 32);
        want.xor_u ^= (unsigned)i * 0x01000193u;
        if (i % 7 == 0)
            want.and_ull &= ~(1ull << (i % 64));
        if (i % 5 == 0 && i < 200)
            want.or_ull |= 1ull << ((i * 3) % 64);
        want.xor_ull ^= ((unsigned long long)i << 40) | (unsigned)(i * 3);
        mul = mul * (unsigned)(i % 5 + 2) % MULMOD_P;
        want.satadd += (unsigned long long)i * 1000003ull;
        float fv = (float)((i * 613) % 1024) - 100.5f;
        fmax = fv > fmax ? fv : fmax;
        want.add_sys += 2;
        want.add_block[i / THREADS] += i / THREADS + 1;
    }
    want.inc = (unsigned)(N % 101);
    want.dec = (unsigned)(((5 - N) % 10 + 10) % 10);
    want.dec_high = 5;
    want.mulmod = (unsigned)mul;

    expect_eq("add int", 0, want.add_i, h_c.add_i);
    expect_eq("add unsigned", 0, want.add_u, h_c.add_u);
    expect_eq("add ull", 0, want.add_ull, h_c.add_ull);
    expect_eq("add float", 0, 7680.0f, h_c.add_f);
    expect_eq("add float (reference)", 0, 7680.0f, want.add_f);
    expect_eq("add double", 0, 261888.0, h_c.add_d);
    expect_eq("add double (reference)", 0, 261888.0, want.add_d);
    expect_eq("sub int", 0, 476224, h_c.sub_i);
    expect_eq("sub int (reference)", 0, 476224, want.sub_i);
    expect_eq("min int", 0, want.min_i, h_c.min_i);
    expect_eq("max int", 0, want.max_i, h_c.max_i);
    expect_eq("min unsigned", 0, want.min_u, h_c.min_u);
    expect_eq("max unsigned", 0, want.max_u, h_c.max_u);
    expect_eq("min long long", 0, want.min_ll, h_c.min_ll);
    expect_eq("max long long", 0, want.max_ll, h_c.max_ll);
    expect_eq("max ull", 0, want.max_ull, h_c.max_ull);
    expect_eq("inc final", 0, want.inc, h_c.inc);
    expect_eq("inc final (reference)", 0, 14u, want.inc);
    expect_eq("dec final", 0, want.dec, h_c.dec);
    expect_eq("dec final (reference)", 0, 1u, want.dec);
    expect_eq("dec from above limit final", 0, want.dec_high, h_c.dec_high);
    expect_eq("and unsigned", 0, want.and_u, h_c.and_u);
    expect_eq("or unsigned", 0, want.or_u, h_c.or_u);
    expect_eq("xor unsigned", 0, want.xor_u, h_c.xor_u);
    expect_eq("and ull", 0, want.and_ull, h_c.and_ull);
    expect_eq("or ull", 0, want.or_ull, h_c.or_ull);
    expect_eq("xor ull", 0, want.xor_ull, h_c.xor_ull);
    expect_eq("CAS multiply-mod", 0, want.mulmod, h_c.mulmod);
    expect_eq("CAS saturating add", 0, want.satadd, h_c.satadd);
    expect_eq("CAS float max", 0, fmax, h_c.fmax);
    expect_eq("CAS float max (reference)", 0, 922.5f, fmax);
    expect_eq("add system scope", 0, want.add_sys, h_c.add_sys);
    for (int b = 0; b < BLOCKS; b++)
        expect_eq("add block scope", b, want.add_block[b], h_c.add_block[b]);

    check_olds("atomicInc olds", h_o.inc, N, inc_seq);
    check_olds("atomicDec olds", h_o.dec, N, dec_seq);
    const unsigned high_seq[5] = {50, 9, 8, 7, 6};
    check_olds("atomicDec above limit olds", h_o.dec_high, 5, high_seq);
    check_exchange_int(h_o.exch_i, h_c.exch_i);
    check_exchange_float(h_o.exch_f, h_c.exch_f);

    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_o));
    if (failures)
        return 1;
    printf("ok atomics_global\n");
    return 0;
}
