// expect-hazard: uninitialized: register ... read at hz_b_uninit_register_call.cu:12 by block
//
//
// A device function that is not inlined keeps its own registers: its
// running maximum starts unset, in a frame of its own, on every call.
#include <cstdio>

__device__ __noinline__ float row_max(const float *row, int n)
{
    float m;
    for (int i = 0; i < n; i++)
        m = fmaxf(m, row[i]);
    return m;
}

__global__ void maxes(const float *x, float *out, int n)
{
    out[threadIdx.x] = row_max(x + threadIdx.x * n, n);
}

int main()
{
    float *x, *out;
    cudaMalloc(&x, 32 * 8 * sizeof(float));
    cudaMalloc(&out, 32 * sizeof(float));
    cudaMemset(x, 0, 32 * 8 * sizeof(float));
    maxes<<<1, 32>>>(x, out, 8);
    return cudaDeviceSynchronize() != cudaSuccess;
}
