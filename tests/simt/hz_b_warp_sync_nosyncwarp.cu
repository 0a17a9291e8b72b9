// expect-hazard: race: shared read at hz_b_warp_sync_nosyncwarp.cu:15 ... and shared write at hz_b_warp_sync_nosyncwarp.cu:19 ... no synchronization orders them
// expect-hazard: race: shared read at hz_b_warp_sync_nosyncwarp.cu:16 ... and shared write at hz_b_warp_sync_nosyncwarp.cu:19 ... no synchronization orders them
// expect-hazard: race: shared read at hz_b_warp_sync_nosyncwarp.cu:17 ... and shared write at hz_b_warp_sync_nosyncwarp.cu:19 ... no synchronization orders them
// expect-hazard: race: shared read at hz_b_warp_sync_nosyncwarp.cu:18 ... and shared write at hz_b_warp_sync_nosyncwarp.cu:19 ... no synchronization orders them
// expect-hazard: race: shared read at hz_b_warp_sync_nosyncwarp.cu:19 ... and shared write at hz_b_warp_sync_nosyncwarp.cu:19 ... no synchronization orders them
//
//
// The pre-Volta "warp-synchronous" last steps of a reduction: lanes read
// slots other lanes of the warp write, with no __syncwarp() between steps.
// Lanes of a warp are not guaranteed to run in lockstep since Volta.  Each
// step's read of another lane's slot races with that lane's write (the
// compiler keeps s[t] in a register and stores it once, at the last step).
__device__ void warp_reduce(int *s, int t)
{
    s[t] += s[t + 16];
    s[t] += s[t + 8];
    s[t] += s[t + 4];
    s[t] += s[t + 2];
    s[t] += s[t + 1];
}
__global__ void reduce(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    s[t + 32] = in[t + 32];
    __syncwarp();
    warp_reduce(s, t);
    if (t == 0)
        out[0] = s[0];
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(int));
    reduce<<<1, 32>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
