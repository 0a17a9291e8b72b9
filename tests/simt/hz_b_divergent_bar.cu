// expect-hazard: barrier: divergent __syncthreads() at hz_b_divergent_bar.cu:12 ... waited at another __syncthreads() at hz_b_divergent_bar.cu:15
//
//
// __syncthreads() inside a branch that splits a warp: lanes 0-15 wait at
// it while lanes 16-31 go on to another __syncthreads().
__global__ void split(int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 16) {
        __syncthreads();
        out[t] = s[31 - t];
    } else {
        __syncthreads();
        out[t] = s[31 - t];
    }
}
int main()
{
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    split<<<1, 32>>>(out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
