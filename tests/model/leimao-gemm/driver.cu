// simt-nvcc-flags: --no-compress -lineinfo -cudart none -arch=sm_80 -std=c++17 -Iupstream/include
// One call of one GEMM of leimao/CUDA-GEMM-Optimization, for the table
// beside this file:
//
//     driver [--small] KERNEL     KERNEL fp32-v00 ... fp32-v06v, fp16-v00 ... fp16-v07v
//                                 (a "v" suffix: the vectorized variant)
//
// The call is the repository's own launch_gemm_kernel_vXX<T>() (declared
// in upstream include/cuda_gemm.hpp, defined in the upstream src/*.cu that
// the file `sources` lists), made as its profile_gemm()
// (include/profile_utils.cuh) makes the timed one: m = n = k = 4096
// (--small: 256), leading dimensions rounded up to 16, alpha = 1, beta = 0,
// on a stream of its own.  The kernels read C even with beta = 0, so C is
// set like A and B: to zeros, as a time depends on the shape, not the
// values.  Nothing is verified.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include "cuda_gemm.hpp"
#include "cuda_gemm_utils.hpp"
#include "../driver.h"

template <typename T>
using launch_fn = void (*)(size_t, size_t, size_t, T const *, T const *, size_t,
			   T const *, size_t, T const *, T *, size_t, cudaStream_t);

template <typename T> static T *zeroed(size_t n)
{
	T *p;
	CHECK_CUDA_ERROR(cudaMalloc(&p, n * sizeof(T)));
	CHECK_CUDA_ERROR(cudaMemset(p, 0, n * sizeof(T)));
	return p;
}

// gemm: one call of LAUNCH on SIZE^3, as profile_gemm's timed call.
template <typename T> static void gemm(launch_fn<T> launch, size_t size)
{
	size_t const ld = (size + 16U - 1U) / 16U * 16U;
	T const alpha{static_cast<T>(1.0)};
	T const beta{static_cast<T>(0.0)};
	cudaStream_t stream;
	CHECK_CUDA_ERROR(cudaStreamCreate(&stream));
	T *a = zeroed<T>(size * ld), *b = zeroed<T>(size * ld), *c = zeroed<T>(size * ld);
	launch(size, size, size, &alpha, a, ld, b, ld, &beta, c, ld, stream);
	CHECK_CUDA_ERROR(cudaStreamSynchronize(stream));
	CHECK_LAST_CUDA_ERROR();
}

// The table's kernel ids and the launch function of each, for both types.
#define GEMMS(X)                                                              \
	X("v00", launch_gemm_kernel_v00) X("v01", launch_gemm_kernel_v01)     \
	X("v02", launch_gemm_kernel_v02)                                      \
	X("v02v", launch_gemm_kernel_v02_vectorized)                          \
	X("v03", launch_gemm_kernel_v03)                                      \
	X("v03v", launch_gemm_kernel_v03_vectorized)                          \
	X("v04", launch_gemm_kernel_v04)                                      \
	X("v04v", launch_gemm_kernel_v04_vectorized)                          \
	X("v05", launch_gemm_kernel_v05)                                      \
	X("v05v", launch_gemm_kernel_v05_vectorized)                          \
	X("v06", launch_gemm_kernel_v06)                                      \
	X("v06v", launch_gemm_kernel_v06_vectorized)

// run: launches the kernel named ID of element type T; false when there
// is none (the FP32 ladder stops at v06, WMMA's v07 is FP16 only).
template <typename T> static bool run(char const *id, size_t size)
{
#define RUN(name, fn)                  \
	if (strcmp(id, name) == 0) {   \
		gemm<T>(fn<T>, size);  \
		return true;           \
	}
	GEMMS(RUN)
#undef RUN
	return false;
}

static bool run_fp16(char const *id, size_t size)
{
	if (run<__half>(id, size))
		return true;
	if (strcmp(id, "v07") == 0)
		gemm<__half>(launch_gemm_kernel_v07<__half>, size);
	else if (strcmp(id, "v07v") == 0)
		gemm<__half>(launch_gemm_kernel_v07_vectorized<__half>, size);
	else
		return false;
	return true;
}

int main(int argc, char **argv)
{
	bool small;
	char const *kernel = model_kernel(argc, argv, &small);
	if (!kernel)
		return 2;
	size_t size = small ? 256 : 4096;
	bool known = false;
	if (strncmp(kernel, "fp32-", 5) == 0)
		known = run<float>(kernel + 5, size);
	else if (strncmp(kernel, "fp16-", 5) == 0)
		known = run_fp16(kernel + 5, size);
	if (!known)
		return model_unknown(kernel, "fp32-v00 ... fp32-v06v, fp16-v00 ... fp16-v07v");
	printf("%s at %zu^3\n", kernel, size);
	return 0;
}
