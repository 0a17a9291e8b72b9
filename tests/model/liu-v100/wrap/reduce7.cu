// reduce7 of upstream reduce/reduce_v7_shuffle.cu: as reduce6, with warp shuffles.
#include "wrap.h"
#define main liu_reduce7_main
#define check liu_reduce7_check
#include "../upstream/reduce/reduce_v7_shuffle.cu"
#undef main
#undef check

int liu_launch_reduce7(bool small)
{
	const int per_thread = LIU_PER_BLOCK / THREAD_PER_BLOCK;
	return liu_reduce_blocks("reduce7", small, [](float *in, float *out, int n, int blocks) {
		reduce7<THREAD_PER_BLOCK, per_thread><<<blocks, THREAD_PER_BLOCK>>>(in, out, n);
	});
}
