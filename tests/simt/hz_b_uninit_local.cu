// expect-hazard: uninitialized: local read of 4 bytes at hz_b_uninit_local.cu:17 by block
// expect-hazard: uninitialized: local read of 4 bytes at hz_b_uninit_local.cu:20 by block
//
// Per-thread bins without `= {0}`: indexed by data, the array lives in
// local memory, and its first `++` reads an element nothing wrote.  simt
// starts local memory at zero, so the counts come out right there; on a
// GPU each element holds whatever that memory last held.
#include "check.h"

#define BINS 8

__global__ void bins(const int *in, int *out, int n)
{
    int counts[BINS];
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        int b = in[i] & (BINS - 1);
        counts[b]++;
    }
    for (int b = 0; b < BINS; b++)
        atomicAdd(&out[b], counts[b]);
}

int main()
{
    const int n = 1024;
    static int h[n];
    int *in, *out;
    for (int i = 0; i < n; i++)
        h[i] = i * 7;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, BINS * sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(out, 0, BINS * sizeof(int)));
    bins<<<1, 64>>>(in, out, n);
    CHECK(cudaDeviceSynchronize());
    printf("ok hz_b_uninit_local\n");
    return 0;
}
