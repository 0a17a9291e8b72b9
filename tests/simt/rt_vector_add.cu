// Vector add over a size that is not a multiple of the block, with the
// result checked element by element against the CPU.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CHECK(call)                                                          \
	do {                                                                 \
		cudaError_t e_ = (call);                                     \
		if (e_ != cudaSuccess) {                                     \
			printf("FAIL %s:%d: %s\n", __FILE__, __LINE__,       \
			       cudaGetErrorString(e_));                      \
			exit(1);                                             \
		}                                                            \
	} while (0)

__global__ void add(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

__global__ void saxpy_grid_stride(float s, const float *x, float *y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		y[i] = s * x[i] + y[i];
}

int main()
{
	const int n = 1000003;
	float *a = (float *)malloc(n * sizeof(float));
	float *b = (float *)malloc(n * sizeof(float));
	float *c = (float *)malloc(n * sizeof(float));
	for (int i = 0; i < n; i++) {
		a[i] = (float)(i % 1000) * 0.5f;
		b[i] = (float)(i % 77) - 30.0f;
	}
	float *da, *db, *dc;
	CHECK(cudaMalloc(&da, n * sizeof(float)));
	CHECK(cudaMalloc(&db, n * sizeof(float)));
	CHECK(cudaMalloc(&dc, n * sizeof(float)));
	CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
	CHECK(cudaMemset(dc, 0xff, n * sizeof(float)));
	add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
	CHECK(cudaGetLastError());
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(c, dc, n * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		if (c[i] != a[i] + b[i]) {
			printf("FAIL add: c[%d] = %g, expected %g\n", i, c[i],
			       a[i] + b[i]);
			return 1;
		}
	}
	saxpy_grid_stride<<<40, 128>>>(2.5f, da, db, n);
	CHECK(cudaDeviceSynchronize());
	CHECK(cudaMemcpy(c, db, n * sizeof(float), cudaMemcpyDeviceToHost));
	for (int i = 0; i < n; i++) {
		float want = 2.5f * a[i] + b[i];
		if (c[i] != want) {
			printf("FAIL saxpy: y[%d] = %g, expected %g\n", i, c[i], want);
			return 1;
		}
	}
	CHECK(cudaFree(da));
	CHECK(cudaFree(db));
	CHECK(cudaFree(dc));
	printf("vector add ok\n");
	return 0;
}
