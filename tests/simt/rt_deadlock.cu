// expect: exit=1 stderr=deadlock [simt-only]
// Must fail on simt: half of warp 0 waits in __shfl_sync for lanes that
// wait at __syncthreads, which warp 1 never reaches (it returns early).
// simt reports the deadlock instead of hanging, and the launch fails with
// cudaErrorLaunchTimeout.  Exit status 1 when that error is reported.
#include <cstdio>

__global__ void stuck(int *out)
{
	int t = threadIdx.x;
	if (t >= 32)
		return;
	int v = t;
	if (t < 16)
		v = __shfl_sync(0xffffffffu, v, 20);
	else
		__syncthreads();
	out[t] = v;
}

int main()
{
	int *d;
	if (cudaMalloc(&d, 64 * sizeof(int)) != cudaSuccess)
		return 2;
	stuck<<<1, 64>>>(d);
	cudaError_t e = cudaDeviceSynchronize();
	if (e == cudaErrorLaunchTimeout) {
		fprintf(stderr, "deadlock reported as %s\n", cudaGetErrorName(e));
		return 1;
	}
	fprintf(stderr, "FAIL expected cudaErrorLaunchTimeout, got %s\n",
		cudaGetErrorName(e));
	return 2;
}
