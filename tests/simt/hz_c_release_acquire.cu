// Clean: block 0 publishes a value to block 1 through a flag stored with
// st.release and loaded with ld.acquire (cuda::atomic_ref, device scope);
// block 1 spins until it sees the flag.
#include <cuda/atomic>
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void publish(int *data, int *flag, int *seen)
{
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        data[0] = 42;
        f.store(1, cuda::memory_order_release);
    } else {
        while (f.load(cuda::memory_order_acquire) == 0)
            ;
        seen[0] = data[0];
    }
}
int main()
{
    int *data, *flag, *seen, got;
    CHECK(cudaMalloc(&data, sizeof(int)));
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMalloc(&seen, sizeof(int)));
    CHECK(cudaMemset(flag, 0, sizeof(int)));
    publish<<<2, 32>>>(data, flag, seen);
    CHECK(cudaMemcpy(&got, seen, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("seen", 0, 42, got);
    DONE("hz_c_release_acquire");
}
