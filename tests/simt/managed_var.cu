// __managed__ variables: written directly by host code, updated by kernels,
// and read directly by host code after cudaDeviceSynchronize, with a
// statically initialised managed array.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 16 };

__managed__ int total;
__managed__ int bins[N];
__managed__ double scale[4] = {1.0, 0.5, 0.25, 2.0};

__global__ void accumulate(const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(&total, in[i]);
        atomicAdd(&bins[in[i] % N], 1);
    }
}

__global__ void rescale(void)
{
    int k = threadIdx.x;
    if (k < 4)
        scale[k] *= (double)(total % 7 + 1);
}

int main(void)
{
    const int n = 300;
    int h_in[n], *d_in;
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 29) % 101;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    CHECK(cudaDeviceSynchronize());
    total = 5;
    for (int k = 0; k < N; k++)
        bins[k] = k;
    accumulate<<<(n + 127) / 128, 128>>>(d_in, n);
    CHECK(cudaGetLastError());
    rescale<<<1, 32>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    int want_total = 5, want_bins[N];
    for (int k = 0; k < N; k++)
        want_bins[k] = k;
    for (int i = 0; i < n; i++) {
        want_total += h_in[i];
        want_bins[h_in[i] % N]++;
    }
    expect_eq("managed total", 0L, want_total, total);
    for (int k = 0; k < N; k++)
        expect_eq("managed bins", k, want_bins[k], bins[k]);
    const double init[4] = {1.0, 0.5, 0.25, 2.0};
    for (int k = 0; k < 4; k++)
        expect_eq("managed scale", k, init[k] * (double)(want_total % 7 + 1), scale[k]);

    CHECK(cudaFree(d_in));
    if (failures)
        return 1;
    printf("ok managed_var\n");
    return 0;
}
