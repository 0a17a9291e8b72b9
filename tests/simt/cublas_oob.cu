// expect: exit=1 stderr=cublasSgemm: A (64 x 64, lda=100 [simt-only]
// An lda larger than the allocation allows: the last columns of A lie
// past its end.  simt reports the call, the argument and the allocation,
// and fails it as a kernel fault; on a GPU the overrun is an illegal
// address (exit 1) or lands in other memory (exit 0).
#include <cublas_v2.h>

#include "blas_ref.h"

int main()
{
    const int n = 64;
    float *a, *b, *c, one = 1, zero = 0;
    CHECK(cudaMalloc(&a, n * n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * n * sizeof(float)));
    CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
    CHECK(cudaMemset(b, 0, n * n * sizeof(float)));
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, 100, b, n,
                                    &zero, c, n);
    cudaError_t e = cudaDeviceSynchronize();
    if (st == CUBLAS_STATUS_EXECUTION_FAILED || e == cudaErrorIllegalAddress) {
        printf("fault reported: %s, %s\n", cublasGetStatusName(st), cudaGetErrorName(e));
        return 1;
    }
    if (st != CUBLAS_STATUS_SUCCESS)
        return 2;
    return 0;
}
