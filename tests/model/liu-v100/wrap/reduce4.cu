// reduce4 of upstream reduce/reduce_v4_unroll_last_warp.cu: one block of 256 threads per 512 elements.
#include "wrap.h"
#define main liu_reduce4_main
#define check liu_reduce4_check
#include "../upstream/reduce/reduce_v4_unroll_last_warp.cu"
#undef main
#undef check

int liu_launch_reduce4(bool small)
{
	int n = liu_elements(small), blocks = n / (2 * THREAD_PER_BLOCK);
	return liu_reduce("reduce4", n, blocks, [=](float *in, float *out) {
		reduce4<<<blocks, THREAD_PER_BLOCK>>>(in, out);
	});
}
