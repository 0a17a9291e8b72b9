// Clean: graphs whose branches are ordered wherever they share data.
//   1. A diamond built node by node: a memset, two kernels writing the
//      two halves of b from a, an empty node joining them, then a kernel
//      reading all of b.  Launched four times into two streams with
//      nothing between the launches (launches of one executable graph
//      are ordered).
//   2. A child graph of two kernels writing disjoint halves, a kernel
//      depending on the child node reading both, and a host node after
//      it reading managed memory the kernel wrote.
//   3. A graph launched on the legacy default stream, then a kernel on a
//      blocking stream reading its output (the legacy stream's rule);
//      the same graph on a non-blocking stream, then an event waited for
//      by another stream before the reader.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 256
#define H (N / 2)

__global__ void fill(const int *a, int *b, int off, int mul)
{
    int i = off + blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = a[i] * mul + i;
}
__global__ void sum(const int *b, int *c) { int i = blockIdx.x * blockDim.x + threadIdx.x; c[i] = b[i] + b[N - 1 - i]; }
__global__ void half_set(int *d, int off, int v) { int i = off + blockIdx.x * blockDim.x + threadIdx.x; d[i] = v + i; }
__global__ void bump(int *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[i] += 1; }

static int host_total;
static int *host_seen;

static void CUDART_CB tally(void *) {
    for (int i = 0; i < N; i++)
        host_total += host_seen[i];
}

static cudaError_t add_kernel(cudaGraphNode_t *n, cudaGraph_t g, const cudaGraphNode_t *deps,
                              size_t ndeps, void *fn, void **args, int threads)
{
    cudaKernelNodeParams kp = {};
    kp.gridDim = dim3(threads / 64);
    kp.blockDim = dim3(64);
    kp.func = fn;
    kp.kernelParams = args;
    return cudaGraphAddKernelNode(n, g, deps, ndeps, &kp);
}

int main()
{
    cudaStream_t s1, s2, s3;
    cudaEvent_t done;
    int *a, *b, *c, *d, *e, got[N];
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    CHECK(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    CHECK(cudaMalloc(&a, N * sizeof(int)));
    CHECK(cudaMalloc(&b, N * sizeof(int)));
    CHECK(cudaMalloc(&c, N * sizeof(int)));
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    CHECK(cudaMallocManaged(&e, N * sizeof(int)));

    // 1: memset a -> {fill lo, fill hi} -> empty -> sum
    cudaGraph_t g;
    cudaGraphNode_t n[5];
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemsetParams mp = {};
    mp.dst = a; mp.elementSize = 4; mp.width = N; mp.height = 1; mp.value = 5;
    CHECK(cudaGraphAddMemsetNode(&n[0], g, NULL, 0, &mp));
    int lo = 0, hi = H, m2 = 2, m3 = 3;
    void *flo[] = {&a, &b, &lo, &m2}, *fhi[] = {&a, &b, &hi, &m3}, *fs[] = {&b, &c};
    CHECK(add_kernel(&n[1], g, &n[0], 1, (void *)fill, flo, H));
    CHECK(add_kernel(&n[2], g, &n[0], 1, (void *)fill, fhi, H));
    CHECK(cudaGraphAddEmptyNode(&n[3], g, &n[1], 2));
    CHECK(add_kernel(&n[4], g, &n[3], 1, (void *)sum, fs, N));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int r = 0; r < 4; r++)
        CHECK(cudaGraphLaunch(x, r % 2 ? s2 : s1));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, c, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int j = N - 1 - i;
        int bi = 5 * (i < H ? 2 : 3) + i, bj = 5 * (j < H ? 2 : 3) + j;
        expect_eq("diamond", i, bi + bj, got[i]);
    }

    // 2: child {half_set lo, half_set hi} -> sum into managed e -> host
    cudaGraph_t child, parent;
    cudaGraphNode_t cn[2], pn[3];
    CHECK(cudaGraphCreate(&child, 0));
    int v1 = 100, v2 = 1000;
    void *h1[] = {&d, &lo, &v1}, *h2[] = {&d, &hi, &v2}, *se[] = {&d, &e};
    CHECK(add_kernel(&cn[0], child, NULL, 0, (void *)half_set, h1, H));
    CHECK(add_kernel(&cn[1], child, NULL, 0, (void *)half_set, h2, H));
    CHECK(cudaGraphCreate(&parent, 0));
    CHECK(cudaGraphAddChildGraphNode(&pn[0], parent, NULL, 0, child));
    CHECK(add_kernel(&pn[1], parent, &pn[0], 1, (void *)sum, se, N));
    host_seen = e;
    cudaHostNodeParams hp = {};
    hp.fn = tally;
    CHECK(cudaGraphAddHostNode(&pn[2], parent, &pn[1], 1, &hp));
    cudaGraphExec_t px;
    CHECK(cudaGraphInstantiate(&px, parent, 0));
    CHECK(cudaGraphLaunch(px, s1));
    CHECK(cudaGraphLaunch(px, s1));
    CHECK(cudaStreamSynchronize(s1));
    long want = 0;
    for (int i = 0; i < N; i++) {
        int j = N - 1 - i;
        int di = (i < H ? 100 : 1000) + i, dj = (j < H ? 100 : 1000) + j;
        expect_eq("child", i, di + dj, e[i]);
        want += di + dj;
    }
    expect_eq("host node", 0, (int)(2 * want), host_total);

    // 3: the diamond on the legacy stream, then bump on blocking s1;
    // on non-blocking s3, then an event before bump on s2
    CHECK(cudaGraphLaunch(x, 0));
    bump<<<N / 64, 64, 0, s1>>>(c);
    CHECK(cudaStreamSynchronize(s1));   // s3 does not wait for s1
    CHECK(cudaGraphLaunch(x, s3));
    CHECK(cudaEventRecord(done, s3));
    CHECK(cudaStreamWaitEvent(s2, done, 0));
    bump<<<N / 64, 64, 0, s2>>>(b);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, b, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("b after bump", i, 5 * (i < H ? 2 : 3) + i + 1, got[i]);

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(px));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaGraphDestroy(parent));
    DONE("hz_c_graph_branches");
}
