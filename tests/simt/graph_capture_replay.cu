// Stream capture replayed: a memsetAsync, two kernels and a memcpyAsync
// into pinned memory are captured once and the graph launched ten times.
// Between launches the input changes in device memory (the graph reads the
// new data) and the host variables the kernels were launched with change
// too (the graph keeps the arguments captured).  Nothing runs during the
// capture itself.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 1000, THREADS = 128, REPLAYS = 10 };

// acc[i] += in[i] * mul (acc was cleared by the captured memset)
__global__ void scale_acc(const int *in, int *acc, int mul, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acc[i] += in[i] * mul;
}

__global__ void square_add(const int *acc, int *out, int add, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (acc[i] * acc[i] + add) % 65521;
}

static int input_at(int replay, int i)
{
    return (i * 37 + replay * 101) % 199 - 99;
}

int main(void)
{
    const int blocks = (N + THREADS - 1) / THREADS;
    int mul = 3, add = 17;
    const int mul0 = mul, add0 = add;
    int *h_in, *h_out, *d_in, *d_acc, *d_out;
    cudaStream_t s;
    cudaGraph_t graph;
    cudaGraphExec_t exec;

    CHECK(cudaMallocHost(&h_in, N * sizeof(int)));
    CHECK(cudaMallocHost(&h_out, N * sizeof(int)));
    CHECK(cudaMalloc(&d_in, N * sizeof(int)));
    CHECK(cudaMalloc(&d_acc, N * sizeof(int)));
    CHECK(cudaMalloc(&d_out, N * sizeof(int)));
    CHECK(cudaMemset(d_acc, 0x11, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        h_out[i] = -1;
    CHECK(cudaStreamCreate(&s));

    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(d_acc, 0, N * sizeof(int), s));
    scale_acc<<<blocks, THREADS, 0, s>>>(d_in, d_acc, mul, N);
    CHECK(cudaGetLastError());
    square_add<<<blocks, THREADS, 0, s>>>(d_acc, d_out, add, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_out, d_out, N * sizeof(int),
                          cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamEndCapture(s, &graph));

    // The capture recorded the work without doing it.
    for (int i = 0; i < N; i++)
        expect_eq("not run during capture", i, -1, h_out[i]);
    int acc0 = 0;
    CHECK(cudaMemcpy(&acc0, d_acc, sizeof acc0, cudaMemcpyDeviceToHost));
    expect_eq("memset not run during capture", 0, 0x11111111, acc0);

    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(graph, NULL, &nodes));
    expect_eq("captured nodes", 0, (size_t)4, nodes);
    CHECK(cudaGraphInstantiate(&exec, graph, 0));

    // Later host values must not reach the graph.
    mul = 1000;
    add = 5;
    for (int r = 0; r < REPLAYS; r++) {
        for (int i = 0; i < N; i++) {
            h_in[i] = input_at(r, i);
            h_out[i] = -1;
        }
        CHECK(cudaMemcpy(d_in, h_in, N * sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(exec, s));
        CHECK(cudaStreamSynchronize(s));
        for (int i = 0; i < N; i++) {
            int a = input_at(r, i) * mul0;
            expect_eq("replay", r * N + i, (a * a + add0) % 65521, h_out[i]);
        }
    }

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_acc));
    CHECK(cudaFree(d_out));
    CHECK(cudaFreeHost(h_in));
    CHECK(cudaFreeHost(h_out));
    if (failures)
        return 1;
    printf("ok graph_capture_replay\n");
    return 0;
}
