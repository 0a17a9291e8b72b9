// Clean under the hazard checks: a shared-memory tree reduction with a
// __syncthreads() after every halving step, one atomicAdd per block.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void block_sum(const int *x, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int half = 64; half > 0; half /= 2) {
        if (t < half)
            s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(out, s[0]);
}
int main()
{
    const int n = 8 * 128;
    int h[n], *x, *out, got, want = 0;
    for (int i = 0; i < n; i++) { h[i] = i % 7; want += h[i]; }
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, sizeof(int)));
    block_sum<<<8, 128>>>(x, out);
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("sum", 0, want, got);
    DONE("hz_c_tree_bar");
}
