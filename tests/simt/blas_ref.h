// blas_ref.h — what the cuBLAS conformance programs share: column-major
// host matrices, a double-precision reference GEMM, the tolerance check,
// and CHECK_BLAS() for cuBLAS calls.
#ifndef SIMT_TEST_BLAS_REF_H
#define SIMT_TEST_BLAS_REF_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cublas_v2.h>

#include "check.h"

#define CHECK_BLAS(call)                                                    \
    do {                                                                    \
        cublasStatus_t st_ = (call);                                        \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                 \
            fprintf(stderr, "FAIL %s:%d %s returned %s\n", __FILE__,       \
                    __LINE__, #call, cublasGetStatusName(st_));             \
            return 1;                                                       \
        }                                                                   \
    } while (0)

// A status a call must return.
#define EXPECT_STATUS(want, call)                                           \
    do {                                                                    \
        cublasStatus_t st_ = (call);                                        \
        if (st_ != (want)) {                                                \
            fprintf(stderr, "FAIL %s:%d %s returned %d, expected %s\n",    \
                    __FILE__, __LINE__, #call, (int)st_, #want);            \
            failures++;                                                     \
        }                                                                   \
    } while (0)

// Deterministic values in [-1, 1) with `bits` significant bits, so that
// they are exact in every storage type with at least that many.
static std::vector<double> values(size_t n, unsigned seed, int bits = 8)
{
    std::vector<double> v(n);
    unsigned s = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < n; i++) {
        s = s * 1103515245u + 12345u;
        int q = (int)((s >> 8) % (1u << bits)) - (1 << (bits - 1));
        v[i] = std::ldexp((double)q, -(bits - 1));
    }
    return v;
}

// Element (r, c) of op(X), X column-major with leading dimension ld.
static double op_at(const std::vector<double> &x, bool trans, long ld,
                    long r, long c, long off = 0)
{
    return trans ? x[off + c + r * ld] : x[off + r + c * ld];
}

// C (m x n, ldc) = alpha op(A) op(B) + beta C in double, C not read when
// beta == 0; also the sum of |terms| of each element (for tolerances).
static void ref_gemm(bool ta, bool tb, long m, long n, long k, double alpha,
                     const std::vector<double> &a, long lda, long aoff,
                     const std::vector<double> &b, long ldb, long boff,
                     double beta, std::vector<double> &c, long ldc, long coff,
                     std::vector<double> *mag = nullptr)
{
    for (long j = 0; j < n; j++)
        for (long i = 0; i < m; i++) {
            double s = 0, g = 0;
            for (long p = 0; p < k; p++) {
                double t = op_at(a, ta, lda, i, p, aoff) *
                           op_at(b, tb, ldb, p, j, boff);
                s += t;
                g += std::fabs(t);
            }
            double &cij = c[coff + i + j * ldc];
            double old = beta != 0 ? cij : 0;
            cij = alpha * s + beta * old;
            if (mag)
                (*mag)[coff + i + j * ldc] =
                    std::fabs(alpha) * g + std::fabs(beta * old);
        }
}

// |got - want| <= rel * mag + abs_tol, counted and reported as expect_eq
// does.
static bool expect_near(const char *what, long index, double want, double got,
                        double tol)
{
    if (std::fabs(got - want) <= tol)
        return true;
    if (failures++ < 8)
        fprintf(stderr, "FAIL %s %ld expected %.9g got %.9g (tolerance %.3g)\n",
                what, index, want, got, tol);
    return false;
}

#endif
