// cuBLAS GEMMs: Sgemm, Dgemm, Hgemm, GemmEx (every compute type simt
// supports), the strided and pointer-array batches, against a double
// reference: all four transposes, leading dimensions larger than the
// rows (the padding must stay untouched), alpha/beta, beta == 0 over NaN
// garbage in C (C must not be read), k == 0, alpha and beta in device
// memory.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include <cublas_v2.h>

#include "blas_ref.h"

template <typename T> static T to_t(double v);
template <> float to_t<float>(double v) { return (float)v; }
template <> double to_t<double>(double v) { return v; }
template <> __half to_t<__half>(double v) { return __float2half_rn((float)v); }
template <> __nv_bfloat16 to_t<__nv_bfloat16>(double v) { return __float2bfloat16_rn((float)v); }
static double from_t(float v) { return v; }
static double from_t(double v) { return v; }
static double from_t(__half v) { return __half2float(v); }
static double from_t(__nv_bfloat16 v) { return __bfloat162float(v); }

// A device copy of host values in type T.
template <typename T>
static T *upload(const std::vector<double> &h)
{
    std::vector<T> t(h.size());
    for (size_t i = 0; i < h.size(); i++)
        t[i] = to_t<T>(h[i]);
    T *d = nullptr;
    if (cudaMalloc(&d, t.size() * sizeof(T)) != cudaSuccess ||
        cudaMemcpy(d, t.data(), t.size() * sizeof(T), cudaMemcpyHostToDevice) != cudaSuccess) {
        fprintf(stderr, "FAIL upload\n");
        exit(1);
    }
    return d;
}

template <typename T>
static std::vector<double> download(const T *d, size_t n)
{
    std::vector<T> t(n);
    if (cudaMemcpy(t.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "FAIL download\n");
        exit(1);
    }
    std::vector<double> h(n);
    for (size_t i = 0; i < n; i++)
        h[i] = from_t(t[i]);
    return h;
}

// Compares every element of got to want: rel * mag + abs inside the m x n
// matrices, exact equality in the padding rows.
static void compare(const char *what, const std::vector<double> &want,
                    const std::vector<double> &mag, const std::vector<double> &got,
                    long m, long ldc, double rel, double abs_tol)
{
    for (size_t i = 0; i < want.size(); i++) {
        bool inside = (long)(i % ldc) < m;
        double tol = inside ? rel * mag[i] + abs_tol : 0;
        if (std::isnan(got[i]) && !std::isnan(want[i])) {
            expect_near(what, (long)i, want[i], got[i], tol);
            continue;
        }
        expect_near(what, (long)i, want[i], got[i], tol);
    }
}

static cublasOperation_t op(bool t) { return t ? CUBLAS_OP_T : CUBLAS_OP_N; }
// The conjugate transpose, which for real matrices is the transpose: the
// DGEMMs ask for it where the others ask for CUBLAS_OP_T.
static cublasOperation_t op_c(bool t) { return t ? CUBLAS_OP_C : CUBLAS_OP_N; }

// One GEMM through the entry point `which` with element type T (A, B and
// C alike); tolerance rel per unit of sum |terms|.
enum Which { SGEMM, DGEMM, HGEMM };

template <typename T>
static int one(cublasHandle_t h, Which which, bool ta, bool tb, long m, long n,
               long k, double alpha, double beta, bool nan_c, double rel,
               const char *what)
{
    long lda = (ta ? k : m) + 3, ldb = (tb ? n : k) + 2, ldc = m + 5;
    std::vector<double> a = values(lda * (ta ? m : k), 1), b = values(ldb * (tb ? k : n), 2);
    std::vector<double> c = values(ldc * n, 3), mag(ldc * n, 0.0);
    if (nan_c)
        for (long j = 0; j < n; j++)
            for (long i = 0; i < m; i++)
                c[i + j * ldc] = NAN;
    T *da = upload<T>(a), *db = upload<T>(b), *dc = upload<T>(c);
    std::vector<double> want = c;
    ref_gemm(ta, tb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, want, ldc, 0, &mag);
    T al = to_t<T>(alpha), be = to_t<T>(beta);
    cublasStatus_t st;
    if (which == SGEMM)
        st = cublasSgemm(h, op(ta), op(tb), m, n, k, (const float *)&al, (const float *)da, lda,
                         (const float *)db, ldb, (const float *)&be, (float *)dc, ldc);
    else if (which == DGEMM)
        st = cublasDgemm(h, op_c(ta), op_c(tb), m, n, k, (const double *)&al, (const double *)da, lda,
                         (const double *)db, ldb, (const double *)&be, (double *)dc, ldc);
    else
        st = cublasHgemm(h, op(ta), op(tb), m, n, k, (const __half *)&al, (const __half *)da, lda,
                         (const __half *)db, ldb, (const __half *)&be, (__half *)dc, ldc);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "FAIL %s returned %s\n", what, cublasGetStatusName(st));
        return 1;
    }
    compare(what, want, mag, download(dc, c.size()), m, ldc, rel, 0);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}

// GemmEx with A/B of type TA and C of type TC.
template <typename TA, typename TC>
static int ex(cublasHandle_t h, cudaDataType at, cudaDataType ct, cublasComputeType_t comp,
              bool ta, bool tb, long m, long n, long k, double rel, const char *what)
{
    long lda = (ta ? k : m) + 1, ldb = (tb ? n : k), ldc = m + 2;
    std::vector<double> a = values(lda * (ta ? m : k), 4), b = values(ldb * (tb ? k : n), 5);
    std::vector<double> c = values(ldc * n, 6), mag(ldc * n, 0.0);
    TA *da = upload<TA>(a), *db = upload<TA>(b);
    TC *dc = upload<TC>(c);
    std::vector<double> want = c;
    double alpha = 0.75, beta = 0.5;
    ref_gemm(ta, tb, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, want, ldc, 0, &mag);
    float af = (float)alpha, bf = (float)beta;
    double ad = alpha, bd = beta;
    __half ah = __float2half(af), bh = __float2half(bf);
    const void *pa = &af, *pb = &bf;
    if (comp == CUBLAS_COMPUTE_64F)
        pa = &ad, pb = &bd;
    if (comp == CUBLAS_COMPUTE_16F)
        pa = &ah, pb = &bh;
    CHECK_BLAS(cublasGemmEx(h, op(ta), op(tb), m, n, k, pa, da, at, lda, db, at, ldb, pb,
                            dc, ct, ldc, comp, CUBLAS_GEMM_DEFAULT));
    compare(what, want, mag, download(dc, c.size()), m, ldc, rel, 0);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return 0;
}

// Batches: GemmStridedBatchedEx, SgemmStridedBatched with A shared by
// every batch (stride 0), SgemmBatched and GemmBatchedEx through arrays of
// device pointers.
static int batches(cublasHandle_t h)
{
    const long m = 19, n = 23, k = 17, nb = 3, lda = k + 2, ldb = k + 1, ldc = m + 3;
    const long sa = lda * m + 7, sb = ldb * n + 5, sc = ldc * n + 11;
    std::vector<double> a = values(sa * nb, 7), b = values(sb * nb, 8), c = values(sc * nb, 9);
    std::vector<double> mag(c.size(), 0.0), want = c;
    float alpha = 1.25f, beta = -1.0f;
    const double rel = 4 * k * std::ldexp(1.0, -24);
    // op(A) = A^T (k x m stored), op(B) = B.
    for (long i = 0; i < nb; i++)
        ref_gemm(true, false, m, n, k, alpha, a, lda, i * sa, b, ldb, i * sb, beta, want, ldc,
                 i * sc, &mag);
    float *da = upload<float>(a), *db = upload<float>(b), *dc = upload<float>(c);
    CHECK_BLAS(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, da,
                                          CUDA_R_32F, lda, sa, db, CUDA_R_32F, ldb, sb, &beta,
                                          dc, CUDA_R_32F, ldc, sc, nb, CUBLAS_COMPUTE_32F,
                                          CUBLAS_GEMM_DEFAULT));
    // the gaps between batch matrices are padding too
    std::vector<double> got = download(dc, c.size());
    for (size_t i = 0; i < c.size(); i++) {
        bool inside = (long)(i % sc) < ldc * n && (long)(i % sc % ldc) < m;
        expect_near("GemmStridedBatchedEx", (long)i, want[i], got[i], inside ? rel * mag[i] : 0);
    }

    // stride 0 for A: every batch multiplies the first A
    std::vector<double> want0 = c;
    CHECK(cudaMemcpy(dc, upload<float>(c), c.size() * 4, cudaMemcpyDeviceToDevice));
    for (long i = 0; i < nb; i++)
        ref_gemm(true, false, m, n, k, alpha, a, lda, 0, b, ldb, i * sb, beta, want0, ldc,
                 i * sc, &mag);
    CHECK_BLAS(cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, da, lda,
                                         0, db, ldb, sb, &beta, dc, ldc, sc, nb));
    got = download(dc, c.size());
    for (size_t i = 0; i < c.size(); i++) {
        bool inside = (long)(i % sc) < ldc * n && (long)(i % sc % ldc) < m;
        expect_near("SgemmStridedBatched stride 0", (long)i, want0[i], got[i],
                    inside ? rel * mag[i] : 0);
    }

    // pointer arrays, batches in reverse order
    std::vector<const float *> pa(nb), pb(nb);
    std::vector<float *> pc(nb);
    for (long i = 0; i < nb; i++) {
        pa[i] = da + (nb - 1 - i) * sa;
        pb[i] = db + (nb - 1 - i) * sb;
        pc[i] = dc + (nb - 1 - i) * sc;
    }
    std::vector<double> want2 = c;
    CHECK(cudaMemcpy(dc, upload<float>(c), c.size() * 4, cudaMemcpyDeviceToDevice));
    for (long i = 0; i < nb; i++)
        ref_gemm(true, false, m, n, k, alpha, a, lda, i * sa, b, ldb, i * sb, beta, want2, ldc,
                 i * sc, &mag);
    const float **dpa;
    const float **dpb;
    float **dpc;
    CHECK(cudaMalloc(&dpa, nb * sizeof(void *)));
    CHECK(cudaMalloc(&dpb, nb * sizeof(void *)));
    CHECK(cudaMalloc(&dpc, nb * sizeof(void *)));
    CHECK(cudaMemcpy(dpa, pa.data(), nb * sizeof(void *), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dpb, pb.data(), nb * sizeof(void *), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dpc, pc.data(), nb * sizeof(void *), cudaMemcpyHostToDevice));
    CHECK_BLAS(cublasSgemmBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dpa, lda, dpb,
                                  ldb, &beta, dpc, ldc, nb));
    got = download(dc, c.size());
    for (size_t i = 0; i < c.size(); i++) {
        bool inside = (long)(i % sc) < ldc * n && (long)(i % sc % ldc) < m;
        expect_near("SgemmBatched", (long)i, want2[i], got[i], inside ? rel * mag[i] : 0);
    }
    // GemmBatchedEx on the same arrays: C = A^T B + (-1) C again
    std::vector<double> want3 = want2;
    for (long i = 0; i < nb; i++)
        ref_gemm(true, false, m, n, k, alpha, a, lda, i * sa, b, ldb, i * sb, beta, want3, ldc,
                 i * sc, &mag);
    CHECK_BLAS(cublasGemmBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha,
                                   (const void *const *)dpa, CUDA_R_32F, lda,
                                   (const void *const *)dpb, CUDA_R_32F, ldb, &beta,
                                   (void *const *)dpc, CUDA_R_32F, ldc, nb, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT));
    got = download(dc, c.size());
    for (size_t i = 0; i < c.size(); i++) {
        bool inside = (long)(i % sc) < ldc * n && (long)(i % sc % ldc) < m;
        expect_near("GemmBatchedEx", (long)i, want3[i], got[i], inside ? 2 * rel * mag[i] : 0);
    }
    return 0;
}

// alpha and beta read from device memory (CUBLAS_POINTER_MODE_DEVICE).
static int device_scalars(cublasHandle_t h)
{
    const long m = 9, n = 7, k = 5;
    std::vector<double> a = values(m * k, 10), b = values(k * n, 11), c = values(m * n, 12);
    std::vector<double> mag(c.size()), want = c;
    ref_gemm(false, false, m, n, k, -2.0, a, m, 0, b, k, 0, 0.25, want, m, 0, &mag);
    float *da = upload<float>(a), *db = upload<float>(b), *dc = upload<float>(c);
    float *ds = upload<float>({-2.0, 0.25});
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, ds, da, m, db, k, ds + 1, dc, m));
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    compare("Sgemm device alpha/beta", want, mag, download(dc, c.size()), m, m,
            4 * k * std::ldexp(1.0, -24), 0);
    return 0;
}

int main()
{
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    const double f32 = std::ldexp(1.0, -24);
    int bad = 0;
    for (int t = 0; t < 4; t++) {
        bool ta = t & 1, tb = t & 2;
        bad |= one<float>(h, SGEMM, ta, tb, 37, 29, 45, 1.5, -0.5, false, 4 * 45 * f32, "Sgemm");
        bad |= one<double>(h, DGEMM, ta, tb, 21, 18, 33, -1.0, 2.0, false,
                           4 * 33 * std::ldexp(1.0, -53), "Dgemm");
    }
    // several tiles, several k blocks, and enough work to use threads
    bad |= one<float>(h, SGEMM, true, false, 130, 101, 300, 1.0, 1.0, false, 4 * 300 * f32,
                      "Sgemm 130x101x300");
    bad |= one<float>(h, SGEMM, false, true, 33, 20, 12, 2.0, 0.0, true, 4 * 12 * f32,
                      "Sgemm beta=0 over NaN");
    bad |= one<float>(h, SGEMM, false, false, 8, 6, 0, 2.0, 3.0, false, 0, "Sgemm k=0");
    // half: A, B, C and the sums in half on a GPU
    bad |= one<__half>(h, HGEMM, false, true, 24, 17, 16, 1.0, 0.5, false,
                       16 * std::ldexp(1.0, -10), "Hgemm");
    bad |= ex<__nv_bfloat16, float>(h, CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, true, false,
                                    40, 24, 64, 4 * 64 * f32, "GemmEx bf16->f32");
    bad |= ex<__nv_bfloat16, __nv_bfloat16>(h, CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F,
                                            false, true, 17, 31, 20,
                                            std::ldexp(1.0, -8) + 4 * 20 * f32,
                                            "GemmEx bf16->bf16");
    bad |= ex<__half, __half>(h, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, true, true, 17, 31,
                              20, std::ldexp(1.0, -11) + 4 * 20 * f32, "GemmEx f16->f16");
    bad |= ex<__half, float>(h, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16F, false,
                             false, 21, 13, 30, 4 * 30 * f32, "GemmEx FAST_16F");
    bad |= ex<float, float>(h, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, false,
                            true, 21, 13, 30, 4 * 30 * f32, "GemmEx FAST_TF32");
    bad |= ex<float, float>(h, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_PEDANTIC, true,
                            false, 21, 13, 30, 4 * 30 * f32, "GemmEx 32F_PEDANTIC");
    bad |= ex<double, double>(h, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, true, true, 21, 13,
                              30, 4 * 30 * std::ldexp(1.0, -53), "GemmEx 64F");
    bad |= ex<__half, __half>(h, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, false, false, 12,
                              10, 8, 8 * std::ldexp(1.0, -10), "GemmEx 16F");
    bad |= batches(h);
    bad |= device_scalars(h);
    CHECK_BLAS(cublasDestroy(h));
    if (bad || failures)
        return 1;
    printf("ok cublas_gemm\n");
    return 0;
}
