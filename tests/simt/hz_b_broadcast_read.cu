// expect-hazard: race: shared read at hz_b_broadcast_read.cu:14 ... and shared write at hz_b_broadcast_read.cu:17 ... no synchronization orders them || shared write at hz_b_broadcast_read.cu:17 ... and shared read at hz_b_broadcast_read.cu:14 ... no synchronization orders them
//
// Every lane of the first warp reads one word (a broadcast) while the
// second warp overwrites it, with no barrier between them.
__global__ void bcast(int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;

    if (t < 32)
        s[t] = t;
    __syncthreads();
    if (t < 32) {
        int v = s[5];
        out[t] = v;
    } else {
        s[5] = 7;
    }
}
int main()
{
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    bcast<<<1, 64>>>(out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
