// expect: exit=1 stderr=out-of-bounds global write
// Must fail, on a GPU as well as on simt: one thread writes 16 GiB past the
// end of a 256-float allocation, far enough to fault on real hardware, and
// the launch (cudaGetLastError) or cudaDeviceSynchronize must report
// cudaErrorIllegalAddress. Exit status: 1 when that error is seen (the
// expected outcome), 0 when the write went unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void write_far(float *p, long long index)
{
    if (threadIdx.x == 5)
        p[index] = 1.0f;
}

int main(void)
{
    float *d = nullptr;
    cudaError_t err = cudaMalloc(&d, 256 * sizeof(float));
    if (err != cudaSuccess) {
        fprintf(stderr, "FAIL cudaMalloc returned %s\n", cudaGetErrorName(err));
        return 2;
    }
    write_far<<<1, 32>>>(d, 256 + (1ll << 32));
    // The fault may already be reported at launch (an implementation that
    // runs kernels synchronously) or only by the synchronisation.
    err = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    if (err == cudaSuccess)
        err = sync;
    if (err == cudaErrorIllegalAddress) {
        fprintf(stderr, "the kernel failed with %s (%s), as expected\n",
                cudaGetErrorName(err), cudaGetErrorString(err));
        return 1;
    }
    fprintf(stderr, "FAIL expected cudaErrorIllegalAddress got %s\n",
            cudaGetErrorName(err));
    return err == cudaSuccess ? 0 : 2;
}
