/* The work of sgemm.cu as single-threaded C (i-k-j order, so the inner
 * loop runs along rows and the compiler vectorises it). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 512

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
	float *a = malloc(N * N * sizeof *a), *b = malloc(N * N * sizeof *b);
	float *c = calloc(N * N, sizeof *c);
	double sum = 0;

	for (int i = 0; i < N * N; i++) {
		a[i] = (float)(i % 5 - 2);
		b[i] = (float)(i % 7 - 3);
	}
	double t0 = now();
	for (int i = 0; i < N; i++)
		for (int k = 0; k < N; k++) {
			float x = a[i * N + k];

			for (int j = 0; j < N; j++)
				c[i * N + j] += x * b[k * N + j];
		}
	printf("seconds=%.9f\n", now() - t0);
	for (int i = 0; i < N * N; i += 4099)
		sum += c[i];
	printf("%g\n", sum);
	return 0;
}
