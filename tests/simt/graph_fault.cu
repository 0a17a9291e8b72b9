// expect: exit=1 stderr=out-of-bounds global write
// Must fail, on a GPU as well as on simt: a captured graph's second kernel
// writes 16 GiB past a 256-float allocation.  The graph launch (or the
// synchronisation after it) reports cudaErrorIllegalAddress, as the same
// kernel launched directly does, and the error stays (the following
// synchronisation reports it too); on simt the diagnostic names the kernel
// and the access.  Exit status: 1 when that error is seen, 0 when the write
// went unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(float *p, float v)
{
    p[threadIdx.x] = v;
}

__global__ void write_far(float *p, long long index)
{
    if (threadIdx.x == 5)
        p[index] = 1.0f;
}

int main(void)
{
    float *d = nullptr;
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t exec;

    if (cudaMalloc(&d, 256 * sizeof(float)) != cudaSuccess ||
        cudaStreamCreate(&s) != cudaSuccess ||
        cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) != cudaSuccess) {
        fprintf(stderr, "FAIL setting up\n");
        return 2;
    }
    fill<<<1, 256, 0, s>>>(d, 2.0f);
    write_far<<<1, 32, 0, s>>>(d, 256 + (1ll << 32));
    if (cudaStreamEndCapture(s, &g) != cudaSuccess ||
        cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) {
        fprintf(stderr, "FAIL capturing\n");
        return 2;
    }
    cudaError_t err = cudaGraphLaunch(exec, s);
    cudaError_t sync = cudaStreamSynchronize(s);
    if (err == cudaSuccess)
        err = sync;
    cudaError_t again = cudaDeviceSynchronize();
    if (err == cudaErrorIllegalAddress && again == err) {
        fprintf(stderr, "the graph failed with %s (%s), as expected\n",
                cudaGetErrorName(err), cudaGetErrorString(err));
        return 1;
    }
    fprintf(stderr, "FAIL expected cudaErrorIllegalAddress twice, got %s then %s\n",
            cudaGetErrorName(err), cudaGetErrorName(again));
    return err == cudaSuccess ? 0 : 2;
}
