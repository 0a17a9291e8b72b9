// reduce6 of upstream reduce/reduce_v6_multi_add.cu: a fixed number of blocks, several elements a thread.
#include "wrap.h"
#define main liu_reduce6_main
#define check liu_reduce6_check
#include "../upstream/reduce/reduce_v6_multi_add.cu"
#undef main
#undef check

int liu_launch_reduce6(bool small)
{
	const int per_thread = LIU_PER_BLOCK / THREAD_PER_BLOCK;
	return liu_reduce_blocks("reduce6", small, [](float *in, float *out, int n, int blocks) {
		reduce6<THREAD_PER_BLOCK, per_thread><<<blocks, THREAD_PER_BLOCK>>>(in, out, n);
	});
}
