// cp.async (the pipeline primitives of sm_80) copying global memory into
// shared memory, including a partial copy that zero-fills, then a
// double-buffered tile loop.  simt runs each copy at once.
#include <cstdio>
#include <cuda_pipeline.h>

__global__ void staged(const float *in, float *out, int n)
{
	__shared__ float buf[2][128];
	int t = threadIdx.x, tiles = n / 128;
	__pipeline_memcpy_async(&buf[0][t], &in[t], sizeof(float));
	__pipeline_commit();
	float acc = 0;
	for (int k = 0; k < tiles; k++) {
		if (k + 1 < tiles)
			__pipeline_memcpy_async(&buf[(k + 1) & 1][t],
						&in[(k + 1) * 128 + t], sizeof(float));
		__pipeline_commit();
		__pipeline_wait_prior(1);
		__syncthreads();
		acc += buf[k & 1][127 - t];
		__syncthreads();
	}
	out[t] = acc;
}

__global__ void partial(const int4 *in, int4 *out)
{
	__shared__ int4 s[32];
	int t = threadIdx.x;
	/* copy 16 bytes, of which only 8 come from the source */
	__pipeline_memcpy_async(&s[t], &in[t], sizeof(int4), sizeof(int4) - 8);
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	out[t] = s[31 - t];
}

int main()
{
	const int n = 1024;
	float h[n], r[128], *din, *dout;
	for (int i = 0; i < n; i++)
		h[i] = (float)(i % 97);
	if (cudaMalloc(&din, sizeof h) || cudaMalloc(&dout, sizeof r) ||
	    cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice))
		return 1;
	staged<<<1, 128>>>(din, dout, n);
	if (cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL staged: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	int bad = 0;
	for (int t = 0; t < 128; t++) {
		float want = 0;
		for (int k = 0; k < n / 128; k++)
			want += h[k * 128 + 127 - t];
		if (r[t] != want) {
			fprintf(stderr, "FAIL staged %d expected %g got %g\n", t, want, r[t]);
			bad++;
		}
	}
	int4 hi[32], ho[32], *di, *dio;
	for (int i = 0; i < 32; i++)
		hi[i] = make_int4(i, i + 1, i + 2, i + 3);
	if (cudaMalloc(&di, sizeof hi) || cudaMalloc(&dio, sizeof ho) ||
	    cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice))
		return 1;
	partial<<<1, 32>>>(di, dio);
	if (cudaMemcpy(ho, dio, sizeof ho, cudaMemcpyDeviceToHost)) {
		fprintf(stderr, "FAIL partial: %s\n", cudaGetErrorString(cudaGetLastError()));
		return 1;
	}
	for (int t = 0; t < 32; t++) {
		int s = 31 - t;
		if (ho[t].x != s || ho[t].y != s + 1 || ho[t].z != 0 || ho[t].w != 0) {
			fprintf(stderr, "FAIL partial %d got %d %d %d %d\n", t, ho[t].x,
				ho[t].y, ho[t].z, ho[t].w);
			bad++;
		}
	}
	if (bad)
		return 1;
	printf("ok rt_cp_async\n");
	return 0;
}
