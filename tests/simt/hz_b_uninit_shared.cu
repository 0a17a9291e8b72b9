// expect-hazard: uninitialized: shared read of 4 bytes at hz_b_uninit_shared.cu:13 ... not written by this block
//
//
// Only the first half of the block fills the shared array, but every
// thread reads its own slot.
__global__ void stage(const int *in, int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;
    if (t < 64)
        s[t] = in[t];
    __syncthreads();
    out[t] = s[t];
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 128 * sizeof(int));
    cudaMalloc(&out, 128 * sizeof(int));
    cudaMemset(in, 0, 128 * sizeof(int));
    stage<<<1, 128>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
