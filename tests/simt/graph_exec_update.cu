// Changing an instantiated graph: cudaGraphExecKernelNodeSetParams gives a
// kernel node of the executable graph a new argument between launches,
// leaving the graph it came from as it was; cudaGraphExecUpdate takes the
// parameters of a graph captured again with other arguments, and refuses
// one whose topology differs (cudaErrorGraphExecUpdateFailure,
// cudaGraphExecUpdateErrorTopologyChanged).
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 256, THREADS = 64 };

__global__ void fill(int *v, int base, int step, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = base + step * i;
}

static int check_fill(const int *d_v, int base, int step, const char *what)
{
    int h[N];
    if (cudaMemcpy(h, d_v, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
    for (int i = 0; i < N; i++)
        expect_eq(what, i, base + step * i, h[i]);
    return 0;
}

// Captures fill(base, step), then, when twice, a second fill.
static cudaError_t capture(cudaStream_t s, int *d_v, int base, int step,
                           bool twice, cudaGraph_t *g)
{
    cudaError_t e = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (e != cudaSuccess)
        return e;
    fill<<<N / THREADS, THREADS, 0, s>>>(d_v, base, step, N);
    if (twice)
        fill<<<N / THREADS, THREADS, 0, s>>>(d_v, base + 1, step, N);
    return cudaStreamEndCapture(s, g);
}

int main(void)
{
    int *d_v, n = N, base = 10, step = 3;
    cudaStream_t s;
    cudaGraph_t g, g2, g3;
    cudaGraphNode_t node;
    cudaGraphExec_t exec;

    CHECK(cudaMalloc(&d_v, N * sizeof(int)));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    CHECK(cudaGraphCreate(&g, 0));
    void *args[] = {&d_v, &base, &step, &n};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)fill;
    kp.gridDim = dim3(N / THREADS);
    kp.blockDim = dim3(THREADS);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&node, g, NULL, 0, &kp));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    if (check_fill(d_v, 10, 3, "first launch"))
        return 1;

    base = -500;
    CHECK(cudaGraphExecKernelNodeSetParams(exec, node, &kp));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    if (check_fill(d_v, -500, 3, "after exec set params"))
        return 1;
    cudaKernelNodeParams kept = {};
    CHECK(cudaGraphKernelNodeGetParams(node, &kept));
    expect_eq("graph node keeps its argument", 0, 10, *(int *)kept.kernelParams[1]);
    CHECK(cudaGraphExecDestroy(exec));

    // Update from a graph of the same shape captured with other arguments.
    CHECK(capture(s, d_v, 1, 1, false, &g2));
    CHECK(cudaGraphInstantiate(&exec, g2, 0));
    CHECK(capture(s, d_v, 77, -2, false, &g3));
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(exec, g3, &info));
    expect_eq("update result", 0, (int)cudaGraphExecUpdateSuccess, (int)info.result);
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    if (check_fill(d_v, 77, -2, "after update"))
        return 1;
    CHECK(cudaGraphDestroy(g3));

    // One node more: refused, and the executable graph is unchanged.
    CHECK(capture(s, d_v, 5, 5, true, &g3));
    cudaError_t e = cudaGraphExecUpdate(exec, g3, &info);
    expect_eq("topology change refused", 0, (int)cudaErrorGraphExecUpdateFailure, (int)e);
    expect_eq("topology change result", 0,
              (int)cudaGraphExecUpdateErrorTopologyChanged, (int)info.result);
    (void)cudaGetLastError();
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    if (check_fill(d_v, 77, -2, "after refused update"))
        return 1;

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(g2));
    CHECK(cudaGraphDestroy(g3));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d_v));
    if (failures)
        return 1;
    printf("ok graph_exec_update\n");
    return 0;
}
