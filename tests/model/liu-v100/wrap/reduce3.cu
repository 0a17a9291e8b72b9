// reduce3 of upstream reduce/reduce_v3_add_during_load.cu: one block of 256 threads per 512 elements.
#include "wrap.h"
#define main liu_reduce3_main
#define check liu_reduce3_check
#include "../upstream/reduce/reduce_v3_add_during_load.cu"
#undef main
#undef check

int liu_launch_reduce3(bool small)
{
	int n = liu_elements(small), blocks = n / (2 * THREAD_PER_BLOCK);
	return liu_reduce("reduce3", n, blocks, [=](float *in, float *out) {
		reduce3<<<blocks, THREAD_PER_BLOCK>>>(in, out);
	});
}
