// Clean: loads and stores that make a read-modify-write of two steps
// where nothing can fall between them:
//   - volatile updates of a global total inside a spin lock taken with
//     atomicCAS and released with atomicExch, between fences;
//   - relaxed updates of a shared total by one warp after another, each
//     turn behind a __syncthreads();
//   - a volatile counter that only one thread ever updates.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
#include <cuda/atomic>

__global__ void updates(int *lock, int *total, int *turns, int *own)
{
    if (threadIdx.x == 0) {
        while (atomicCAS(lock, 0, 1) != 0)
            ;
        __threadfence();
        volatile int *v = total;
        *v = *v + blockIdx.x + 1;
        __threadfence();
        atomicExch(lock, 0);
    }
    __shared__ int shared_total;
    if (threadIdx.x == 0)
        shared_total = 0;
    __syncthreads();
    for (int w = 0; w < 4; w++) {
        if (threadIdx.x == w * 32) {
            cuda::atomic_ref<int, cuda::thread_scope_block> t(shared_total);
            t.store(t.load(cuda::memory_order_relaxed) + 1, cuda::memory_order_relaxed);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0)
        turns[blockIdx.x] = shared_total;
    if (blockIdx.x == 0 && threadIdx.x == 5) {
        volatile int *c = own;
        for (int k = 0; k < 3; k++)
            *c = *c + 2;
    }
}

int main()
{
    const int blocks = 5;
    int *lock, *total, *turns, *own, got, h[blocks];
    CHECK(cudaMalloc(&lock, sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMalloc(&turns, blocks * sizeof(int)));
    CHECK(cudaMalloc(&own, sizeof(int)));
    CHECK(cudaMemset(lock, 0, sizeof(int)));
    CHECK(cudaMemset(total, 0, sizeof(int)));
    CHECK(cudaMemset(own, 0, sizeof(int)));
    updates<<<blocks, 128>>>(lock, total, turns, own);
    CHECK(cudaMemcpy(&got, total, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("total", 0, blocks * (blocks + 1) / 2, got);
    CHECK(cudaMemcpy(h, turns, sizeof h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        expect_eq("turns", b, 4, h[b]);
    CHECK(cudaMemcpy(&got, own, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("own", 0, 6, got);
    DONE("hz_c_locked_rmw");
}
