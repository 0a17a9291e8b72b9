// Half precision (cuda_fp16.h) and bfloat16 (cuda_bf16.h): float -> half and
// float -> bf16 in all four rounding modes (ties to even, subnormals,
// overflow, NaN), half -> float on a broad sample of bit patterns, __half
// arithmetic and comparisons through intrinsics and operators, __half2 lane
// arithmetic and packing, half <-> int conversions, and bf16 add/multiply.
// Every expected bit pattern comes from a host rounding routine written here
// from the IEEE definitions, not from the CUDA headers.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cfloat>
#include <type_traits>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include "check.h"

typedef unsigned short u16;

// ---- host reference -------------------------------------------------------

enum Round { RN, RZ, RD, RU };

struct Format {
    int mant;       // stored fraction bits
    int emin;       // exponent of the smallest normal number
    double maxf;    // largest finite value
};
static const Format HALF = {10, -14, 65504.0};
static const Format BF16 = {7, -126, 0x1.fep127};

// Rounds x to the format in the given mode, with IEEE overflow behaviour
// (infinity, or the largest finite value for modes rounding toward zero).
static double round_to(double x, Format f, Round r)
{
    if (std::isnan(x) || std::isinf(x) || x == 0.0)
        return x;
    int e;
    std::frexp(x, &e);
    int lead = e - 1 < f.emin ? f.emin : e - 1;
    double quantum = std::ldexp(1.0, lead - f.mant);
    double q = x / quantum;
    switch (r) {
    case RN: q = std::nearbyint(q); break;
    case RZ: q = std::trunc(q); break;
    case RD: q = std::floor(q); break;
    case RU: q = std::ceil(q); break;
    }
    double y = q * quantum;
    if (std::fabs(y) > f.maxf) {
        bool to_inf = r == RN || (r == RU && y > 0) || (r == RD && y < 0);
        y = to_inf ? std::copysign(INFINITY, y) : std::copysign(f.maxf, y);
    }
    return y;
}

// Bit pattern of a value that is exactly representable as a half.
static u16 half_bits(double v)
{
    u16 s = std::signbit(v) ? 0x8000 : 0;
    double a = std::fabs(v);
    if (std::isnan(v))
        return 0x7e00;
    if (std::isinf(a))
        return s | 0x7c00;
    if (a == 0.0)
        return s;
    int e;
    std::frexp(a, &e);
    int lead = e - 1;
    if (lead < -14)
        return s | (u16)(a / std::ldexp(1.0, -24));
    unsigned mant = (unsigned)((a / std::ldexp(1.0, lead) - 1.0) * 1024.0);
    return s | (u16)((lead + 15) << 10) | (u16)mant;
}

static double half_value(u16 b)
{
    int e = (b >> 10) & 31, m = b & 1023;
    double v;
    if (e == 0)
        v = std::ldexp((double)m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = std::ldexp((double)(m + 1024), e - 25);
    return (b >> 15) ? -v : v;
}

static u16 bf16_bits(double v)
{
    float f = (float)v;
    unsigned u;
    memcpy(&u, &f, 4);
    return (u16)(u >> 16);
}

static float bf16_value(u16 b)
{
    unsigned u = (unsigned)b << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static void check_half(const char *what, long idx, double want, u16 got)
{
    if (std::isnan(want)) {
        if (!std::isnan(half_value(got)))
            expect_eq(what, idx, (u16)0x7e00, got);
        return;
    }
    expect_eq(what, idx, half_bits(want), got);
}

static void check_bf16(const char *what, long idx, double want, u16 got)
{
    if (std::isnan(want)) {
        if (!std::isnan(bf16_value(got)))
            expect_eq(what, idx, (u16)0x7fc0, got);
        return;
    }
    expect_eq(what, idx, bf16_bits(want), got);
}

// ---- kernels ---------------------------------------------------------------

enum { CONV_OUT = 8, ARITH_OUT = 20, H2_OUT = 14, INT_OUT = 8 };

__global__ void convert_kernel(const float *in, u16 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = in[i];
    u16 *o = out + i * CONV_OUT;
    o[0] = __half_as_ushort(__float2half_rn(x));
    o[1] = __half_as_ushort(__float2half_rz(x));
    o[2] = __half_as_ushort(__float2half_rd(x));
    o[3] = __half_as_ushort(__float2half_ru(x));
    o[4] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
    o[5] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
    o[6] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
    o[7] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
}

__global__ void widen_kernel(float *hout, float *bout, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    u16 bits = (u16)(i * 4 + (i & 3));
    hout[i] = __half2float(__ushort_as_half(bits));
    bout[i] = __bfloat162float(__ushort_as_bfloat16(bits));
}

__global__ void arith_kernel(const u16 *a, const u16 *b, const u16 *c, u16 *out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    __half x = __ushort_as_half(a[i]), y = __ushort_as_half(b[i]), z = __ushort_as_half(c[i]);
    u16 *o = out + i * ARITH_OUT;
    o[0] = __half_as_ushort(__hadd(x, y));
    o[1] = __half_as_ushort(__hsub(x, y));
    o[2] = __half_as_ushort(__hmul(x, y));
    o[3] = __half_as_ushort(__hdiv(x, y));
    o[4] = __half_as_ushort(__hfma(x, y, z));
    o[5] = __half_as_ushort(__hneg(x));
    o[6] = __half_as_ushort(__habs(x));
    o[7] = __half_as_ushort(__hmax(x, y));
    o[8] = __half_as_ushort(__hmin(x, y));
    o[9] = __hlt(x, y);
    o[10] = __heq(x, y);
    o[11] = __hgt(x, y);
    o[12] = __hisnan(x);
    o[13] = (u16)(__hisinf(x) + 1);
    __half s = x + y, d = x - y, p = x * y, q = x / y, m = -x;
    o[14] = __half_as_ushort(s);
    o[15] = __half_as_ushort(d);
    o[16] = __half_as_ushort(p);
    o[17] = __half_as_ushort(q);
    o[18] = __half_as_ushort(m);
    o[19] = (x < y) + 2 * (x >= y);
}

__global__ void half2_kernel(const u16 *a, const u16 *b, const u16 *c, const float *f,
                             u16 *out, float *fout, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    __half ha = __ushort_as_half(a[i]), hb = __ushort_as_half(b[i]), hc = __ushort_as_half(c[i]);
    __half2 x = __halves2half2(ha, hb), y = __halves2half2(hc, ha);
    __half2 r[6] = {
        __hadd2(x, y), __hmul2(x, y), __hfma2(x, y, x), __hneg2(x), __lowhigh2highlow(x),
        __floats2half2_rn(f[i], f[(i + 1) % n]),
    };
    u16 *o = out + i * H2_OUT;
    for (int k = 0; k < 6; k++) {
        o[2 * k] = __half_as_ushort(__low2half(r[k]));
        o[2 * k + 1] = __half_as_ushort(__high2half(r[k]));
    }
    o[12] = __half_as_ushort(__low2half(__halves2half2(hb, hc)));
    o[13] = __half_as_ushort(__high2half(__halves2half2(hb, hc)));
    float2 w = __half22float2(x);
    fout[2 * i] = w.x;
    fout[2 * i + 1] = w.y;
}

__global__ void int_kernel(const u16 *h, const int *iv, int *iout, u16 *hout, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    __half x = __ushort_as_half(h[i]);
    int *o = iout + i * 4;
    o[0] = __half2int_rn(x);
    o[1] = __half2int_rz(x);
    o[2] = __half2int_rd(x);
    o[3] = __half2int_ru(x);
    u16 *p = hout + i * INT_OUT;
    p[0] = __half_as_ushort(__int2half_rn(iv[i]));
    p[1] = __half_as_ushort(__int2half_rz(iv[i]));
    p[2] = __half_as_ushort(__int2half_rd(iv[i]));
    p[3] = __half_as_ushort(__int2half_ru(iv[i]));
    __nv_bfloat16 bx = __ushort_as_bfloat16(h[i]), by = __ushort_as_bfloat16(h[(i + 1) % n]);
    p[4] = __bfloat16_as_ushort(__hadd(bx, by));
    p[5] = __bfloat16_as_ushort(__hmul(bx, by));
    p[6] = __bfloat16_as_ushort(__hmul(bx, bx));
    p[7] = 0;
}

// ---- checks ----------------------------------------------------------------

static int check_conversions(void)
{
    const float in[] = {
        1.0f, -2.5f, 1.0f + 0x1p-11f, 1.0f + 3 * 0x1p-11f, 1.0f + 0x1p-11f + 0x1p-20f,
        -(1.0f + 0x1p-11f), 0.1f, 3.14159265f, -1000.3f, 65504.0f, 65519.0f, 65520.0f,
        70000.0f, -70000.0f, 2049.0f, 2051.0f, 0x1p-24f, 0x1p-25f, 3 * 0x1p-25f, 0x1p-26f,
        -0x1p-26f, 6.1e-5f, 1e-10f, 0.0f, -0.0f, INFINITY, -INFINITY, NAN,
        1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 1e38f, FLT_MAX, -FLT_MAX, 1e-40f, 3.0e-39f,
        255.5f, 257.0f, 259.0f, -259.0f, 0.33333334f,
    };
    const int n = sizeof in / sizeof in[0];
    u16 out[n * CONV_OUT];
    float *d_in;
    u16 *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    convert_kernel<<<1, 64>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    static const char *names[CONV_OUT] = {
        "float2half_rn", "float2half_rz", "float2half_rd", "float2half_ru",
        "float2bfloat16_rn", "float2bfloat16_rz", "float2bfloat16_rd", "float2bfloat16_ru",
    };
    const Round modes[4] = {RN, RZ, RD, RU};
    for (int i = 0; i < n; i++)
        for (int m = 0; m < 4; m++) {
            check_half(names[m], i, round_to(in[i], HALF, modes[m]), out[i * CONV_OUT + m]);
            check_bf16(names[4 + m], i, round_to(in[i], BF16, modes[m]),
                       out[i * CONV_OUT + 4 + m]);
        }
    // A few expectations worked out by hand, guarding the reference itself.
    expect_eq("hand: 1+2^-11 ties to 1.0", 2L, (u16)0x3c00, out[2 * CONV_OUT]);
    expect_eq("hand: 1+3*2^-11 ties to 1+2^-9", 3L, (u16)0x3c02, out[3 * CONV_OUT]);
    expect_eq("hand: 65520 rounds to inf", 11L, (u16)0x7c00, out[11 * CONV_OUT]);
    expect_eq("hand: 70000 rz is 65504", 12L, (u16)0x7bff, out[12 * CONV_OUT + 1]);
    expect_eq("hand: 3*2^-25 ties to 2^-23", 18L, (u16)0x0002, out[18 * CONV_OUT]);
    expect_eq("hand: 2^-26 ru is 2^-24", 19L, (u16)0x0001, out[19 * CONV_OUT + 3]);
    expect_eq("hand: bf16 of 257 ties to 256", 36L, (u16)0x4380, out[36 * CONV_OUT + 4]);
    expect_eq("hand: bf16 of 259 ties to 260", 37L, (u16)0x4382, out[37 * CONV_OUT + 4]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

static int check_widen(void)
{
    const int n = 16384;
    static float hout[n], bout[n];
    float *d_h, *d_b;
    CHECK(cudaMalloc(&d_h, sizeof hout));
    CHECK(cudaMalloc(&d_b, sizeof bout));
    widen_kernel<<<n / 256, 256>>>(d_h, d_b, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hout, d_h, sizeof hout, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bout, d_b, sizeof bout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        u16 bits = (u16)(i * 4 + (i & 3));
        double hv = half_value(bits);
        float bv = bf16_value(bits);
        if (std::isnan(hv)) {
            if (!std::isnan(hout[i]))
                expect_eq("half2float NaN", i, (float)hv, hout[i]);
        } else {
            expect_eq("half2float", i, (float)hv, hout[i]);
            if (std::signbit(hv) != std::signbit(hout[i]))
                expect_eq("half2float sign", i, (int)std::signbit(hv), (int)std::signbit(hout[i]));
        }
        if (std::isnan(bv)) {
            if (!std::isnan(bout[i]))
                expect_eq("bfloat162float NaN", i, bv, bout[i]);
        } else {
            unsigned want, got;
            memcpy(&want, &bv, 4);
            memcpy(&got, &bout[i], 4);
            expect_eq("bfloat162float bits", i, want, got);
        }
    }
    CHECK(cudaFree(d_h));
    CHECK(cudaFree(d_b));
    return 0;
}

// Arithmetic cases: exact half values (a, b, c).
static const double CASES[][3] = {
    {1.0, 0x1p-11, -1.0},
    {1.0, 3 * 0x1p-11, 0.5},
    {65504.0, 16.0, -65504.0},
    {-3.5, 1.25, 2.0},
    {0x1p-24, 0x1p-24, 0x1p-24},
    {1.0 + 0x1p-10, 1.0 + 0x1p-10, -(1.0 + 0x1p-9)},
    {256.0, 256.0, 1.0},
    {0x1p-12, 0x1p-12, 0.0},
    {0x1p-13, 0x1p-13, -0.0},
    {3.0, -7.0, 21.0},
    {1.0, 3.0, 0.25},
    {10.0, 7.0, -1.0},
    {7.0, 2.0, 1.0},
    {-6.0, 4.0, 0.125},
    {1.0, 0.0, 1.0},
    {-0.0, 0.0, 0.0},
    {60000.0, 2.0, 0.0},
    {1365.0 / 4096.0, 3.0, -1.0},
    {NAN, 1.0, 1.0},
    {INFINITY, -INFINITY, 1.0},
    {-INFINITY, 2.0, 0.0},
};
enum { NCASES = sizeof CASES / sizeof CASES[0] };

static int check_arith(void)
{
    u16 a[NCASES], b[NCASES], c[NCASES], out[NCASES * ARITH_OUT];
    for (int i = 0; i < NCASES; i++) {
        a[i] = half_bits(CASES[i][0]);
        b[i] = half_bits(CASES[i][1]);
        c[i] = half_bits(CASES[i][2]);
    }
    u16 *d_a, *d_b, *d_c, *d_out;
    CHECK(cudaMalloc(&d_a, sizeof a));
    CHECK(cudaMalloc(&d_b, sizeof b));
    CHECK(cudaMalloc(&d_c, sizeof c));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_c, c, sizeof c, cudaMemcpyHostToDevice));
    arith_kernel<<<1, 32>>>(d_a, d_b, d_c, d_out, NCASES);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NCASES; i++) {
        double x = CASES[i][0], y = CASES[i][1], z = CASES[i][2];
        const u16 *o = out + i * ARITH_OUT;
        bool nan = std::isnan(x) || std::isnan(y);
        check_half("hadd", i, round_to(x + y, HALF, RN), o[0]);
        check_half("hsub", i, round_to(x - y, HALF, RN), o[1]);
        check_half("hmul", i, round_to(x * y, HALF, RN), o[2]);
        check_half("hdiv", i, round_to(x / y, HALF, RN), o[3]);
        check_half("hfma", i, round_to(std::fma(x, y, z), HALF, RN), o[4]);
        check_half("hneg", i, -x, o[5]);
        check_half("habs", i, std::fabs(x), o[6]);
        double mx = std::isnan(x) ? y : std::isnan(y) ? x : (x > y ? x : y);
        double mn = std::isnan(x) ? y : std::isnan(y) ? x : (x < y ? x : y);
        if (mx == 0.0) {
            expect_eq("hmax of zeros is zero", i, 0.0, half_value(o[7]));
            expect_eq("hmin of zeros is zero", i, 0.0, half_value(o[8]));
        } else {
            check_half("hmax", i, mx, o[7]);
            check_half("hmin", i, mn, o[8]);
        }
        expect_eq("hlt", i, (u16)(!nan && x < y), o[9]);
        expect_eq("heq", i, (u16)(!nan && x == y), o[10]);
        expect_eq("hgt", i, (u16)(!nan && x > y), o[11]);
        expect_eq("hisnan", i, (u16)std::isnan(x), o[12]);
        expect_eq("hisinf+1", i, (u16)(std::isinf(x) ? (x > 0 ? 2 : 0) : 1), o[13]);
        check_half("operator+", i, round_to(x + y, HALF, RN), o[14]);
        check_half("operator-", i, round_to(x - y, HALF, RN), o[15]);
        check_half("operator*", i, round_to(x * y, HALF, RN), o[16]);
        check_half("operator/", i, round_to(x / y, HALF, RN), o[17]);
        check_half("unary operator-", i, -x, o[18]);
        expect_eq("operator< and >=", i, (u16)((!nan && x < y) + 2 * (!nan && x >= y)), o[19]);
    }
    // Worked by hand: fma keeps 2^-20 where multiply-then-add would give 0,
    // and (1365/4096)*3 = 1 - 2^-12 ties to 1.0 while the fma keeps -2^-12.
    expect_eq("hand: hfma single rounding", 5L, (u16)0x0010, out[5 * ARITH_OUT + 4]);
    expect_eq("hand: hmul tie to 1.0", 17L, (u16)0x3c00, out[17 * ARITH_OUT + 2]);
    expect_eq("hand: hfma -2^-12", 17L, (u16)0x8c00, out[17 * ARITH_OUT + 4]);
    expect_eq("hand: 65504+16 ties to inf", 2L, (u16)0x7c00, out[2 * ARITH_OUT]);
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_out));
    return 0;
}

static int check_half2(void)
{
    const int n = 17;
    u16 a[n], b[n], c[n], out[n * H2_OUT];
    float f[n], fout[2 * n];
    for (int i = 0; i < n; i++) {
        a[i] = half_bits(CASES[i][0]);
        b[i] = half_bits(CASES[i][1]);
        c[i] = half_bits(CASES[i][2]);
        f[i] = (float)(i * 0.37 - 2.0) * 1000.0f;
    }
    u16 *d_a, *d_b, *d_c, *d_out;
    float *d_f, *d_fout;
    CHECK(cudaMalloc(&d_a, sizeof a));
    CHECK(cudaMalloc(&d_b, sizeof b));
    CHECK(cudaMalloc(&d_c, sizeof c));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMalloc(&d_f, sizeof f));
    CHECK(cudaMalloc(&d_fout, sizeof fout));
    CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_c, c, sizeof c, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_f, f, sizeof f, cudaMemcpyHostToDevice));
    half2_kernel<<<1, 32>>>(d_a, d_b, d_c, d_f, d_out, d_fout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(fout, d_fout, sizeof fout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        double x = CASES[i][0], y = CASES[i][1], z = CASES[i][2];
        const u16 *o = out + i * H2_OUT;
        // x2 = (x, y), y2 = (z, x)
        check_half("hadd2 low", i, round_to(x + z, HALF, RN), o[0]);
        check_half("hadd2 high", i, round_to(y + x, HALF, RN), o[1]);
        check_half("hmul2 low", i, round_to(x * z, HALF, RN), o[2]);
        check_half("hmul2 high", i, round_to(y * x, HALF, RN), o[3]);
        check_half("hfma2 low", i, round_to(std::fma(x, z, x), HALF, RN), o[4]);
        check_half("hfma2 high", i, round_to(std::fma(y, x, y), HALF, RN), o[5]);
        check_half("hneg2 low", i, -x, o[6]);
        check_half("hneg2 high", i, -y, o[7]);
        check_half("lowhigh2highlow low", i, y, o[8]);
        check_half("lowhigh2highlow high", i, x, o[9]);
        check_half("floats2half2_rn low", i, round_to(f[i], HALF, RN), o[10]);
        check_half("floats2half2_rn high", i, round_to(f[(i + 1) % n], HALF, RN), o[11]);
        check_half("halves2half2 low", i, y, o[12]);
        check_half("halves2half2 high", i, z, o[13]);
        expect_eq("half22float2 x", i, (float)x, fout[2 * i]);
        expect_eq("half22float2 y", i, (float)y, fout[2 * i + 1]);
    }
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_fout));
    return 0;
}

static int check_ints(void)
{
    const double hv[] = {2.5, -2.75, 3.5, -0.5, 65504.0, 0.0, -1.0, 1.0 - 0x1p-11, NAN,
                         1.5, 1.0 + 0x1p-7, -3.0};
    const int iv[] = {2049, 2051, 70000, -70000, 65519, 65520, -2049, 0, 1, -2, 12345,
                      -65504};
    const int n = sizeof hv / sizeof hv[0];
    u16 h[n], hout[n * INT_OUT];
    int iout[n * 4];
    for (int i = 0; i < n; i++)
        h[i] = half_bits(hv[i]);
    u16 *d_h, *d_hout;
    int *d_iv, *d_iout;
    CHECK(cudaMalloc(&d_h, sizeof h));
    CHECK(cudaMalloc(&d_hout, sizeof hout));
    CHECK(cudaMalloc(&d_iv, sizeof iv));
    CHECK(cudaMalloc(&d_iout, sizeof iout));
    CHECK(cudaMemcpy(d_h, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_iv, iv, sizeof iv, cudaMemcpyHostToDevice));
    int_kernel<<<1, 32>>>(d_h, d_iv, d_iout, d_hout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hout, d_hout, sizeof hout, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(iout, d_iout, sizeof iout, cudaMemcpyDeviceToHost));
    const Round modes[4] = {RN, RZ, RD, RU};
    static const char *h2i[4] = {"half2int_rn", "half2int_rz", "half2int_rd", "half2int_ru"};
    static const char *i2h[4] = {"int2half_rn", "int2half_rz", "int2half_rd", "int2half_ru"};
    for (int i = 0; i < n; i++) {
        double x = hv[i];
        double r[4] = {std::nearbyint(x), std::trunc(x), std::floor(x), std::ceil(x)};
        for (int m = 0; m < 4; m++) {
            expect_eq(h2i[m], i, std::isnan(x) ? 0 : (int)r[m], iout[i * 4 + m]);
            check_half(i2h[m], i, round_to((double)iv[i], HALF, modes[m]), hout[i * INT_OUT + m]);
        }
        // bf16 lanes reinterpret the same bits as bfloat16 values.
        double bx = bf16_value(h[i]), by = bf16_value(h[(i + 1) % n]);
        check_bf16("bf16 hadd", i, round_to(bx + by, BF16, RN), hout[i * INT_OUT + 4]);
        check_bf16("bf16 hmul", i, round_to(bx * by, BF16, RN), hout[i * INT_OUT + 5]);
        check_bf16("bf16 hmul square", i, round_to(bx * bx, BF16, RN), hout[i * INT_OUT + 6]);
    }
    expect_eq("hand: int2half_rn(2051) is 2052", 1L, (u16)0x6802, hout[1 * INT_OUT]);
    expect_eq("hand: int2half_rd(-2049) is -2050", 6L, (u16)0xe801, hout[6 * INT_OUT + 2]);
    expect_eq("hand: half2int_rn(2.5) is 2", 0L, 2, iout[0]);
    expect_eq("hand: half2int_rd(-2.75) is -3", 1L, -3, iout[4 + 2]);
    CHECK(cudaFree(d_h));
    CHECK(cudaFree(d_hout));
    CHECK(cudaFree(d_iv));
    CHECK(cudaFree(d_iout));
    return 0;
}

int main(void)
{
    if (check_conversions() || check_widen() || check_arith() || check_half2() || check_ints())
        return 1;
    if (failures)
        return 1;
    printf("ok half_bf16\n");
    return 0;
}
