// expect-hazard: race: shared read at hz_b_broadcast_then_write.cu:13 ... and shared write at hz_b_broadcast_then_write.cu:15 by block (0,0,0) thread (0,0,0) ... no synchronization orders them
//
//
// Every lane of a warp reads s[0] in one instruction, then lane 0
// overwrites it without a __syncwarp: the other lanes' reads are not
// ordered before the write.  Lane 0 read it too, first.
__global__ void bcast(int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t + 1;
    __syncwarp();
    int a = s[0];
    if (t == 0)
        s[0] = 7;
    __syncwarp();
    out[t] = a + s[t];
}
int main()
{
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    bcast<<<1, 32>>>(out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
