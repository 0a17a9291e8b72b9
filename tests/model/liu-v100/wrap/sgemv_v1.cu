// Sgemv_v1 of upstream sgemv/Sgemv_v1.cu: one warp per row, blocks of 32 x 4 threads (N >= 128).
#include "wrap.h"
#define main liu_sgemv_v1_main
#include "../upstream/sgemv/Sgemv_v1.cu"
#undef main

// M and N are the program's command-line arguments; the README's table
// gives them and driver.cu passes them.  One launch, where the program
// times a loop of 1000.
int liu_launch_sgemv_v1(size_t m, size_t n)
{
	return liu_sgemv("Sgemv_v1", m, n, [=](float *a, float *x, float *y) {
		Sgemv_v1<<<m / 4, dim3(32, 4)>>>(a, x, y, m, n);
	});
}
