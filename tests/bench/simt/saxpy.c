/* The work of saxpy.cu as single-threaded C. */
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
	const int n = 1 << 22;
	float *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
	double sum = 0;

	for (int i = 0; i < n; i++) {
		x[i] = (float)(i % 1000);
		y[i] = 1.0f;
	}
	double t0 = now();
	for (int i = 0; i < n; i++)
		y[i] = 2.0f * x[i] + y[i];
	printf("seconds=%.9f\n", now() - t0);
	for (int i = 0; i < n; i += 4099)
		sum += y[i];
	printf("%g\n", sum);
	return 0;
}
