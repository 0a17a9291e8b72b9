// Error semantics as on a GPU: launch-configuration errors are returned
// once and cleared by cudaGetLastError; a kernel fault is sticky (every
// later call returns it) until cudaDeviceReset; copies with bad pointers
// fail without side effects.
#include <cstdio>

static int failures;

static void expect(cudaError_t got, cudaError_t want, const char *what)
{
	if (got != want) {
		fprintf(stderr, "FAIL %s: expected %s, got %s\n", what,
			cudaGetErrorName(want), cudaGetErrorName(got));
		failures++;
	}
}

__global__ void fill(int *p, int v)
{
	p[threadIdx.x] = v;
}

__global__ void big_shared(int *p)
{
	extern __shared__ int s[];
	s[threadIdx.x] = threadIdx.x;
	__syncthreads();
	p[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}

__global__ void wild(int *p)
{
	if (threadIdx.x == 3)
		p[1 << 28] = 1;
}

int main()
{
	int *d, h[64];

	expect(cudaMalloc(&d, 64 * sizeof(int)), cudaSuccess, "cudaMalloc");
	fill<<<1, 1025>>>(d, 1);
	expect(cudaGetLastError(), cudaErrorInvalidConfiguration, "1025 threads");
	expect(cudaGetLastError(), cudaSuccess, "error cleared");
	fill<<<1, dim3(1, 1, 65)>>>(d, 1);
	expect(cudaGetLastError(), cudaErrorInvalidConfiguration, "block z 65");
	fill<<<dim3(1, 65536), 1>>>(d, 1);
	expect(cudaGetLastError(), cudaErrorInvalidConfiguration, "grid y 65536");
	fill<<<0, 32>>>(d, 1);
	expect(cudaGetLastError(), cudaErrorInvalidConfiguration, "empty grid");
	big_shared<<<1, 64, 64 * 1024>>>(d);
	expect(cudaGetLastError(), cudaErrorInvalidValue, "64 KiB dynamic shared");
	expect(cudaFuncSetAttribute(big_shared,
				    cudaFuncAttributeMaxDynamicSharedMemorySize,
				    64 * 1024),
	       cudaSuccess, "opt in to 64 KiB");
	big_shared<<<1, 64, 64 * 1024>>>(d);
	expect(cudaGetLastError(), cudaSuccess, "64 KiB after opt-in");
	expect(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess,
	       "copy back");
	for (int i = 0; i < 64; i++)
		if (h[i] != (i + 1) % 64) {
			fprintf(stderr, "FAIL big_shared[%d] = %d\n", i, h[i]);
			failures++;
			break;
		}

	expect(cudaMemcpy(h, d, 65 * sizeof(int), cudaMemcpyDeviceToHost),
	       cudaErrorInvalidValue, "copy past the allocation");
	expect(cudaMemcpy(d, h, sizeof h, (cudaMemcpyKind)7),
	       cudaErrorInvalidMemcpyDirection, "bad direction");
	expect(cudaFree(h), cudaErrorInvalidValue, "free a host pointer");
	expect(cudaGetLastError(), cudaErrorInvalidValue, "last error");
	expect(cudaPeekAtLastError(), cudaSuccess, "cleared after get");

	fill<<<1, 64>>>(d, 7);
	expect(cudaDeviceSynchronize(), cudaSuccess, "good kernel");
	wild<<<1, 32>>>(d);
	expect(cudaDeviceSynchronize(), cudaErrorIllegalAddress, "fault");
	expect(cudaGetLastError(), cudaErrorIllegalAddress, "sticky 1");
	expect(cudaGetLastError(), cudaErrorIllegalAddress, "sticky 2");
	int *e;
	expect(cudaMalloc(&e, 16), cudaErrorIllegalAddress, "malloc after fault");
	fill<<<1, 32>>>(d, 1);
	expect(cudaGetLastError(), cudaErrorIllegalAddress, "launch after fault");
	expect(cudaDeviceReset(), cudaSuccess, "reset");
	expect(cudaGetLastError(), cudaSuccess, "reset clears");
	expect(cudaMalloc(&d, 64 * sizeof(int)), cudaSuccess, "malloc after reset");
	fill<<<1, 64>>>(d, 5);
	expect(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess,
	       "copy after reset");
	for (int i = 0; i < 64; i++)
		if (h[i] != 5) {
			fprintf(stderr, "FAIL after reset h[%d] = %d\n", i, h[i]);
			failures++;
			break;
		}
	if (strcmp(cudaGetErrorName(cudaErrorIllegalAddress),
		   "cudaErrorIllegalAddress") ||
	    strcmp(cudaGetErrorString(cudaErrorIllegalAddress),
		   "an illegal memory access was encountered") ||
	    strcmp(cudaGetErrorString(cudaSuccess), "no error")) {
		fprintf(stderr, "FAIL error names\n");
		failures++;
	}
	if (failures)
		return 1;
	printf("ok rt_errors\n");
	return 0;
}
