// reduce5 of upstream reduce/reduce_v5_completely_unroll.cu: one block of 256 threads per 512 elements.
#include "wrap.h"
#define main liu_reduce5_main
#define check liu_reduce5_check
#include "../upstream/reduce/reduce_v5_completely_unroll.cu"
#undef main
#undef check

int liu_launch_reduce5(bool small)
{
	int n = liu_elements(small), blocks = n / (2 * THREAD_PER_BLOCK);
	return liu_reduce("reduce5", n, blocks, [=](float *in, float *out) {
		reduce5<THREAD_PER_BLOCK><<<blocks, THREAD_PER_BLOCK>>>(in, out);
	});
}
