// Clean: every lane of a warp stores the same value (the warp's sum, after
// a butterfly shuffle) to smem[warp]; the same-value stores of one
// instruction are not a race (a pattern of llm.c's layernorm kernels).
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void sums(const int *x, int *out)
{
    __shared__ int smem[4];
    int t = threadIdx.x, v = x[t];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    smem[t / 32] = v;
    __syncthreads();
    if (t == 0)
        out[0] = smem[0] + smem[1] + smem[2] + smem[3];
}
int main()
{
    int h[128], *x, *out, got, want = 0;
    for (int i = 0; i < 128; i++) { h[i] = i; want += i; }
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    sums<<<1, 128>>>(x, out);
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("sum", 0, want, got);
    DONE("hz_c_same_value_store");
}
