// expect-hazard: race: global write at hz_b_graph_branches.cu:23 ... of produce(int*) in graph node 1 launched on stream 1 and global read at hz_b_graph_branches.cu:24 ... of consume(int const*, int*) in graph node 2 launched on stream 1, in branches of a graph with no path of dependencies between them
// expect-hazard: race: global read by a graph's memcpy node in graph node 3 launched on stream 1 and global write at hz_b_graph_branches.cu:25 ... of scale(int*) in graph node 4 launched on stream 1, in branches of a graph
// expect-hazard: race: global write at hz_b_graph_branches.cu:23 ... of produce(int*) in graph node 0 launched on stream 2 and global read at hz_b_graph_branches.cu:26 ... of twice(int const*, int*) in graph node 1 launched on stream 2, in branches of a graph
//
// Nodes of a graph that no path of dependencies connects may run at once
// on a GPU, as two streams may.  simt runs a graph's nodes one after
// another, so the values come out right; the hazard checker sees the
// branches as unordered.
//   1. Built node by node: a memset, then produce and consume both
//      depending only on the memset (consume should depend on produce).
//   2. In the same graph: a memcpy node copies b while scale, beside
//      it, writes b.
//   3. Captured from two streams forked with an event, where the branch
//      on the second stream reads what the first writes, and is joined
//      back before the end: each launch of the graph has the race.
// Clean parts: every node that reads another's output depends on it, the
// graph is launched several times, and its results are checked.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 256

__global__ void produce(int *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[i] = 3 * i; }
__global__ void consume(const int *a, int *b) { int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = a[i] + 1; }
__global__ void scale(int *b) { int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = 2 * i; }
__global__ void twice(const int *a, int *c) { int i = blockIdx.x * blockDim.x + threadIdx.x; c[i] = 2 * a[i]; }

int main()
{
    cudaStream_t s1, s2, s3;
    cudaEvent_t fork, join;
    cudaGraph_t g, cg;
    cudaGraphExec_t x, cx;
    cudaGraphNode_t n[5];
    int *a, *b, *c, *d, got[N];
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    CHECK(cudaStreamCreate(&s3));
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
    CHECK(cudaMalloc(&a, N * sizeof(int)));
    CHECK(cudaMalloc(&b, N * sizeof(int)));
    CHECK(cudaMalloc(&c, N * sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));

    // 1 and 2: memset -> {produce, consume}; consume -> {copy b to c, scale}
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemsetParams mp = {};
    mp.dst = a; mp.elementSize = 4; mp.width = N; mp.height = 1; mp.value = 0;
    CHECK(cudaGraphAddMemsetNode(&n[0], g, NULL, 0, &mp));
    void *pa[] = {&a}, *pab[] = {&a, &b}, *pb[] = {&b};
    cudaKernelNodeParams kp = {};
    kp.gridDim = dim3(N / 64); kp.blockDim = dim3(64);
    kp.func = (void *)produce; kp.kernelParams = pa;
    CHECK(cudaGraphAddKernelNode(&n[1], g, &n[0], 1, &kp));
    kp.func = (void *)consume; kp.kernelParams = pab;
    CHECK(cudaGraphAddKernelNode(&n[2], g, &n[0], 1, &kp));     // the race
    CHECK(cudaGraphAddMemcpyNode1D(&n[3], g, &n[2], 1, c, b, N * sizeof(int),
                                   cudaMemcpyDeviceToDevice));
    kp.func = (void *)scale; kp.kernelParams = pb;
    CHECK(cudaGraphAddKernelNode(&n[4], g, &n[2], 1, &kp));     // races the copy
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 3; r++)
        CHECK(cudaGraphLaunch(x, s1));
    CHECK(cudaStreamSynchronize(s1));
    CHECK(cudaMemcpy(got, a, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("a", i, 3 * i, got[i]);
    CHECK(cudaMemcpy(got, b, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("b", i, 2 * i, got[i]);

    // 3: captured from two streams; twice on s3 reads a without waiting
    // for produce on s2
    CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, s2));
    CHECK(cudaStreamWaitEvent(s3, fork, 0));
    produce<<<N / 64, 64, 0, s2>>>(a);
    twice<<<N / 64, 64, 0, s3>>>(a, d);
    CHECK(cudaEventRecord(join, s3));
    CHECK(cudaStreamWaitEvent(s2, join, 0));
    CHECK(cudaStreamEndCapture(s2, &cg));
    CHECK(cudaGraphInstantiate(&cx, cg, 0));
    CHECK(cudaGraphLaunch(cx, s2));
    CHECK(cudaGraphLaunch(cx, s2));
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaMemcpy(got, a, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("a after the capture", i, 3 * i, got[i]);

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(cx));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(cg));
    DONE("hz_b_graph_branches");
}
