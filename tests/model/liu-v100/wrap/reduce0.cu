// reduce0 of upstream reduce/reduce_v0_baseline.cu: one block of 256 threads per 256 elements.
#include "wrap.h"
#define main liu_reduce0_main
#define check liu_reduce0_check
#include "../upstream/reduce/reduce_v0_baseline.cu"
#undef main
#undef check

int liu_launch_reduce0(bool small)
{
	int n = liu_elements(small), blocks = n / (THREAD_PER_BLOCK);
	return liu_reduce("reduce0", n, blocks, [=](float *in, float *out) {
		reduce0<<<blocks, THREAD_PER_BLOCK>>>(in, out);
	});
}
