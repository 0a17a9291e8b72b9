// Clean: one thread per block takes a global spin lock with atomicCAS,
// updates a plain counter inside the critical section between fences, and
// releases with atomicExch.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void locked_add(int *lock, int *counter)
{
    if (threadIdx.x != 0)
        return;
    while (atomicCAS(lock, 0, 1) != 0)
        ;
    __threadfence();
    counter[0] = counter[0] + blockIdx.x + 1;
    __threadfence();
    atomicExch(lock, 0);
}
int main()
{
    const int blocks = 6;
    int *lock, *counter, got;
    CHECK(cudaMalloc(&lock, sizeof(int)));
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMemset(lock, 0, sizeof(int)));
    CHECK(cudaMemset(counter, 0, sizeof(int)));
    locked_add<<<blocks, 32>>>(lock, counter);
    CHECK(cudaMemcpy(&got, counter, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("counter", 0, blocks * (blocks + 1) / 2, got);
    DONE("hz_c_spinlock");
}
