// Stream attributes: an L2 access policy window, the synchronization
// policy and the priority set on a stream, read back and copied to
// another; values the runtime must refuse; the persisting-L2 limit and
// cudaCtxResetPersistingL2Cache.  A kernel launched on the stream after
// the changes still runs.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

__global__ void add_one(int *x)
{
    x[threadIdx.x] += 1;
}

int main()
{
    cudaDeviceProp prop;
    cudaStream_t s, t;
    int *x, hx[32];
    CHECK(cudaGetDeviceProperties(&prop, 0));
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMemset(x, 0, sizeof hx));
    CHECK(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, 0));
    CHECK(cudaStreamCreate(&t));

    // a new stream has no window and the automatic policy
    cudaStreamAttrValue v, got;
    memset(&got, 0x55, sizeof got);
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
    expect_eq("empty window bytes", 0, (size_t)0, got.accessPolicyWindow.num_bytes);
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &got));
    expect_eq("default policy", 0, (int)cudaSyncPolicyAuto, (int)got.syncPolicy);

    if (prop.persistingL2CacheMaxSize > 0) {
        size_t limit = 0;
        CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, prop.persistingL2CacheMaxSize));
        CHECK(cudaDeviceGetLimit(&limit, cudaLimitPersistingL2CacheSize));
        expect_eq("limit set", 0, true, limit > 0 && limit <= (size_t)prop.persistingL2CacheMaxSize);

        memset(&v, 0, sizeof v);
        v.accessPolicyWindow.base_ptr = x;
        v.accessPolicyWindow.num_bytes = sizeof hx;
        v.accessPolicyWindow.hitRatio = 0.5f;
        v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
        CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
        expect_eq("window base", 0, (void *)x, got.accessPolicyWindow.base_ptr);
        expect_eq("window bytes", 0, sizeof hx, got.accessPolicyWindow.num_bytes);
        expect_eq("window ratio", 0, 0.5f, got.accessPolicyWindow.hitRatio);
        expect_eq("window hit", 0, (int)cudaAccessPropertyPersisting, (int)got.accessPolicyWindow.hitProp);
        expect_eq("window miss", 0, (int)cudaAccessPropertyStreaming, (int)got.accessPolicyWindow.missProp);

        // a miss cannot persist; a ratio above 1 and a window larger than
        // the device allows are refused
        cudaStreamAttrValue bad = v;
        bad.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
        expect_eq("persisting miss", 0, (int)cudaErrorInvalidValue,
                  (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad));
        bad = v;
        bad.accessPolicyWindow.hitRatio = 2.0f;
        expect_eq("ratio 2", 0, (int)cudaErrorInvalidValue,
                  (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad));
        bad = v;
        bad.accessPolicyWindow.num_bytes = (size_t)prop.accessPolicyMaxWindowSize + 1;
        expect_eq("too large", 0, (int)cudaErrorInvalidValue,
                  (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &bad));
        cudaGetLastError();
        // the refused values left the window as it was
        CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &got));
        expect_eq("window kept", 0, 0.5f, got.accessPolicyWindow.hitRatio);
    }

    memset(&v, 0, sizeof v);
    v.syncPolicy = cudaSyncPolicyYield;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &v));
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributeSynchronizationPolicy, &got));
    expect_eq("policy", 0, (int)cudaSyncPolicyYield, (int)got.syncPolicy);

    int lo, hi;
    CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    memset(&v, 0, sizeof v);
    v.priority = hi;
    CHECK(cudaStreamSetAttribute(s, cudaStreamAttributePriority, &v));
    CHECK(cudaStreamGetAttribute(s, cudaStreamAttributePriority, &got));
    expect_eq("priority", 0, hi, got.priority);
    int pr = 1;
    CHECK(cudaStreamGetPriority(s, &pr));
    expect_eq("stream priority", 0, hi, pr);

    // everything copies to another stream
    CHECK(cudaStreamCopyAttributes(t, s));
    CHECK(cudaStreamGetAttribute(t, cudaStreamAttributeSynchronizationPolicy, &got));
    expect_eq("copied policy", 0, (int)cudaSyncPolicyYield, (int)got.syncPolicy);
    if (prop.persistingL2CacheMaxSize > 0) {
        CHECK(cudaStreamGetAttribute(t, cudaStreamAttributeAccessPolicyWindow, &got));
        expect_eq("copied window", 0, (void *)x, got.accessPolicyWindow.base_ptr);
        // a window of 0 bytes turns it off again
        memset(&v, 0, sizeof v);
        CHECK(cudaStreamSetAttribute(t, cudaStreamAttributeAccessPolicyWindow, &v));
    }

    CHECK(cudaCtxResetPersistingL2Cache());
    add_one<<<1, 32, 0, s>>>(x);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    add_one<<<1, 32, 0, t>>>(x);
    CHECK(cudaStreamSynchronize(t));
    CHECK(cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        expect_eq("x", i, 2, hx[i]);
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaStreamDestroy(t));
    DONE("rt_stream_attributes");
}
