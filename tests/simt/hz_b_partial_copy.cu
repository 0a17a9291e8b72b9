// expect-hazard: uninitialized: global read of 4 bytes at hz_b_partial_copy.cu:11 ... 396 bytes into a 400-byte allocation, never written
//
//
// The host copies n - 1 elements of an n-element input: the last one is
// read without ever having been written.
#include <vector>
__global__ void negate(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = -in[i];
}
int main()
{
    const int n = 100;
    std::vector<int> h(n, 1);
    int *in, *out;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemcpy(in, h.data(), (n - 1) * sizeof(int), cudaMemcpyHostToDevice);
    negate<<<1, 128>>>(in, out, n);
    return cudaDeviceSynchronize() != cudaSuccess;
}
