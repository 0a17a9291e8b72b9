// __device__ global variables: statically initialised values read by a
// kernel and by cudaMemcpyFromSymbol, a counter that persists across
// launches, an array written by one kernel and read by another,
// cudaMemcpyToSymbol into a __device__ variable, and cudaGetSymbolAddress /
// cudaGetSymbolSize giving a pointer usable with cudaMemcpy and as a kernel
// argument.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 128 };

__device__ int counter;
__device__ int answer = 42;
__device__ double weights[4] = {0.5, -1.25, 2.0, 8.0};
__device__ float samples[N];
__device__ unsigned long long big = 0x0123456789abcdefull;

__global__ void bump(int times)
{
    for (int k = 0; k < times; k++)
        atomicAdd(&counter, 1);
}

__global__ void fill_samples(void)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    samples[i] = (float)(i * answer) * 0.5f;
}

__global__ void read_samples(float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = samples[N - 1 - i] + (float)weights[i % 4];
}

__global__ void through_pointer(float *p, unsigned long long *b)
{
    int i = threadIdx.x;
    p[i] += 1.0f;
    if (i == 0)
        *b ^= 0xffull;
}

int main(void)
{
    int zero = 0, got_answer = 0;
    CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof zero));
    CHECK(cudaMemcpyFromSymbol(&got_answer, answer, sizeof got_answer));
    expect_eq("static __device__ initializer", 0L, 42, got_answer);

    for (int launch = 0; launch < 3; launch++) {
        bump<<<2, 64>>>(launch + 1);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    int count = 0;
    CHECK(cudaMemcpyFromSymbol(&count, counter, sizeof count));
    expect_eq("counter across launches", 0L, 128 * (1 + 2 + 3), count);

    fill_samples<<<2, N / 2>>>();
    CHECK(cudaGetLastError());
    float *d_out, h_out[N];
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    read_samples<<<2, N / 2>>>(d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    const double w[4] = {0.5, -1.25, 2.0, 8.0};
    for (int i = 0; i < N; i++)
        expect_eq("samples written by one kernel, read by the next", i,
                  (float)((N - 1 - i) * 42) * 0.5f + (float)w[i % 4], h_out[i]);

    void *addr = nullptr, *big_addr = nullptr;
    size_t size = 0;
    CHECK(cudaGetSymbolAddress(&addr, samples));
    CHECK(cudaGetSymbolSize(&size, samples));
    expect_eq("cudaGetSymbolSize(samples)", 0L, (size_t)N * sizeof(float), size);
    CHECK(cudaGetSymbolAddress(&big_addr, big));
    through_pointer<<<1, N>>>((float *)addr, (unsigned long long *)big_addr);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    float h_samples[N];
    CHECK(cudaMemcpy(h_samples, addr, sizeof h_samples, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("samples through symbol address", i, (float)(i * 42) * 0.5f + 1.0f,
                  h_samples[i]);
    unsigned long long h_big = 0;
    CHECK(cudaMemcpyFromSymbol(&h_big, big, sizeof h_big));
    expect_eq("64-bit __device__ variable", 0L, 0x0123456789abcd10ull, h_big);

    double new_weights[2] = {-3.0, 5.5};
    CHECK(cudaMemcpyToSymbol(weights, new_weights, sizeof new_weights, 2 * sizeof(double)));
    double h_weights[4];
    CHECK(cudaMemcpyFromSymbol(h_weights, weights, sizeof h_weights));
    const double want_w[4] = {0.5, -1.25, -3.0, 5.5};
    for (int k = 0; k < 4; k++)
        expect_eq("weights after offset copy", k, want_w[k], h_weights[k]);

    CHECK(cudaFree(d_out));
    if (failures)
        return 1;
    printf("ok device_globals\n");
    return 0;
}
