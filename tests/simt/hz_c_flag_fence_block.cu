// Clean: warp 1 publishes data in shared memory to warp 0 of the same
// block: every lane stores its element, __syncwarp() orders those stores
// before lane 0's __threadfence_block() and volatile flag store; warp 0
// spins on the volatile flag, fences, then reads the data.  (Without the
// __syncwarp, the other lanes' stores would race with the reads: a fence
// orders only its own thread's accesses.)
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void handoff(int *out)
{
    __shared__ int data[32];
    __shared__ volatile int flag;
    int t = threadIdx.x;
    if (t == 0)
        flag = 0;
    __syncthreads();
    if (t >= 32) {
        data[t - 32] = t * 10;
        __syncwarp();
        if (t == 32) {
            __threadfence_block();
            flag = 1;
        }
    } else {
        while (flag == 0)
            ;
        __threadfence_block();
        out[t] = data[31 - t];
    }
}
int main()
{
    int *out, got[32];
    CHECK(cudaMalloc(&out, sizeof got));
    handoff<<<1, 64>>>(out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        expect_eq("out", i, (31 - i + 32) * 10, got[i]);
    DONE("hz_c_flag_fence_block");
}
