// ALU-bound: each thread iterates a mix of integer and float arithmetic.
#include <cstdio>
#include <cstdlib>

#define ITERS 256

__global__ void alu(unsigned *out, float *fout)
{
	unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
	float f = (float)x * 0.5f;
	for (int i = 0; i < ITERS; i++) {
		x = x * 1664525u + 1013904223u;
		x ^= x >> 13;
		f = fmaf(f, 0.999f, (float)(x & 255) * 0.001f);
	}
	out[blockIdx.x * blockDim.x + threadIdx.x] = x;
	fout[blockIdx.x * blockDim.x + threadIdx.x] = f;
}

int main(void)
{
	const int blocks = 128, threads = 256, n = blocks * threads;
	unsigned *d, *h = (unsigned *)malloc(n * sizeof *h);
	float *df, *hf = (float *)malloc(n * sizeof *hf);

	cudaMalloc(&d, n * sizeof *d);
	cudaMalloc(&df, n * sizeof *df);
	alu<<<blocks, threads>>>(d, df);
	cudaMemcpy(h, d, n * sizeof *h, cudaMemcpyDeviceToHost);
	cudaMemcpy(hf, df, n * sizeof *hf, cudaMemcpyDeviceToHost);
	for (int t = 0; t < n; t += 977) {
		unsigned x = t;
		for (int i = 0; i < ITERS; i++) {
			x = x * 1664525u + 1013904223u;
			x ^= x >> 13;
		}
		if (h[t] != x) {
			printf("FAIL alu %d: expected %u got %u\n", t, x, h[t]);
			return 1;
		}
	}
	printf("ok alu\n");
	return 0;
}
