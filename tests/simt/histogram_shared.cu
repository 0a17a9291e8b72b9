// A 256-bin byte histogram: each block counts into its own shared-memory
// histogram with atomicAdd (grid-stride loop, heavy contention on a few bins
// by construction), then merges into the global histogram with atomicAdd.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { BINS = 256, THREADS = 256, BLOCKS = 8 };

__global__ void histogram(const unsigned char *data, int n, unsigned *bins)
{
    __shared__ unsigned local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local[b])
            atomicAdd(&bins[b], local[b]);
}

int main(void)
{
    const int n = 40000;
    static unsigned char h[n];
    unsigned want[BINS] = {0}, got[BINS];
    unsigned x = 123456789u;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        // A third of the bytes fall into bins 0..3 to make contention heavy.
        h[i] = (unsigned char)(i % 3 == 0 ? (x >> 16) & 3 : (x >> 16) & 0xff);
        want[h[i]]++;
    }
    unsigned char *d_data;
    unsigned *d_bins;
    CHECK(cudaMalloc(&d_data, n));
    CHECK(cudaMalloc(&d_bins, sizeof got));
    CHECK(cudaMemcpy(d_data, h, n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_bins, 0, sizeof got));
    histogram<<<BLOCKS, THREADS>>>(d_data, n, d_bins);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, d_bins, sizeof got, cudaMemcpyDeviceToHost));
    unsigned total = 0;
    for (int b = 0; b < BINS; b++) {
        expect_eq("histogram bin", b, want[b], got[b]);
        total += got[b];
    }
    expect_eq("histogram total", 0L, (unsigned)n, total);
    CHECK(cudaFree(d_data));
    CHECK(cudaFree(d_bins));
    if (failures)
        return 1;
    printf("ok histogram_shared\n");
    return 0;
}
