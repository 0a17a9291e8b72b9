// expect-hazard: barrier: divergent __syncthreads() at hz_b_early_return_bar.cu:13 ... exited without reaching it
//
//
// Threads past n return before the block's __syncthreads(), and n splits
// a warp: the barrier is reached by part of the warp only.
__global__ void scale(const float *in, float *out, int n)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t >= n)
        return;
    s[t] = in[t];
    __syncthreads();
    out[t] = 2.0f * s[n - 1 - t];
}
int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    cudaMemset(in, 0, 64 * sizeof(float));
    scale<<<1, 64>>>(in, out, 40);
    return cudaDeviceSynchronize() != cudaSuccess;
}
