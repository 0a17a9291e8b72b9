// expect-hazard: barrier: __shfl_sync() at hz_b_shfl_exited.cu:11 ... reads lane 16, which is not taking part in the shuffle
//
//
// The lower half of the warp shuffles among itself, but reads lanes of the
// upper half, which have exited.
__global__ void fold(const int *in, int *out)
{
    int lane = threadIdx.x, v = in[lane];
    if (lane >= 16)
        return;
    v += __shfl_sync(0x0000ffffu, v, lane + 16);
    out[lane] = v;
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(in, 0, 32 * sizeof(int));
    fold<<<1, 32>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
