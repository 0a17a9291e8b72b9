// expect-hazard: race: shared read at hz_b_hist_plain.cu:13 ... and shared write at hz_b_hist_plain.cu:13 ... no synchronization orders them
// expect-hazard: race: shared write at hz_b_hist_plain.cu:13 ... and shared write at hz_b_hist_plain.cu:13 ... no synchronization orders them
//
// A shared-memory histogram with a plain ++: threads with the same byte
// value increment the same bin at the same time.
__global__ void hist(const unsigned char *in, int *bins)
{
    __shared__ int h[16];
    int t = threadIdx.x;
    if (t < 16)
        h[t] = 0;
    __syncthreads();
    h[in[blockIdx.x * 64 + t] % 16]++;
    __syncthreads();
    if (t < 16)
        atomicAdd(&bins[t], h[t]);
}
int main()
{
    unsigned char *in;
    int *bins;
    cudaMalloc(&in, 128);
    cudaMalloc(&bins, 16 * sizeof(int));
    cudaMemset(in, 3, 128);
    cudaMemset(bins, 0, 16 * sizeof(int));
    hist<<<2, 64>>>(in, bins);
    return cudaDeviceSynchronize() != cudaSuccess;
}
