// expect: exit=1 stderr=rebuild it with `nvcc --no-compress [simt-only]
// simt-nvcc-flags: -lineinfo -cudart none -arch=sm_80
// Must fail on simt: built without --no-compress, the program's PTX is
// compressed; simt says so and how to rebuild, and launches fail with
// cudaErrorNoKernelImageForDevice.  Exit status 1 when they do.
#include <cstdio>

__global__ void k(int *x)
{
	x[threadIdx.x] = 1;
}

int main()
{
	int *d;
	if (cudaMalloc(&d, 32 * sizeof(int)) != cudaSuccess)
		return 2;
	k<<<1, 32>>>(d);
	cudaError_t e = cudaGetLastError();
	if (e == cudaErrorNoKernelImageForDevice)
		return 1;
	fprintf(stderr, "FAIL expected cudaErrorNoKernelImageForDevice, got %s\n",
		cudaGetErrorName(e));
	return 2;
}
