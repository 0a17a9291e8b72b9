// expect-hazard: race: shared read at hz_b_read_then_write.cu:17 ... and shared write at hz_b_read_then_write.cu:19 ... no synchronization orders them || shared write at hz_b_read_then_write.cu:19 ... and shared read at hz_b_read_then_write.cu:17 ... no synchronization orders them
//
// Every thread reads its neighbour's element after a barrier, then
// overwrites its own without a second barrier: the neighbour may still be
// reading it.  The reads come in a stretch where nothing but reads
// happens after a full barrier, which simt checks in bulk; the write that
// ends the stretch must still meet them.
__global__ void shift(const int *in, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    int v;

    s[t] = in[t];
    __syncthreads();
    for (int k = 0; k < 4; k++)
        v = s[(t + 32) % 128] + k;
    out[t] = v;
    s[t] = v;
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 128 * sizeof(int));
    cudaMalloc(&out, 128 * sizeof(int));
    cudaMemset(in, 0, 128 * sizeof(int));
    shift<<<1, 128>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
