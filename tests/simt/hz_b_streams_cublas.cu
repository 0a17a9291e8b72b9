// expect-hazard: race: global write at hz_b_streams_cublas.cu:26 ... of fill(float*, int, float) on stream 1 and global read by cublasSgemm on stream 2, in different streams with no event or synchronization between them
// expect-hazard: race: global write at hz_b_streams_cublas.cu:26 ... of fill(float*, int, float) on stream 1 and global read by cublasSaxpy on stream 2, in different streams with no event or synchronization between them
//
// cuBLAS calls are operations of the handle's stream: a kernel fills A on
// stream 1 while the handle's stream is stream 2, and cublasSgemm reads A
// with nothing ordering the two.  The second product waits for an event
// recorded after the fill, which is clean.  The level-1 routines are
// operations too: cublasSaxpy reads every other element of A, refilled on
// stream 1, with nothing between them; cublasSdot with a host result
// (the host waits for it) before a kernel on stream 1 overwrites what it
// read is clean.  All values are small integers, so the products are
// exact.
#include <cublas_v2.h>

#include "blas_ref.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define M 32
#define K 16
#define N 8

__global__ void fill(float *a, int count, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        a[i] = scale * (float)(i % 5 - 2);
}

int main()
{
    cudaStream_t s1, s2;
    cudaEvent_t filled;
    cublasHandle_t h;
    float *a, *b, *c, one = 1.0f, zero = 0.0f;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    CHECK(cudaEventCreateWithFlags(&filled, cudaEventDisableTiming));
    CHECK(cudaMalloc(&a, M * K * sizeof(float)));
    CHECK(cudaMalloc(&b, K * N * sizeof(float)));
    CHECK(cudaMalloc(&c, M * N * sizeof(float)));
    CHECK_BLAS(cublasCreate(&h));
    CHECK_BLAS(cublasSetStream(h, s2));
    fill<<<1, K * N, 0, s2>>>(b, K * N, 1.0f);

    fill<<<(M * K + 127) / 128, 128, 0, s1>>>(a, M * K, 1.0f);
    CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, a, M, b, K,
                           &zero, c, M));     // the race on a
    CHECK(cudaDeviceSynchronize());

    fill<<<(M * K + 127) / 128, 128, 0, s1>>>(a, M * K, 2.0f);
    CHECK(cudaEventRecord(filled, s1));
    CHECK(cudaStreamWaitEvent(s2, filled, 0));
    CHECK_BLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, M, N, K, &one, a, M, b, K,
                           &zero, c, M));     // ordered by the event
    CHECK(cudaStreamSynchronize(s2));
    float got[M * N];
    CHECK(cudaMemcpy(got, c, sizeof got, cudaMemcpyDeviceToHost));
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            double want = 0;
            for (int l = 0; l < K; l++)
                want += 2.0 * ((i + l * M) % 5 - 2) * ((l + j * K) % 5 - 2);
            expect_near("c", i + j * M, want, got[i + j * M], 0.0);
        }

    float *y, dot;
    CHECK(cudaMalloc(&y, M * K / 2 * sizeof(float)));
    CHECK(cudaMemsetAsync(y, 0, M * K / 2 * sizeof(float), s2));
    fill<<<(M * K + 127) / 128, 128, 0, s1>>>(a, M * K, 3.0f);
    CHECK_BLAS(cublasSaxpy(h, M * K / 2, &one, a, 2, y, 1));  // the race on a
    CHECK(cudaDeviceSynchronize());

    fill<<<(M * K + 127) / 128, 128, 0, s1>>>(a, M * K, 2.0f);
    CHECK(cudaEventRecord(filled, s1));
    CHECK(cudaStreamWaitEvent(s2, filled, 0));
    CHECK_BLAS(cublasSdot(h, M * K / 2, a, 2, a + 1, 2, &dot));
    fill<<<(M * K + 127) / 128, 128, 0, s1>>>(a, M * K, 1.0f);  // after the dot
    CHECK(cudaDeviceSynchronize());
    double want_dot = 0;
    for (int k = 0; k < M * K / 2; k++)
        want_dot += 4.0 * ((2 * k) % 5 - 2) * ((2 * k + 1) % 5 - 2);
    expect_near("dot", 0, want_dot, dot, 0.0);
    CHECK_BLAS(cublasDestroy(h));
    DONE("hz_b_streams_cublas");
}
