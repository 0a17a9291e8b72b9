// expect: exit=1 stderr=of a graph allocation of device 0 by a kernel on device 1, which its allocation node gives no access (name the device in the node's accessDescs) [simt-only]
// gpus: 2
// Must fail: a graph allocation of device 0 whose allocation node lists
// no access descriptors is reachable from device 0 only; a kernel on
// device 1 writes it, with peer access enabled (which does not apply).
// Exit status: 1 when cudaErrorIllegalAddress is reported, 0 when the
// write went unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void fill(int *p) { p[threadIdx.x] = threadIdx.x; }

int main(void)
{
    cudaGraph_t g;
    cudaGraphNode_t a;
    cudaGraphExec_t x;
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = 256 * sizeof(int);
    if (cudaSetDevice(0) != cudaSuccess || cudaGraphCreate(&g, 0) != cudaSuccess ||
        cudaGraphAddMemAllocNode(&a, g, NULL, 0, &ap) != cudaSuccess ||
        cudaGraphInstantiate(&x, g, 0) != cudaSuccess || cudaGraphLaunch(x, 0) != cudaSuccess ||
        cudaDeviceSynchronize() != cudaSuccess || cudaSetDevice(1) != cudaSuccess ||
        cudaDeviceEnablePeerAccess(0, 0) != cudaSuccess) {
        fprintf(stderr, "FAIL setting up the graph allocation\n");
        return 2;
    }
    fill<<<1, 256>>>((int *)ap.dptr);
    return expect_kernel_error(cudaErrorIllegalAddress);
}
