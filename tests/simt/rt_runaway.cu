// expect: exit=1 env=CUDALAB_SIMT_MAX_INSTRUCTIONS=3000000 stderr=budget [simt-only]
// Must fail on simt: a kernel that never ends is stopped once it has run
// CUDALAB_SIMT_MAX_INSTRUCTIONS warp instructions, with a message, and the
// launch reports cudaErrorLaunchTimeout.  Exit status 1 when it does.
#include <cstdio>

__global__ void forever(volatile int *flag)
{
	while (*flag == 0)
		;
}

int main()
{
	int *d;
	if (cudaMalloc(&d, sizeof(int)) != cudaSuccess ||
	    cudaMemset(d, 0, sizeof(int)) != cudaSuccess)
		return 2;
	forever<<<4, 64>>>(d);
	cudaError_t e = cudaDeviceSynchronize();
	if (e == cudaErrorLaunchTimeout)
		return 1;
	fprintf(stderr, "FAIL expected cudaErrorLaunchTimeout, got %s\n",
		cudaGetErrorName(e));
	return 2;
}
