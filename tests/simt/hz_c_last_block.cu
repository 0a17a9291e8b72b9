// Clean: the threadfence reduction.  Each block writes its partial sum,
// __threadfence(), then takes a ticket with atomicInc; the block that
// draws the last ticket sums all partials (volatile loads after its own
// fence) and resets the counter for the next launch.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__device__ unsigned count;
__global__ void sum(const int *x, int *partial, int *out)
{
    __shared__ int s[64];
    __shared__ bool last;
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 64 + t];
    __syncthreads();
    for (int h = 32; h > 0; h /= 2) {
        if (t < h)
            s[t] += s[t + h];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned v = atomicInc(&count, gridDim.x);
        last = v == gridDim.x - 1;
    }
    __syncthreads();
    if (last && t == 0) {
        __threadfence();
        int total = 0;
        for (unsigned b = 0; b < gridDim.x; b++)
            total += ((volatile int *)partial)[b];
        out[0] = total;
        count = 0;
    }
}
int main()
{
    const int blocks = 7, n = blocks * 64;
    int h[n], *x, *partial, *out, got, want = 0;
    for (int i = 0; i < n; i++) { h[i] = (i * 3) % 10; want += h[i]; }
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
    CHECK(cudaMalloc(&out, sizeof(int)));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    for (int rep = 0; rep < 2; rep++) {
        sum<<<blocks, 64>>>(x, partial, out);
        CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
        expect_eq("sum", rep, want, got);
    }
    DONE("hz_c_last_block");
}
