// expect-hazard: uninitialized: global read of 4 bytes at hz_b_uninit_global.cu:9 ... never written
//
//
// The input is allocated but never copied to or set: the kernel reads
// whatever the allocation held.
__global__ void twice(const float *in, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
}
int main()
{
    float *in, *out;
    cudaMalloc(&in, 256 * sizeof(float));
    cudaMalloc(&out, 256 * sizeof(float));
    twice<<<2, 128>>>(in, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
