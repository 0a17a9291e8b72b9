// Clean: orderings that come without an event.  Work on a blocking stream
// and on the legacy default stream orders itself both ways; a
// synchronized stream, a stream query that reports completion, a
// cudaFree (which waits for the device) and a graph launched into a
// stream each order what follows.  A graph's memset node of 4-byte
// values initialises what it sets.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 256

__global__ void add(int *x, int v) { x[threadIdx.x] += v; }
__global__ void set(int *x, int v) { x[threadIdx.x] = v; }

static void CUDART_CB note(void *flag) { *(int *)flag = 1; }

int main()
{
    cudaStream_t a, b, nb;
    int *x, *y, got[N], flag = 0;
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaStreamCreate(&b));
    CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    CHECK(cudaMalloc(&x, N * sizeof(int)));
    CHECK(cudaMalloc(&y, N * sizeof(int)));

    set<<<1, N, 0, a>>>(x, 1);          // blocking stream a
    add<<<1, N>>>(x, 10);               // legacy: waits for a
    add<<<1, N, 0, b>>>(x, 100);        // blocking stream b: waits for legacy
    CHECK(cudaStreamSynchronize(b));
    add<<<1, N, 0, nb>>>(x, 1000);      // after the host saw b done
    while (cudaStreamQuery(nb) != cudaSuccess)
        ;
    add<<<1, N, 0, a>>>(x, 10000);      // after the query saw nb done
    CHECK(cudaLaunchHostFunc(a, note, &flag));
    CHECK(cudaStreamSynchronize(a));    // the callback alone would not do
    add<<<1, N, 0, nb>>>(x, 100000);

    // a scratch buffer freed: cudaFree waits for the device
    int *tmp;
    CHECK(cudaMalloc(&tmp, N * sizeof(int)));
    set<<<1, N, 0, nb>>>(tmp, 5);
    CHECK(cudaFree(tmp));
    add<<<1, N, 0, b>>>(x, 1000000);

    // a graph: a 4-byte memset node then a kernel node, launched into a
    // after an event from b
    cudaGraph_t g;
    cudaGraphExec_t ge;
    cudaGraphNode_t ms, kn;
    cudaMemsetParams mp = {};
    mp.dst = y;
    mp.value = 7;
    mp.elementSize = 4;
    mp.width = N;
    mp.height = 1;
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphAddMemsetNode(&ms, g, NULL, 0, &mp));
    cudaKernelNodeParams kp = {};
    int v = 3;
    void *args[] = {&y, &v};
    kp.func = (void *)add;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(N);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kn, g, &ms, 1, &kp));
    CHECK(cudaGraphInstantiate(&ge, g, 0));
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    CHECK(cudaEventRecord(e, b));
    CHECK(cudaStreamWaitEvent(a, e, 0));
    CHECK(cudaGraphLaunch(ge, a));
    CHECK(cudaStreamSynchronize(a));

    CHECK(cudaMemcpy(got, x, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("x", i, 1111111, got[i]);
    CHECK(cudaMemcpy(got, y, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("y", i, 10, got[i]);
    expect_eq("callback", 0, 1, flag);
    DONE("hz_c_streams_implicit");
}
