// Clean: the last steps of a reduction in one warp through shared memory,
// with __syncwarp() between a step's reads and the next step's writes.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void reduce(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = in[t + 32];
    __syncwarp();
    for (int o = 32; o > 0; o /= 2) {
        int v = t < o ? s[t] + s[t + o] : 0;
        __syncwarp();
        if (t < o)
            s[t] = v;
        __syncwarp();
    }
    if (t == 0)
        out[0] = s[0];
}
int main()
{
    int h[64], *in, *out, got, want = 0;
    for (int i = 0; i < 64; i++) { h[i] = 3 * i + 1; want += h[i]; }
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    reduce<<<1, 32>>>(in, out);
    CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("sum", 0, want, got);
    DONE("hz_c_syncwarp_steps");
}
