// Shared memory layout across kernels of one program: each kernel gets its
// own static arrays (two kernels of 40 KiB each fit, although together they
// exceed 48 KiB), a device function's __shared__ array used by two kernels,
// and dynamic shared memory after static arrays of different sizes.
#include <cstdio>

enum { BIG = 10 * 1024 };  // floats: 40 KiB

__device__ __noinline__ int neighbour(int t)
{
	__shared__ int common[64];
	if (t < 64)
		common[t] = t;
	__syncthreads();
	return common[(t + 1) % 64];
}

__global__ void first(float *out)
{
	__shared__ float a[BIG];
	int t = threadIdx.x;
	for (int i = t; i < BIG; i += blockDim.x)
		a[i] = i * 0.5f;
	__syncthreads();
	out[t] = a[BIG - 1 - t] + neighbour(t);
}

__global__ void second(float *out)
{
	__shared__ float b[BIG];
	extern __shared__ int dyn[];
	int t = threadIdx.x;
	for (int i = t; i < BIG; i += blockDim.x)
		b[i] = -i;
	dyn[t] = 3 * t;
	__syncthreads();
	out[t] = b[t] + dyn[(t + 5) % blockDim.x] + neighbour(t);
}

__global__ void third(int *out)
{
	__shared__ char small[3];
	extern __shared__ double dd[];
	int t = threadIdx.x;
	if (t < 3)
		small[t] = (char)(t + 1);
	dd[t] = t * 0.25;
	__syncthreads();
	out[t] = small[t % 3] + (int)(dd[blockDim.x - 1 - t] * 4);
}

int main()
{
	const int n = 128;
	float *d, h[n];
	int *di, hi[n];
	if (cudaMalloc(&d, sizeof h) || cudaMalloc(&di, sizeof hi))
		return 1;
	first<<<1, n>>>(d);
	if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL first: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	int bad = 0;
	for (int t = 0; t < n; t++) {
		float base = (BIG - 1 - t) * 0.5f;
		int s = (t + 1) % 64;
		if (h[t] != base + s && h[t] != base + s + 64)
			bad++;
	}
	second<<<1, n, n * sizeof(int)>>>(d);
	float h2[n];
	if (cudaMemcpy(h2, d, sizeof h2, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL second: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	for (int t = 0; t < n; t++) {
		float base = -t + 3 * ((t + 5) % n);
		int s = (t + 1) % 64;
		if (h2[t] != base + s && h2[t] != base + s + 64)
			bad++;
	}
	third<<<1, n, n * sizeof(double)>>>(di);
	if (cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL third: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	for (int t = 0; t < n; t++)
		if (hi[t] != t % 3 + 1 + (n - 1 - t))
			bad++;
	if (bad) {
		fprintf(stderr, "FAIL %d wrong values\n", bad);
		return 1;
	}
	printf("ok rt_shared_layout\n");
	return 0;
}
