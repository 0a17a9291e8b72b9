// expect-hazard: race: shared cp.async write at hz_b_cp_async_nowait.cu:11 ... and shared read at hz_b_cp_async_nowait.cu:14 ... no synchronization orders them
// expect-hazard: race: shared write at hz_b_cp_async_nowait.cu:11 ... and shared read at hz_b_cp_async_nowait.cu:14 ... no synchronization orders them
//
// cp.async copies a tile into shared memory, but the threads read it after
// the barrier without waiting for their copies to land.
#include <cuda_pipeline.h>
__global__ void stage(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    __pipeline_memcpy_async(&s[t], &in[t], sizeof(int));
    __pipeline_commit();
    __syncthreads();
    out[t] = s[63 - t];
    __pipeline_wait_prior(0);
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(int));
    stage<<<1, 64>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
