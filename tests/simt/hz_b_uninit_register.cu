// expect-hazard: uninitialized: register ... read at hz_b_uninit_register.cu:14 by block
//
//
// The per-thread sum starts without `= 0.0f`: its first `+=` reads a
// register nothing has written.  On a GPU it holds whatever the hardware
// register held before, so the result is wrong by luck.
#include <cstdio>

__global__ void block_sums(const float *x, float *out, int n)
{
    __shared__ float part[128];
    float acc;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += x[i];
    part[threadIdx.x] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int t = 0; t < 128; t++)
            s += part[t];
        out[blockIdx.x] = s;
    }
}

int main()
{
    const int n = 4096;
    float *x, *out;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, 4 * sizeof(float));
    cudaMemset(x, 0, n * sizeof(float));
    block_sums<<<4, 128>>>(x, out, n);
    return cudaDeviceSynchronize() != cudaSuccess;
}
