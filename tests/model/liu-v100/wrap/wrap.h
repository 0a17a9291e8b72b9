// What the liu-v100 wrappers share.  Each wrapper is one translation unit
// that includes one upstream program as it is and launches its kernel once,
// with the configuration of that program's main(); the program's main and
// check are renamed so that the twelve programs link into one driver.
//
// The headers the programs include come first, so that the renaming
// macros do not reach into them.
#include <bits/stdc++.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <cublas_v2.h>
#include <sys/time.h>

// liu_zeroed: a device buffer of N floats, set to zero (a time depends on
// the shape, not the values), or NULL after saying why.
static inline float *liu_zeroed(size_t n)
{
	float *p;
	if (cudaMalloc((void **)&p, n * sizeof(float)) != cudaSuccess) {
		fprintf(stderr, "driver: cudaMalloc of %zu floats failed\n", n);
		return NULL;
	}
	cudaMemset(p, 0, n * sizeof(float));
	return p;
}

// liu_finish: waits for KERNEL's launch; 0, or 1 after naming the error.
static inline int liu_finish(const char *kernel)
{
	cudaError_t e = cudaDeviceSynchronize();
	if (e == cudaSuccess)
		e = cudaGetLastError();
	if (e != cudaSuccess) {
		fprintf(stderr, "driver: %s: %s\n", kernel, cudaGetErrorString(e));
		return 1;
	}
	return 0;
}

// liu_elements: N of the reduce and element-wise programs, 32 Mi floats
// (--small: 1 Mi).
static inline int liu_elements(bool small)
{
	return small ? 1024 * 1024 : 32 * 1024 * 1024;
}

// liu_reduce: a zeroed input of N floats and an output of one float per
// block, passed to LAUNCH, which launches the kernel; then liu_finish.
template <typename Launch>
static int liu_reduce(const char *kernel, int n, int blocks, Launch launch)
{
	float *in = liu_zeroed(n), *out = liu_zeroed(blocks);
	if (!in || !out)
		return 1;
	launch(in, out);
	return liu_finish(kernel);
}

// The programs of reduce6 and reduce7 reduce 32 Mi floats with 1024
// blocks, so that each thread adds 128 elements; --small keeps the
// elements per block and runs 8 blocks.
enum { LIU_PER_BLOCK = 32 * 1024 * 1024 / 1024 };

// liu_reduce_blocks: liu_reduce with that fixed number of blocks; LAUNCH
// is given the buffers, N and the blocks.
template <typename Launch>
static int liu_reduce_blocks(const char *kernel, bool small, Launch launch)
{
	int blocks = small ? 8 : 1024, n = blocks * LIU_PER_BLOCK;
	return liu_reduce(kernel, n, blocks, [=](float *in, float *out) { launch(in, out, n, blocks); });
}

// liu_sgemv: y = A x with A of M x N floats, all zero, passed to LAUNCH.
template <typename Launch>
static int liu_sgemv(const char *kernel, size_t m, size_t n, Launch launch)
{
	float *a = liu_zeroed(m * n), *x = liu_zeroed(n), *y = liu_zeroed(m);
	if (!a || !x || !y)
		return 1;
	launch(a, x, y);
	return liu_finish(kernel);
}
