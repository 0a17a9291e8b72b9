// Shared memory: a 1024x1024 transpose through padded 32x32 tiles.
#include <cstdio>
#include <cstdlib>

#define TILE 32
#define ROWS 8

__global__ void transpose(float *out, const float *in, int n)
{
	__shared__ float tile[TILE][TILE + 1];
	int x = blockIdx.x * TILE + threadIdx.x;
	int y = blockIdx.y * TILE + threadIdx.y;

	for (int j = 0; j < TILE; j += ROWS)
		tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * TILE + threadIdx.x;
	y = blockIdx.x * TILE + threadIdx.y;
	for (int j = 0; j < TILE; j += ROWS)
		out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(void)
{
	const int n = 1024;
	size_t bytes = (size_t)n * n * sizeof(float);
	float *h = (float *)malloc(bytes), *g = (float *)malloc(bytes), *din, *dout;

	for (int i = 0; i < n * n; i++)
		h[i] = (float)i;
	cudaMalloc(&din, bytes);
	cudaMalloc(&dout, bytes);
	cudaMemcpy(din, h, bytes, cudaMemcpyHostToDevice);
	transpose<<<dim3(n / TILE, n / TILE), dim3(TILE, ROWS)>>>(dout, din, n);
	cudaMemcpy(g, dout, bytes, cudaMemcpyDeviceToHost);
	for (int r = 0; r < n; r += 7)
		for (int c = 0; c < n; c += 13)
			if (g[r * n + c] != h[c * n + r]) {
				printf("FAIL transpose (%d,%d)\n", r, c);
				return 1;
			}
	printf("ok transpose\n");
	return 0;
}
