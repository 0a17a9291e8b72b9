// Double precision: sqrt, division, reciprocal and fma must be correctly
// rounded (exact match with the host); the directed-rounding intrinsics
// __dadd_r?, __dmul_r?, __ddiv_r?, __dsqrt_r? are checked against an exact
// error term computed on the host; exp, log, sin, cos, pow, atan2, cbrt and
// tanh must lie within 4 ulps of the host libm (CUDA documents at most 2,
// the host adds its own error).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 64, EXACT = 6, DIRECTED = 16, LIBM = 9 };

__global__ void exact_kernel(const double *a, const double *b, const double *c, double *out)
{
    int i = threadIdx.x;
    double x = a[i], y = b[i], z = c[i];
    double *o = out + i * EXACT;
    o[0] = sqrt(x);
    o[1] = x / y;
    o[2] = fma(x, y, z);
    o[3] = 1.0 / y;
    o[4] = __drcp_rn(y);
    o[5] = __dsqrt_rn(x);
}

__global__ void directed_kernel(const double *a, const double *b, double *out)
{
    int i = threadIdx.x;
    double x = a[i], y = b[i];
    double *o = out + i * DIRECTED;
    o[0] = __dadd_rn(x, y);
    o[1] = __dadd_rz(x, y);
    o[2] = __dadd_rd(x, y);
    o[3] = __dadd_ru(x, y);
    o[4] = __dmul_rn(x, y);
    o[5] = __dmul_rz(x, y);
    o[6] = __dmul_rd(x, y);
    o[7] = __dmul_ru(x, y);
    o[8] = __ddiv_rn(x, y);
    o[9] = __ddiv_rz(x, y);
    o[10] = __ddiv_rd(x, y);
    o[11] = __ddiv_ru(x, y);
    o[12] = __dsqrt_rn(x);
    o[13] = __dsqrt_rz(x);
    o[14] = __dsqrt_rd(x);
    o[15] = __dsqrt_ru(x);
}

__global__ void libm_kernel(const double *e, const double *p, const double *s, const double *q,
                            double *out)
{
    int i = threadIdx.x;
    double *o = out + i * LIBM;
    o[0] = exp(e[i]);
    o[1] = log(p[i]);
    o[2] = sin(s[i]);
    o[3] = cos(s[i]);
    o[4] = pow(p[i], q[i]);
    o[5] = atan2(s[i], q[i]);
    o[6] = cbrt(s[i]);
    o[7] = tanh(q[i]);
    o[8] = log2(p[i]);
}

__global__ void sum_squares(double *out, int n)
{
    double acc = 0.0;
    for (int i = 0; i < n; i++)
        acc += (double)i * (double)i;
    *out = acc;
}

// Maps doubles onto integers so that adjacent doubles differ by one.
static long long ordered(double x)
{
    long long i;
    memcpy(&i, &x, 8);
    return i < 0 ? -(i & 0x7fffffffffffffffll) : i;
}

static void expect_ulps(const char *what, long idx, double want, double got, long long max_ulps)
{
    long long d = ordered(want) - ordered(got);
    if (d < 0)
        d = -d;
    if (std::isnan(want) ? !std::isnan(got) : d > max_ulps)
        expect_eq(what, idx, want, got);
}

static void expect_bits(const char *what, long idx, double want, double got)
{
    unsigned long long w, g;
    memcpy(&w, &want, 8);
    memcpy(&g, &got, 8);
    if (w != g)
        expect_eq(what, idx, want, got);
}

// Directed roundings from the round-to-nearest result r and the sign of the
// exact error (exact - r): {rn, rz, rd, ru}.
static void directed(double r, int err_sign, double out[4])
{
    out[0] = r;
    out[1] = r;
    out[2] = err_sign < 0 ? std::nextafter(r, -INFINITY) : r;
    out[3] = err_sign > 0 ? std::nextafter(r, INFINITY) : r;
    if (err_sign != 0 && (err_sign > 0) != (r > 0))
        out[1] = std::nextafter(r, 0.0);
}

static int sign_of(double v)
{
    return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static unsigned rng_state = 777;
static double uniform(double lo, double hi)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return lo + (hi - lo) * ((rng_state >> 8) / 16777216.0);
}

static int run(void)
{
    static double a[N], b[N], c[N], e[N], p[N], s[N], q[N];
    static double exact[N * EXACT], dir[N * DIRECTED], lm[N * LIBM];
    for (int i = 0; i < N; i++) {
        a[i] = std::exp(uniform(-5.0, 5.0));
        b[i] = uniform(-50.0, 50.0);
        c[i] = uniform(-1.0, 1.0) * 1e3;
        e[i] = uniform(-30.0, 30.0);
        p[i] = std::exp(uniform(-3.0, 3.0));
        s[i] = uniform(-20.0, 20.0);
        q[i] = uniform(-5.0, 5.0);
    }
    a[0] = 2.0;                      // sqrt(2): irrational, must still match
    b[0] = 3.0;                      // 2/3 and 1/3 are inexact
    a[1] = 1.0 + 0x1p-52;            // sqrt just above 1
    b[1] = -0.1;
    s[2] = 1e5;                      // large argument reduction
    s[3] = 3.141592653589793;        // sin near a zero crossing
    s[4] = -27.0;                    // cbrt of a negative cube
    p[5] = 2.0, q[5] = 0.5;          // pow(2, 0.5) = sqrt 2

    double *d_a, *d_b, *d_c, *d_e, *d_p, *d_s, *d_q, *d_exact, *d_dir, *d_lm, *d_sum;
    CHECK(cudaMalloc(&d_a, sizeof a));
    CHECK(cudaMalloc(&d_b, sizeof b));
    CHECK(cudaMalloc(&d_c, sizeof c));
    CHECK(cudaMalloc(&d_e, sizeof e));
    CHECK(cudaMalloc(&d_p, sizeof p));
    CHECK(cudaMalloc(&d_s, sizeof s));
    CHECK(cudaMalloc(&d_q, sizeof q));
    CHECK(cudaMalloc(&d_exact, sizeof exact));
    CHECK(cudaMalloc(&d_dir, sizeof dir));
    CHECK(cudaMalloc(&d_lm, sizeof lm));
    CHECK(cudaMalloc(&d_sum, sizeof(double)));
    CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_c, c, sizeof c, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_e, e, sizeof e, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_p, p, sizeof p, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_s, s, sizeof s, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_q, q, sizeof q, cudaMemcpyHostToDevice));
    exact_kernel<<<1, N>>>(d_a, d_b, d_c, d_exact);
    CHECK(cudaGetLastError());
    directed_kernel<<<1, N>>>(d_a, d_b, d_dir);
    CHECK(cudaGetLastError());
    libm_kernel<<<1, N>>>(d_e, d_p, d_s, d_q, d_lm);
    CHECK(cudaGetLastError());
    sum_squares<<<1, 1>>>(d_sum, 1000);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double sum;
    CHECK(cudaMemcpy(exact, d_exact, sizeof exact, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(dir, d_dir, sizeof dir, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(lm, d_lm, sizeof lm, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));

    static const char *dnames[DIRECTED] = {
        "dadd_rn", "dadd_rz", "dadd_rd", "dadd_ru", "dmul_rn", "dmul_rz", "dmul_rd", "dmul_ru",
        "ddiv_rn", "ddiv_rz", "ddiv_rd", "ddiv_ru", "dsqrt_rn", "dsqrt_rz", "dsqrt_rd", "dsqrt_ru",
    };
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i];
        const double *o = exact + i * EXACT;
        expect_bits("sqrt", i, std::sqrt(x), o[0]);
        expect_bits("divide", i, x / y, o[1]);
        expect_bits("fma", i, std::fma(x, y, c[i]), o[2]);
        expect_bits("reciprocal", i, 1.0 / y, o[3]);
        expect_bits("drcp_rn", i, 1.0 / y, o[4]);
        expect_bits("dsqrt_rn", i, std::sqrt(x), o[5]);

        double want[DIRECTED];
        double sm = x + y, bb = sm - x;
        double add_err = (x - (sm - bb)) + (y - bb);
        directed(sm, sign_of(add_err), want);
        double pr = x * y;
        directed(pr, sign_of(std::fma(x, y, -pr)), want + 4);
        double qt = x / y;
        directed(qt, sign_of(std::fma(-qt, y, x)) * sign_of(y), want + 8);
        double rt = std::sqrt(x);
        directed(rt, sign_of(std::fma(-rt, rt, x)), want + 12);
        for (int k = 0; k < DIRECTED; k++)
            expect_bits(dnames[k], i, want[k], dir[i * DIRECTED + k]);

        const double *l = lm + i * LIBM;
        expect_ulps("exp", i, std::exp(e[i]), l[0], 4);
        expect_ulps("log", i, std::log(p[i]), l[1], 4);
        expect_ulps("sin", i, std::sin(s[i]), l[2], 4);
        expect_ulps("cos", i, std::cos(s[i]), l[3], 4);
        expect_ulps("pow", i, std::pow(p[i], q[i]), l[4], 4);
        expect_ulps("atan2", i, std::atan2(s[i], q[i]), l[5], 4);
        expect_ulps("cbrt", i, std::cbrt(s[i]), l[6], 4);
        expect_ulps("tanh", i, std::tanh(q[i]), l[7], 4);
        expect_ulps("log2", i, std::log2(p[i]), l[8], 4);
    }
    expect_ulps("hand: cbrt(-27)", 4L, -3.0, lm[4 * LIBM + 6], 1);
    expect_eq("hand: 2/3 rounds down", 0L, 0x1.5555555555555p-1, exact[1]);
    expect_eq("hand: dadd_ru(2, 3) exact", 0L, 5.0, dir[3]);
    expect_eq("sum of squares below 1000", 0L, 332833500.0, sum);

    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    CHECK(cudaFree(d_e));
    CHECK(cudaFree(d_p));
    CHECK(cudaFree(d_s));
    CHECK(cudaFree(d_q));
    CHECK(cudaFree(d_exact));
    CHECK(cudaFree(d_dir));
    CHECK(cudaFree(d_lm));
    CHECK(cudaFree(d_sum));
    return 0;
}

int main(void)
{
    if (run())
        return 1;
    if (failures)
        return 1;
    printf("ok double_math\n");
    return 0;
}
