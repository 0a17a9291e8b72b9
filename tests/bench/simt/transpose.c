/* The work of transpose.cu as single-threaded C, blocked like the kernel. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define TILE 32

int main(void)
{
	const int n = 1024;
	float *in = malloc((size_t)n * n * sizeof *in), *out = malloc((size_t)n * n * sizeof *out);
	double sum = 0;

	for (int i = 0; i < n * n; i++)
		in[i] = (float)i;
	double t0 = now();
	for (int bi = 0; bi < n; bi += TILE)
		for (int bj = 0; bj < n; bj += TILE)
			for (int i = bi; i < bi + TILE; i++)
				for (int j = bj; j < bj + TILE; j++)
					out[j * n + i] = in[i * n + j];
	printf("seconds=%.9f\n", now() - t0);
	for (int i = 0; i < n * n; i += 4099)
		sum += out[i];
	printf("%g\n", sum);
	return 0;
}
