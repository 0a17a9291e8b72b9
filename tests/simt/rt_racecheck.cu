// expect-hazard: race: shared write at rt_racecheck.cu:13
// expect-hazard: uninitialized: shared read of 4 bytes at rt_racecheck.cu:15
// A reduction step reads a neighbour's slot without the __syncthreads()
// that should separate it from the neighbour's write: a race, and a read
// of a slot no thread has written yet.  The correct kernel beside it
// reports nothing; the program checks its result, the runner the report.
#include <cstdio>

__global__ void racy(int *out)
{
	__shared__ int s[64];
	int t = threadIdx.x;
	s[t] = t;
	/* missing __syncthreads() */
	out[t] = s[(t + 32) % 64];
}

__global__ void clean(int *out)
{
	__shared__ int s[64];
	int t = threadIdx.x;
	s[t] = t;
	__syncthreads();
	int v = s[(t + 32) % 64];
	__syncthreads();
	s[t] = v * 2;
	__syncwarp();
	out[t] = s[t ^ 1];
}

int main()
{
	int *d, h[64];
	if (cudaMalloc(&d, sizeof h))
		return 1;
	racy<<<1, 64>>>(d);
	clean<<<1, 64>>>(d);
	if (cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost))
		return 1;
	for (int t = 0; t < 64; t++)
		if (h[t] != 2 * (((t ^ 1) + 32) % 64)) {
			fprintf(stderr, "FAIL clean %d got %d\n", t, h[t]);
			return 1;
		}
	printf("ok rt_racecheck\n");
	return 0;
}
