// expect: exit=1 stderr=already freed [simt-only]
// Must fail on simt: a kernel reads a buffer after cudaFree; simt names
// the freed allocation and the launch fails with cudaErrorIllegalAddress.
// (A GPU may not fault: the memory can still be mapped.)  Exit status 1
// when that error is reported.
#include <cstdio>

__global__ void reader(const float *p, float *out)
{
	out[threadIdx.x] = p[threadIdx.x];
}

int main()
{
	float *stale, *out;
	if (cudaMalloc(&stale, 4096) || cudaMalloc(&out, 128) ||
	    cudaFree(stale))
		return 2;
	reader<<<1, 32>>>(stale, out);
	cudaError_t e = cudaDeviceSynchronize();
	if (e == cudaErrorIllegalAddress)
		return 1;
	fprintf(stderr, "FAIL expected cudaErrorIllegalAddress, got %s\n",
		cudaGetErrorName(e));
	return e == cudaSuccess ? 0 : 2;
}
