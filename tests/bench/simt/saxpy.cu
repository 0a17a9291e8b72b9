// Memory-bound: y = a*x + y over 4 Mi elements.
#include <cstdio>
#include <cstdlib>

__global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = a * x[i] + y[i];
}

int main(void)
{
	const int n = 1 << 22;
	float *x = (float *)malloc(n * sizeof *x), *y = (float *)malloc(n * sizeof *y);
	float *dx, *dy;

	for (int i = 0; i < n; i++) {
		x[i] = (float)(i % 1000);
		y[i] = 1.0f;
	}
	cudaMalloc(&dx, n * sizeof *dx);
	cudaMalloc(&dy, n * sizeof *dy);
	cudaMemcpy(dx, x, n * sizeof *x, cudaMemcpyHostToDevice);
	cudaMemcpy(dy, y, n * sizeof *y, cudaMemcpyHostToDevice);
	saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
	cudaMemcpy(y, dy, n * sizeof *y, cudaMemcpyDeviceToHost);
	for (int i = 0; i < n; i += 4099) {
		float want = 2.0f * (float)(i % 1000) + 1.0f;
		if (y[i] != want) {
			printf("FAIL saxpy %d: expected %g got %g\n", i, want, y[i]);
			return 1;
		}
	}
	printf("ok saxpy\n");
	return 0;
}
