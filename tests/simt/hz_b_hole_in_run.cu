// expect-hazard: uninitialized: global read of 4 bytes at hz_b_hole_in_run.cu:12 ... 148 bytes into a 256-byte allocation, never written
//
// Two memsets leave one element of the input unwritten, and a warp reads
// a run of 32 elements around it from an address that is not 8-byte
// aligned.  The whole run's initialised bytes are checked at once; the
// hole in its middle must still be found, and named.
__global__ void shift(const int *in, int *out)
{
    int t = threadIdx.x;

    if (t < 32)
        out[t] = in[9 + t];
}
int main()
{
    int *in, *out;

    cudaMalloc(&in, 64 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(in, 0, 37 * sizeof(int));
    cudaMemset(in + 38, 0, 26 * sizeof(int));
    shift<<<1, 32>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
