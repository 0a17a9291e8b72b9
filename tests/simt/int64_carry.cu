// 64-bit integer arithmetic: 128-bit add and subtract built from unsigned
// long long halves with explicit carries and borrows, a 256x256 -> 512-bit
// multiply with 64-bit limbs and __umul64hi (checked against a host multiply
// with 32-bit limbs), signed/unsigned division and remainder, shifts by every
// amount 0..63, signed vs unsigned comparisons, sign extension, and
// wrapping products.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

typedef unsigned long long u64;
enum { N = 64, OPS = 16 };

__global__ void add_sub_128(const u64 *a, const u64 *b, u64 *sum, u64 *diff)
{
    int i = threadIdx.x;
    u64 alo = a[2 * i], ahi = a[2 * i + 1], blo = b[2 * i], bhi = b[2 * i + 1];
    u64 lo = alo + blo;
    u64 carry = lo < alo;
    sum[2 * i] = lo;
    sum[2 * i + 1] = ahi + bhi + carry;
    u64 dlo = alo - blo;
    u64 borrow = alo < blo;
    diff[2 * i] = dlo;
    diff[2 * i + 1] = ahi - bhi - borrow;
}

// 4-limb x 4-limb schoolbook multiply, limbs least significant first.
__global__ void mul_256(const u64 *a, const u64 *b, u64 *prod)
{
    int i = threadIdx.x;
    const u64 *x = a + 4 * i, *y = b + 4 * i;
    u64 r[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int j = 0; j < 4; j++) {
        u64 carry = 0;
        for (int k = 0; k < 4; k++) {
            u64 lo = x[j] * y[k], hi = __umul64hi(x[j], y[k]);
            u64 t = r[j + k] + lo;
            hi += t < lo;
            t += carry;
            hi += t < carry;
            r[j + k] = t;
            carry = hi;
        }
        r[j + 4] = carry;
    }
    for (int k = 0; k < 8; k++)
        prod[8 * i + k] = r[k];
}

__global__ void ops_64(const u64 *a, const u64 *b, u64 *out)
{
    int i = threadIdx.x;
    u64 x = a[2 * i], y = b[2 * i] | 1;
    long long sx = (long long)x, sy = (long long)(b[2 * i] >> (i % 40)) - 12345;
    if (sy == 0 || (sx == (long long)0x8000000000000000ull && sy == -1))
        sy = 7;
    u64 *o = out + i * OPS;
    o[0] = x * y;
    o[1] = x / y;
    o[2] = x % y;
    o[3] = (u64)(sx / sy);
    o[4] = (u64)(sx % sy);
    o[5] = x << (i % 64);
    o[6] = x >> (i % 64);
    o[7] = (u64)(sx >> (i % 64));
    o[8] = (sx < (long long)y) + 2 * (x < y);
    o[9] = (u64)(long long)(int)(unsigned)x;
    o[10] = (u64)(unsigned)(x >> 16);
    o[11] = (u64)((long long)(int)x * (long long)(int)(y >> 32));
    o[12] = 0 - x;
    o[13] = x ^ (y << 7) ^ (y >> 3);
    u64 f = 1;
    for (int k = 2; k <= 20 + i % 10; k++)
        f *= (u64)k;
    o[14] = f;
    o[15] = (u64)sx * (u64)sy;
}

// ---- host reference ------------------------------------------------------------

// Multiplies two numbers of `n` 32-bit limbs (least significant first).
static void mul_limbs32(const unsigned *x, const unsigned *y, int n, unsigned *r)
{
    for (int k = 0; k < 2 * n; k++)
        r[k] = 0;
    for (int j = 0; j < n; j++) {
        u64 carry = 0;
        for (int k = 0; k < n; k++) {
            u64 t = (u64)x[j] * y[k] + r[j + k] + carry;
            r[j + k] = (unsigned)t;
            carry = t >> 32;
        }
        r[j + n] = (unsigned)carry;
    }
}

static void split(const u64 *v, int limbs, unsigned *out)
{
    for (int k = 0; k < limbs; k++) {
        out[2 * k] = (unsigned)v[k];
        out[2 * k + 1] = (unsigned)(v[k] >> 32);
    }
}

// 128-bit add/sub through 32-bit limbs and a running carry.
static void add_sub_ref(const u64 *a, const u64 *b, u64 *sum, u64 *diff)
{
    unsigned x[4], y[4], s[4], d[4];
    split(a, 2, x);
    split(b, 2, y);
    long long c = 0, br = 0;
    for (int k = 0; k < 4; k++) {
        long long t = (long long)x[k] + y[k] + c;
        s[k] = (unsigned)t;
        c = t >> 32;
        long long u = (long long)x[k] - y[k] - br;
        d[k] = (unsigned)u;
        br = u < 0;
    }
    for (int k = 0; k < 2; k++) {
        sum[k] = s[2 * k] | ((u64)s[2 * k + 1] << 32);
        diff[k] = d[2 * k] | ((u64)d[2 * k + 1] << 32);
    }
}

static u64 next_rand(u64 *st)
{
    *st ^= *st << 13;
    *st ^= *st >> 7;
    *st ^= *st << 17;
    return *st;
}

int main(void)
{
    static u64 a[4 * N], b[4 * N], sum[2 * N], diff[2 * N], prod[8 * N], ops[N * OPS];
    u64 st = 0x243f6a8885a308d3ull;
    for (int k = 0; k < 4 * N; k++) {
        a[k] = next_rand(&st);
        b[k] = next_rand(&st);
    }
    // Carry chains through every limb: all ones plus one, zero minus one.
    a[0] = a[1] = ~0ull;
    b[0] = 1, b[1] = 0;
    a[2] = 0, a[3] = 0;
    b[2] = 1, b[3] = 0;
    for (int k = 8; k < 12; k++)    // thread 2 of the multiply: (2^256-1)^2
        a[k] = b[k] = ~0ull;

    u64 *d_a, *d_b, *d_sum, *d_diff, *d_prod, *d_ops;
    CHECK(cudaMalloc(&d_a, sizeof a));
    CHECK(cudaMalloc(&d_b, sizeof b));
    CHECK(cudaMalloc(&d_sum, sizeof sum));
    CHECK(cudaMalloc(&d_diff, sizeof diff));
    CHECK(cudaMalloc(&d_prod, sizeof prod));
    CHECK(cudaMalloc(&d_ops, sizeof ops));
    CHECK(cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice));
    add_sub_128<<<1, N>>>(d_a, d_b, d_sum, d_diff);
    CHECK(cudaGetLastError());
    mul_256<<<1, N>>>(d_a, d_b, d_prod);
    CHECK(cudaGetLastError());
    ops_64<<<1, N>>>(d_a, d_b, d_ops);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(sum, d_sum, sizeof sum, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(diff, d_diff, sizeof diff, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(prod, d_prod, sizeof prod, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ops, d_ops, sizeof ops, cudaMemcpyDeviceToHost));

    expect_eq("hand: (2^128-1)+1 low", 0L, 0ull, sum[0]);
    expect_eq("hand: (2^128-1)+1 high", 0L, 0ull, sum[1]);
    expect_eq("hand: 0-1 low", 1L, ~0ull, diff[2]);
    expect_eq("hand: 0-1 high", 1L, ~0ull, diff[3]);
    expect_eq("hand: (2^256-1)^2 limb 0", 2L, 1ull, prod[16]);
    expect_eq("hand: (2^256-1)^2 limb 1", 2L, 0ull, prod[17]);
    expect_eq("hand: (2^256-1)^2 limb 4", 2L, ~0ull - 1, prod[20]);
    expect_eq("hand: (2^256-1)^2 limb 7", 2L, ~0ull, prod[23]);

    for (int i = 0; i < N; i++) {
        u64 ws[2], wd[2];
        add_sub_ref(a + 2 * i, b + 2 * i, ws, wd);
        for (int k = 0; k < 2; k++) {
            expect_eq("add128 limb", 2 * i + k, ws[k], sum[2 * i + k]);
            expect_eq("sub128 limb", 2 * i + k, wd[k], diff[2 * i + k]);
        }
        unsigned x[8], y[8], r[16];
        split(a + 4 * i, 4, x);
        split(b + 4 * i, 4, y);
        mul_limbs32(x, y, 8, r);
        for (int k = 0; k < 8; k++)
            expect_eq("mul256 limb", 8 * i + k, r[2 * k] | ((u64)r[2 * k + 1] << 32), prod[8 * i + k]);

        u64 xx = a[2 * i], yy = b[2 * i] | 1;
        long long sx = (long long)xx, sy = (long long)(b[2 * i] >> (i % 40)) - 12345;
        if (sy == 0 || (sx == (long long)0x8000000000000000ull && sy == -1))
            sy = 7;
        unsigned xl[4], yl[4], pl[8];
        split(&xx, 1, xl);
        split(&yy, 1, yl);
        mul_limbs32(xl, yl, 2, pl);
        u64 f = 1;
        for (int k = 2; k <= 20 + i % 10; k++)
            f *= (u64)k;
        u64 want[OPS] = {
            pl[0] | ((u64)pl[1] << 32),
            xx / yy,
            xx - (xx / yy) * yy,
            (u64)(sx / sy),
            (u64)(sx - (sx / sy) * sy),
            xx << (i % 64),
            xx >> (i % 64),
            (u64)(sx >> (i % 64)),
            (u64)((sx < (long long)yy) + 2 * (xx < yy)),
            (u64)(long long)(int)(unsigned)xx,
            (u64)(unsigned)(xx >> 16),
            (u64)((long long)(int)xx * (long long)(int)(yy >> 32)),
            0 - xx,
            xx ^ (yy << 7) ^ (yy >> 3),
            f,
            (u64)sx * (u64)sy,
        };
        for (int k = 0; k < OPS; k++)
            expect_eq("64-bit op", i * OPS + k, want[k], ops[i * OPS + k]);
    }
    expect_eq("hand: 20! ", 0L, 2432902008176640000ull, ops[0 * OPS + 14]);

    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_sum));
    CHECK(cudaFree(d_diff));
    CHECK(cudaFree(d_prod));
    CHECK(cudaFree(d_ops));
    if (failures)
        return 1;
    printf("ok int64_carry\n");
    return 0;
}
