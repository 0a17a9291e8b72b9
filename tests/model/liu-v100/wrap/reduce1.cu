// reduce1 of upstream reduce/reduce_v1_no_divergence_branch.cu: one block of 256 threads per 256 elements.
#include "wrap.h"
#define main liu_reduce1_main
#define check liu_reduce1_check
#include "../upstream/reduce/reduce_v1_no_divergence_branch.cu"
#undef main
#undef check

int liu_launch_reduce1(bool small)
{
	int n = liu_elements(small), blocks = n / (THREAD_PER_BLOCK);
	return liu_reduce("reduce1", n, blocks, [=](float *in, float *out) {
		reduce1<<<blocks, THREAD_PER_BLOCK>>>(in, out);
	});
}
