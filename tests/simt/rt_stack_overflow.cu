// expect: exit=1 stderr=call stack overflow
// Must fail on simt: unbounded recursion exhausts the per-thread stack
// (cudaLimitStackSize); simt stops the kernel with a message and the
// launch fails with cudaErrorLaunchFailure.  Exit status 1 when it does.
#include <cstdio>

__device__ __noinline__ int down(volatile int *p, int n)
{
	int pad[16];
	for (int i = 0; i < 16; i++)
		pad[i] = p[i] + n;
	return down(p, n + 1) + pad[n & 15];
}

__global__ void recurse(int *p)
{
	p[threadIdx.x] = down(p, 0);
}

int main()
{
	int *d;
	if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess ||
	    cudaMemset(d, 0, 64 * sizeof(int)) != cudaSuccess)
		return 2;
	recurse<<<1, 32>>>(d);
	cudaError_t e = cudaDeviceSynchronize();
	if (e == cudaErrorLaunchFailure || e == cudaErrorIllegalAddress)
		return 1;
	fprintf(stderr, "FAIL expected a launch failure, got %s\n",
		cudaGetErrorName(e));
	return 2;
}
