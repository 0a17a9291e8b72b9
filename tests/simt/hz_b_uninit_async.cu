// expect-hazard: uninitialized: global read of 4 bytes at hz_b_uninit_async.cu:7 ... never written
//
//
// Memory from cudaMallocAsync, read before anything wrote it.
__global__ void copy(const int *in, int *out)
{
    out[threadIdx.x] = in[threadIdx.x];
}
int main()
{
    cudaStream_t st;
    int *in, *out;
    cudaStreamCreate(&st);
    cudaMallocAsync(&in, 64 * sizeof(int), st);
    cudaMallocAsync(&out, 64 * sizeof(int), st);
    copy<<<1, 64, 0, st>>>(in, out);
    cudaFreeAsync(in, st);
    cudaFreeAsync(out, st);
    return cudaStreamSynchronize(st) != cudaSuccess;
}
