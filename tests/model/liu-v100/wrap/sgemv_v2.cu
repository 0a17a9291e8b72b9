// Sgemv_v2 of upstream sgemv/Sgemv_v2.cu: two rows per warp, blocks of 32 x 4 threads (N <= 16).
#include "wrap.h"
#define main liu_sgemv_v2_main
#include "../upstream/sgemv/Sgemv_v2.cu"
#undef main

// M and N are the program's command-line arguments; the README's table
// gives them and driver.cu passes them.  One launch, where the program
// times a loop of 1000.
int liu_launch_sgemv_v2(size_t m, size_t n)
{
	return liu_sgemv("Sgemv_v2", m, n, [=](float *a, float *x, float *y) {
		const int rows_per_warp = 2, rows_per_block = 4 * rows_per_warp;
		Sgemv_v2<rows_per_warp><<<m / rows_per_block, dim3(32, 4)>>>(a, x, y, m, n);
	});
}
