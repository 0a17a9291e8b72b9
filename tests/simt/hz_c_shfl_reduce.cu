// Clean: warp sums with __shfl_down_sync, the warps' sums meeting in
// shared memory after a barrier (the shape of the reduce-sum solution).
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void sum(const int *x, int *out)
{
    __shared__ int warp_sums[4];
    int t = threadIdx.x, v = x[blockIdx.x * 128 + t];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down_sync(0xffffffffu, v, o);
    if (t % 32 == 0)
        warp_sums[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < 4 ? warp_sums[t] : 0;
        for (int o = 16; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
        if (t == 0)
            atomicAdd(out, v);
    }
}
int main()
{
    const int n = 4 * 128;
    int h[n], *x, *out, got, want = 0;
    for (int i = 0; i < n; i++) { h[i] = (i * 5) % 11; want += h[i]; }
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, sizeof(int)));
    sum<<<4, 128>>>(x, out);
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("sum", 0, want, got);
    DONE("hz_c_shfl_reduce");
}
