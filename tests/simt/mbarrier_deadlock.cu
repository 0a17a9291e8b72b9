// expect: exit=1 stderr=an mbarrier phase that fewer threads arrive at than it expects [simt-only]
// Must fail on simt: a cuda::barrier initialised for one thread more than
// the block has, so its first phase can never complete and every thread
// polls it for ever (a GPU would hang).  simt reports the deadlock, naming
// the kernel and the barrier, and the launch fails with
// cudaErrorLaunchTimeout.  Exit status 1 when that error is reported.
#include <cstdio>
#include <cuda/barrier>

#pragma nv_diag_suppress 20054

__global__ void never_completes(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0)
        init(&bar, blockDim.x + 1);
    __syncthreads();
    bar.arrive_and_wait();
    out[threadIdx.x] = 1;
}

int main()
{
    int *d;
    if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess)
        return 2;
    never_completes<<<1, 64>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaErrorLaunchTimeout) {
        fprintf(stderr, "deadlock reported as %s\n", cudaGetErrorName(e));
        return 1;
    }
    fprintf(stderr, "expected cudaErrorLaunchTimeout, got %s\n",
            cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 2;
}
