// Conversions between floating point and integers in every rounding mode:
// __float2int_r?, __float2uint_r?, __float2ll_r?, __float2ull_r?,
// __double2int_r?, __int2float_r?, __uint2float_r?, __ll2float_r?,
// __ull2float_r?, __ll2double_r?, __double2float_r?, and plain C++ casts.
// Out-of-range values saturate to the integer type's limits, NaN converts to
// 0 (checked for 32-bit destinations), and ties round to even. References
// are computed on the host with integer arithmetic, not with the FPU's mode.
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cfloat>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

typedef unsigned long long u64;
enum Round { RN, RZ, RD, RU };

__global__ void float_to_int(const float *in, int *i32, unsigned *u32, long long *i64, u64 *u64o,
                             int n)
{
    int k = threadIdx.x;
    if (k >= n)
        return;
    float x = in[k];
    i32[4 * k + 0] = __float2int_rn(x);
    i32[4 * k + 1] = __float2int_rz(x);
    i32[4 * k + 2] = __float2int_rd(x);
    i32[4 * k + 3] = __float2int_ru(x);
    u32[4 * k + 0] = __float2uint_rn(x);
    u32[4 * k + 1] = __float2uint_rz(x);
    u32[4 * k + 2] = __float2uint_rd(x);
    u32[4 * k + 3] = __float2uint_ru(x);
    i64[4 * k + 0] = __float2ll_rn(x);
    i64[4 * k + 1] = __float2ll_rz(x);
    i64[4 * k + 2] = __float2ll_rd(x);
    i64[4 * k + 3] = __float2ll_ru(x);
    u64o[4 * k + 0] = __float2ull_rn(x);
    u64o[4 * k + 1] = __float2ull_rz(x);
    u64o[4 * k + 2] = __float2ull_rd(x);
    u64o[4 * k + 3] = __float2ull_ru(x);
}

__global__ void double_to_int(const double *in, int *i32, float *f32, int n)
{
    int k = threadIdx.x;
    if (k >= n)
        return;
    double x = in[k];
    i32[4 * k + 0] = __double2int_rn(x);
    i32[4 * k + 1] = __double2int_rz(x);
    i32[4 * k + 2] = __double2int_rd(x);
    i32[4 * k + 3] = __double2int_ru(x);
    f32[4 * k + 0] = __double2float_rn(x);
    f32[4 * k + 1] = __double2float_rz(x);
    f32[4 * k + 2] = __double2float_rd(x);
    f32[4 * k + 3] = __double2float_ru(x);
}

__global__ void int_to_float(const int *i32, const unsigned *u32, const long long *i64,
                             const u64 *u64i, float *out, double *dout, int n)
{
    int k = threadIdx.x;
    if (k >= n)
        return;
    float *o = out + 16 * k;
    o[0] = __int2float_rn(i32[k]);
    o[1] = __int2float_rz(i32[k]);
    o[2] = __int2float_rd(i32[k]);
    o[3] = __int2float_ru(i32[k]);
    o[4] = __uint2float_rn(u32[k]);
    o[5] = __uint2float_rz(u32[k]);
    o[6] = __uint2float_rd(u32[k]);
    o[7] = __uint2float_ru(u32[k]);
    o[8] = __ll2float_rn(i64[k]);
    o[9] = __ll2float_rz(i64[k]);
    o[10] = __ll2float_rd(i64[k]);
    o[11] = __ll2float_ru(i64[k]);
    o[12] = __ull2float_rn(u64i[k]);
    o[13] = __ull2float_rz(u64i[k]);
    o[14] = __ull2float_rd(u64i[k]);
    o[15] = __ull2float_ru(u64i[k]);
    double *d = dout + 6 * k;
    d[0] = __ll2double_rn(i64[k]);
    d[1] = __ll2double_rz(i64[k]);
    d[2] = __ll2double_rd(i64[k]);
    d[3] = __ll2double_ru(i64[k]);
    d[4] = __ull2double_rn(u64i[k]);
    d[5] = (double)i32[k] + (double)u32[k];
}

// Plain casts on in-range values, as the compiler emits them.
__global__ void casts(const float *f, const double *d, const int *i, long long *out, int n)
{
    int k = threadIdx.x;
    if (k >= n)
        return;
    long long *o = out + 6 * k;
    o[0] = (int)f[k];
    o[1] = (long long)d[k];
    o[2] = (unsigned)fabsf(f[k]);
    float back = (float)i[k];
    double dback = (double)i[k];
    memcpy(&o[3], &dback, 8);
    int bits;
    memcpy(&bits, &back, 4);
    o[4] = bits;
    o[5] = (long long)(short)i[k] + (long long)(signed char)i[k];
}

// ---- host reference -----------------------------------------------------------

// Rounds the real value x to an integer in the given mode, then clamps it to
// [lo, hi]; NaN gives nan_value.
static double to_integer(double x, Round r, double lo, double hi, double nan_value)
{
    if (std::isnan(x))
        return nan_value;
    double v = r == RN ? std::nearbyint(x) : r == RZ ? std::trunc(x) : r == RD ? std::floor(x)
                                                                                : std::ceil(x);
    return v < lo ? lo : v > hi ? hi : v;
}

// Rounds the magnitude m (sign given separately) to `bits` significant bits,
// using only integer arithmetic; returns the signed result as a double
// (which holds it exactly).
static double round_integer(u64 m, bool negative, int bits, Round r)
{
    int len = 0;
    while (len < 64 && (m >> len) != 0)
        len++;
    if (len <= bits)
        return negative ? -(double)m : (double)m;
    int s = len - bits;
    u64 q = m >> s, rem = m & ((1ull << s) - 1), half = 1ull << (s - 1);
    bool up = false;
    switch (r) {
    case RN: up = rem > half || (rem == half && (q & 1)); break;
    case RZ: up = false; break;
    case RD: up = negative && rem != 0; break;
    case RU: up = !negative && rem != 0; break;
    }
    double v = std::ldexp((double)(q + (up ? 1 : 0)), s);
    return negative ? -v : v;
}

static double round_signed(long long v, int bits, Round r)
{
    u64 m = v < 0 ? 0 - (u64)v : (u64)v;
    return round_integer(m, v < 0, bits, r);
}

// Double to float in a mode, on the exact value (the double itself).
static float to_float(double x, Round r)
{
    if (std::isnan(x) || std::isinf(x) || x == 0.0)
        return (float)x;
    int e;
    std::frexp(x, &e);
    int lead = e - 1 < -126 ? -126 : e - 1;
    double quantum = std::ldexp(1.0, lead - 23);
    double q = x / quantum;
    q = r == RN ? std::nearbyint(q) : r == RZ ? std::trunc(q) : r == RD ? std::floor(q)
                                                                       : std::ceil(q);
    double y = q * quantum;
    if (std::fabs(y) > FLT_MAX) {
        bool to_inf = r == RN || (r == RU && y > 0) || (r == RD && y < 0);
        y = to_inf ? std::copysign(INFINITY, y) : std::copysign((double)FLT_MAX, y);
    }
    return (float)y;
}

static void expect_float_bits(const char *what, long idx, float want, float got)
{
    unsigned w, g;
    memcpy(&w, &want, 4);
    memcpy(&g, &got, 4);
    if (w != g && !(std::isnan(want) && std::isnan(got)))
        expect_eq(what, idx, want, got);
}

static const Round MODES[4] = {RN, RZ, RD, RU};
static const char *SFX[4] = {"_rn", "_rz", "_rd", "_ru"};

static void name_of(char *buf, size_t len, const char *base, int m)
{
    snprintf(buf, len, "%s%s", base, SFX[m]);
}

static int check_float_to_int(void)
{
    const float in[] = {
        0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4999998f, -7.999f, 123456.7f,
        2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 3e9f, -3e9f,
        4294967040.0f, 4294967296.0f, 5e9f, 1e20f, -1e20f, 9.2233720e18f, -9.2233720e18f,
        1.8446743e19f, INFINITY, -INFINITY, NAN, 0.0f, -0.0f, 1e-30f, -1e-30f, 16777215.0f,
    };
    const int n = sizeof in / sizeof in[0];
    int i32[4 * n];
    unsigned u32[4 * n];
    long long i64[4 * n];
    u64 u64o[4 * n];
    float *d_in;
    int *d_i32;
    unsigned *d_u32;
    long long *d_i64;
    u64 *d_u64;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_i32, sizeof i32));
    CHECK(cudaMalloc(&d_u32, sizeof u32));
    CHECK(cudaMalloc(&d_i64, sizeof i64));
    CHECK(cudaMalloc(&d_u64, sizeof u64o));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    float_to_int<<<1, 64>>>(d_in, d_i32, d_u32, d_i64, d_u64, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(i32, d_i32, sizeof i32, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(u32, d_u32, sizeof u32, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(i64, d_i64, sizeof i64, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(u64o, d_u64, sizeof u64o, cudaMemcpyDeviceToHost));
    const double llmax = 9223372036854775807.0, ullmax = 18446744073709551615.0;
    for (int k = 0; k < n; k++) {
        double x = in[k];
        for (int m = 0; m < 4; m++) {
            char name[40];
            name_of(name, sizeof name, "float2int", m);
            expect_eq(name, k, (int)to_integer(x, MODES[m], INT_MIN, INT_MAX, 0), i32[4 * k + m]);
            name_of(name, sizeof name, "float2uint", m);
            expect_eq(name, k, (unsigned)to_integer(x, MODES[m], 0, UINT_MAX, 0), u32[4 * k + m]);
            if (std::isnan(x))
                continue;
            double v = to_integer(x, MODES[m], -llmax - 1.0, llmax, 0);
            long long wl = v >= llmax ? LLONG_MAX : (long long)v;
            name_of(name, sizeof name, "float2ll", m);
            expect_eq(name, k, wl, i64[4 * k + m]);
            double uv = to_integer(x, MODES[m], 0, ullmax, 0);
            u64 wu = uv >= ullmax ? ULLONG_MAX : (u64)uv;
            name_of(name, sizeof name, "float2ull", m);
            expect_eq(name, k, wu, u64o[4 * k + m]);
        }
    }
    // Hand-worked: ties to even, saturation, NaN.
    expect_eq("hand: float2int_rn(2.5)", 2L, 2, i32[4 * 2]);
    expect_eq("hand: float2int_rn(-1.5)", 4L, -2, i32[4 * 4]);
    expect_eq("hand: float2int_rz(2^31) saturates", 10L, INT_MAX, i32[4 * 10 + 1]);
    expect_eq("hand: float2int_rn(-3e9) saturates", 14L, INT_MIN, i32[4 * 14]);
    expect_eq("hand: float2uint_rn(-1.5) is 0", 4L, 0u, u32[4 * 4]);
    expect_eq("hand: float2uint_rn(2^32) saturates", 16L, UINT_MAX, u32[4 * 16]);
    expect_eq("hand: float2int_rn(NaN) is 0", 25L, 0, i32[4 * 25]);
    expect_eq("hand: float2uint_rz(NaN) is 0", 25L, 0u, u32[4 * 25 + 1]);
    expect_eq("hand: float2int_rd(-1e-30) is -1", 29L, -1, i32[4 * 29 + 2]);
    expect_eq("hand: float2ll_rn(1e20) saturates", 18L, LLONG_MAX, i64[4 * 18]);
    expect_eq("hand: float2ll_rn(-2^63) exact", 21L, LLONG_MIN, i64[4 * 21]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_i32));
    CHECK(cudaFree(d_u32));
    CHECK(cudaFree(d_i64));
    CHECK(cudaFree(d_u64));
    return 0;
}

static int check_double(void)
{
    const double in[] = {
        2.5, -2.5, 3.5, 2147483647.5, -2147483648.5, -2147483647.5, 1e10, -1e10, NAN, -0.7,
        1.0 + 0x1p-24, 1.0 + 0x1p-24 + 0x1p-50, 3.4028235677973366e38, 1e39, -1e39, 1e-46,
        -1e-46, 0.1, -0.1, 0x1p-140 + 0x1p-160, INFINITY,
    };
    const int n = sizeof in / sizeof in[0];
    int i32[4 * n];
    float f32[4 * n];
    double *d_in;
    int *d_i32;
    float *d_f32;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_i32, sizeof i32));
    CHECK(cudaMalloc(&d_f32, sizeof f32));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    double_to_int<<<1, 32>>>(d_in, d_i32, d_f32, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(i32, d_i32, sizeof i32, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(f32, d_f32, sizeof f32, cudaMemcpyDeviceToHost));
    for (int k = 0; k < n; k++)
        for (int m = 0; m < 4; m++) {
            char name[40];
            name_of(name, sizeof name, "double2int", m);
            expect_eq(name, k, (int)to_integer(in[k], MODES[m], INT_MIN, INT_MAX, 0),
                      i32[4 * k + m]);
            name_of(name, sizeof name, "double2float", m);
            expect_float_bits(name, k, to_float(in[k], MODES[m]), f32[4 * k + m]);
        }
    expect_eq("hand: double2int_rn(2147483647.5) saturates", 3L, INT_MAX, i32[4 * 3]);
    expect_eq("hand: double2int_rz(-2147483648.5)", 4L, INT_MIN, i32[4 * 4 + 1]);
    expect_eq("hand: double2float_rn(1+2^-24) ties to 1", 10L, 1.0f, f32[4 * 10]);
    expect_eq("hand: double2float_rn(1+2^-24+2^-50)", 11L, 1.0f + 0x1p-23f, f32[4 * 11]);
    expect_eq("hand: double2float_rz(1e39)", 13L, FLT_MAX, f32[4 * 13 + 1]);
    expect_eq("hand: double2float_ru(1e-46)", 15L, 0x1p-149f, f32[4 * 15 + 3]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_i32));
    CHECK(cudaFree(d_f32));
    return 0;
}

static int check_int_to_float(void)
{
    const int i32[] = {16777216, 16777217, 16777219, -16777217, INT_MAX, INT_MIN, 33554435,
                       123456789, -123456789, 0, 1, -1};
    const unsigned u32[] = {4294967295u, 4294967041u, 16777217u, 16777219u, 0u, 1u,
                            2147483649u, 3000000001u, 123456789u, 33554435u, 7u, 4294967040u};
    const long long i64[] = {(1ll << 53) + 1, (1ll << 53) + 3, LLONG_MAX, LLONG_MIN,
                             -((1ll << 40) + 1), 0x7fffff8000000001ll, -(1ll << 53) - 1,
                             16777217, -16777219, 0, 1, -123456789012345ll};
    const u64 u64i[] = {ULLONG_MAX, (1ull << 63) + 1, (1ull << 53) + 1, 0xffffff7fffffffffull,
                        0, 1, 16777217, 0x8000008000000000ull, 123456789012345ull,
                        (1ull << 53) + 3, 0xfffffffffffff800ull, 99};
    const int n = sizeof i32 / sizeof i32[0];
    float out[16 * n];
    double dout[6 * n];
    int *d_i32;
    unsigned *d_u32;
    long long *d_i64;
    u64 *d_u64;
    float *d_out;
    double *d_dout;
    CHECK(cudaMalloc(&d_i32, sizeof i32));
    CHECK(cudaMalloc(&d_u32, sizeof u32));
    CHECK(cudaMalloc(&d_i64, sizeof i64));
    CHECK(cudaMalloc(&d_u64, sizeof u64i));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMalloc(&d_dout, sizeof dout));
    CHECK(cudaMemcpy(d_i32, i32, sizeof i32, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_u32, u32, sizeof u32, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_i64, i64, sizeof i64, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_u64, u64i, sizeof u64i, cudaMemcpyHostToDevice));
    int_to_float<<<1, 32>>>(d_i32, d_u32, d_i64, d_u64, d_out, d_dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(dout, d_dout, sizeof dout, cudaMemcpyDeviceToHost));
    for (int k = 0; k < n; k++) {
        for (int m = 0; m < 4; m++) {
            char name[40];
            name_of(name, sizeof name, "int2float", m);
            expect_float_bits(name, k, (float)round_signed(i32[k], 24, MODES[m]), out[16 * k + m]);
            name_of(name, sizeof name, "uint2float", m);
            expect_float_bits(name, k, (float)round_integer(u32[k], false, 24, MODES[m]),
                              out[16 * k + 4 + m]);
            name_of(name, sizeof name, "ll2float", m);
            expect_float_bits(name, k, (float)round_signed(i64[k], 24, MODES[m]),
                              out[16 * k + 8 + m]);
            name_of(name, sizeof name, "ull2float", m);
            expect_float_bits(name, k, (float)round_integer(u64i[k], false, 24, MODES[m]),
                              out[16 * k + 12 + m]);
            name_of(name, sizeof name, "ll2double", m);
            expect_eq(name, k, round_signed(i64[k], 53, MODES[m]), dout[6 * k + m]);
        }
        expect_eq("ull2double_rn", k, round_integer(u64i[k], false, 53, RN), dout[6 * k + 4]);
        expect_eq("int+uint as double", k, (double)i32[k] + (double)u32[k], dout[6 * k + 5]);
    }
    expect_eq("hand: int2float_rn(2^24+1) ties to 2^24", 1L, 16777216.0f, out[16 * 1]);
    expect_eq("hand: int2float_ru(2^24+1)", 1L, 16777218.0f, out[16 * 1 + 3]);
    expect_eq("hand: int2float_rn(2^24+3) ties to 2^24+4", 2L, 16777220.0f, out[16 * 2]);
    expect_eq("hand: ll2double_rn(2^53+1)", 0L, 9007199254740992.0, dout[0]);
    expect_eq("hand: ll2double_rz(LLONG_MAX)", 2L, 9223372036854774784.0, dout[6 * 2 + 1]);
    CHECK(cudaFree(d_i32));
    CHECK(cudaFree(d_u32));
    CHECK(cudaFree(d_i64));
    CHECK(cudaFree(d_u64));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_dout));
    return 0;
}

static int check_casts(void)
{
    const float f[] = {3.7f, -3.7f, 0.99f, -0.99f, 1e9f, -2e9f, 65535.5f, 0.0f};
    const double d[] = {1e15 + 0.5, -1e15 - 0.5, 3.999, -3.999, 0.0, 9e18, -9e18, 42.0};
    const int iv[] = {16777217, -16777217, 2147483647, 70000, -129, 255, 32768, -1};
    const int n = sizeof f / sizeof f[0];
    long long out[6 * n];
    float *d_f;
    double *d_d;
    int *d_i;
    long long *d_out;
    CHECK(cudaMalloc(&d_f, sizeof f));
    CHECK(cudaMalloc(&d_d, sizeof d));
    CHECK(cudaMalloc(&d_i, sizeof iv));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_f, f, sizeof f, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_d, d, sizeof d, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_i, iv, sizeof iv, cudaMemcpyHostToDevice));
    casts<<<1, 32>>>(d_f, d_d, d_i, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int k = 0; k < n; k++) {
        const long long *o = out + 6 * k;
        expect_eq("cast float->int", k, (long long)std::trunc((double)f[k]), o[0]);
        expect_eq("cast double->long long", k, (long long)std::trunc(d[k]), o[1]);
        expect_eq("cast float->unsigned", k, (long long)std::trunc(std::fabs((double)f[k])), o[2]);
        double wd = (double)iv[k], gd;
        memcpy(&gd, &o[3], 8);
        expect_eq("cast int->double", k, wd, gd);
        float wf = (float)round_signed(iv[k], 24, RN), gf;
        int gbits = (int)o[4];
        memcpy(&gf, &gbits, 4);
        expect_float_bits("cast int->float", k, wf, gf);
        long long sh = (long long)((iv[k] & 0xffff) ^ 0x8000) - 0x8000;
        long long sc = (long long)((iv[k] & 0xff) ^ 0x80) - 0x80;
        expect_eq("truncate to short + signed char", k, sh + sc, o[5]);
    }
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_d));
    CHECK(cudaFree(d_i));
    CHECK(cudaFree(d_out));
    return 0;
}

int main(void)
{
    if (check_float_to_int() || check_double() || check_int_to_float() || check_casts())
        return 1;
    if (failures)
        return 1;
    printf("ok float_int_convert\n");
    return 0;
}
