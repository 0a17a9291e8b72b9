// The classic shared-memory tiled matrix product at the size and repeat
// count of the CUDA samples' matrixMul: C (320 x 640) = A (320 x 320) *
// B (320 x 640), 32 x 32 tiles, one warm-up launch and 300 timed ones.
// Inputs are small integers, so every sum is exact and the check
// compares for equality.
#include <cstdio>
#include <cstdlib>

#define BS 32
#define HA 320
#define WA 320
#define WB 640

__global__ void matmul(float *c, const float *a, const float *b)
{
	__shared__ float as[BS][BS];
	__shared__ float bs[BS][BS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
	float sum = 0;

	for (int k0 = 0; k0 < WA; k0 += BS) {
		as[ty][tx] = a[row * WA + k0 + tx];
		bs[ty][tx] = b[(k0 + ty) * WB + col];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BS; k++)
			sum += as[ty][k] * bs[k][tx];
		__syncthreads();
	}
	c[row * WB + col] = sum;
}

int main(void)
{
	size_t na = (size_t)HA * WA, nb = (size_t)WA * WB, nc = (size_t)HA * WB;
	float *a = (float *)malloc(na * sizeof *a), *b = (float *)malloc(nb * sizeof *b);
	float *c = (float *)malloc(nc * sizeof *c);
	float *da, *db, *dc;
	dim3 grid(WB / BS, HA / BS), block(BS, BS);

	for (size_t i = 0; i < na; i++)
		a[i] = (float)(i % 3);
	for (size_t i = 0; i < nb; i++)
		b[i] = (float)(i % 5) - 2;
	cudaMalloc(&da, na * sizeof *a);
	cudaMalloc(&db, nb * sizeof *b);
	cudaMalloc(&dc, nc * sizeof *c);
	cudaMemcpy(da, a, na * sizeof *a, cudaMemcpyHostToDevice);
	cudaMemcpy(db, b, nb * sizeof *b, cudaMemcpyHostToDevice);
	for (int it = 0; it < 301; it++)
		matmul<<<grid, block>>>(dc, da, db);
	cudaMemcpy(c, dc, nc * sizeof *c, cudaMemcpyDeviceToHost);
	for (int i = 0; i < HA; i += 7)
		for (int j = 0; j < WB; j += 11) {
			float want = 0;

			for (int k = 0; k < WA; k++)
				want += a[i * WA + k] * b[k * WB + j];
			if (c[i * WB + j] != want) {
				printf("FAIL matmul (%d,%d): expected %g got %g\n", i, j, want,
				       c[i * WB + j]);
				return 1;
			}
		}
	printf("ok matmul\n");
	return 0;
}
