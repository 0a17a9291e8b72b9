// Graph memory nodes: an allocation node's address is fixed when it is
// added and valid between a run of the node and its free; built node by
// node (allocation, kernel, copy out, free) and launched three times;
// an allocation left unfreed by its graph is used by later stream work,
// refuses a relaunch until it is freed (by cudaFreeAsync, by another
// graph's free node), is freed by the relaunch of a graph instantiated
// with cudaGraphInstantiateFlagAutoFreeOnLaunch, and cudaFree frees it;
// cudaMallocAsync and cudaFreeAsync captured into allocation and free
// nodes; the device's graph memory after a trim; node parameters; a free
// node for an address no allocation node returned.
#include <cstdint>
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 2048

__global__ void iota(int *p, int n, int add)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 3 * i + add;
}

static cudaError_t add_iota(cudaGraphNode_t *node, cudaGraph_t g, const cudaGraphNode_t *dep,
                            size_t ndep, void **args)
{
    cudaKernelNodeParams kp = {};
    kp.func = (void *)iota;
    kp.gridDim = dim3(N / 256);
    kp.blockDim = dim3(256);
    kp.kernelParams = args;
    return cudaGraphAddKernelNode(node, g, dep, ndep, &kp);
}

static uint64_t graph_used(void)
{
    uint64_t v = ~0ull;
    if (cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &v) != cudaSuccess)
        return ~0ull;
    return v;
}

int main()
{
    cudaStream_t s;
    int *out, got[N];
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaMalloc(&out, N * sizeof(int)));

    // 1. allocation -> iota -> copy out -> free
    cudaGraph_t g;
    cudaGraphNode_t alloc, kern, copy, release;
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = N * sizeof(int);
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    int *a = (int *)ap.dptr;
    expect_eq("address given", 0, 1, (int)(a != NULL));
    int n = N, add = 1;
    void *args[] = {&a, &n, &add};
    CHECK(add_iota(&kern, g, &alloc, 1, args));
    CHECK(cudaGraphAddMemcpyNode1D(&copy, g, &kern, 1, out, a, N * sizeof(int),
                                   cudaMemcpyDeviceToDevice));
    CHECK(cudaGraphAddMemFreeNode(&release, g, &copy, 1, a));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(alloc, &t));
    expect_eq("alloc type", 0, (int)cudaGraphNodeTypeMemAlloc, (int)t);
    CHECK(cudaGraphNodeGetType(release, &t));
    expect_eq("free type", 0, (int)cudaGraphNodeTypeMemFree, (int)t);
    cudaMemAllocNodeParams back = {};
    CHECK(cudaGraphMemAllocNodeGetParams(alloc, &back));
    expect_eq("bytesize", 0, (size_t)(N * sizeof(int)), back.bytesize);
    expect_eq("dptr", 0, 1, (int)(back.dptr == (void *)a));
    void *freed = NULL;
    CHECK(cudaGraphMemFreeNodeGetParams(release, &freed));
    expect_eq("free dptr", 0, 1, (int)(freed == (void *)a));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 3; r++) {
        CHECK(cudaMemsetAsync(out, 0, N * sizeof(int), s));
        CHECK(cudaGraphLaunch(x, s));
        CHECK(cudaMemcpyAsync(got, out, sizeof got, cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < N; i++)
            expect_eq("explicit", i, 3 * i + 1, got[i]);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));

    // 2. an allocation its graph leaves allocated
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    CHECK(cudaGraphAddMemAllocNode(&alloc, g2, NULL, 0, &ap));
    int *b = (int *)ap.dptr;
    add = 7;
    void *args2[] = {&b, &n, &add};
    CHECK(add_iota(&kern, g2, &alloc, 1, args2));
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g2, 0));
    CHECK(cudaGraphLaunch(x2, s));
    CHECK(cudaMemcpyAsync(got, b, sizeof got, cudaMemcpyDeviceToHost, s));   // after the graph
    CHECK(cudaStreamSynchronize(s));
    expect_eq("unfreed", 100, 307, got[100]);
    expect_eq("graph memory in use", 0, 1, (int)(graph_used() >= N * sizeof(int)));
    expect_eq("relaunch before the free", 0, (int)cudaErrorInvalidValue,
              (int)cudaGraphLaunch(x2, s));
    cudaGetLastError();
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaGraphLaunch(x2, s));               // allowed again
    // freed by another graph's free node
    cudaGraph_t g3;
    cudaGraphExec_t x3;
    CHECK(cudaGraphCreate(&g3, 0));
    CHECK(cudaGraphAddMemFreeNode(&release, g3, NULL, 0, b));
    CHECK(cudaGraphInstantiate(&x3, g3, 0));
    CHECK(cudaGraphLaunch(x3, s));
    CHECK(cudaGraphLaunch(x2, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaGraphExecDestroy(x2));

    // 3. freed by the relaunch itself
    CHECK(cudaGraphInstantiateWithFlags(&x2, g2, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    CHECK(cudaGraphLaunch(x2, s));
    CHECK(cudaGraphLaunch(x2, s));
    CHECK(cudaMemcpyAsync(got, b, sizeof got, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    expect_eq("auto free", N - 1, 3 * (N - 1) + 7, got[N - 1]);
    CHECK(cudaFree(b));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphExecDestroy(x3));
    CHECK(cudaGraphDestroy(g3));

    // 4. captured
    cudaGraph_t cg;
    int *c = NULL;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMallocAsync(&c, N * sizeof(int), s));
    iota<<<N / 256, 256, 0, s>>>(c, N, 11);
    CHECK(cudaMemcpyAsync(out, c, N * sizeof(int), cudaMemcpyDeviceToDevice, s));
    CHECK(cudaFreeAsync(c, s));
    CHECK(cudaStreamEndCapture(s, &cg));
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(cg, NULL, &nodes));
    expect_eq("captured nodes", 0, (size_t)4, nodes);
    cudaGraphNode_t list[4];
    CHECK(cudaGraphGetNodes(cg, list, &nodes));
    int allocs = 0, frees = 0;
    for (size_t i = 0; i < nodes; i++) {
        CHECK(cudaGraphNodeGetType(list[i], &t));
        allocs += t == cudaGraphNodeTypeMemAlloc;
        frees += t == cudaGraphNodeTypeMemFree;
    }
    expect_eq("captured allocation", 0, 1, allocs);
    expect_eq("captured free", 0, 1, frees);
    CHECK(cudaGraphInstantiate(&x, cg, 0));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaMemcpyAsync(got, out, sizeof got, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    for (int i = 0; i < N; i++)
        expect_eq("captured", i, 3 * i + 11, got[i]);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(cg));

    // 5. nothing allocated: a trim gives the memory back
    CHECK(cudaDeviceGraphMemTrim(0));
    expect_eq("after trim", 0, (uint64_t)0, graph_used());

    // 6. a free node needs an address an allocation node returned
    cudaGraph_t g4;
    CHECK(cudaGraphCreate(&g4, 0));
    expect_eq("free of cudaMalloc memory", 0, (int)cudaErrorInvalidValue,
              (int)cudaGraphAddMemFreeNode(&release, g4, NULL, 0, out));
    cudaGetLastError();
    CHECK(cudaGraphDestroy(g4));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaFree(out));
    CHECK(cudaStreamDestroy(s));
    DONE("graph_mem_nodes");
}
