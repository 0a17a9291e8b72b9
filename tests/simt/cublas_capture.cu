// cuBLAS on a stream being captured into a graph.  The real cuBLAS records
// the GEMM into the graph; simt refuses the call with
// CUBLAS_STATUS_NOT_SUPPORTED (it does not record library calls).  Either
// way the capture must end cleanly: recorded, the graph computes C when
// launched and not before; refused, C is left as it was.
#include <cublas_v2.h>

#include "blas_ref.h"

int main()
{
    const int m = 16, n = 12, k = 8;
    std::vector<double> a = values(m * k, 61), b = values(k * n, 62), c = values(m * n, 63);
    std::vector<float> fa(a.begin(), a.end()), fb(b.begin(), b.end()), fc(c.begin(), c.end());
    float *da, *db, *dc, one = 1, zero = 0;
    CHECK(cudaMalloc(&da, fa.size() * 4));
    CHECK(cudaMalloc(&db, fb.size() * 4));
    CHECK(cudaMalloc(&dc, fc.size() * 4));
    CHECK(cudaMemcpy(da, fa.data(), fa.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, fb.data(), fb.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, fc.data(), fc.size() * 4, cudaMemcpyHostToDevice));
    cublasHandle_t h;
    cudaStream_t s;
    CHECK_BLAS(cublasCreate(&h));
    CHECK(cudaStreamCreate(&s));
    CHECK_BLAS(cublasSetStream(h, s));
    // a workspace set beforehand, so that the capture allocates nothing
    void *ws;
    CHECK(cudaMalloc(&ws, 4 << 20));
    CHECK_BLAS(cublasSetWorkspace(h, ws, 4 << 20));

    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da, m, db, k,
                                    &zero, dc, m);
    CHECK(cudaStreamEndCapture(s, &g));
    if (st != CUBLAS_STATUS_SUCCESS && st != CUBLAS_STATUS_NOT_SUPPORTED) {
        fprintf(stderr, "FAIL captured cublasSgemm returned %s\n", cublasGetStatusName(st));
        return 1;
    }
    // nothing has run yet
    std::vector<float> got(fc.size());
    CHECK(cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < got.size(); i++)
        expect_near("C before the graph runs", (long)i, c[i], got[i], 0);
    std::vector<double> want = c, mag(c.size());
    if (st == CUBLAS_STATUS_SUCCESS) {
        cudaGraphExec_t ge;
        CHECK(cudaGraphInstantiate(&ge, g, 0));
        CHECK(cudaGraphLaunch(ge, s));
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaGraphExecDestroy(ge));
        ref_gemm(false, false, m, n, k, 1, a, m, 0, b, k, 0, 0, want, m, 0, &mag);
    }
    CHECK(cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < got.size(); i++)
        expect_near("C after the graph", (long)i, want[i], got[i],
                    4 * k * std::ldexp(1.0, -24) * mag[i]);
    CHECK(cudaGraphDestroy(g));
    // the stream works as usual after the capture
    CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da, m, db, k, &zero, dc, m));
    CHECK(cudaStreamSynchronize(s));
    want = c;
    ref_gemm(false, false, m, n, k, 1, a, m, 0, b, k, 0, 0, want, m, 0, &mag);
    CHECK(cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < got.size(); i++)
        expect_near("C after the capture", (long)i, want[i], got[i],
                    4 * k * std::ldexp(1.0, -24) * mag[i]);
    CHECK_BLAS(cublasDestroy(h));
    CHECK(cudaStreamDestroy(s));
    if (failures)
        return 1;
    printf("ok cublas_capture (%s)\n", st == CUBLAS_STATUS_SUCCESS ? "recorded" : "refused");
    return 0;
}
