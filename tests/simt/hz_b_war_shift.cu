// expect-hazard: race: shared read at hz_b_war_shift.cu:15 ... and shared write at hz_b_war_shift.cu:16 ... no synchronization orders them
//
//
// An in-place shift left in shared memory: thread t reads s[t + 1] while
// thread t + 1, in another warp at the warp boundary, may already have
// overwritten it.  A barrier between the read and the write is missing.
__global__ void shift(int *out)
{
    __shared__ int s[129];
    int t = threadIdx.x;
    s[t] = t;
    if (t == 0)
        s[128] = 128;
    __syncthreads();
    int v = s[t + 1];
    s[t] = v;
    __syncthreads();
    out[t] = s[t];
}
int main()
{
    int *out;
    cudaMalloc(&out, 128 * sizeof(int));
    shift<<<1, 128>>>(out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
