// Single precision: the rounding-mode intrinsics (__fadd_r?, __fsub_r?,
// __fmul_r?, __fdiv_r?, __fmaf_r?, __frcp_r?, __fsqrt_r?) must match the
// host's exactly rounded results bit for bit, including hand-picked ties and
// subnormal results; IEEE operations (x / y, sqrtf, fmodf, rintf, ...) must
// be exact; the fast approximate intrinsics (__fdividef, __expf, __logf,
// __sinf, __cosf, rsqrtf) must stay within CUDA's documented error bounds.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cfloat>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 64, DIR = 28, IEEE = 12, FAST = 8 };
enum Round { RN, RZ, RD, RU };

__global__ void directed_kernel(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    float *o = out + i * DIR;
    o[0] = __fadd_rn(x, y);
    o[1] = __fadd_rz(x, y);
    o[2] = __fadd_rd(x, y);
    o[3] = __fadd_ru(x, y);
    o[4] = __fmul_rn(x, y);
    o[5] = __fmul_rz(x, y);
    o[6] = __fmul_rd(x, y);
    o[7] = __fmul_ru(x, y);
    o[8] = __fdiv_rn(x, y);
    o[9] = __fdiv_rz(x, y);
    o[10] = __fdiv_rd(x, y);
    o[11] = __fdiv_ru(x, y);
    o[12] = __fmaf_rn(x, y, z);
    o[13] = __fmaf_rz(x, y, z);
    o[14] = __fmaf_rd(x, y, z);
    o[15] = __fmaf_ru(x, y, z);
    o[16] = __frcp_rn(y);
    o[17] = __frcp_rz(y);
    o[18] = __frcp_rd(y);
    o[19] = __frcp_ru(y);
    float r = fabsf(x);
    o[20] = __fsqrt_rn(r);
    o[21] = __fsqrt_rz(r);
    o[22] = __fsqrt_rd(r);
    o[23] = __fsqrt_ru(r);
    o[24] = __fsub_rn(x, y);
    o[25] = __fsub_rz(x, y);
    o[26] = __fsub_rd(x, y);
    o[27] = __fsub_ru(x, y);
}

__global__ void ieee_kernel(const float *a, const float *b, float *out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    float *o = out + i * IEEE;
    o[0] = x / y;
    o[1] = sqrtf(fabsf(x));
    o[2] = fmodf(x, y);
    o[3] = rintf(x);
    o[4] = roundf(x);
    o[5] = floorf(x);
    o[6] = ceilf(x);
    o[7] = truncf(x);
    o[8] = fminf(x, y);
    o[9] = fmaxf(x, y);
    o[10] = copysignf(x, y);
    o[11] = __saturatef(x);
}

__global__ void fast_kernel(const float *a, const float *b, const float *s, float *out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i], t = s[i];
    float *o = out + i * FAST;
    o[0] = __fdividef(x, y);
    o[1] = __expf(t);
    o[2] = __logf(fabsf(x));
    o[3] = __sinf(t);
    o[4] = __cosf(t);
    o[5] = rsqrtf(fabsf(x));
    o[6] = expf(t);
    o[7] = sinf(t);
}

// ---- host reference ---------------------------------------------------------

// Rounds a double to float in the given mode; the double must be the exact
// value or lie on the same side of every float as the exact value.
static float to_float(double x, Round r)
{
    if (std::isnan(x) || std::isinf(x) || x == 0.0)
        return (float)x;
    int e;
    std::frexp(x, &e);
    int lead = e - 1 < -126 ? -126 : e - 1;
    double quantum = std::ldexp(1.0, lead - 23);
    double q = x / quantum;
    switch (r) {
    case RN: q = std::nearbyint(q); break;
    case RZ: q = std::trunc(q); break;
    case RD: q = std::floor(q); break;
    case RU: q = std::ceil(q); break;
    }
    double y = q * quantum;
    if (std::fabs(y) > FLT_MAX) {
        bool to_inf = r == RN || (r == RU && y > 0) || (r == RD && y < 0);
        y = to_inf ? std::copysign(INFINITY, y) : std::copysign((double)FLT_MAX, y);
    }
    return (float)y;
}

// An exactly zero sum of operands of opposite sign is +0, or -0 when rounding
// down; a sum of two zeros of the same sign keeps that sign.
static double exact_sum(double p, double q, Round r)
{
    double v = p + q;
    if (v != 0.0)
        return v;
    if (p == 0.0 && q == 0.0 && std::signbit(p) == std::signbit(q))
        return p;
    return r == RD ? -0.0 : 0.0;
}

static int ordered(float x)
{
    int i;
    memcpy(&i, &x, 4);
    return i < 0 ? -(i & 0x7fffffff) : i;
}

static unsigned bits_of(float x)
{
    unsigned u;
    memcpy(&u, &x, 4);
    return u;
}

static void expect_bits(const char *what, long idx, float want, float got)
{
    unsigned w, g;
    memcpy(&w, &want, 4);
    memcpy(&g, &got, 4);
    if (std::isnan(want) && std::isnan(got))
        return;
    if (w != g)
        expect_eq(what, idx, want, got);
}

static void expect_ulps(const char *what, long idx, double exact, float got, int max_ulps)
{
    long d = (long)ordered(to_float(exact, RN)) - (long)ordered(got);
    if (d < -max_ulps || d > max_ulps)
        expect_eq(what, idx, (float)exact, got);
}

static void expect_abs(const char *what, long idx, double exact, float got, double tol)
{
    if (!(std::fabs(exact - got) <= tol))
        expect_eq(what, idx, (float)exact, got);
}

static unsigned rng_state = 4242;
static double uniform(double lo, double hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * ((rng_state >> 8) / 16777216.0);
}

// Inputs: hand-picked cases first, then random ones. c is within a small
// factor of a*b so that a*b+c is exact in double.
static int make_inputs(float *a, float *b, float *c)
{
    const float hand[][3] = {
        {1.0f, 3 * 0x1p-25f, 1.0f},
        {-1.0f, -3 * 0x1p-25f, -1.0f},
        {1.0f + 0x1p-23f, 1.0f + 0x1p-23f, -1.0f},
        {0x1p-70f, 0x1p-70f, 0x1p-140f},
        {0x1p-75f, 0x1p-75f, 0.0f},
        {1.0f, 3.0f, -0.25f},
        {2.5f, -2.0f, 0.5f},
        {-2.5f, 0.75f, 1.0f},
        {3.0e38f, 1.5e38f, 1.0f},
        {7.5f, 2.0f, -14.0f},
        {-7.5f, 2.0f, 14.0f},
        {0.5f, -0.0f, 0.0f},
    };
    int k = 0;
    for (; k < (int)(sizeof hand / sizeof hand[0]); k++) {
        a[k] = hand[k][0];
        b[k] = hand[k][1];
        c[k] = hand[k][2];
    }
    for (; k < N; k++) {
        a[k] = (float)(uniform(-1.0, 1.0) * std::exp(uniform(-8.0, 8.0)));
        b[k] = (float)(uniform(-1.0, 1.0) * std::exp(uniform(-8.0, 8.0)));
        double r = uniform(0.25, 2.0) * (uniform(0.0, 1.0) < 0.5 ? -1.0 : 1.0);
        c[k] = (float)((double)a[k] * b[k] * r);
    }
    return N;
}

static int run(void)
{
    static float a[N], b[N], c[N], s[N], dir[N * DIR], ieee[N * IEEE], fast[N * FAST];
    int n = make_inputs(a, b, c);
    for (int i = 0; i < n; i++)
        s[i] = (float)uniform(-3.14159, 3.14159);
    float *d_a, *d_b, *d_c, *d_s, *d_dir, *d_ieee, *d_fast;
    CHECK(cudaMalloc(&d_a, sizeof a));
    CHECK(cudaMalloc(&d_b, sizeof b));
    CHECK(cudaMalloc(&d_c, sizeof c));
    CHECK(cudaMalloc(&d_s, sizeof s));
    CHECK(cudaMalloc(&d_dir, sizeof dir));
    CHECK(cudaMalloc(&d_ieee, sizeof ieee));
    CHECK(cudaMalloc(&d_fast, sizeof fast));
    CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_c, c, sizeof c, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_s, s, sizeof s, cudaMemcpyHostToDevice));
    directed_kernel<<<1, N>>>(d_a, d_b, d_c, d_dir, n);
    CHECK(cudaGetLastError());
    ieee_kernel<<<1, N>>>(d_a, d_b, d_ieee, n);
    CHECK(cudaGetLastError());
    fast_kernel<<<1, N>>>(d_a, d_b, d_s, d_fast, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(dir, d_dir, sizeof dir, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ieee, d_ieee, sizeof ieee, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fast, d_fast, sizeof fast, cudaMemcpyDeviceToHost));

    static const char *ops[7] = {"fadd", "fmul", "fdiv", "fmaf", "frcp", "fsqrt", "fsub"};
    static const char *sfx[4] = {"_rn", "_rz", "_rd", "_ru"};
    const Round modes[4] = {RN, RZ, RD, RU};
    for (int i = 0; i < n; i++) {
        double x = a[i], y = b[i], z = c[i];
        for (int op = 0; op < 7; op++)
            for (int m = 0; m < 4; m++) {
                double exact[7] = {
                    exact_sum(x, y, modes[m]), x * y, x / y, exact_sum(x * y, z, modes[m]),
                    1.0 / y, std::sqrt(std::fabs(x)), exact_sum(x, -y, modes[m]),
                };
                char name[32];
                snprintf(name, sizeof name, "%s%s", ops[op], sfx[m]);
                expect_bits(name, i, to_float(exact[op], modes[m]), dir[i * DIR + op * 4 + m]);
            }
        const float *o = ieee + i * IEEE;
        float fx = a[i], fy = b[i];
        expect_bits("x / y", i, to_float(x / y, RN), o[0]);
        expect_bits("sqrtf", i, to_float(std::sqrt(std::fabs(x)), RN), o[1]);
        expect_bits("fmodf", i, std::fmod(fx, fy), o[2]);
        expect_bits("rintf", i, std::rint(fx), o[3]);
        expect_bits("roundf", i, std::round(fx), o[4]);
        expect_bits("floorf", i, std::floor(fx), o[5]);
        expect_bits("ceilf", i, std::ceil(fx), o[6]);
        expect_bits("truncf", i, std::trunc(fx), o[7]);
        if (!(fx == 0.0f && fy == 0.0f)) {
            expect_bits("fminf", i, fx < fy ? fx : fy, o[8]);
            expect_bits("fmaxf", i, fx > fy ? fx : fy, o[9]);
        }
        expect_bits("copysignf", i, std::copysign(fx, fy), o[10]);
        expect_bits("__saturatef", i, fx < 0.0f ? 0.0f : fx > 1.0f ? 1.0f : fx, o[11]);

        const float *f = fast + i * FAST;
        double t = s[i];
        if (std::fabs(y) > 0x1p-126 && std::fabs(y) < 0x1p126)
            expect_ulps("__fdividef", i, x / y, f[0], 2);
        expect_ulps("__expf", i, std::exp(t), f[1], 2 + (int)std::floor(std::fabs(1.173 * t)) + 1);
        double ax = std::fabs(x);
        if (ax >= 0.5 && ax <= 2.0)
            expect_abs("__logf", i, std::log(ax), f[2], 0x1p-21);
        else if (ax > 0.0)
            expect_ulps("__logf", i, std::log(ax), f[2], 4);
        expect_abs("__sinf", i, std::sin(t), f[3], 0x1p-21);
        expect_abs("__cosf", i, std::cos(t), f[4], 0x1p-21);
        if (ax > 0.0)
            expect_ulps("rsqrtf", i, 1.0 / std::sqrt(ax), f[5], 3);
        expect_ulps("expf", i, std::exp(t), f[6], 3);
        expect_ulps("sinf", i, std::sin(t), f[7], 3);
    }

    // Worked by hand (index, op*4+mode): 1 + 0.75 ulp.
    expect_eq("hand: fadd_rn(1, 3*2^-25)", 0L, 1.0f + 0x1p-23f, dir[0 * DIR + 0]);
    expect_eq("hand: fadd_rz(1, 3*2^-25)", 0L, 1.0f, dir[0 * DIR + 1]);
    expect_eq("hand: fadd_rd(-1, -3*2^-25)", 1L, -1.0f - 0x1p-23f, dir[1 * DIR + 2]);
    expect_eq("hand: fadd_ru(-1, -3*2^-25)", 1L, -1.0f, dir[1 * DIR + 3]);
    expect_eq("hand: fmul_ru((1+2^-23)^2)", 2L, 1.0f + 0x1p-22f + 0x1p-23f, dir[2 * DIR + 7]);
    expect_eq("hand: fmul_rn((1+2^-23)^2)", 2L, 1.0f + 0x1p-22f, dir[2 * DIR + 4]);
    expect_eq("hand: fmaf_rn((1+2^-23)^2 - 1) ties to even", 2L, 0x1p-22f, dir[2 * DIR + 12]);
    expect_eq("hand: fmaf_ru((1+2^-23)^2 - 1)", 2L, 0x1p-22f + 0x1p-45f, dir[2 * DIR + 15]);
    expect_eq("hand: fsub_rd(2^-75, 2^-75) is -0", 4L, 0x80000000u, bits_of(dir[4 * DIR + 26]));
    expect_eq("hand: fsub_rn(2^-75, 2^-75) is +0", 4L, 0u, bits_of(dir[4 * DIR + 24]));
    expect_eq("hand: fmul_rn(2^-70, 2^-70) subnormal", 3L, 0x1p-140f, dir[3 * DIR + 4]);
    expect_eq("hand: fmul_rn(2^-75, 2^-75) ties to 0", 4L, 0.0f, dir[4 * DIR + 4]);
    expect_eq("hand: fmul_ru(2^-75, 2^-75)", 4L, 0x1p-149f, dir[4 * DIR + 7]);
    expect_eq("hand: fmul_rn(3e38, 1.5e38) overflows", 8L, INFINITY, dir[8 * DIR + 4]);
    expect_eq("hand: fmul_rz(3e38, 1.5e38) saturates", 8L, FLT_MAX, dir[8 * DIR + 5]);
    expect_eq("hand: rintf(2.5)", 6L, 2.0f, ieee[6 * IEEE + 3]);
    expect_eq("hand: roundf(-2.5)", 7L, -3.0f, ieee[7 * IEEE + 4]);
    expect_eq("hand: fmodf(-7.5, 2)", 10L, -1.5f, ieee[10 * IEEE + 2]);
    expect_eq("hand: 1/3", 5L, 0x1.555556p-2f, ieee[5 * IEEE + 0]);

    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_s));
    CHECK(cudaFree(d_dir));
    CHECK(cudaFree(d_ieee));
    CHECK(cudaFree(d_fast));
    return 0;
}

int main(void)
{
    if (run())
        return 1;
    if (failures)
        return 1;
    printf("ok float_intrinsics\n");
    return 0;
}
