// simt-nvcc-flags: --no-compress -lineinfo -cudart none -arch=sm_80 -std=c++17 -Iupstream
// One launch of one kernel of spatters/mma-matmul, for the table beside
// this file:
//
//     driver [--small] KERNEL     KERNEL 10, 11, 20, 21, 30 or 31 (kernel 1.0 ... 3.1)
//
// At the published size the launch is the repository's own
// run_mma_kernel() (upstream runner.cu, included as it is, its main()
// renamed out of the way) with one repetition; the kernels come from the
// upstream kernel_1.cu, kernel_2.cu and kernel_3.cu that the file
// `sources` lists.  run_mma_kernel is fixed at 4096^3, so --small (256^3)
// launches the same kernels itself with run_mma_kernel's grid shapes
// scaled down.
//
// The inputs are zeros (a time depends on the shape, not the values) and
// padded by PAD bytes: kernels 3.0 and 3.1 prefetch one tile past the end
// of K, which their clamp keeps inside A and B_T at 4096 but not below, and
// simt stops at a read outside an allocation where a GPU reads whatever
// follows.  Nothing is verified.
#include "../driver.h"
#define main spatters_program_main
#include "runner.cu"
#undef main

static const size_t PAD = 1 << 20;

template <typename T> static T *zeroed(int size)
{
	size_t bytes = (size_t)size * size * sizeof(T) + PAD;
	T *p;
	if (cudaMalloc(&p, bytes) != cudaSuccess) {
		fprintf(stderr, "driver: cudaMalloc of %zu bytes failed\n", bytes);
		exit(1);
	}
	cudaMemset(p, 0, bytes);
	return p;
}

// small: KERNEL at SIZE^3 with run_mma_kernel's blocks and tiles.
static void small(int kernel, int size, half *a, half *b, half *bt, float *c)
{
	dim3 block(16, 16);
	dim3 g32(ceilDiv(size, 32), ceilDiv(size, 32));
	dim3 g64(ceilDiv(size, 64), ceilDiv(size, 64));
	dim3 g128(ceilDiv(size, 128), ceilDiv(size, 128));
	switch (kernel) {
	case 10: mma_matmul_1_0<<<g32, block>>>(a, b, c, size, size, size); break;
	case 11: mma_matmul_1_1<<<g64, block>>>(a, b, c, size, size, size); break;
	case 20: mma_matmul_2_0<<<g64, block>>>(a, bt, c, size, size, size); break;
	case 21: mma_matmul_2_1<<<g64, block>>>(a, bt, c, size, size, size); break;
	case 30: mma_matmul_3_0<<<g64, block>>>(a, bt, c, size, size, size); break;
	case 31: mma_matmul_3_1<<<g128, block>>>(a, bt, c, size, size, size); break;
	}
}

int main(int argc, char **argv)
{
	bool is_small;
	const char *id = model_kernel(argc, argv, &is_small);
	if (!id)
		return 2;
	int kernel = atoi(id);
	int kernels[6] = {10, 11, 20, 21, 30, 31};
	if (!in_array(kernel, kernels, 6))
		return model_unknown(id, "10, 11, 20, 21, 30, 31");
	int size = is_small ? 256 : GLOBAL_M;
	half *a = zeroed<half>(size), *b = zeroed<half>(size), *bt = zeroed<half>(size);
	float *c = zeroed<float>(size);
	cudaCheckErrors("cudaMalloc/cudaMemset");
	if (is_small)
		small(kernel, size, a, b, bt, c);
	else
		run_mma_kernel(kernel, 1, a, b, bt, c, size, size, size);
	cudaDeviceSynchronize();
	cudaCheckErrors("mma kernel failure");
	printf("kernel %d at %d^3\n", kernel, size);
	return 0;
}
