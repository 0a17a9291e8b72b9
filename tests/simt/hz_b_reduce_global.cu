// expect-hazard: race: global read at hz_b_reduce_global.cu:19 ... and global write at hz_b_reduce_global.cu:19 ... no synchronization orders them
// expect-hazard: race: global write at hz_b_reduce_global.cu:19 ... and global write at hz_b_reduce_global.cu:19 ... no synchronization orders them
//
// Blocks add their partial sums into *out with a plain +=: two blocks can
// read the same old value, and one addition is lost.
#include <cstdio>
__global__ void sum(const int *x, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 64 + t];
    __syncthreads();
    for (int half = 32; half > 0; half /= 2) {
        if (t < half)
            s[t] += s[t + half];
        __syncthreads();
    }
    if (t == 0)
        *out += s[0];
}
int main()
{
    int *x, *out;
    cudaMalloc(&x, 256 * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(x, 0, 256 * sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    sum<<<4, 64>>>(x, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
