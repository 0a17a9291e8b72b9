// gpus: 2
// The stream-ordered allocator's memory pools: the default pool is each
// device's current pool; the pool attributes (reuse policies, release
// threshold, used and reserved memory with their high-water marks, which
// only reset to 0); freed memory stays reserved until a synchronization
// finds the pool over its release threshold, or cudaMemPoolTrimTo
// releases it; a created pool made current serves cudaMallocAsync,
// cudaMallocFromPoolAsync takes memory from any pool, and destroying a
// current pool with an allocation outstanding gives the device its
// default pool back; cudaMemPoolSetAccess lets a kernel on device 1 write
// memory of a device-0 pool, and an allocation node's accessDescs let it
// write a graph allocation of device 0; and the errors of bad arguments.
#include <cstdint>
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 1024

__global__ void iota(int *p, int n, int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i + add;
}

static uint64_t attr64(cudaMemPool_t p, cudaMemPoolAttr a)
{
    uint64_t v = ~0ull;
    if (cudaMemPoolGetAttribute(p, a, &v) != cudaSuccess)
        return ~0ull;
    return v;
}

int main()
{
    int ndev = 0;
    CHECK(cudaGetDeviceCount(&ndev));
    if (ndev < 2) {
        fprintf(stderr, "FAIL needs 2 devices, has %d\n", ndev);
        return 1;
    }
    int pools = 0;
    CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0));
    expect_eq("pools supported", 0, 1, pools);

    cudaMemPool_t def, cur;
    CHECK(cudaSetDevice(0));
    CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
    CHECK(cudaDeviceGetMemPool(&cur, 0));
    expect_eq("current is default", 0, 1, (int)(def == cur));
    int reuse = -1;
    CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseFollowEventDependencies, &reuse));
    expect_eq("reuse follows events", 0, 1, reuse);
    CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse));
    expect_eq("opportunistic reuse", 0, 1, reuse);
    expect_eq("threshold", 0, (uint64_t)0, attr64(def, cudaMemPoolAttrReleaseThreshold));

    // allocate, use, free: used and reserved memory
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    int *a, *b, got[N];
    CHECK(cudaMallocAsync(&a, N * sizeof(int), s));
    CHECK(cudaMallocAsync(&b, 3 * N * sizeof(int), s));
    iota<<<N / 256, 256, 0, s>>>(a, N, 5);
    CHECK(cudaMemcpyAsync(got, a, sizeof got, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < N; i++)
        expect_eq("a", i, i + 5, got[i]);
    uint64_t used = attr64(def, cudaMemPoolAttrUsedMemCurrent);
    expect_eq("used covers both", 0, 1, (int)(used >= 4 * N * sizeof(int)));
    expect_eq("reserved covers used", 0, 1,
              (int)(attr64(def, cudaMemPoolAttrReservedMemCurrent) >= used));
    expect_eq("used high", 0, 1, (int)(attr64(def, cudaMemPoolAttrUsedMemHigh) >= used));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaStreamSynchronize(s));
    expect_eq("used after free", 0, (uint64_t)0, attr64(def, cudaMemPoolAttrUsedMemCurrent));
    // threshold 0: the synchronization gave everything back
    expect_eq("reserved after sync", 0, (uint64_t)0,
              attr64(def, cudaMemPoolAttrReservedMemCurrent));

    // a threshold keeps freed memory until cudaMemPoolTrimTo
    uint64_t keep = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &keep));
    CHECK(cudaMallocAsync(&a, 4 * N * sizeof(int), s));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaStreamSynchronize(s));
    expect_eq("kept", 0, 1,
              (int)(attr64(def, cudaMemPoolAttrReservedMemCurrent) >= 4 * N * sizeof(int)));
    CHECK(cudaMemPoolTrimTo(def, 0));
    expect_eq("trimmed", 0, (uint64_t)0, attr64(def, cudaMemPoolAttrReservedMemCurrent));
    keep = 0;
    CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &keep));

    // high-water marks reset to the current figure, to 0 only
    uint64_t zero = 0, one = 1;
    CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero));
    expect_eq("used high reset", 0, (uint64_t)0, attr64(def, cudaMemPoolAttrUsedMemHigh));
    expect_eq("high to 1", 0, (int)cudaErrorInvalidValue,
              (int)cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &one));
    expect_eq("set current", 0, (int)cudaErrorInvalidValue,
              (int)cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &zero));
    cudaGetLastError();

    // a pool of device 0, made current
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CHECK(cudaMemPoolCreate(&mine, &props));
    CHECK(cudaDeviceSetMemPool(0, mine));
    CHECK(cudaDeviceGetMemPool(&cur, 0));
    expect_eq("current is mine", 0, 1, (int)(cur == mine));
    expect_eq("another device's pool", 0, (int)cudaErrorInvalidValue,
              (int)cudaDeviceSetMemPool(1, mine));
    cudaGetLastError();
    CHECK(cudaMallocAsync(&a, N * sizeof(int), s));
    expect_eq("from mine", 0, 1,
              (int)(attr64(mine, cudaMemPoolAttrUsedMemCurrent) >= N * sizeof(int)));
    expect_eq("not from the default", 0, (uint64_t)0, attr64(def, cudaMemPoolAttrUsedMemCurrent));

    // device 1 gets access to mine, not to the default pool
    cudaMemAccessFlags fl = cudaMemAccessFlagsProtReadWrite;
    cudaMemLocation at = {cudaMemLocationTypeDevice, 1};
    CHECK(cudaMemPoolGetAccess(&fl, mine, &at));
    expect_eq("no access yet", 0, (int)cudaMemAccessFlagsProtNone, (int)fl);
    cudaMemAccessDesc give = {};
    give.location = at;
    give.flags = cudaMemAccessFlagsProtReadWrite;
    CHECK(cudaMemPoolSetAccess(mine, &give, 1));
    CHECK(cudaMemPoolGetAccess(&fl, mine, &at));
    expect_eq("access given", 0, (int)cudaMemAccessFlagsProtReadWrite, (int)fl);
    CHECK(cudaMemPoolGetAccess(&fl, def, &at));
    expect_eq("default pool", 0, (int)cudaMemAccessFlagsProtNone, (int)fl);
    cudaMemAccessDesc own = {};
    own.location.type = cudaMemLocationTypeDevice;
    own.location.id = 0;
    own.flags = cudaMemAccessFlagsProtNone;
    expect_eq("own device", 0, (int)cudaErrorInvalidValue,
              (int)cudaMemPoolSetAccess(mine, &own, 1));
    cudaGetLastError();
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaSetDevice(1));
    iota<<<N / 256, 256>>>(a, N, 100);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaSetDevice(0));
    CHECK(cudaMemcpy(got, a, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("written by device 1", i, i + 100, got[i]);

    // from a pool that is not current
    int *c;
    CHECK(cudaMemPoolCreate(&cur, &props));
    CHECK(cudaMallocFromPoolAsync((void **)&c, 256 * sizeof(int), cur, s));
    iota<<<1, 256, 0, s>>>(c, 256, 7);
    CHECK(cudaMemcpyAsync(got, c, 256 * sizeof(int), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    expect_eq("from pool", 255, 262, got[255]);
    CHECK(cudaFreeAsync(c, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemPoolDestroy(cur));

    // destroying the current pool with an allocation left
    CHECK(cudaMemPoolDestroy(mine));
    CHECK(cudaDeviceGetMemPool(&cur, 0));
    expect_eq("default again", 0, 1, (int)(cur == def));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaStreamSynchronize(s));

    // bad arguments
    expect_eq("destroy default", 0, (int)cudaErrorInvalidValue, (int)cudaMemPoolDestroy(def));
    cudaGetLastError();
    props.location.id = 99;
    expect_eq("no device 99", 0, (int)cudaErrorInvalidValue, (int)cudaMemPoolCreate(&cur, &props));
    cudaGetLastError();
    expect_eq("default of 99", 0, (int)cudaErrorInvalidDevice,
              (int)cudaDeviceGetDefaultMemPool(&cur, 99));
    cudaGetLastError();
    // a graph allocation of device 0 that its node lets device 1 write
    cudaGraph_t g;
    cudaGraphNode_t an;
    cudaGraphExec_t x;
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    cudaMemAccessDesc both[2] = {};
    both[0].location = {cudaMemLocationTypeDevice, 0};
    both[0].flags = cudaMemAccessFlagsProtReadWrite;
    both[1].location = {cudaMemLocationTypeDevice, 1};
    both[1].flags = cudaMemAccessFlagsProtReadWrite;
    ap.accessDescs = both;
    ap.accessDescCount = 2;
    ap.bytesize = N * sizeof(int);
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    int *ga = (int *)ap.dptr;
    CHECK(cudaSetDevice(1));
    iota<<<N / 256, 256>>>(ga, N, 40);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaSetDevice(0));
    CHECK(cudaMemcpy(got, ga, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("graph allocation written by device 1", N - 1, N - 1 + 40, got[N - 1]);
    CHECK(cudaFree(ga));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    DONE("mempool");
}
