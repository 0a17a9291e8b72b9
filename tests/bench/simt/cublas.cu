// A 1024 x 1024 x 1024 cublasSgemm on simt (computed natively, not
// interpreted); prints its seconds (the median of 3 calls after one
// warm-up) and GFLOP/s.
#include <chrono>
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cublas_v2.h>

int main()
{
    const int n = 1024;
    std::vector<float> h((size_t)n * n);
    for (size_t i = 0; i < h.size(); i++)
        h[i] = (float)(i % 17) * 0.125f - 1.0f;
    float *a, *b, *c, one = 1, zero = 0;
    cudaMalloc(&a, h.size() * 4);
    cudaMalloc(&b, h.size() * 4);
    cudaMalloc(&c, h.size() * 4);
    cudaMemcpy(a, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(b, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
    cublasHandle_t handle;
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
        return 1;
    std::vector<double> secs;
    for (int r = 0; r < 4; r++) {
        auto t0 = std::chrono::steady_clock::now();
        if (cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c,
                        n) != CUBLAS_STATUS_SUCCESS)
            return 1;
        cudaDeviceSynchronize();
        if (r > 0)
            secs.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                               .count());
    }
    std::sort(secs.begin(), secs.end());
    float x;
    cudaMemcpy(&x, c + 12345, 4, cudaMemcpyDeviceToHost);
    printf("seconds=%.6f gflops=%.2f c=%g\n", secs[1], 2.0 * n * n * n / secs[1] / 1e9, x);
    return 0;
}
