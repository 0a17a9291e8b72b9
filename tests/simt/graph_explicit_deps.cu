// A graph built node by node, inserted in an order that would give a wrong
// answer, with the dependencies added afterwards with
// cudaGraphAddDependencies: a 4-byte-element memset, two kernels, a child
// graph, a 1D copy to pinned memory and a host node summing the copy.
// Only an order that respects the dependencies gives the expected values.
// Also: the executable graph is a snapshot (a later change to the graph
// does not reach it), a clone is independent of its original, and a
// dependency cycle is refused.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 300, THREADS = 64 };

__global__ void add_index(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] += i;
}

__global__ void times(int *v, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= k;
}

struct host_sum {
    const int *data;
    long long sum;
    int calls;
};

static void sum_host(void *p)
{
    host_sum *h = (host_sum *)p;
    h->sum = 0;
    for (int i = 0; i < N; i++)
        h->sum += h->data[i];
    h->calls++;
}

// Expected element i when the memset writes `fill`.
static int expect_at(int fill, int i)
{
    return ((fill + i) * 2 + 0) * 3;
}

static int check_run(const int *h, const host_sum *hs, int fill, int calls)
{
    long long sum = 0;
    for (int i = 0; i < N; i++) {
        expect_eq("element", i, expect_at(fill, i), h[i]);
        sum += expect_at(fill, i);
    }
    expect_eq("host node sum", 0, sum, hs->sum);
    expect_eq("host node calls", 0, calls, hs->calls);
    return 0;
}

int main(void)
{
    const int blocks = (N + THREADS - 1) / THREADS;
    int *d_v, *h_v;
    int n = N, two = 2, three = 3;
    host_sum hs = {NULL, 0, 0};
    cudaGraph_t g, child, copy;
    cudaGraphNode_t k_double, k_index, host, memcpy_node, memset_node, sub, k3;
    cudaGraphExec_t exec, exec_copy;
    cudaStream_t s;

    CHECK(cudaMalloc(&d_v, N * sizeof(int)));
    CHECK(cudaMallocHost(&h_v, N * sizeof(int)));
    CHECK(cudaMemset(d_v, 0, N * sizeof(int)));
    hs.data = h_v;
    CHECK(cudaStreamCreate(&s));

    // The child graph multiplies by three.
    CHECK(cudaGraphCreate(&child, 0));
    cudaKernelNodeParams kp = {};
    void *args3[] = {&d_v, &three, &n};
    kp.func = (void *)times;
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(THREADS);
    kp.kernelParams = args3;
    CHECK(cudaGraphAddKernelNode(&k3, child, NULL, 0, &kp));

    // Inserted backwards: host, copy, child, double, add-index, memset.
    CHECK(cudaGraphCreate(&g, 0));
    cudaHostNodeParams hp = {sum_host, &hs};
    CHECK(cudaGraphAddHostNode(&host, g, NULL, 0, &hp));
    CHECK(cudaGraphAddMemcpyNode1D(&memcpy_node, g, NULL, 0, h_v, d_v,
                                   N * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaGraphAddChildGraphNode(&sub, g, NULL, 0, child));
    void *args2[] = {&d_v, &two, &n};
    kp.kernelParams = args2;
    CHECK(cudaGraphAddKernelNode(&k_double, g, NULL, 0, &kp));
    void *args_i[] = {&d_v, &n};
    kp.func = (void *)add_index;
    kp.kernelParams = args_i;
    CHECK(cudaGraphAddKernelNode(&k_index, g, NULL, 0, &kp));
    cudaMemsetParams mp = {};
    mp.dst = d_v;
    mp.value = 5;
    mp.elementSize = 4;
    mp.width = N;
    mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&memset_node, g, NULL, 0, &mp));
    // memset -> add_index -> double -> child (x3) -> copy -> host
    cudaGraphNode_t from[] = {memset_node, k_index, k_double, sub, memcpy_node};
    cudaGraphNode_t to[] = {k_index, k_double, sub, memcpy_node, host};
    CHECK(cudaGraphAddDependencies(g, from, to, NULL, 5));

    size_t roots = 0;
    cudaGraphNode_t root = NULL;
    CHECK(cudaGraphGetRootNodes(g, NULL, &roots));
    expect_eq("roots", 0, (size_t)1, roots);
    roots = 1;
    CHECK(cudaGraphGetRootNodes(g, &root, &roots));
    expect_eq("root is the memset", 0, 1, root == memset_node ? 1 : 0);
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(sub, &type));
    expect_eq("child node type", 0, (int)cudaGraphNodeTypeGraph, (int)type);
    CHECK(cudaGraphNodeGetType(memcpy_node, &type));
    expect_eq("copy node type", 0, (int)cudaGraphNodeTypeMemcpy, (int)type);
    cudaKernelNodeParams got = {};
    CHECK(cudaGraphKernelNodeGetParams(k_double, &got));
    expect_eq("kernel node function", 0, 1, got.func == (void *)times ? 1 : 0);
    expect_eq("kernel node argument", 0, 2, *(int *)got.kernelParams[1]);

    CHECK(cudaGraphClone(&copy, g));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    // Changes after instantiation reach neither the executable graph nor
    // the clone; the clone instantiated afterwards sees the new value.
    mp.value = 7;
    CHECK(cudaGraphMemsetNodeSetParams(memset_node, &mp));
    CHECK(cudaGraphInstantiate(&exec_copy, copy, 0));

    for (int r = 1; r <= 2; r++) {
        for (int i = 0; i < N; i++)
            h_v[i] = -1;
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaStreamSynchronize(s));
        check_run(h_v, &hs, 5, r);
    }
    hs.calls = 0;
    CHECK(cudaGraphLaunch(exec_copy, s));
    CHECK(cudaStreamSynchronize(s));
    check_run(h_v, &hs, 5, 1);

    cudaGraphExec_t exec_new;
    hs.calls = 0;
    CHECK(cudaGraphInstantiate(&exec_new, g, 0));
    CHECK(cudaGraphLaunch(exec_new, s));
    CHECK(cudaStreamSynchronize(s));
    check_run(h_v, &hs, 7, 1);
    CHECK(cudaGraphExecDestroy(exec_new));

    // A cycle: refused when the edge is added or when instantiating.
    cudaGraph_t cyc;
    cudaGraphNode_t a, b;
    cudaGraphExec_t exec_cyc = NULL;
    CHECK(cudaGraphCreate(&cyc, 0));
    CHECK(cudaGraphAddEmptyNode(&a, cyc, NULL, 0));
    CHECK(cudaGraphAddEmptyNode(&b, cyc, &a, 1));
    cudaError_t e = cudaGraphAddDependencies(cyc, &b, &a, NULL, 1);
    if (e == cudaSuccess)
        e = cudaGraphInstantiate(&exec_cyc, cyc, 0);
    expect_eq("cycle refused", 0, 1, e != cudaSuccess ? 1 : 0);
    (void)cudaGetLastError();
    CHECK(cudaGraphDestroy(cyc));

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphExecDestroy(exec_copy));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(copy));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d_v));
    CHECK(cudaFreeHost(h_v));
    if (failures)
        return 1;
    printf("ok graph_explicit_deps\n");
    return 0;
}
