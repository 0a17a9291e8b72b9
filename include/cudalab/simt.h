/* simt — cudalab's CUDA runtime and PTX interpreter.
 *
 * simt is the library build/libcudalab-simt.a (C11, pthreads and libm
 * only).  A CUDA program runs on it unmodified when built as
 *
 *     nvcc SIMT_NVCC_FLAGS prog.cu -L<build> SIMT_LINK_LIBS
 *
 * The program then talks to simt through the CUDA runtime API (cuda*
 * functions and the __cuda* registration and launch calls nvcc emits);
 * the application itself never calls into simt, so this header only names
 * the build flags and the environment that controls a simt run. */
#ifndef CUDALAB_SIMT_H
#define CUDALAB_SIMT_H

/* nvcc arguments for a program that runs on simt: PTX embedded as plain
 * text (simt reads PTX; nvcc 13 compresses it unless told not to), source
 * lines for diagnostics, and no CUDA runtime of nvcc's own. */
#define SIMT_NVCC_FLAGS "--no-compress", "-lineinfo", "-cudart", "none", \
	"-arch=sm_80"
/* Libraries to link after -L<build directory>. */
#define SIMT_LINK_LIBS "-lcudalab-simt", "-lpthread", "-lm"
#define SIMT_LIBRARY "libcudalab-simt.a"

/* Host threads running blocks (default: the number of CPUs). */
#define SIMT_ENV_THREADS "CUDALAB_SIMT_THREADS"
/* File the per-kernel counters are written to, as JSON, at exit. */
#define SIMT_ENV_COUNTERS "CUDALAB_SIMT_COUNTERS"
/* Device to report: h100 (default), a100, l4 or t4. */
#define SIMT_ENV_DEVICE "CUDALAB_SIMT_DEVICE"
/* Warp instructions a launch may run before it is stopped as endless. */
#define SIMT_ENV_MAX_INSTRUCTIONS "CUDALAB_SIMT_MAX_INSTRUCTIONS"

#endif
