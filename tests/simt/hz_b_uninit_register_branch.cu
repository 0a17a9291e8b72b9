// expect-hazard: uninitialized: register ... read at hz_b_uninit_register_branch.cu:15 by block (0,0,0) thread (16,0,0)
//
//
// Only the first half of the warp loads its value; every lane then
// scales it.  Lanes 16 to 31 compute with a register they never wrote.
#include <cstdio>

__global__ void scale(const float *x, float *out, float s)
{
    int t = threadIdx.x;
    float v;
    if (t < 16)
        v = x[t];
    asm volatile("" ::: "memory");
    out[t] = v * s;
}

int main()
{
    float *x, *out;
    cudaMalloc(&x, 32 * sizeof(float));
    cudaMalloc(&out, 32 * sizeof(float));
    cudaMemset(x, 0, 32 * sizeof(float));
    scale<<<1, 32>>>(x, out, 2.0f);
    return cudaDeviceSynchronize() != cudaSuccess;
}
