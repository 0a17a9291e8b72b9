// expect-hazard: race: shared write at hz_b_double_buffer.cu:12 ... and shared read at hz_b_double_buffer.cu:14 ... no synchronization orders them
//
//
// A tiled loop that reuses one shared tile: it loads the next tile while
// other warps may still be reading the current one (the barrier before the
// load is missing).
__global__ void sums(const int *in, int *out, int tiles)
{
    __shared__ int tile[64];
    int t = threadIdx.x, acc = 0;
    for (int k = 0; k < tiles; k++) {
        tile[t] = in[k * 64 + t];
        __syncthreads();
        acc += tile[63 - t];
    }
    out[t] = acc;
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 4 * 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(in, 0, 4 * 64 * sizeof(int));
    sums<<<1, 64>>>(in, out, 4);
    return cudaDeviceSynchronize() != cudaSuccess;
}
