// expect-hazard: race: shared read at hz_b_partial_bar_read.cu:19 ... and shared write at hz_b_partial_bar_read.cu:23 ... no synchronization orders them || shared write at hz_b_partial_bar_read.cu:23 ... and shared read at hz_b_partial_bar_read.cu:19 ... no synchronization orders them
//
// The first two warps read the table, then meet at a named barrier of 64
// threads; the last two warps overwrite the table without waiting for
// them.  A barrier that gathers only part of the block orders nothing
// between the two halves.
__global__ void halves(const int *in, int *out)
{
    __shared__ int table[64];
    int t = threadIdx.x;

    if (t < 64)
        table[t] = in[t];
    __syncthreads();
    if (t < 64) {
        int v = 0;

        for (int k = 0; k < 64; k += 16)
            v += table[(t + k) % 64];
        asm volatile("bar.sync 1, 64;");
        out[t] = v;
    } else {
        table[t - 64] = t;
    }
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(int));
    halves<<<1, 128>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
