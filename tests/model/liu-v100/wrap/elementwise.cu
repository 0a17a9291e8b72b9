// add, vec2_add and vec4_add of upstream elementwise/elementwise_add.cu:
// c = a + b over N floats, blocks of 256 threads.
#include "wrap.h"
#define main liu_elementwise_main
#define check liu_elementwise_check
#include "../upstream/elementwise/elementwise_add.cu"
#undef main
#undef check

// The program's main launches only vec4_add, with N / 256 / 4 blocks;
// add and vec2_add get one block per 256 and per 512 elements, as each
// of their threads handles one and two.  WIDTH is 1, 2 or 4.
int liu_launch_elementwise(int width, bool small)
{
	int n = liu_elements(small), blocks = n / THREAD_PER_BLOCK / width;
	float *a = liu_zeroed(n), *b = liu_zeroed(n), *c = liu_zeroed(n);
	if (!a || !b || !c)
		return 1;
	if (width == 1)
		add<<<blocks, THREAD_PER_BLOCK>>>(a, b, c);
	else if (width == 2)
		vec2_add<<<blocks, THREAD_PER_BLOCK>>>(a, b, c);
	else
		vec4_add<<<blocks, THREAD_PER_BLOCK>>>(a, b, c);
	return liu_finish("elementwise add");
}
