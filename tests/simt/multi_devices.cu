// gpus: 4
// Four devices: cudaGetDeviceCount, properties and attributes per device
// (the same part, distinct PCI bus IDs that cudaDeviceGetByPCIBusId maps
// back), bad ordinals refused, the current device per host thread (a new
// thread starts on device 0 and changing it there leaves the main thread's
// alone), cudaMemGetInfo of the current device only, and
// cudaPointerGetAttributes naming the device that owns an allocation (a
// stream-ordered one: the stream's device).
#include <cstdio>
#include <cstring>
#include <thread>
#include <cuda_runtime.h>

#include "check.h"

#define NDEV 4

__global__ void fill(int *p, int v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v + i;
}

static int thread_body(int want, int *seen_start, int *seen_after)
{
    if (cudaGetDevice(seen_start) != cudaSuccess)
        return 1;
    if (cudaSetDevice(want) != cudaSuccess)
        return 1;
    if (cudaGetDevice(seen_after) != cudaSuccess)
        return 1;
    // a kernel and memory in this thread belong to its device
    int *d = nullptr;
    if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess)
        return 1;
    fill<<<1, 64>>>(d, 100 * want, 64);
    int h[64];
    if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    for (int i = 0; i < 64; i++)
        expect_eq("thread kernel", i, 100 * want + i, h[i]);
    cudaPointerAttributes a;
    if (cudaPointerGetAttributes(&a, d) != cudaSuccess)
        return 1;
    expect_eq("thread allocation device", 0L, want, a.device);
    return cudaFree(d) != cudaSuccess;
}

int main(void)
{
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    if (count < NDEV) {
        fprintf(stderr, "FAIL device count 0 expected >=%d got %d\n", NDEV, count);
        return 1;
    }

    cudaDeviceProp p0;
    CHECK(cudaGetDeviceProperties(&p0, 0));
    int bus[NDEV];
    for (int d = 0; d < NDEV; d++) {
        cudaDeviceProp p;
        CHECK(cudaGetDeviceProperties(&p, d));
        expect_eq("same name", d, 0, strcmp(p.name, p0.name));
        expect_eq("same major", d, p0.major, p.major);
        expect_eq("same SM count", d, p0.multiProcessorCount, p.multiProcessorCount);
        int v = -1;
        CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrPciBusId, d));
        expect_eq("attribute bus id", d, p.pciBusID, v);
        CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, d));
        expect_eq("attribute SM count", d, p.multiProcessorCount, v);
        bus[d] = p.pciBusID;
        for (int e = 0; e < d; e++)
            if (bus[e] == bus[d] && failures++ < 8)
                fprintf(stderr, "FAIL devices %d and %d share PCI bus %d\n", e, d, bus[d]);
        char id[32];
        CHECK(cudaDeviceGetPCIBusId(id, sizeof id, d));
        unsigned dom = 99, b = 99, dv = 99, fn = 99;
        expect_eq("bus id fields", d, 4, sscanf(id, "%x:%x:%x.%x", &dom, &b, &dv, &fn));
        expect_eq("bus id bus", d, (unsigned)p.pciBusID, b);
        int back = -1;
        CHECK(cudaDeviceGetByPCIBusId(&back, id));
        expect_eq("device by bus id", d, d, back);
    }

    // bad ordinals
    cudaDeviceProp bad;
    expect_eq("props of device count", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaGetDeviceProperties(&bad, count));
    expect_eq("set device -1", 0L, (int)cudaErrorInvalidDevice, (int)cudaSetDevice(-1));
    expect_eq("set device count", 0L, (int)cudaErrorInvalidDevice, (int)cudaSetDevice(count));
    cudaGetLastError();

    // the current device per host thread
    int cur = -1;
    CHECK(cudaGetDevice(&cur));
    expect_eq("initial device", 0L, 0, cur);
    CHECK(cudaSetDevice(1));
    int start = -1, after = -1, rc = -1;
    std::thread t([&] { rc = thread_body(3, &start, &after); });
    t.join();
    expect_eq("thread rc", 0L, 0, rc);
    expect_eq("new thread starts on", 0L, 0, start);
    expect_eq("thread set to", 0L, 3, after);
    CHECK(cudaGetDevice(&cur));
    expect_eq("main thread keeps", 0L, 1, cur);

    // memory info of the current device only; contexts exist first so
    // that creating one does not count
    size_t free0[NDEV], total0[NDEV];
    for (int d = 0; d < NDEV; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaFree(0));
    }
    for (int d = 0; d < NDEV; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaMemGetInfo(&free0[d], &total0[d]));
    }
    const size_t big = 64u << 20;
    int *on2 = nullptr;
    CHECK(cudaSetDevice(2));
    CHECK(cudaMalloc(&on2, big));
    for (int d = 0; d < NDEV; d++) {
        size_t fr, tot;
        CHECK(cudaSetDevice(d));
        CHECK(cudaMemGetInfo(&fr, &tot));
        expect_eq("total unchanged", d, total0[d], tot);
        long long drop = (long long)free0[d] - (long long)fr;
        if (d == 2 && (drop < (long long)big || drop > (long long)big + (32ll << 20)) &&
            failures++ < 8)
            fprintf(stderr, "FAIL device 2 free dropped by %lld, expected about %zu\n",
                    drop, big);
        if (d != 2 && (drop > (16ll << 20) || drop < -(16ll << 20)) && failures++ < 8)
            fprintf(stderr, "FAIL device %d free changed by %lld for memory of device 2\n",
                    d, drop);
    }

    // pointer attributes name the owner
    int *dev[NDEV];
    for (int d = 0; d < NDEV; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaMalloc(&dev[d], 256));
    }
    CHECK(cudaSetDevice(0));
    for (int d = 0; d < NDEV; d++) {
        cudaPointerAttributes a;
        CHECK(cudaPointerGetAttributes(&a, dev[d] + 3));
        expect_eq("device memory type", d, (int)cudaMemoryTypeDevice, (int)a.type);
        expect_eq("device memory owner", d, d, a.device);
        expect_eq("device pointer", d, (void *)(dev[d] + 3), a.devicePointer);
        expect_eq("no host pointer", d, (void *)nullptr, a.hostPointer);
    }
    cudaPointerAttributes a;
    CHECK(cudaPointerGetAttributes(&a, on2));
    expect_eq("big allocation owner", 0L, 2, a.device);
    // a stream-ordered allocation belongs to the stream's device
    cudaStream_t s3;
    int *async3 = nullptr;
    CHECK(cudaSetDevice(3));
    CHECK(cudaStreamCreate(&s3));
    CHECK(cudaSetDevice(0));
    CHECK(cudaMallocAsync(&async3, 256, s3));
    CHECK(cudaPointerGetAttributes(&a, async3));
    expect_eq("cudaMallocAsync owner", 0L, 3, a.device);
    CHECK(cudaFreeAsync(async3, s3));
    CHECK(cudaStreamSynchronize(s3));
    CHECK(cudaStreamDestroy(s3));
    float *pinned = nullptr, *managed = nullptr;
    CHECK(cudaSetDevice(1));
    CHECK(cudaMallocHost(&pinned, 256));
    CHECK(cudaMallocManaged(&managed, 256));
    CHECK(cudaSetDevice(0));
    CHECK(cudaPointerGetAttributes(&a, pinned));
    expect_eq("pinned type", 0L, (int)cudaMemoryTypeHost, (int)a.type);
    expect_eq("pinned host pointer", 0L, (void *)pinned, a.hostPointer);
    CHECK(cudaPointerGetAttributes(&a, managed));
    expect_eq("managed type", 0L, (int)cudaMemoryTypeManaged, (int)a.type);
    expect_eq("managed host pointer", 0L, (void *)managed, a.hostPointer);
    expect_eq("managed device pointer", 0L, (void *)managed, a.devicePointer);
    static int plain[4];
    CHECK(cudaPointerGetAttributes(&a, plain));
    expect_eq("plain host type", 0L, (int)cudaMemoryTypeUnregistered, (int)a.type);

    // every device's memory is freed while another device is current
    for (int d = 0; d < NDEV; d++)
        CHECK(cudaFree(dev[d]));
    CHECK(cudaFree(on2));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(managed));

    if (failures)
        return 1;
    printf("ok multi_devices\n");
    return 0;
}
