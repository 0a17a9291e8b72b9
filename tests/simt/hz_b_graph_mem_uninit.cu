// expect-hazard: uninitialized: global read of 4 bytes at hz_b_graph_mem_uninit.cu:17
//
// A graph's allocation node gives memory whose content is undefined at
// each run: the kernel after it copies all of it out, but only its second
// half was written first.  The same holds on every launch, as the memory
// is allocated afresh; what the copy holds is not checked (it is
// undefined on a GPU).
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

__global__ void copy_half_set(int *p, int *q, int n)
{
    int i = threadIdx.x;
    if (i >= n / 2)
        p[i] = i;      // the second half is written first
    __syncthreads();
    q[i] = p[i];       // the first half was never written
}

int main()
{
    cudaGraph_t g;
    cudaGraphNode_t a, k, f;
    cudaGraphExec_t x;
    int *out, n = 256;
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaGraphCreate(&g, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = n * sizeof(int);
    CHECK(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &ap));
    int *p = (int *)ap.dptr;
    void *args[] = {&p, &out, &n};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)copy_half_set;
    kp.gridDim = dim3(1);
    kp.blockDim = dim3(n);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&k, g, &a, 1, &kp));
    CHECK(cudaGraphAddMemFreeNode(&f, g, &k, 1, p));
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaGraphLaunch(x, 0));
    int got[256];
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("second half", 200, 200, got[200]);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    DONE("hz_b_graph_mem_uninit");
}
