// expect-hazard: race: lost update: global ... at hz_b_volatile_rmw.cu:20
//
//
// Blocks add their partial sums into *out through a volatile pointer.
// volatile makes each load and each store reach memory, but the load and
// the store stay two steps: two blocks can load the same old value, and
// one addition is lost.  Only an atomic makes the step indivisible.
#include <cstdio>

__global__ void block_sums(const float *x, float *out, int n)
{
    __shared__ float part[64];
    int i = blockIdx.x * 64 + threadIdx.x;
    part[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int t = 0; t < 64; t++)
            s += part[t];
        *(volatile float *)out += s;
    }
}

int main()
{
    const int n = 256;
    float *x, *out, h[n], got;
    for (int i = 0; i < n; i++)
        h[i] = 1.0f;
    cudaMalloc(&x, n * sizeof(float));
    cudaMalloc(&out, sizeof(float));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, sizeof(float));
    block_sums<<<n / 64, 64>>>(x, out, n);
    cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
    printf("sum %g\n", got);
    return 0;
}
