// expect-hazard: race: shared read at hz_b_scan_inplace.cu:16 ... and shared write at hz_b_scan_inplace.cu:16 ... no synchronization orders them
//
//
// A Hillis-Steele scan in one shared array with one barrier per step: a
// thread adds s[t - d] while thread t - d may already be writing its own
// new value.  The textbook version double-buffers or reads, syncs, then
// writes.
__global__ void scan(const int *in, int *out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    for (int d = 1; d < 64; d *= 2) {
        if (t >= d)
            s[t] += s[t - d];
        __syncthreads();
    }
    out[t] = s[t];
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(in, 0, 64 * sizeof(int));
    scan<<<1, 64>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
