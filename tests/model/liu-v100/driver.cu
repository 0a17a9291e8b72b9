// simt-nvcc-flags: --no-compress -lineinfo -cudart none -arch=sm_80 -std=c++17
// One launch of one kernel of Liu-xiandong/How_to_optimize_in_GPU, for the
// table beside this file:
//
//     driver [--small] KERNEL     KERNEL reduce0 ... reduce7, sgemv-v0 ... sgemv-v2,
//                                 add-float, add-float2, add-float4
//
// Each kernel lives in a program of its own with its own main(), so each
// program is included as it is by a wrapper of ours, wrap/*.cu (listed in
// the file `sources`), which launches the kernel once as that program's
// main does.  Sizes: 32 Mi floats for reduce and add (--small: 1 Mi, or 8
// blocks for reduce6 and reduce7), M = 16384 for sgemv (--small: 1024)
// with the N of the README's table.
#include "../driver.h"

int liu_launch_reduce0(bool small);
int liu_launch_reduce1(bool small);
int liu_launch_reduce2(bool small);
int liu_launch_reduce3(bool small);
int liu_launch_reduce4(bool small);
int liu_launch_reduce5(bool small);
int liu_launch_reduce6(bool small);
int liu_launch_reduce7(bool small);
int liu_launch_sgemv_v0(size_t m, size_t n);
int liu_launch_sgemv_v1(size_t m, size_t n);
int liu_launch_sgemv_v2(size_t m, size_t n);
int liu_launch_elementwise(int width, bool small);

// launch: KERNEL's launch, or -1 when there is no such kernel.
static int launch(const char *kernel, bool small)
{
	static int (*const reduce[])(bool) = {
		liu_launch_reduce0, liu_launch_reduce1, liu_launch_reduce2, liu_launch_reduce3,
		liu_launch_reduce4, liu_launch_reduce5, liu_launch_reduce6, liu_launch_reduce7,
	};
	size_t m = small ? 1024 : 16384;
	if (strncmp(kernel, "reduce", 6) == 0 && kernel[6] >= '0' && kernel[6] <= '7' && !kernel[7])
		return reduce[kernel[6] - '0'](small);
	if (strcmp(kernel, "sgemv-v0") == 0)
		return liu_launch_sgemv_v0(m, 32);
	if (strcmp(kernel, "sgemv-v1") == 0)
		return liu_launch_sgemv_v1(m, 128);
	if (strcmp(kernel, "sgemv-v2") == 0)
		return liu_launch_sgemv_v2(m, 16);
	if (strcmp(kernel, "add-float") == 0)
		return liu_launch_elementwise(1, small);
	if (strcmp(kernel, "add-float2") == 0)
		return liu_launch_elementwise(2, small);
	if (strcmp(kernel, "add-float4") == 0)
		return liu_launch_elementwise(4, small);
	return -1;
}

int main(int argc, char **argv)
{
	bool small;
	const char *kernel = model_kernel(argc, argv, &small);
	if (!kernel)
		return 2;
	int rc = launch(kernel, small);
	if (rc < 0)
		return model_unknown(kernel, "reduce0 ... reduce7, sgemv-v0 ... sgemv-v2, add-float, add-float2, add-float4");
	if (rc == 0)
		printf("%s%s\n", kernel, small ? " (small)" : "");
	return rc;
}
