// Clean: __syncthreads_count and __syncthreads_or are barriers too; the
// writes before them are seen by every thread after.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void votes(const int *x, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = x[t];
    int evens = __syncthreads_count(x[t] % 2 == 0);
    int any7 = __syncthreads_or(s[127 - t] == 7);
    if (t == 0) {
        out[0] = evens;
        out[1] = any7;
        out[2] = s[127];
    }
}
int main()
{
    int h[128], *x, *out, got[3], evens = 0;
    for (int i = 0; i < 128; i++) { h[i] = i * 3; evens += h[i] % 2 == 0; }
    CHECK(cudaMalloc(&x, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice));
    votes<<<1, 128>>>(x, out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("evens", 0, evens, got[0]);
    expect_eq("any7", 1, 0, got[1]);
    expect_eq("last", 2, 381, got[2]);
    DONE("hz_c_syncthreads_count");
}
