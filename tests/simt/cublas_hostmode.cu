// expect: exit=1 stderr=is device memory, but the pointer mode is host [simt-only]
// alpha in device memory while the handle's pointer mode is the default,
// host: the library would dereference a device pointer on the host (a
// crash on a GPU).  simt names the call and the argument and fails it.
#include <cublas_v2.h>

#include "blas_ref.h"

int main()
{
    const int n = 8;
    float *a, *c, *dalpha, zero = 0;
    CHECK(cudaMalloc(&a, n * n * sizeof(float)));
    CHECK(cudaMalloc(&c, n * n * sizeof(float)));
    CHECK(cudaMalloc(&dalpha, sizeof(float)));
    CHECK(cudaMemset(a, 0, n * n * sizeof(float)));
    CHECK(cudaMemset(dalpha, 0, sizeof(float)));
    cublasHandle_t h;
    CHECK_BLAS(cublasCreate(&h));
    cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, dalpha, a, n, a, n,
                                    &zero, c, n);
    if (st != CUBLAS_STATUS_SUCCESS) {
        printf("refused: %s\n", cublasGetStatusName(st));
        return 1;
    }
    return 0;
}
