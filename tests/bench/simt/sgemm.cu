// Register-tiled SGEMM, C = A * B with 512x512 row-major matrices: each
// block of 16x16 threads computes a 128x128 tile of C, each thread an 8x8
// patch of it held in registers, over K in steps of 16 through shared
// tiles that are filled and read as float4.  The inputs are small integers,
// so every sum is exact and the check compares for equality.
#include <cstdio>
#include <cstdlib>

#define N 512
#define TILE 128
#define STEP 16
#define PER 8

__global__ void __launch_bounds__(256) sgemm(const float *a, const float *b, float *c)
{
	// As holds the A tile transposed: a thread reads its 8 rows of one k
	// as two float4.
	__shared__ float4 As[STEP][TILE / 4];
	__shared__ float4 Bs[STEP][TILE / 4];
	int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
	int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
	float acc[PER][PER] = {};

	for (int k0 = 0; k0 < N; k0 += STEP) {
		for (int i = threadIdx.x; i < TILE * STEP / 4; i += blockDim.x) {
			int r = i / (STEP / 4), k = i % (STEP / 4) * 4;
			float4 v = *(const float4 *)&a[(row0 + r) * N + k0 + k];
			float *at = (float *)As;
			at[(k + 0) * TILE + r] = v.x;
			at[(k + 1) * TILE + r] = v.y;
			at[(k + 2) * TILE + r] = v.z;
			at[(k + 3) * TILE + r] = v.w;
			int kb = i / (TILE / 4), cb = i % (TILE / 4);
			Bs[kb][cb] = *(const float4 *)&b[(k0 + kb) * N + col0 + cb * 4];
		}
		__syncthreads();
		for (int k = 0; k < STEP; k++) {
			float4 a0 = As[k][ty * 2], a1 = As[k][ty * 2 + 1];
			float4 b0 = Bs[k][tx * 2], b1 = Bs[k][tx * 2 + 1];
			float av[PER] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
			float bv[PER] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
			for (int i = 0; i < PER; i++)
				for (int j = 0; j < PER; j++)
					acc[i][j] = fmaf(av[i], bv[j], acc[i][j]);
		}
		__syncthreads();
	}
	for (int i = 0; i < PER; i++) {
		float *out = &c[(row0 + ty * PER + i) * N + col0 + tx * PER];
		*(float4 *)out = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
		*(float4 *)(out + 4) = make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]);
	}
}

int main(void)
{
	size_t bytes = (size_t)N * N * sizeof(float);
	float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes), *c = (float *)malloc(bytes);
	float *da, *db, *dc;

	for (int i = 0; i < N * N; i++) {
		a[i] = (float)(i % 5 - 2);
		b[i] = (float)(i % 7 - 3);
	}
	cudaMalloc(&da, bytes);
	cudaMalloc(&db, bytes);
	cudaMalloc(&dc, bytes);
	cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
	cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
	sgemm<<<dim3(N / TILE, N / TILE), 256>>>(da, db, dc);
	cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
	for (int r = 0; r < N; r += 37)
		for (int col = 0; col < N; col += 41) {
			float want = 0;
			for (int k = 0; k < N; k++)
				want += a[r * N + k] * b[k * N + col];
			if (c[r * N + col] != want) {
				printf("FAIL sgemm (%d,%d): expected %g got %g\n", r, col, want,
				       c[r * N + col]);
				return 1;
			}
		}
	printf("ok sgemm\n");
	return 0;
}
