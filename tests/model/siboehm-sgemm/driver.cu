// simt-nvcc-flags: --no-compress -lineinfo -cudart none -arch=sm_80 -std=c++17 -Iupstream/src
// One call of one kernel of siboehm/SGEMM_CUDA, for the table beside this
// file:
//
//     driver [--small] KERNEL     KERNEL 1 to 11, at 4096^3 (--small: 256^3)
//
// The call goes through the repository's own run_kernel() (upstream
// src/runner.cu, included as it is), which picks the launch parameters
// the published figures were measured with.  alpha and beta are those of
// the repository's sgemm.cu (0.5 and 3.0, so C is read as well as
// written).  The inputs are zeros: a time depends on the shape, not the
// values, and nothing is verified.
#include "runner.cu"
#include "../driver.h"

static float *zeroed(long n)
{
	float *p = nullptr;
	cudaCheck(cudaMalloc((void **)&p, sizeof(float) * n), __FILE__, __LINE__);
	cudaCheck(cudaMemset(p, 0, sizeof(float) * n), __FILE__, __LINE__);
	return p;
}

int main(int argc, char **argv)
{
	bool small;
	const char *id = model_kernel(argc, argv, &small);
	if (!id)
		return 2;
	int kernel = atoi(id);
	if (kernel < 1 || kernel > 11)
		return model_unknown(id, "1 to 11");
	long size = small ? 256 : 4096;
	float *a = zeroed(size * size), *b = zeroed(size * size), *c = zeroed(size * size);
	// run_kernel uses the cuBLAS handle for kernel 0 only, which the table leaves out.
	cublasHandle_t handle = nullptr;
	run_kernel(kernel, size, size, size, 0.5f, a, b, 3.0f, c, handle);
	cudaCheck(cudaGetLastError(), __FILE__, __LINE__);
	cudaCheck(cudaDeviceSynchronize(), __FILE__, __LINE__);
	printf("kernel %d at %ld^3\n", kernel, size);
	return 0;
}
