// A program reading its own simt counters while it runs, through
// cudalab_simt_counter() (what lab.h's lab::simt_counters() calls): the
// first call turns counting on and reads 0, later calls read totals over
// every kernel since, and an unknown name is refused.  The symbol is
// declared weak, so on a GPU it is null and the program says it skipped.
#include <cstring>

#include "check.h"
#include "counter.h"

enum { N = 4096, THREADS = 256 };

__global__ void copy(const float *in, float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = in[i];
}

__global__ void strided(const float *in, float *out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	out[i] = in[(i * 8) % N];
}

__global__ void banks(float *out)
{
	__shared__ float s[THREADS * 32];
	int t = threadIdx.x;
	s[t * 32] = (float)t; // every lane of a warp in bank 0
	__syncthreads();
	out[blockIdx.x * blockDim.x + t] = s[t * 32];
}

static void want(const char *what, unsigned long long got, unsigned long long v)
{
	if (got != v) {
		fprintf(stderr, "FAIL %s expected %llu got %llu\n", what, v, got);
		failures++;
	}
}

int main()
{
	if (!cudalab_simt_counter) {
		printf("skip rt_counter_query: no simt counters here\n");
		return 0;
	}
	float *a, *b;
	if (cudaMalloc(&a, N * sizeof(float)) || cudaMalloc(&b, N * sizeof(float)) ||
	    cudaMemset(a, 0, N * sizeof(float))) {
		fprintf(stderr, "FAIL allocation\n");
		return 1;
	}
	// Launched before the first call: not counted (unless the variable
	// CUDALAB_SIMT_COUNTERS had turned counting on from the start).
	copy<<<N / THREADS, THREADS>>>(a, b);
	cudaDeviceSynchronize();
	unsigned long long l0 = counter("launches"), s0 = counter("global_load_sectors");
	unsigned long long r0 = counter("global_load_requests");
	unsigned long long c0 = counter("shared_bank_conflicts");

	const unsigned long long warps = N / 32;
	copy<<<N / THREADS, THREADS>>>(a, b);
	cudaDeviceSynchronize();
	want("launches after copy", counter("launches") - l0, 1);
	want("copy load requests", counter("global_load_requests") - r0, warps);
	want("copy load sectors", counter("global_load_sectors") - s0, warps * 4);

	strided<<<N / THREADS, THREADS>>>(a, b);
	cudaDeviceSynchronize();
	want("strided load sectors", counter("global_load_sectors") - s0, warps * 4 + warps * 32);

	banks<<<N / THREADS, THREADS>>>(b);
	cudaDeviceSynchronize();
	// One store and one load per warp, 32 lanes on 32 words of one bank;
	// simt keeps up to 8 distinct words per bank, so it counts 7 extra
	// passes for each (a GPU would need 31).
	want("bank conflicts", counter("shared_bank_conflicts") - c0, warps * 2 * 7);
	want("launches", counter("launches") - l0, 3);

	unsigned long long v = 0;
	if (cudalab_simt_counter("no_such_counter", &v) != -1 ||
	    cudalab_simt_counter(nullptr, &v) != -1) {
		fprintf(stderr, "FAIL an unknown counter name was accepted\n");
		failures++;
	}
	if (failures)
		return 1;
	printf("ok rt_counter_query\n");
	return 0;
}
