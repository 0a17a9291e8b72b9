// Clean: a histogram with shared-memory atomics per block, then one global
// atomicAdd per bin.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void hist(const unsigned char *in, int n, int *bins)
{
    __shared__ int h[16];
    int t = threadIdx.x;
    if (t < 16)
        h[t] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&h[in[i] % 16], 1);
    __syncthreads();
    if (t < 16)
        atomicAdd(&bins[t], h[t]);
}
int main()
{
    const int n = 3000;
    unsigned char h[n], *in;
    int want[16] = {0}, got[16], *bins;
    for (int i = 0; i < n; i++) { h[i] = (unsigned char)(i * 7 + i / 3); want[h[i] % 16]++; }
    CHECK(cudaMalloc(&in, n));
    CHECK(cudaMalloc(&bins, sizeof got));
    CHECK(cudaMemcpy(in, h, n, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(bins, 0, sizeof got));
    hist<<<3, 128>>>(in, n, bins);
    CHECK(cudaMemcpy(got, bins, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 16; b++)
        expect_eq("bin", b, want[b], got[b]);
    DONE("hz_c_hist_atomic");
}
