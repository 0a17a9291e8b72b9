// cuBLAS handle calls (stream, workspace, math, pointer and atomics
// modes, version, property, status names), the documented status codes
// for bad arguments, Sgeam, Sgemv and Dgemv, and the level-1 routines Saxpy, Sdot,
// Snrm2, Sscal and Scopy, against host computations.
#include <cstring>

#include <cublas_v2.h>

#include "blas_ref.h"

static int handle_calls()
{
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE, cublasCreate(nullptr));
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    cudaStream_t s, got = (cudaStream_t)1;
    CHECK(cudaStreamCreate(&s));
    CHECK_BLAS(cublasGetStream(h, &got));
    expect_eq("default stream", 0, (long)(size_t)nullptr, (long)(size_t)got);
    CHECK_BLAS(cublasSetStream(h, s));
    CHECK_BLAS(cublasGetStream(h, &got));
    expect_eq("stream", 0, (long)(size_t)s, (long)(size_t)got);
    void *ws;
    CHECK(cudaMalloc(&ws, 1 << 20));
    CHECK_BLAS(cublasSetWorkspace(h, ws, 1 << 20));
    cublasMath_t mm;
    CHECK_BLAS(cublasGetMathMode(h, &mm));
    expect_eq("default math mode", 0, (int)CUBLAS_DEFAULT_MATH, (int)mm);
    CHECK_BLAS(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
    CHECK_BLAS(cublasGetMathMode(h, &mm));
    expect_eq("math mode", 0, (int)CUBLAS_TF32_TENSOR_OP_MATH, (int)mm);
    CHECK_BLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
    cublasPointerMode_t pm;
    CHECK_BLAS(cublasGetPointerMode(h, &pm));
    expect_eq("pointer mode", 0, (int)CUBLAS_POINTER_MODE_HOST, (int)pm);
    cublasAtomicsMode_t am;
    CHECK_BLAS(cublasSetAtomicsMode(h, CUBLAS_ATOMICS_ALLOWED));
    CHECK_BLAS(cublasGetAtomicsMode(h, &am));
    expect_eq("atomics mode", 0, (int)CUBLAS_ATOMICS_ALLOWED, (int)am);
    int v = 0, major = -1, minor = -1, patch = -1;
    CHECK_BLAS(cublasGetVersion(h, &v));
    CHECK_BLAS(cublasGetProperty(MAJOR_VERSION, &major));
    CHECK_BLAS(cublasGetProperty(MINOR_VERSION, &minor));
    CHECK_BLAS(cublasGetProperty(PATCH_LEVEL, &patch));
    expect_eq("version", 0, major * 10000 + minor * 100 + patch, v);
    expect_eq("major version", 0, (int)CUBLAS_VER_MAJOR, major);
    // status names: each value names itself
    struct { cublasStatus_t s; const char *name; } names[] = {
        {CUBLAS_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS"},
        {CUBLAS_STATUS_NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED"},
        {CUBLAS_STATUS_ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED"},
        {CUBLAS_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE"},
        {CUBLAS_STATUS_ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH"},
        {CUBLAS_STATUS_MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR"},
        {CUBLAS_STATUS_EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED"},
        {CUBLAS_STATUS_INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR"},
        {CUBLAS_STATUS_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED"},
        {CUBLAS_STATUS_LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR"},
    };
    for (auto &n : names) {
        const char *got_name = cublasGetStatusName(n.s);
        if (!got_name || strcmp(got_name, n.name) != 0)
            expect_eq(n.name, (long)n.s, 0, 1);
        if (!cublasGetStatusString(n.s) || !*cublasGetStatusString(n.s))
            expect_eq("status string", (long)n.s, 0, 1);
    }
    CHECK_BLAS(cublasDestroy(h));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(ws));
    return 0;
}

// The documented status codes; no call here reaches memory.
static int bad_arguments(cublasHandle_t h)
{
    float one = 1, *d;
    CHECK(cudaMalloc(&d, 64 * sizeof(float)));
    EXPECT_STATUS(CUBLAS_STATUS_NOT_INITIALIZED,
                  cublasSgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2));
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, d, 2, d, 2, &one, d, 2));
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, -3, &one, d, 2, d, 2, &one, d, 2));
    // lda < m for op N, lda < k for op T, ldb < k, ldc < m
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d, 3, d, 2, &one, d, 4));
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 2, 4, &one, d, 3, d, 4, &one, d, 2));
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 4, &one, d, 2, d, 3, &one, d, 2));
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d, 4, d, 2, &one, d, 3));
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgemm(h, (cublasOperation_t)7, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2));
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, 4, d,
                                            2, 4, &one, d, 2, 4, -1));
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, &one, d, 3, &one, d, 4, d, 4));
    // m == 0: nothing to do, success
    EXPECT_STATUS(CUBLAS_STATUS_SUCCESS,
                  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &one, d, 1, d, 2, &one, d, 1));
    // unsupported type combination for GemmEx
    EXPECT_STATUS(CUBLAS_STATUS_NOT_SUPPORTED,
                  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, CUDA_R_32F, 2, d,
                               CUDA_R_16F, 2, &one, d, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F,
                               CUBLAS_GEMM_DEFAULT));
    CHECK(cudaFree(d));
    return 0;
}

static int geam(cublasHandle_t h)
{
    const long m = 13, n = 9, lda = n + 1, ldb = m + 2, ldc = m + 3;
    std::vector<double> a = values(lda * m, 41), b = values(ldb * n, 42), c = values(ldc * n, 43);
    std::vector<float> fa(a.begin(), a.end()), fb(b.begin(), b.end()), fc(c.begin(), c.end());
    float *da, *db, *dc;
    CHECK(cudaMalloc(&da, fa.size() * 4));
    CHECK(cudaMalloc(&db, fb.size() * 4));
    CHECK(cudaMalloc(&dc, fc.size() * 4));
    CHECK(cudaMemcpy(da, fa.data(), fa.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, fb.data(), fb.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, fc.data(), fc.size() * 4, cudaMemcpyHostToDevice));
    float alpha = 2, beta = -0.5f;
    // C = 2 A^T - 0.5 B
    CHECK_BLAS(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &alpha, da, lda, &beta, db, ldb, dc, ldc));
    std::vector<float> got(fc.size());
    CHECK(cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost));
    for (long j = 0; j < n; j++)
        for (long i = 0; i < ldc; i++) {
            double want = i < m ? 2 * a[j + i * lda] - 0.5 * b[i + j * ldb] : c[i + j * ldc];
            expect_near("Sgeam", i + j * ldc, want, got[i + j * ldc], 0);
        }
    return 0;
}

static int level1(cublasHandle_t h)
{
    const int n = 50;
    std::vector<double> x = values(n * 3, 51), y = values(n * 2, 52);
    std::vector<float> fx(x.begin(), x.end()), fy(y.begin(), y.end());
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, fx.size() * 4));
    CHECK(cudaMalloc(&dy, fy.size() * 4));
    CHECK(cudaMemcpy(dx, fx.data(), fx.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, fy.data(), fy.size() * 4, cudaMemcpyHostToDevice));
    // dot with incx 3, incy -2 (y read from its far end)
    float dot = 0;
    CHECK_BLAS(cublasSdot(h, n, dx, 3, dy, -2, &dot));
    double want = 0, mag = 0;
    for (int i = 0; i < n; i++) {
        want += x[i * 3] * y[(n - 1 - i) * 2];
        mag += std::fabs(x[i * 3] * y[(n - 1 - i) * 2]);
    }
    expect_near("Sdot", 0, want, dot, 2 * n * std::ldexp(1.0, -24) * mag);
    float nrm = 0;
    CHECK_BLAS(cublasSnrm2(h, n, dx, 3, &nrm));
    double ss = 0;
    for (int i = 0; i < n; i++)
        ss += x[i * 3] * x[i * 3];
    expect_near("Snrm2", 0, std::sqrt(ss), nrm, 2 * n * std::ldexp(1.0, -24) * std::sqrt(ss));
    // y[::2] += 0.5 x[::3]
    float half = 0.5f;
    CHECK_BLAS(cublasSaxpy(h, n, &half, dx, 3, dy, 2));
    std::vector<float> gy(fy.size());
    CHECK(cudaMemcpy(gy.data(), dy, gy.size() * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 2 * n; i++)
        expect_near("Saxpy", i, i % 2 ? y[i] : y[i] + 0.5 * x[i / 2 * 3], gy[i], 0);
    // x[::3] *= -3
    float m3 = -3;
    CHECK_BLAS(cublasSscal(h, n, &m3, dx, 3));
    // y[::2] = x[::3]
    CHECK_BLAS(cublasScopy(h, n, dx, 3, dy, 2));
    CHECK(cudaMemcpy(gy.data(), dy, gy.size() * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 2 * n; i += 2)
        expect_near("Sscal+Scopy", i, -3 * x[i / 2 * 3], gy[i], 0);
    // a result in device memory
    float *dres;
    CHECK(cudaMalloc(&dres, 4));
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK_BLAS(cublasSnrm2(h, n, dx, 3, dres));
    CHECK_BLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    float r;
    CHECK(cudaMemcpy(&r, dres, 4, cudaMemcpyDeviceToHost));
    expect_near("Snrm2 device result", 0, 3 * std::sqrt(ss), r,
                6 * n * std::ldexp(1.0, -24) * std::sqrt(ss));
    return 0;
}

static cublasStatus_t gemv_t(cublasHandle_t h, cublasOperation_t op, int m, int n,
                             const float *al, const float *A, int lda, const float *x,
                             int incx, const float *be, float *y, int incy)
{
    return cublasSgemv(h, op, m, n, al, A, lda, x, incx, be, y, incy);
}

static cublasStatus_t gemv_t(cublasHandle_t h, cublasOperation_t op, int m, int n,
                             const double *al, const double *A, int lda, const double *x,
                             int incx, const double *be, double *y, int incy)
{
    return cublasDgemv(h, op, m, n, al, A, lda, x, incx, be, y, incy);
}

// *d: a device copy of host values as T.
template <typename T> static int to_device(const std::vector<double> &h, T **d)
{
    std::vector<T> t(h.begin(), h.end());
    CHECK(cudaMalloc(d, t.size() * sizeof(T)));
    CHECK(cudaMemcpy(*d, t.data(), t.size() * sizeof(T), cudaMemcpyHostToDevice));
    return 0;
}

// One gemv in T (float: Sgemv, double: Dgemv) against the double sum,
// within 4 xn units of T's epsilon of the magnitudes.
template <typename T>
static int gemv_one(cublasHandle_t h, bool tr, int m, int n, int lda,
                     const std::vector<double> &a, const std::vector<double> &x, int incx,
                     const std::vector<double> &y, int incy, double alpha, double beta,
                     const char *name, int mant)
{
    int xn = tr ? m : n, yn = tr ? n : m;
    T *da, *dx, *dy;
    if (to_device(a, &da) || to_device(x, &dx) || to_device(y, &dy))
        return 1;
    T al = (T)alpha, be = (T)beta;
    CHECK_BLAS(gemv_t(h, tr ? CUBLAS_OP_T : CUBLAS_OP_N, m, n, &al, da, lda, dx, incx,
                      &be, dy, incy));
    std::vector<T> got(yn);
    CHECK(cudaMemcpy(got.data(), dy, yn * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < yn; i++) {
        double s = 0, mag = 0;
        for (int j = 0; j < xn; j++) {
            double t2 = (tr ? a[j + i * lda] : a[i + j * lda]) * x[j * incx];
            s += t2;
            mag += std::fabs(t2);
        }
        int yi = yn - 1 - i; // incy < 0: element i is at the far end
        double want = alpha * s + (beta != 0 ? beta * y[yi] : 0);
        expect_near(name, i, want, got[yi],
                    4 * xn * std::ldexp(1.0, -mant) * (std::fabs(alpha) * mag + 1));
    }
    cudaFree(da);
    cudaFree(dx);
    cudaFree(dy);
    return 0;
}

// y = alpha op(A) x + beta y with lda > m, a stride on x, a reversed y,
// and beta == 0 over NaN in y (y must not be read), in single and double
// precision.
static int gemv(cublasHandle_t h)
{
    const int m = 23, n = 17, lda = m + 4;
    std::vector<double> a = values(lda * n, 71);
    for (int t = 0; t < 2; t++) {
        bool tr = t == 1;
        int xn = tr ? m : n, yn = tr ? n : m, incx = 2, incy = -1;
        std::vector<double> x = values(xn * incx, 72), y = values(yn, 73);
        double alpha = 1.5, beta = tr ? 0.0 : -0.25;
        if (beta == 0)
            for (double &v : y)
                v = NAN;
        if (gemv_one<float>(h, tr, m, n, lda, a, x, incx, y, incy, alpha, beta,
                            tr ? "Sgemv T" : "Sgemv N", 24) ||
            gemv_one<double>(h, tr, m, n, lda, a, x, incx, y, incy, alpha, beta,
                             tr ? "Dgemv T" : "Dgemv N", 53))
            return 1;
    }
    return 0;
}

int main()
{
    int bad = handle_calls();
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    bad |= bad_arguments(h);
    bad |= geam(h);
    bad |= level1(h);
    bad |= gemv(h);
    CHECK_BLAS(cublasDestroy(h));
    if (bad || failures)
        return 1;
    printf("ok cublas_misc\n");
    return 0;
}
