// expect-hazard: uninitialized: shared read of 4 bytes at hz_b_misplaced_bar.cu:12
// expect-hazard: race: shared write at hz_b_misplaced_bar.cu:11 ... and shared read at hz_b_misplaced_bar.cu:12 ... no synchronization orders them
//
// The barrier comes before the write instead of between the write and the
// neighbour's read.
__global__ void neighbours(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    __syncthreads();
    s[t] = in[t];
    out[t] = s[(t + 32) % 64];
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(int));
    neighbours<<<1, 64>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
