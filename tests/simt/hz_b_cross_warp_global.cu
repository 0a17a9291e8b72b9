// expect-hazard: race: global write at hz_b_cross_warp_global.cu:10 ... and global read at hz_b_cross_warp_global.cu:12 ... no synchronization orders them
//
//
// Warp 1 writes a global buffer that warp 0 of the same block reads, with
// no barrier between them.
__global__ void handoff(int *buf, int *out)
{
    int t = threadIdx.x;
    if (t >= 32)
        buf[t - 32] = t;
    else
        out[t] = buf[t];
}
int main()
{
    int *buf, *out;
    cudaMalloc(&buf, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(buf, 0, 32 * sizeof(int));
    handoff<<<1, 64>>>(buf, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
