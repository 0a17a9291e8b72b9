// cuBLASLt: cublasLtMatmul as llm.c calls it (D = W^T X + bias with W
// stored C x OC), the bias, ReLU and GELU epilogues with GELU's input
// kept in an aux matrix, DGELU reading such a matrix back, strided
// batches, BF16 data, alpha/beta with C != D; the heuristic query;
// attribute round trips and the sizes Set/Get insist on.
#include <cublasLt.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include "blas_ref.h"

#define CHECK_LT CHECK_BLAS

static double gelu(double x)
{
    return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

// d gelu / dx by a central difference of the formula above, so that it is
// computed independently of any closed form.
static double gelu_grad(double x)
{
    const double h = 1e-5;
    return (gelu(x + h) - gelu(x - h)) / (2 * h);
}

static float *dev_f32(const std::vector<double> &h)
{
    std::vector<float> t(h.begin(), h.end());
    float *d;
    cudaMalloc(&d, t.size() * 4);
    cudaMemcpy(d, t.data(), t.size() * 4, cudaMemcpyHostToDevice);
    return d;
}

static std::vector<double> host_f32(const float *d, size_t n)
{
    std::vector<float> t(n);
    cudaMemcpy(t.data(), d, n * 4, cudaMemcpyDeviceToHost);
    return std::vector<double>(t.begin(), t.end());
}

struct Lt {
    cublasLtHandle_t h;
    cublasLtMatmulPreference_t pref;
    void *ws;
    size_t ws_size = 4 << 20;
};

// One matmul D = epi(alpha op(A) op(B) + beta C + bias), all FP32; A is
// stored (ta ? k x m : m x k), B (tb ? n x k : k x n), C and D m x n with
// leading dimension m + 2 (C) and m (D), `nb` batches.
static int matmul_f32(Lt &lt, cublasLtEpilogue_t epi, bool ta, bool tb, long m, long n,
                      long k, long nb, float alpha, float beta, const char *what)
{
    long arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
    // batch strides with a gap after each matrix (which must stay as it
    // was), rounded up to 64 elements so every batch stays 256-byte aligned
    auto round64 = [](long x) { return (x + 63) / 64 * 64; };
    long ldc = m + 2, ldd = m, sa = round64(arows * acols + 3), sb = round64(brows * bcols),
         sc = round64(ldc * n), sd = round64(ldd * n + 1);
    std::vector<double> a = values(sa * nb, 21), b = values(sb * nb, 22), c = values(sc * nb, 23);
    std::vector<double> bias = values(m * nb, 24), d0(sd * nb, 0.0);
    bool has_bias = epi & CUBLASLT_EPILOGUE_BIAS, has_aux = epi == CUBLASLT_EPILOGUE_GELU_AUX_BIAS ||
                                                              epi == CUBLASLT_EPILOGUE_GELU_AUX;
    // DGELU reads the aux matrix (GELU's input from a forward pass)
    bool dgelu = epi == CUBLASLT_EPILOGUE_DGELU;
    std::vector<double> aux_in = d0;
    if (dgelu) {
        aux_in = values(d0.size(), 25);
        for (double &x : aux_in)
            x *= 3;
    }
    float *da = dev_f32(a), *db = dev_f32(b), *dc = dev_f32(c), *dd = dev_f32(d0);
    float *dbias = dev_f32(bias), *daux = dev_f32(aux_in);

    cublasLtMatmulDesc_t desc;
    CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t opa = ta ? CUBLAS_OP_T : CUBLAS_OP_N, opb = tb ? CUBLAS_OP_T : CUBLAS_OP_N;
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &opa, sizeof opa));
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &opb, sizeof opb));
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    if (has_bias) {
        CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dbias,
                                                sizeof dbias));
        int64_t bstride = m;
        CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE,
                                                &bstride, sizeof bstride));
    }
    if (has_aux || dgelu) {
        int64_t ld = ldd, st = sd;
        CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER,
                                                &daux, sizeof daux));
        CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ld,
                                                sizeof ld));
        CHECK_LT(cublasLtMatmulDescSetAttribute(
            desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, &st, sizeof st));
    }
    cublasLtMatrixLayout_t la, lb, lc, ld;
    CHECK_LT(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, arows, acols, arows));
    CHECK_LT(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, brows, bcols, brows));
    CHECK_LT(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, m, n, ldc));
    CHECK_LT(cublasLtMatrixLayoutCreate(&ld, CUDA_R_32F, m, n, ldd));
    if (nb > 1) {
        int32_t count = (int32_t)nb;
        int64_t strides[4] = {sa, sb, sc, sd};
        cublasLtMatrixLayout_t ls[4] = {la, lb, lc, ld};
        for (int i = 0; i < 4; i++) {
            CHECK_LT(cublasLtMatrixLayoutSetAttribute(ls[i], CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT,
                                                      &count, sizeof count));
            CHECK_LT(cublasLtMatrixLayoutSetAttribute(
                ls[i], CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &strides[i], sizeof strides[i]));
        }
    }
    cublasLtMatmulHeuristicResult_t res;
    int count = 0;
    CHECK_LT(cublasLtMatmulAlgoGetHeuristic(lt.h, desc, la, lb, lc, ld, lt.pref, 1, &res, &count));
    if (count != 1 || res.state != CUBLAS_STATUS_SUCCESS || res.workspaceSize > lt.ws_size) {
        fprintf(stderr, "FAIL %s: heuristic gave %d results\n", what, count);
        return 1;
    }
    CHECK_LT(cublasLtMatmul(lt.h, desc, &alpha, da, la, db, lb, &beta, dc, lc, dd, ld, &res.algo,
                            lt.ws, lt.ws_size, 0));
    CHECK(cudaDeviceSynchronize());

    std::vector<double> got = host_f32(dd, d0.size()), aux = host_f32(daux, d0.size());
    std::vector<double> cc = c, mag(c.size());
    for (long i = 0; i < nb; i++)
        ref_gemm(ta, tb, m, n, k, alpha, a, arows, i * sa, b, brows, i * sb, beta, cc, ldc,
                 i * sc, &mag);
    const double f32 = std::ldexp(1.0, -24);
    for (long bt = 0; bt < nb; bt++)
        for (long j = 0; j < n; j++)
            for (long r = 0; r < m; r++) {
                long ci = bt * sc + r + j * ldc, di = bt * sd + r + j * ldd;
                double pre = cc[ci] + (has_bias ? bias[bt * m + r] : 0);
                double tol = 4 * (k + 2) * f32 * (mag[ci] + std::fabs(pre));
                double want = pre;
                if (epi == CUBLASLT_EPILOGUE_RELU || epi == CUBLASLT_EPILOGUE_RELU_BIAS)
                    want = pre > 0 ? pre : 0;
                if (dgelu) {
                    want = pre * gelu_grad(aux_in[di]);
                    tol = tol * 2 + 1e-3 * (1 + std::fabs(want));
                }
                if (epi & CUBLASLT_EPILOGUE_GELU) {
                    // the tanh form; a GPU may evaluate tanh approximately
                    want = gelu(pre);
                    tol = tol * 2 + 1e-3 * (1 + std::fabs(pre));
                }
                expect_near(what, di, want, got[di], tol);
                if (dgelu)
                    expect_near("aux (an input)", di, aux_in[di], aux[di], 0);
                if (has_aux)
                    expect_near("aux", di, pre, aux[di], 4 * (k + 2) * f32 * (mag[ci] + std::fabs(pre)));
            }
    // the gaps between D's batch matrices (and aux's) stay untouched
    for (long i = 0; i < (long)d0.size(); i++)
        if (i % sd >= ldd * n) {
            expect_near("D gap", i, 0, got[i], 0);
            expect_near("aux gap", i, aux_in[i], aux[i], 0);
        }
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(desc);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    cudaFree(dd);
    cudaFree(dbias);
    cudaFree(daux);
    return 0;
}

// BF16 A, B, C = D with FP32 compute and bias, as llm.c's train_gpt2 does
// (C == D, beta 0: C never read).
static int matmul_bf16(Lt &lt)
{
    const long m = 24, n = 10, k = 48;
    std::vector<double> a = values(k * m, 31), b = values(k * n, 32), bias = values(m, 33);
    std::vector<__nv_bfloat16> ha(a.size()), hb(b.size()), hbias(m);
    for (size_t i = 0; i < a.size(); i++)
        ha[i] = __float2bfloat16_rn((float)a[i]);
    for (size_t i = 0; i < b.size(); i++)
        hb[i] = __float2bfloat16_rn((float)b[i]);
    for (long i = 0; i < m; i++)
        hbias[i] = __float2bfloat16_rn((float)bias[i]);
    __nv_bfloat16 *da, *db, *dd, *dbias;
    CHECK(cudaMalloc(&da, a.size() * 2));
    CHECK(cudaMalloc(&db, b.size() * 2));
    CHECK(cudaMalloc(&dd, m * n * 2));
    CHECK(cudaMalloc(&dbias, m * 2));
    CHECK(cudaMemcpy(da, ha.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb.data(), b.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbias, hbias.data(), m * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dd, 0xff, m * n * 2)); // NaN garbage
    cublasLtMatmulDesc_t desc;
    CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    cublasOperation_t t = CUBLAS_OP_T;
    cublasLtEpilogue_t epi = CUBLASLT_EPILOGUE_BIAS;
    cudaDataType bt = CUDA_R_16BF;
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t));
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi));
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt, sizeof bt));
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &dbias,
                                            sizeof dbias));
    cublasLtMatrixLayout_t la, lb, ld;
    CHECK_LT(cublasLtMatrixLayoutCreate(&la, CUDA_R_16BF, k, m, k));
    CHECK_LT(cublasLtMatrixLayoutCreate(&lb, CUDA_R_16BF, k, n, k));
    CHECK_LT(cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, m, n, m));
    float alpha = 1, beta = 0;
    cublasLtMatmulHeuristicResult_t res;
    int count = 0;
    CHECK_LT(cublasLtMatmulAlgoGetHeuristic(lt.h, desc, la, lb, ld, ld, lt.pref, 1, &res, &count));
    CHECK_LT(cublasLtMatmul(lt.h, desc, &alpha, da, la, db, lb, &beta, dd, ld, dd, ld, &res.algo,
                            lt.ws, lt.ws_size, 0));
    std::vector<__nv_bfloat16> got(m * n);
    CHECK(cudaMemcpy(got.data(), dd, m * n * 2, cudaMemcpyDeviceToHost));
    std::vector<double> want(m * n, 0.0), mag(m * n);
    ref_gemm(true, false, m, n, k, 1, a, k, 0, b, k, 0, 0, want, m, 0, &mag);
    for (long i = 0; i < m * n; i++) {
        double w = want[i] + bias[i % m];
        expect_near("bf16 matmul+bias", i, w, __bfloat162float(got[i]),
                    std::ldexp(std::fabs(w), -8) + 4 * k * std::ldexp(1.0, -24) * mag[i]);
    }
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(desc);
    return 0;
}

// Set/Get of attributes: values come back, a wrong size is refused.
static int attributes()
{
    cublasLtMatmulDesc_t desc;
    CHECK_LT(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F));
    int32_t compute = 0;
    size_t written = 0;
    CHECK_LT(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute,
                                            sizeof compute, &written));
    expect_eq("compute type", 0, (int32_t)CUBLAS_COMPUTE_32F_FAST_TF32, compute);
    expect_eq("compute type size", 0, sizeof(int32_t), written);
    uint32_t epi = 0;
    CHECK_LT(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epi, sizeof epi,
                                            &written));
    expect_eq("default epilogue", 0, (uint32_t)CUBLASLT_EPILOGUE_DEFAULT, epi);
    int64_t ld = 640, ld2 = 0;
    CHECK_LT(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ld,
                                            sizeof ld));
    CHECK_LT(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ld2,
                                            sizeof ld2, &written));
    expect_eq("aux ld", 0, ld, ld2);
    int32_t small = 1;
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD,
                                                 &small, sizeof small));
    cublasLtMatmulDescDestroy(desc);

    cublasLtMatrixLayout_t l;
    CHECK_LT(cublasLtMatrixLayoutCreate(&l, CUDA_R_16F, 7, 9, 11));
    uint64_t rows = 0, cols = 0;
    int64_t lld = 0;
    int32_t batch = 0;
    uint32_t type = 99;
    CHECK_LT(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof rows, &written));
    CHECK_LT(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_COLS, &cols, sizeof cols, &written));
    CHECK_LT(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_LD, &lld, sizeof lld, &written));
    CHECK_LT(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof batch, &written));
    CHECK_LT(cublasLtMatrixLayoutGetAttribute(l, CUBLASLT_MATRIX_LAYOUT_TYPE, &type, sizeof type, &written));
    expect_eq("rows", 0, (uint64_t)7, rows);
    expect_eq("cols", 0, (uint64_t)9, cols);
    expect_eq("ld", 0, (int64_t)11, lld);
    expect_eq("batch", 0, (int32_t)1, batch);
    expect_eq("type", 0, (uint32_t)CUDA_R_16F, type);
    EXPECT_STATUS(CUBLAS_STATUS_INVALID_VALUE,
                  cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ROWS, &batch, sizeof batch));
    cublasLtMatrixLayoutDestroy(l);
    return 0;
}

int main()
{
    Lt lt;
    CHECK_LT(cublasLtCreate(&lt.h));
    CHECK(cudaMalloc(&lt.ws, lt.ws_size));
    CHECK_LT(cublasLtMatmulPreferenceCreate(&lt.pref));
    uint64_t wsz = lt.ws_size;
    CHECK_LT(cublasLtMatmulPreferenceSetAttribute(lt.pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                  &wsz, sizeof wsz));
    int bad = 0;
    // llm.c's matmul_forward: out (OC x BT) = W^T (W stored C x OC) inp + bias
    bad |= matmul_f32(lt, CUBLASLT_EPILOGUE_BIAS, true, false, 48, 40, 32, 1, 1, 0, "bias");
    bad |= matmul_f32(lt, CUBLASLT_EPILOGUE_DEFAULT, false, true, 17, 23, 29, 1, 1.5f, -0.5f,
                      "default");
    bad |= matmul_f32(lt, CUBLASLT_EPILOGUE_RELU_BIAS, true, true, 20, 11, 9, 2, 1, 0.25f,
                      "relu+bias, 2 batches");
    bad |= matmul_f32(lt, CUBLASLT_EPILOGUE_RELU, false, false, 20, 11, 9, 1, 1, 0, "relu");
    bad |= matmul_f32(lt, CUBLASLT_EPILOGUE_GELU, true, false, 16, 12, 24, 1, 1, 0, "gelu");
    bad |= matmul_f32(lt, CUBLASLT_EPILOGUE_GELU_BIAS, true, false, 16, 12, 24, 3, 1, 0,
                      "gelu+bias, 3 batches");
    bad |= matmul_f32(lt, CUBLASLT_EPILOGUE_GELU_AUX_BIAS, true, false, 16, 12, 24, 2, 2, 1,
                      "gelu+aux+bias");
    // llm.c's fused backward (gelu_fusion 2): dinp = (W dout) * gelu'(pre_gelu)
    bad |= matmul_f32(lt, CUBLASLT_EPILOGUE_DGELU, false, false, 16, 12, 24, 2, 1, 0, "dgelu");
    bad |= matmul_bf16(lt);
    bad |= attributes();
    cublasLtMatmulPreferenceDestroy(lt.pref);
    CHECK_LT(cublasLtDestroy(lt.h));
    if (bad || failures)
        return 1;
    printf("ok cublaslt_matmul\n");
    return 0;
}
