// Device discovery: cudaGetDeviceCount, cudaGetDevice, cudaGetDeviceProperties
// (warp size 32, 1024 threads per block, the block and grid limits every
// CUDA device since compute capability 3.0 shares, plausible memory sizes),
// cudaDeviceGetAttribute agreeing with the properties and giving a positive
// memory clock and bus width (the inputs for peak bandwidth), cudaMemGetInfo,
// the runtime and driver versions, and the warpSize built-in in a kernel.
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

__global__ void read_warp_size(int *out)
{
    out[threadIdx.x] = warpSize;
}

static void expect_positive(const char *what, long long v)
{
    if (v <= 0 && failures++ < 8)
        fprintf(stderr, "FAIL %s 0 expected >0 got %lld\n", what, v);
}

int main(void)
{
    int count = 0, dev = -1;
    CHECK(cudaGetDeviceCount(&count));
    expect_positive("device count", count);
    CHECK(cudaGetDevice(&dev));
    expect_eq("current device", 0L, 0, dev);

    cudaDeviceProp p;
    memset(&p, 0, sizeof p);
    CHECK(cudaGetDeviceProperties(&p, 0));
    if (p.name[0] == '\0' && failures++ < 8)
        fprintf(stderr, "FAIL device name 0 expected non-empty got \"\"\n");
    expect_eq("warpSize", 0L, 32, p.warpSize);
    expect_eq("maxThreadsPerBlock", 0L, 1024, p.maxThreadsPerBlock);
    expect_eq("maxThreadsDim.x", 0L, 1024, p.maxThreadsDim[0]);
    expect_eq("maxThreadsDim.y", 0L, 1024, p.maxThreadsDim[1]);
    expect_eq("maxThreadsDim.z", 0L, 64, p.maxThreadsDim[2]);
    expect_eq("maxGridSize.x", 0L, 2147483647, p.maxGridSize[0]);
    expect_eq("maxGridSize.y", 0L, 65535, p.maxGridSize[1]);
    expect_eq("maxGridSize.z", 0L, 65535, p.maxGridSize[2]);
    expect_eq("sharedMemPerBlock", 0L, (size_t)49152, p.sharedMemPerBlock);
    expect_eq("regsPerBlock", 0L, 65536, p.regsPerBlock);
    expect_eq("totalConstMem", 0L, (size_t)65536, p.totalConstMem);
    expect_positive("multiProcessorCount", p.multiProcessorCount);
    expect_positive("totalGlobalMem", (long long)p.totalGlobalMem);
    expect_positive("l2CacheSize", p.l2CacheSize);
    expect_positive("memoryBusWidth", p.memoryBusWidth);
    expect_positive("maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor);
    expect_positive("sharedMemPerMultiprocessor", (long long)p.sharedMemPerMultiprocessor);
    if (p.major < 7 && failures++ < 8)
        fprintf(stderr, "FAIL compute capability major 0 expected >=7 got %d\n", p.major);
    if (p.sharedMemPerBlockOptin < p.sharedMemPerBlock && failures++ < 8)
        fprintf(stderr, "FAIL sharedMemPerBlockOptin 0 expected >= sharedMemPerBlock got %zu\n",
                p.sharedMemPerBlockOptin);

    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0));
    expect_positive("cudaDevAttrMemoryClockRate", v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrGlobalMemoryBusWidth, 0));
    expect_positive("cudaDevAttrGlobalMemoryBusWidth", v);
    expect_eq("bus width attribute matches property", 0L, p.memoryBusWidth, v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0));
    expect_positive("cudaDevAttrClockRate", v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    expect_eq("cudaDevAttrWarpSize", 0L, 32, v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0));
    expect_eq("cudaDevAttrMaxThreadsPerBlock", 0L, 1024, v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0));
    expect_eq("cudaDevAttrMultiProcessorCount", 0L, p.multiProcessorCount, v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, 0));
    expect_eq("cudaDevAttrComputeCapabilityMajor", 0L, p.major, v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMinor, 0));
    expect_eq("cudaDevAttrComputeCapabilityMinor", 0L, p.minor, v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, 0));
    expect_eq("cudaDevAttrL2CacheSize", 0L, p.l2CacheSize, v);
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    expect_eq("cudaDevAttrMaxSharedMemoryPerBlock", 0L, 49152, v);

    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    expect_positive("cudaMemGetInfo total", (long long)total_b);
    if (free_b > total_b && failures++ < 8)
        fprintf(stderr, "FAIL cudaMemGetInfo 0 expected free <= total got %zu > %zu\n", free_b,
                total_b);

    int runtime = 0, driver = 0;
    CHECK(cudaRuntimeGetVersion(&runtime));
    CHECK(cudaDriverGetVersion(&driver));
    expect_positive("runtime version", runtime);
    expect_positive("driver version", driver);

    int *d, h[64];
    CHECK(cudaMalloc(&d, sizeof h));
    read_warp_size<<<1, 64>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; t++)
        expect_eq("warpSize built-in", t, 32, h[t]);
    CHECK(cudaFree(d));
    if (failures)
        return 1;
    printf("ok device_props\n");
    return 0;
}
