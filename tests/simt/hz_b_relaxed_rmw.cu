// expect-hazard: race: lost update: shared write at hz_b_relaxed_rmw.cu:19 ... shared write at hz_b_relaxed_rmw.cu:19
//
//
// Lane 0 of each warp counts its warp into a shared total with a relaxed
// load and a relaxed store of cuda::atomic_ref: each access is atomic,
// the increment is not, so two warps can both load the old count.
#include <cstdio>
#include <cuda/atomic>

__global__ void count_warps(int *out)
{
    __shared__ int total;
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    if (threadIdx.x % 32 == 0) {
        cuda::atomic_ref<int, cuda::thread_scope_block> t(total);
        int seen = t.load(cuda::memory_order_relaxed);
        t.store(seen + 1, cuda::memory_order_relaxed);
    }
    __syncthreads();
    if (threadIdx.x == 0)
        *out = total;
}

int main()
{
    int *out, got;
    cudaMalloc(&out, sizeof(int));
    count_warps<<<1, 256>>>(out);
    cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
    printf("warps %d\n", got);
    return 0;
}
