// expect-hazard: barrier: __shfl_sync() at hz_b_shfl_divergent.cu:12 ... reads lane 16, which has exited
//
// A shuffle naming all 32 lanes inside a branch that only 16 take.  The
// other 16 exit without it, which CUDA allows (only non-exited lanes must
// take part), but lanes 8-15 read the values of lanes 16-23, which are
// undefined.
__global__ void sum16(const int *in, int *out)
{
    int lane = threadIdx.x, v = in[lane];
    if (lane < 16) {
        for (int o = 8; o > 0; o /= 2)
            v += __shfl_down_sync(0xffffffffu, v, o);
    }
    if (lane == 0)
        out[0] = v;
}
int main()
{
    int *in, *out;
    cudaMalloc(&in, 32 * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemset(in, 0, 32 * sizeof(int));
    sum16<<<1, 32>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
