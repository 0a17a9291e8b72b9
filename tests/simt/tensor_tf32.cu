// tf32 tensor operations: WMMA 16x16x8 with wmma::precision::tf32 fragments
// converted by __float_to_tf32, mma.sync m16n8k8 and m16n8k4 .tf32 with
// fragments built from the PTX ISA's per-lane formulas, and cvt.rna.tf32.f32
// itself (round to nearest, ties away from zero, to 10 fraction bits).  The
// matrix inputs are multiples of 1/4 up to 4, exact in tf32, so products and
// sums are exact and the results must equal the host's.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <mma.h>

#include "check.h"

using namespace nvcuda;

typedef unsigned int u32;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define HAVE_TF32 1
#else
#define HAVE_TF32 0
#endif

// D (16 x 16, row-major) = A (16 x 8, row-major) * B (8 x 16, column-major)
__global__ void wmma_tf32(const float *a, const float *b, float *d)
{
#if HAVE_TF32
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;

    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int i = 0; i < fa.num_elements; i++)
        fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++)
        fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::fill_fragment(acc, 1.0f);
    wmma::mma_sync(acc, fa, fb, acc);
    wmma::store_matrix_sync(d, acc, 16, wmma::mem_row_major);
#endif
}

#if HAVE_TF32
static __device__ u32 bits(float f)
{
    return __float_as_uint(f);
}
#endif

// D (16 x 8) = A (16 x k) * B (k x 8) + 1, all row-major, k = 8 or 4.
__global__ void mma_tf32(const float *a, const float *b, float *d, int k)
{
#if HAVE_TF32
    int lane = threadIdx.x, g = lane >> 2, t = lane % 4;
    float c[4] = {1, 1, 1, 1}, r[4];

    if (k == 8) {
        // a0: (g, t)  a1: (g+8, t)  a2: (g, t+4)  a3: (g+8, t+4)
        // b0: (t, g)  b1: (t+4, g)
        u32 a0 = bits(a[g * 8 + t]), a1 = bits(a[(g + 8) * 8 + t]);
        u32 a2 = bits(a[g * 8 + t + 4]), a3 = bits(a[(g + 8) * 8 + t + 4]);
        u32 b0 = bits(b[t * 8 + g]), b1 = bits(b[(t + 4) * 8 + g]);
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    } else {
        // a0: (g, t)  a1: (g+8, t)  b0: (t, g)
        u32 a0 = bits(a[g * 4 + t]), a1 = bits(a[(g + 8) * 4 + t]);
        u32 b0 = bits(b[t * 8 + g]);
        asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 "
                     "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3])
                     : "r"(a0), "r"(a1), "r"(b0),
                       "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
    }
    for (int i = 0; i < 4; i++)
        d[(i < 2 ? g : g + 8) * 8 + 2 * t + (i & 1)] = r[i];
#endif
}

__global__ void to_tf32(const float *x, float *y, int n)
{
#if HAVE_TF32
    int i = threadIdx.x;
    if (i < n)
        y[i] = wmma::__float_to_tf32(x[i]);
#endif
}

// Modulo a prime above 16: no two elements of a row or column are equal.
static float va(int r, int c) { return (float)((r * 3 + c * 5) % 17 - 8) * 0.25f; }
static float vb(int r, int c) { return (float)((r * 7 + c * 3) % 17 - 8) * 0.5f; }

static float from_bits(u32 u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int main(void)
{
    // bfloat16, tf32 and mma.sync need compute capability 8.0.
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 8) {
        printf("ok tensor_tf32 (skipped: compute capability %d.%d)\n", prop.major, prop.minor);
        return 0;
    }
    static float a[16 * 16], b[16 * 16], d[16 * 16];
    float *da, *db, *dd;
    CHECK(cudaMalloc(&da, sizeof a));
    CHECK(cudaMalloc(&db, sizeof b));
    CHECK(cudaMalloc(&dd, sizeof d));

    // WMMA 16x16x8: B column-major, b[n * 8 + k]
    for (int r = 0; r < 16; r++)
        for (int k = 0; k < 8; k++)
            a[r * 8 + k] = va(r, k);
    for (int k = 0; k < 8; k++)
        for (int n = 0; n < 16; n++)
            b[n * 8 + k] = vb(k, n);
    CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dd, 0xff, sizeof d));
    wmma_tf32<<<1, 32>>>(da, db, dd);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 16; r++)
        for (int n = 0; n < 16; n++) {
            double s = 1;
            for (int k = 0; k < 8; k++)
                s += (double)va(r, k) * vb(k, n);
            expect_eq("wmma tf32 16x16x8", r * 16 + n, (float)s, d[r * 16 + n]);
        }

    // mma.sync m16n8k8 and m16n8k4: row-major A (16 x k) and B (k x 8)
    for (int k = 8; k >= 4; k -= 4) {
        for (int r = 0; r < 16; r++)
            for (int q = 0; q < k; q++)
                a[r * k + q] = va(r, q);
        for (int q = 0; q < k; q++)
            for (int n = 0; n < 8; n++)
                b[q * 8 + n] = vb(q, n);
        CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
        CHECK(cudaMemset(dd, 0xff, sizeof d));
        mma_tf32<<<1, 32>>>(da, db, dd, k);
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(d, dd, sizeof d, cudaMemcpyDeviceToHost));
        for (int r = 0; r < 16; r++)
            for (int n = 0; n < 8; n++) {
                double s = 1;
                for (int q = 0; q < k; q++)
                    s += (double)va(r, q) * vb(q, n);
                expect_eq(k == 8 ? "mma m16n8k8 tf32" : "mma m16n8k4 tf32", r * 8 + n,
                          (float)s, d[r * 8 + n]);
            }
    }

    // cvt.rna.tf32.f32: the tf32 ulp of [1, 2) is 2^-10
    static const u32 in[] = {
        0x3f800000u,               // 1: exact
        0x3f800000u | 0x1000u,     // 1 + 2^-11: a tie, away from zero
        0x3f800000u | 0x0fffu,     // just below the tie: down
        0x3f800000u | 0x3000u,     // 1 + 3 * 2^-11: a tie, away (up)
        0xbf800000u | 0x1000u,     // -(1 + 2^-11): away, to -(1 + 2^-10)
        0x3fffffffu,               // just below 2: up to 2
        0x7f800000u,               // infinity stays
    };
    static const u32 out[] = {0x3f800000u, 0x3f802000u, 0x3f800000u, 0x3f804000u,
                              0xbf802000u, 0x40000000u, 0x7f800000u};
    enum { NCVT = sizeof in / sizeof in[0] };
    float x[NCVT], y[NCVT];
    for (int i = 0; i < NCVT; i++)
        x[i] = from_bits(in[i]);
    CHECK(cudaMemcpy(da, x, sizeof x, cudaMemcpyHostToDevice));
    to_tf32<<<1, 32>>>(da, dd, NCVT);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(y, dd, sizeof y, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NCVT; i++) {
        u32 got;
        memcpy(&got, &y[i], 4);
        expect_eq("cvt.rna.tf32.f32", i, out[i], got);
    }

    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dd));
    if (failures)
        return 1;
    printf("ok tensor_tf32\n");
    return 0;
}
