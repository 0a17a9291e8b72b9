// reduce2 of upstream reduce/reduce_v2_no_bank_conflict.cu: one block of 256 threads per 256 elements.
#include "wrap.h"
#define main liu_reduce2_main
#define check liu_reduce2_check
#include "../upstream/reduce/reduce_v2_no_bank_conflict.cu"
#undef main
#undef check

int liu_launch_reduce2(bool small)
{
	int n = liu_elements(small), blocks = n / (THREAD_PER_BLOCK);
	return liu_reduce("reduce2", n, blocks, [=](float *in, float *out) {
		reduce2<<<blocks, THREAD_PER_BLOCK>>>(in, out);
	});
}
