/* The work of alu.cu as single-threaded C. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define ITERS 256

int main(void)
{
	const int n = 128 * 256;
	unsigned *out = malloc(n * sizeof *out);
	float *fout = malloc(n * sizeof *fout);
	unsigned long long sum = 0;

	double t0 = now();
	for (int t = 0; t < n; t++) {
		unsigned x = (unsigned)t;
		float f = (float)t * 0.5f;
		for (int i = 0; i < ITERS; i++) {
			x = x * 1664525u + 1013904223u;
			x ^= x >> 13;
			f = fmaf(f, 0.999f, (float)(x & 255) * 0.001f);
		}
		out[t] = x;
		fout[t] = f;
	}
	printf("seconds=%.9f\n", now() - t0);
	for (int t = 0; t < n; t++)
		sum += out[t] + (unsigned)fout[t];
	printf("%llu\n", sum);
	return 0;
}
