/* The work of cublas.cu as the naive single-threaded triple loop
 * (column-major, j-p-i order so the inner loop runs down columns). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	const int n = 1024;
	size_t nn = (size_t)n * n;
	float *a = malloc(nn * sizeof *a), *c = calloc(nn, sizeof *c);

	for (size_t i = 0; i < nn; i++)
		a[i] = (float)(i % 17) * 0.125f - 1.0f;
	double t0 = now();
	for (int j = 0; j < n; j++)
		for (int p = 0; p < n; p++) {
			float bpj = a[p + (size_t)j * n];

			for (int i = 0; i < n; i++)
				c[i + (size_t)j * n] += a[i + (size_t)p * n] * bpj;
		}
	double s = now() - t0;
	printf("seconds=%.6f gflops=%.2f c=%g\n", s, 2.0 * n * n * n / s / 1e9, c[12345]);
	return 0;
}
