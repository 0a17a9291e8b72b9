// Occupancy and function attributes: cudaOccupancyMaxActiveBlocksPerMultiprocessor
// (with and without dynamic shared memory) returns at least one block and
// no more than the SM's thread and shared-memory limits allow;
// cudaOccupancyMaxPotentialBlockSize suggests a usable block size, which is
// then launched; cudaFuncGetAttributes reports sane fields (static shared
// size, local memory for a dynamically indexed array, registers, versions);
// cudaFuncSetAttribute and cudaFuncSetCacheConfig are accepted.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

__global__ void with_shared(const float *in, float *out, int n)
{
    __shared__ float s[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t % 256] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = s[t % 256] * 2.0f + 1.0f;
}

__global__ void with_local(const int *idx, int *out)
{
    int a[64];
    for (int k = 0; k < 64; k++)
        a[k] = k * threadIdx.x;
    out[threadIdx.x] = a[idx[threadIdx.x] & 63];
}

static void expect_range(const char *what, long long lo, long long hi, long long got)
{
    if ((got < lo || got > hi) && failures++ < 8)
        fprintf(stderr, "FAIL %s 0 expected %lld..%lld got %lld\n", what, lo, hi, got);
}

int main(void)
{
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));

    int blocks = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, with_shared, 256, 0));
    expect_range("active blocks of 256 threads", 1, prop.maxThreadsPerMultiProcessor / 256, blocks);
    const size_t dyn = 32 * 1024;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, with_shared, 128, dyn));
    expect_range("active blocks with 32 KiB dynamic shared", 1,
                 (long long)(prop.sharedMemPerMultiprocessor / dyn), blocks);

    int min_grid = 0, block = 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, with_shared, 0, 0));
    expect_range("suggested block size", 1, 1024, block);
    expect_range("suggested minimum grid", 1, 1 << 24, min_grid);

    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, with_shared));
    expect_range("maxThreadsPerBlock", 1, 1024, attr.maxThreadsPerBlock);
    expect_range("sharedSizeBytes", 1024, 48 * 1024, (long long)attr.sharedSizeBytes);
    expect_range("numRegs", 1, 255, attr.numRegs);
    expect_range("ptxVersion", 10, 1000, attr.ptxVersion);
    expect_range("binaryVersion", 10, 1000, attr.binaryVersion);
    expect_range("maxDynamicSharedSizeBytes", 0, 1 << 20, attr.maxDynamicSharedSizeBytes);
    CHECK(cudaFuncGetAttributes(&attr, with_local));
    expect_range("localSizeBytes of a 64-int indexed array", 64 * 4, 1 << 20,
                 (long long)attr.localSizeBytes);

    CHECK(cudaFuncSetAttribute(with_shared, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    CHECK(cudaFuncSetCacheConfig(with_shared, cudaFuncCachePreferShared));

    // Launch with the suggested block size, capped at the 256 entries of the
    // kernel's shared array.
    const int n = 3000;
    static float h_in[n], h_out[n];
    for (int i = 0; i < n; i++)
        h_in[i] = (float)(i % 100);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    if (block < 1 || block > 256)
        block = 256;
    with_shared<<<(n + block - 1) / block, block>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("with_shared result", i, h_in[i] * 2.0f + 1.0f, h_out[i]);

    int h_idx[32], h_loc[32], *d_idx, *d_loc;
    for (int t = 0; t < 32; t++)
        h_idx[t] = t * 5 + 3;
    CHECK(cudaMalloc(&d_idx, sizeof h_idx));
    CHECK(cudaMalloc(&d_loc, sizeof h_loc));
    CHECK(cudaMemcpy(d_idx, h_idx, sizeof h_idx, cudaMemcpyHostToDevice));
    with_local<<<1, 32>>>(d_idx, d_loc);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_loc, d_loc, sizeof h_loc, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        expect_eq("with_local result", t, (h_idx[t] & 63) * t, h_loc[t]);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_idx));
    CHECK(cudaFree(d_loc));
    if (failures)
        return 1;
    printf("ok occupancy_attrs\n");
    return 0;
}
