// expect-hazard: race: shared read at hz_b_tree_nobar.cu:15 ... and shared write at hz_b_tree_nobar.cu:15 ... no synchronization orders them
//
//
// A block sum in shared memory without a barrier between halving steps:
// a thread reads a slot another thread is still updating.
#include <cstdio>
__global__ void block_sum(const int *x, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * 128 + t];
    __syncthreads();
    for (int half = 64; half > 0; half /= 2) {
        if (t < half)
            s[t] += s[t + half];
    }
    if (t == 0)
        atomicAdd(out, s[0]);
}
int main()
{
    int *x, *out;
    cudaMalloc(&x, 256 * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(x, 0, 256 * sizeof(int));
    cudaMemset(out, 0, sizeof(int));
    block_sum<<<2, 128>>>(x, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
