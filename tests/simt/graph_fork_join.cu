// Stream capture across two streams: the origin stream forks work to a
// second stream with an event, the second stream joins back with another
// event, and the graph holds both branches with their dependencies.  The
// second stream is capturing while it is part of the capture and stops at
// the end.  A capture whose forked work is never joined fails with
// cudaErrorStreamCaptureUnjoined.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 512, THREADS = 128 };

__global__ void affine(const int *in, int *out, int mul, int add, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * mul + add;
}

__global__ void combine(const int *a, const int *b, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i] * 10 - b[i];
}

int main(void)
{
    const int blocks = (N + THREADS - 1) / THREADS;
    int h_in[N], h_out[N];
    int *d_in, *d_x, *d_y, *d_z, *d_out;
    cudaStream_t s1, s2;
    cudaEvent_t fork, joined;
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    cudaStreamCaptureStatus st;

    CHECK(cudaMalloc(&d_in, N * sizeof(int)));
    CHECK(cudaMalloc(&d_x, N * sizeof(int)));
    CHECK(cudaMalloc(&d_y, N * sizeof(int)));
    CHECK(cudaMalloc(&d_z, N * sizeof(int)));
    CHECK(cudaMalloc(&d_out, N * sizeof(int)));
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&joined, cudaEventDisableTiming));

    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    affine<<<blocks, THREADS, 0, s1>>>(d_in, d_x, 2, 1, N);   // x = 2in+1
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamIsCapturing(s2, &st));
    expect_eq("s2 before the fork", 0, (int)cudaStreamCaptureStatusNone, (int)st);
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    CHECK(cudaStreamIsCapturing(s2, &st));
    expect_eq("s2 after the fork", 0, (int)cudaStreamCaptureStatusActive, (int)st);
    affine<<<blocks, THREADS, 0, s2>>>(d_x, d_y, 3, -4, N);   // y = 3x-4
    affine<<<blocks, THREADS, 0, s1>>>(d_x, d_z, -1, 50, N);  // z = 50-x
    CHECK(cudaEventRecord(joined, s2));
    CHECK(cudaStreamWaitEvent(s1, joined, 0));
    combine<<<blocks, THREADS, 0, s1>>>(d_y, d_z, d_out, N);  // 10y-z
    CHECK(cudaStreamEndCapture(s1, &graph));
    CHECK(cudaStreamIsCapturing(s2, &st));
    expect_eq("s2 after the capture", 0, (int)cudaStreamCaptureStatusNone, (int)st);

    size_t nodes = 0, roots = 0, edges = 0;
    CHECK(cudaGraphGetNodes(graph, NULL, &nodes));
    CHECK(cudaGraphGetRootNodes(graph, NULL, &roots));
    CHECK(cudaGraphGetEdges(graph, NULL, NULL, NULL, &edges));
    expect_eq("nodes", 0, (size_t)4, nodes);
    expect_eq("roots", 0, (size_t)1, roots);
    expect_eq("edges", 0, (size_t)4, edges);

    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for (int r = 0; r < 3; r++) {
        for (int i = 0; i < N; i++)
            h_in[i] = (i * 13 + r * 7) % 101 - 50;
        CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(exec, s1));
        CHECK(cudaStreamSynchronize(s1));
        CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
        for (int i = 0; i < N; i++) {
            int x = 2 * h_in[i] + 1, y = 3 * x - 4, z = 50 - x;
            expect_eq("out", r * N + i, 10 * y - z, h_out[i]);
        }
    }
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));

    // Forked work never joined back to the origin stream.
    cudaGraph_t bad = (cudaGraph_t)&bad;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    affine<<<blocks, THREADS, 0, s2>>>(d_x, d_y, 1, 1, N);
    cudaError_t e = cudaStreamEndCapture(s1, &bad);
    expect_eq("unjoined capture", 0, (int)cudaErrorStreamCaptureUnjoined, (int)e);
    expect_eq("unjoined capture gives no graph", 0, 1, bad == NULL ? 1 : 0);
    (void)cudaGetLastError();
    CHECK(cudaStreamIsCapturing(s2, &st));
    expect_eq("s2 after the failed capture", 0, (int)cudaStreamCaptureStatusNone,
              (int)st);

    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(joined));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_z));
    CHECK(cudaFree(d_out));
    if (failures)
        return 1;
    printf("ok graph_fork_join\n");
    return 0;
}
