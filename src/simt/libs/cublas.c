/* cuBLAS on simt: the handle calls, the GEMM family (S/D/H gemm, GemmEx,
 * strided and pointer-array batches), computed natively by blas.c when
 * they are called, and Sgeam, Sgemv, Dgemv and a few level-1 routines as plain
 * loops.
 *
 * simt runs every stream operation synchronously, so a call computes
 * before it returns.  Device memory is host memory in simt's allocation
 * table: each matrix a call reads or writes must lie inside one
 * allocation, as a kernel's accesses must, and one that does not is
 * reported like a kernel fault (the diagnostic, CUBLAS_STATUS_EXECUTION_
 * FAILED, and the sticky cudaErrorIllegalAddress).  The checks and the
 * records of what was written take addresses as the program knows them;
 * the arithmetic reads and writes where simt reaches them
 * (simt_mem_host). */
#include "libs/blas.h"
#include "check/hazard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HANDLE_MAGIC 0x63626c73u

struct cublasContext {
	uint32_t magic;
	cudaStream_t stream;
	void *workspace;
	size_t workspace_size;
	int math_mode;
	int pointer_mode;
	int atomics_mode;
};

/* ---- shared with cublaslt.c ---- */

void simt_blas_extent(int64_t rows, int64_t cols, int64_t ld, int64_t stride,
		      int64_t batch, int64_t *lo, int64_t *hi)
{
	int64_t last = (cols - 1) * ld + rows;

	*lo = 0;
	*hi = last;
	if (batch > 1) {
		int64_t off = (batch - 1) * stride;

		if (off < 0)
			*lo = off;
		else
			*hi = off + last;
	}
}

bool simt_blas_range(const char *fn, const char *arg, const char *dims,
		     const void *p, int64_t lo, int64_t hi, bool write)
{
	uint64_t a = (uint64_t)(uintptr_t)p + (uint64_t)lo;
	uint64_t n = (uint64_t)(hi - lo);
	struct simt_buf b = {0};

	if (hi <= lo || simt_mem_find(a, n))
		return true;
	simt_mem_describe(&b, a, n, write ? "global write" : "global read");
	fprintf(stderr, "simt: %s: %s (%s) does not lie in one allocation: "
		"%s\n", fn, arg, dims, b.s ? b.s : "");
	simt_buf_free(&b);
	simt_set_sticky(cudaErrorIllegalAddress);
	return false;
}

bool simt_blas_host_scalar(const char *fn, const char *arg, const void *p)
{
	const struct simt_alloc *al = simt_mem_find((uint64_t)(uintptr_t)p, 1);

	if (!al || al->kind != MEM_DEVICE)
		return true;
	fprintf(stderr, "simt: %s: %s (%p) is device memory, but the pointer "
		"mode is host: the library would read it on the host (set "
		"the device pointer mode, or pass a host variable)\n", fn, arg,
		p);
	return false;
}

cublasStatus_t simt_blas_stream_check(const char *fn, cudaStream_t s)
{
	struct simt_stream_capture **slot;
	bool blocking, captured;

	if (simt_sticky() != cudaSuccess)
		return CUBLAS_STATUS_EXECUTION_FAILED;
	if (!simt_stream_valid(s)) {
		simt_warn("%s: the handle's stream %p is not a valid stream",
			  fn, (void *)s);
		return CUBLAS_STATUS_EXECUTION_FAILED;
	}
	if (!simt_capture_live)
		return CUBLAS_STATUS_SUCCESS;
	simt_lock();
	slot = simt_stream_capture_slot(s, &blocking);
	captured = slot && *slot;
	simt_unlock();
	if (captured) {
		/* A graph would have to replay the call with the values its
		 * pointers hold at launch; simt does not record library
		 * calls, so it refuses rather than run the call once now. */
		simt_warn("%s: the stream is being captured into a graph; "
			  "simt cannot capture cuBLAS calls", fn);
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
	return CUBLAS_STATUS_SUCCESS;
}

void simt_blas_count(const char *fn, double flops, bool f64, double seconds)
{
	struct simt_counts c;

	if (!simt_counters_on)
		return;
	memset(&c, 0, sizeof c);
	if (f64)
		c.flops_f64 = (uint64_t)flops;
	else
		c.flops_f32 = (uint64_t)flops;
	simt_counters_add(fn, &c, seconds, simt_current_device());
}

/* ---- handle ---- */

static bool handle_ok(cublasHandle_t h)
{
	return h && h->magic == HANDLE_MAGIC;
}

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle)
{
	cublasHandle_t h;

	if (!handle)
		return CUBLAS_STATUS_INVALID_VALUE;
	simt_init();
	h = simt_xcalloc(1, sizeof *h);
	h->magic = HANDLE_MAGIC;
	*handle = h;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy_v2(cublasHandle_t handle)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	handle->magic = 0;
	free(handle);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!version)
		return CUBLAS_STATUS_INVALID_VALUE;
	*version = SIMT_CUBLAS_VERSION;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(int type, int *value)
{
	if (!value)
		return CUBLAS_STATUS_INVALID_VALUE;
	switch (type) {
	case MAJOR_VERSION: *value = SIMT_CUBLAS_MAJOR; break;
	case MINOR_VERSION: *value = SIMT_CUBLAS_MINOR; break;
	case PATCH_LEVEL: *value = SIMT_CUBLAS_PATCH; break;
	default: return CUBLAS_STATUS_INVALID_VALUE;
	}
	return CUBLAS_STATUS_SUCCESS;
}

size_t cublasGetCudartVersion(void)
{
	return 13000;
}

cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	handle->stream = stream;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *stream)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!stream)
		return CUBLAS_STATUS_INVALID_VALUE;
	*stream = handle->stream;
	return CUBLAS_STATUS_SUCCESS;
}

/* The workspace is kept for GetWorkspace-style bookkeeping only: simt's
 * GEMM uses host buffers of its own. */
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace,
				     size_t size)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (size && !workspace)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (size && !simt_blas_range("cublasSetWorkspace", "workspace",
				     "the size given", workspace, 0,
				     (int64_t)size, true))
		return CUBLAS_STATUS_INVALID_VALUE;
	handle->workspace = workspace;
	handle->workspace_size = size;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, int mode)
{
	int base = mode & ~CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION;

	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (base != CUBLAS_DEFAULT_MATH && base != CUBLAS_TENSOR_OP_MATH &&
	    base != CUBLAS_PEDANTIC_MATH && base != CUBLAS_TF32_TENSOR_OP_MATH &&
	    base != CUBLAS_FP32_EMULATED_BF16X9_MATH &&
	    base != CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH)
		return CUBLAS_STATUS_INVALID_VALUE;
	handle->math_mode = mode;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetMathMode(cublasHandle_t handle, int *mode)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!mode)
		return CUBLAS_STATUS_INVALID_VALUE;
	*mode = handle->math_mode;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, int mode)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
		return CUBLAS_STATUS_INVALID_VALUE;
	handle->pointer_mode = mode;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, int *mode)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!mode)
		return CUBLAS_STATUS_INVALID_VALUE;
	*mode = handle->pointer_mode;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, int mode)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (mode != CUBLAS_ATOMICS_NOT_ALLOWED && mode != CUBLAS_ATOMICS_ALLOWED)
		return CUBLAS_STATUS_INVALID_VALUE;
	handle->atomics_mode = mode;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, int *mode)
{
	if (!handle_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!mode)
		return CUBLAS_STATUS_INVALID_VALUE;
	*mode = handle->atomics_mode;
	return CUBLAS_STATUS_SUCCESS;
}

static const char *status_name(int s)
{
	switch (s) {
	case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
	case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
	case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
	case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
	case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
	case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
	case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
	case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
	case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
	case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
	default: return "CUBLAS_STATUS_UNKNOWN";
	}
}

static const char *status_string(int s)
{
	switch (s) {
	case CUBLAS_STATUS_SUCCESS: return "success";
	case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
	case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
	case CUBLAS_STATUS_INVALID_VALUE: return "an invalid numeric value was used as an argument";
	case CUBLAS_STATUS_ARCH_MISMATCH: return "an absent device architectural feature is required";
	case CUBLAS_STATUS_MAPPING_ERROR: return "an access to GPU memory space failed";
	case CUBLAS_STATUS_EXECUTION_FAILED: return "the GPU program failed to execute";
	case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
	case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality requested is not supported";
	case CUBLAS_STATUS_LICENSE_ERROR: return "error detected trying to check the license";
	default: return "unknown error";
	}
}

const char *cublasGetStatusName(int status)
{
	return status_name(status);
}

const char *cublasGetStatusString(int status)
{
	return status_string(status);
}

const char *cublasLtGetStatusName(int status)
{
	return status_name(status);
}

const char *cublasLtGetStatusString(int status)
{
	return status_string(status);
}

/* ---- GEMM ---- */

/* A scalar argument (alpha, beta) of type t, from the host or, in device
 * pointer mode, from device memory (checked like a matrix). */
static bool scalar(const char *fn, const char *arg, int mode, int t,
		   const void *p, double *v)
{
	if (mode == CUBLAS_POINTER_MODE_DEVICE
	    ? !simt_blas_range(fn, arg, "a scalar in device pointer mode", p, 0,
			       (int64_t)simt_blas_type_size(t), false)
	    : !simt_blas_host_scalar(fn, arg, p))
		return false;
	*v = simt_blas_load(t, p, 0);
	return true;
}

struct gemm_args {
	const char *fn;
	cublasHandle_t h;
	int transa, transb;
	int m, n, k, batch;
	const void *alpha, *beta;
	int scale_type;       /* type of alpha and beta */
	bool f64;
	struct blas_mat a, b, c;
	const void *const *carray;
};

static bool op_ok(int op)
{
	return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

static int max1(int x)
{
	return x > 1 ? x : 1;
}

/* Says why an argument is invalid and returns CUBLAS_STATUS_INVALID_VALUE
 * (cuBLAS itself only returns the status). */
static cublasStatus_t invalid(const char *fn, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static cublasStatus_t invalid(const char *fn, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "simt: %s: ", fn);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return CUBLAS_STATUS_INVALID_VALUE;
}

/* Range check of one operand of rows x cols, strided or through a pointer
 * array. */
static bool operand_ok(const struct gemm_args *g, const char *name,
		       const char *ldname, const struct blas_mat *x,
		       int64_t rows, int64_t cols, int batch, bool write)
{
	size_t es = simt_blas_type_size(x->type);
	char dims[160];
	int64_t lo, hi;
	int i;

	if (x->ptrs) {
		snprintf(dims, sizeof dims, "%s, an array of %d pointers",
			 name, batch);
		if (!simt_blas_range(g->fn, name, dims, x->ptrs, 0,
				     (int64_t)batch * (int64_t)sizeof(void *),
				     false))
			return false;
		for (i = 0; i < batch; i++) {
			snprintf(dims, sizeof dims, "%s[%d]: %lld x %lld, "
				 "%s=%lld", name, i, (long long)rows,
				 (long long)cols, ldname, (long long)x->ld);
			simt_blas_extent(rows, cols, x->ld, 0, 1, &lo, &hi);
			if (!simt_blas_range(g->fn, name, dims, simt_blas_batch(x, i),
					     lo * (int64_t)es, hi * (int64_t)es,
					     write))
				return false;
		}
		return true;
	}
	snprintf(dims, sizeof dims, "%lld x %lld, %s=%lld, stride %lld, "
		 "batch %d", (long long)rows, (long long)cols, ldname,
		 (long long)x->ld, (long long)x->stride, batch);
	simt_blas_extent(rows, cols, x->ld, x->stride, batch, &lo, &hi);
	return simt_blas_range(g->fn, name, dims, x->p, lo * (int64_t)es,
			       hi * (int64_t)es, write);
}

static void mark_written(const struct blas_mat *x, int64_t rows,
			 int64_t cols, int batch)
{
	size_t es = simt_blas_type_size(x->type);
	int64_t lo, hi, j;
	int i;

	for (i = 0; i < batch; i++) {
		const char *p = simt_blas_batch(x, i);

		if (x->ld == rows) {
			simt_blas_extent(rows, cols, x->ld, 0, 1, &lo, &hi);
			simt_mem_written(p, (uint64_t)(hi - lo) * es);
			continue;
		}
		for (j = 0; j < cols; j++)
			simt_mem_written(p + j * x->ld * (int64_t)es,
					 (uint64_t)rows * es);
	}
}

/* Opens a call as an operation of the handle's stream for the hazard
 * checks (order.h); the host waits for one that returns its result to the
 * host.  simt_lock held; simt_hz_op_end(lane) closes it. */
static uint32_t blas_open(const char *fn, cublasHandle_t h, bool host_result)
{
	uint32_t lane = simt_stream_lane(h->stream);

	simt_hz_op_begin(lane, host_result &&
			 h->pointer_mode != CUBLAS_POINTER_MODE_DEVICE, fn);
	return lane;
}

/* The documented CUBLAS_STATUS_INVALID_VALUE cases of a GEMM, each said
 * on stderr with the values that break it. */
static cublasStatus_t gemm_args_ok(const struct gemm_args *g)
{
	int arows = g->transa == CUBLAS_OP_N ? g->m : g->k;
	int brows = g->transb == CUBLAS_OP_N ? g->k : g->n;

	if (!op_ok(g->transa) || !op_ok(g->transb))
		return invalid(g->fn, "transa=%d, transb=%d: each must be "
			       "CUBLAS_OP_N, _T or _C", g->transa, g->transb);
	if (g->m < 0 || g->n < 0 || g->k < 0 || g->batch < 0)
		return invalid(g->fn, "m=%d, n=%d, k=%d, batchCount=%d: none "
			       "may be negative", g->m, g->n, g->k, g->batch);
	if (g->a.ld < max1(arows))
		return invalid(g->fn, "lda=%lld is less than max(1, %s=%d)",
			       (long long)g->a.ld,
			       g->transa == CUBLAS_OP_N ? "m" : "k", arows);
	if (g->b.ld < max1(brows))
		return invalid(g->fn, "ldb=%lld is less than max(1, %s=%d)",
			       (long long)g->b.ld,
			       g->transb == CUBLAS_OP_N ? "k" : "n", brows);
	if (g->c.ld < max1(g->m))
		return invalid(g->fn, "ldc=%lld is less than max(1, m=%d)",
			       (long long)g->c.ld, g->m);
	return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t gemm(struct gemm_args *g)
{
	struct blas_gemm bg;
	cublasStatus_t st;
	bool reads_ab;
	uint32_t lane;
	double t0;

	if (!handle_ok(g->h))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if ((st = gemm_args_ok(g)))
		return st;
	if (g->m == 0 || g->n == 0 || g->batch == 0)
		return CUBLAS_STATUS_SUCCESS;
	if (!g->alpha || !g->beta)
		return invalid(g->fn, "alpha and beta must not be null");
	if ((st = simt_blas_stream_check(g->fn, g->h->stream)))
		return st;
	memset(&bg, 0, sizeof bg);
	if (!scalar(g->fn, "alpha", g->h->pointer_mode, g->scale_type,
		    g->alpha, &bg.alpha) ||
	    !scalar(g->fn, "beta", g->h->pointer_mode, g->scale_type,
		    g->beta, &bg.beta))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	reads_ab = g->k > 0 && bg.alpha != 0;
	if ((reads_ab &&
	     (!operand_ok(g, "A", "lda", &g->a,
			  g->transa == CUBLAS_OP_N ? g->m : g->k,
			  g->transa == CUBLAS_OP_N ? g->k : g->m, g->batch,
			  false) ||
	      !operand_ok(g, "B", "ldb", &g->b,
			  g->transb == CUBLAS_OP_N ? g->k : g->n,
			  g->transb == CUBLAS_OP_N ? g->n : g->k, g->batch,
			  false))) ||
	    !operand_ok(g, "C", "ldc", &g->c, g->m, g->n, g->batch, true))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	bg.m = g->m;
	bg.n = g->n;
	bg.k = g->k;
	bg.batch = g->batch;
	/* CUBLAS_OP_C is CUBLAS_OP_T for real types. */
	bg.transa = g->transa == CUBLAS_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T;
	bg.transb = g->transb == CUBLAS_OP_N ? CUBLAS_OP_N : CUBLAS_OP_T;
	bg.f64 = g->f64;
	bg.a = g->a;
	bg.b = g->b;
	bg.c = g->c;
	bg.d = g->c;
	simt_lock();
	lane = blas_open(g->fn, g->h, false);
	if (reads_ab) {
		simt_blas_order_mat(&g->a, g->transa == CUBLAS_OP_N ? g->m : g->k,
				    g->transa == CUBLAS_OP_N ? g->k : g->m, g->batch, false);
		simt_blas_order_mat(&g->b, g->transb == CUBLAS_OP_N ? g->k : g->n,
				    g->transb == CUBLAS_OP_N ? g->n : g->k, g->batch, false);
	}
	if (bg.beta != 0)
		simt_blas_order_mat(&g->c, g->m, g->n, g->batch, false);
	simt_blas_order_mat(&g->c, g->m, g->n, g->batch, true);
	t0 = simt_now();
	simt_blas_gemm(&bg);
	mark_written(&g->c, g->m, g->n, g->batch);
	simt_hz_op_end(lane);
	simt_blas_count(g->fn, 2.0 * g->m * g->n * g->k * g->batch, g->f64,
			simt_now() - t0);
	simt_unlock();
	return CUBLAS_STATUS_SUCCESS;
}

static struct blas_mat mat(int type, const void *p, int ld, long long stride)
{
	struct blas_mat x = {type, p, NULL, ld, stride};

	return x;
}

static struct blas_mat mat_array(int type, const void *const *ptrs, int ld)
{
	struct blas_mat x = {type, NULL, ptrs, ld, 0};

	return x;
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t h, int ta, int tb, int m, int n,
			      int k, const float *alpha, const float *A,
			      int lda, const float *B, int ldb,
			      const float *beta, float *C, int ldc)
{
	struct gemm_args g = {"cublasSgemm", h, ta, tb, m, n, k, 1, alpha,
			      beta, CUDA_R_32F, false,
			      mat(CUDA_R_32F, A, lda, 0),
			      mat(CUDA_R_32F, B, ldb, 0),
			      mat(CUDA_R_32F, C, ldc, 0), NULL};

	return gemm(&g);
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t h, int ta, int tb, int m, int n,
			      int k, const double *alpha, const double *A,
			      int lda, const double *B, int ldb,
			      const double *beta, double *C, int ldc)
{
	struct gemm_args g = {"cublasDgemm", h, ta, tb, m, n, k, 1, alpha,
			      beta, CUDA_R_64F, true,
			      mat(CUDA_R_64F, A, lda, 0),
			      mat(CUDA_R_64F, B, ldb, 0),
			      mat(CUDA_R_64F, C, ldc, 0), NULL};

	return gemm(&g);
}

cublasStatus_t cublasHgemm(cublasHandle_t h, int ta, int tb, int m, int n,
			   int k, const uint16_t *alpha, const uint16_t *A,
			   int lda, const uint16_t *B, int ldb,
			   const uint16_t *beta, uint16_t *C, int ldc)
{
	struct gemm_args g = {"cublasHgemm", h, ta, tb, m, n, k, 1, alpha,
			      beta, CUDA_R_16F, false,
			      mat(CUDA_R_16F, A, lda, 0),
			      mat(CUDA_R_16F, B, ldb, 0),
			      mat(CUDA_R_16F, C, ldc, 0), NULL};

	return gemm(&g);
}

cublasStatus_t cublasSgemmStridedBatched(
	cublasHandle_t h, int ta, int tb, int m, int n, int k,
	const float *alpha, const float *A, int lda, long long sA,
	const float *B, int ldb, long long sB, const float *beta, float *C,
	int ldc, long long sC, int batch)
{
	struct gemm_args g = {"cublasSgemmStridedBatched", h, ta, tb, m, n, k,
			      batch, alpha, beta, CUDA_R_32F, false,
			      mat(CUDA_R_32F, A, lda, sA),
			      mat(CUDA_R_32F, B, ldb, sB),
			      mat(CUDA_R_32F, C, ldc, sC), NULL};

	return gemm(&g);
}

cublasStatus_t cublasDgemmStridedBatched(
	cublasHandle_t h, int ta, int tb, int m, int n, int k,
	const double *alpha, const double *A, int lda, long long sA,
	const double *B, int ldb, long long sB, const double *beta, double *C,
	int ldc, long long sC, int batch)
{
	struct gemm_args g = {"cublasDgemmStridedBatched", h, ta, tb, m, n, k,
			      batch, alpha, beta, CUDA_R_64F, true,
			      mat(CUDA_R_64F, A, lda, sA),
			      mat(CUDA_R_64F, B, ldb, sB),
			      mat(CUDA_R_64F, C, ldc, sC), NULL};

	return gemm(&g);
}

cublasStatus_t cublasSgemmBatched(cublasHandle_t h, int ta, int tb, int m,
				  int n, int k, const float *alpha,
				  const float *const A[], int lda,
				  const float *const B[], int ldb,
				  const float *beta, float *const C[], int ldc,
				  int batch)
{
	struct gemm_args g = {"cublasSgemmBatched", h, ta, tb, m, n, k, batch,
			      alpha, beta, CUDA_R_32F, false,
			      mat_array(CUDA_R_32F, (const void *const *)A, lda),
			      mat_array(CUDA_R_32F, (const void *const *)B, ldb),
			      mat_array(CUDA_R_32F, (const void *const *)C, ldc),
			      NULL};

	return gemm(&g);
}

/* The types of a GemmEx call: alpha/beta's type and the compute precision
 * for computeType, and whether (Atype, Btype, Ctype) is a combination
 * cuBLAS documents for it.  Every 32F variant, FAST_TF32 and FAST_16F
 * included, computes in float here; 16F computes in float and rounds the
 * result to half. */
static cublasStatus_t ex_types(struct gemm_args *g, int compute, int at,
			       int bt, int ct)
{
	switch (compute) {
	case CUBLAS_COMPUTE_16F:
	case CUBLAS_COMPUTE_16F_PEDANTIC:
		g->scale_type = CUDA_R_16F;
		g->f64 = false;
		if (at != CUDA_R_16F || bt != CUDA_R_16F || ct != CUDA_R_16F)
			goto combo;
		return CUBLAS_STATUS_SUCCESS;
	case CUBLAS_COMPUTE_32F:
	case CUBLAS_COMPUTE_32F_PEDANTIC:
	case CUBLAS_COMPUTE_32F_FAST_16F:
	case CUBLAS_COMPUTE_32F_FAST_16BF:
	case CUBLAS_COMPUTE_32F_FAST_TF32:
		g->scale_type = CUDA_R_32F;
		g->f64 = false;
		if (at != bt || (at != CUDA_R_32F && at != CUDA_R_16F &&
				 at != CUDA_R_16BF) ||
		    (ct != at && ct != CUDA_R_32F))
			goto combo;
		return CUBLAS_STATUS_SUCCESS;
	case CUBLAS_COMPUTE_64F:
	case CUBLAS_COMPUTE_64F_PEDANTIC:
		g->scale_type = CUDA_R_64F;
		g->f64 = true;
		if (at != CUDA_R_64F || bt != CUDA_R_64F || ct != CUDA_R_64F)
			goto combo;
		return CUBLAS_STATUS_SUCCESS;
	default:
		simt_warn("%s: compute type %d is not supported by simt "
			  "(16F, 32F and its FAST variants, 64F are)", g->fn,
			  compute);
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
combo:
	simt_warn("%s: Atype %s, Btype %s, Ctype %s is not a supported "
		  "combination for compute type %d", g->fn,
		  simt_blas_type_name(at), simt_blas_type_name(bt),
		  simt_blas_type_name(ct), compute);
	return CUBLAS_STATUS_NOT_SUPPORTED;
}

static cublasStatus_t gemm_ex(struct gemm_args *g, int compute)
{
	cublasStatus_t st;

	if (!handle_ok(g->h))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	st = ex_types(g, compute, g->a.type, g->b.type, g->c.type);
	return st ? st : gemm(g);
}

cublasStatus_t cublasGemmEx(cublasHandle_t h, int ta, int tb, int m, int n,
			    int k, const void *alpha, const void *A, int at,
			    int lda, const void *B, int bt, int ldb,
			    const void *beta, void *C, int ct, int ldc,
			    int compute, int algo)
{
	struct gemm_args g = {"cublasGemmEx", h, ta, tb, m, n, k, 1, alpha,
			      beta, 0, false, mat(at, A, lda, 0),
			      mat(bt, B, ldb, 0), mat(ct, C, ldc, 0), NULL};

	(void)algo;
	return gemm_ex(&g, compute);
}

cublasStatus_t cublasGemmStridedBatchedEx(
	cublasHandle_t h, int ta, int tb, int m, int n, int k,
	const void *alpha, const void *A, int at, int lda, long long sA,
	const void *B, int bt, int ldb, long long sB, const void *beta,
	void *C, int ct, int ldc, long long sC, int batch, int compute,
	int algo)
{
	struct gemm_args g = {"cublasGemmStridedBatchedEx", h, ta, tb, m, n, k,
			      batch, alpha, beta, 0, false,
			      mat(at, A, lda, sA), mat(bt, B, ldb, sB),
			      mat(ct, C, ldc, sC), NULL};

	(void)algo;
	return gemm_ex(&g, compute);
}

cublasStatus_t cublasGemmBatchedEx(
	cublasHandle_t h, int ta, int tb, int m, int n, int k,
	const void *alpha, const void *const A[], int at, int lda,
	const void *const B[], int bt, int ldb, const void *beta,
	void *const C[], int ct, int ldc, int batch, int compute, int algo)
{
	struct gemm_args g = {"cublasGemmBatchedEx", h, ta, tb, m, n, k,
			      batch, alpha, beta, 0, false,
			      mat_array(at, A, lda), mat_array(bt, B, ldb),
			      mat_array(ct, (const void *const *)C, ldc), NULL};

	(void)algo;
	return gemm_ex(&g, compute);
}

/* ---- geam: C = alpha op(A) + beta op(B) ---- */

/* The arithmetic of geam, on the matrices where simt reaches them.  In
 * place (C == A with lda == ldc, or C == B) works column by column
 * because each element reads only its own position. */
static void geam_compute(int ta, int tb, int m, int n, float al,
			 const float *A, int lda, float be, const float *B,
			 int ldb, float *C, int ldc)
{
	int i, j;

	for (j = 0; j < n; j++)
		for (i = 0; i < m; i++) {
			float v = 0;

			if (al != 0)
				v += al * A[ta == CUBLAS_OP_N ? i + (int64_t)j * lda
							      : j + (int64_t)i * lda];
			if (be != 0)
				v += be * B[tb == CUBLAS_OP_N ? i + (int64_t)j * ldb
							      : j + (int64_t)i * ldb];
			C[i + (int64_t)j * ldc] = v;
		}
}

cublasStatus_t cublasSgeam(cublasHandle_t h, int ta, int tb, int m, int n,
			   const float *alpha, const float *A, int lda,
			   const float *beta, const float *B, int ldb,
			   float *C, int ldc)
{
	const char *fn = "cublasSgeam";
	struct blas_mat am = {CUDA_R_32F, A, NULL, lda, 0};
	struct blas_mat bm = {CUDA_R_32F, B, NULL, ldb, 0};
	struct blas_mat cm = {CUDA_R_32F, C, NULL, ldc, 0};
	uint32_t lane;
	double al, be;
	cublasStatus_t st;
	char dims[96];
	int64_t lo, hi;
	int j;

	if (!handle_ok(h))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!op_ok(ta) || !op_ok(tb) || m < 0 || n < 0 || !alpha || !beta)
		return invalid(fn, "transa=%d, transb=%d, m=%d, n=%d, alpha "
			       "%p, beta %p: the operations must be "
			       "CUBLAS_OP_N, _T or _C, the sizes not negative, "
			       "the scalars not null", ta, tb, m, n,
			       (const void *)alpha, (const void *)beta);
	if (lda < max1(ta == CUBLAS_OP_N ? m : n) ||
	    ldb < max1(tb == CUBLAS_OP_N ? m : n) || ldc < max1(m))
		return invalid(fn, "lda=%d, ldb=%d, ldc=%d: each must be at "
			       "least max(1, the rows of its matrix: %d, %d, "
			       "%d)", lda, ldb, ldc, ta == CUBLAS_OP_N ? m : n,
			       tb == CUBLAS_OP_N ? m : n, m);
	if (m == 0 || n == 0)
		return CUBLAS_STATUS_SUCCESS;
	if ((st = simt_blas_stream_check(fn, h->stream)))
		return st;
	if (!scalar(fn, "alpha", h->pointer_mode, CUDA_R_32F, alpha, &al) ||
	    !scalar(fn, "beta", h->pointer_mode, CUDA_R_32F, beta, &be))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	if (al != 0) {
		snprintf(dims, sizeof dims, "lda=%d", lda);
		simt_blas_extent(ta == CUBLAS_OP_N ? m : n,
				 ta == CUBLAS_OP_N ? n : m, lda, 0, 1, &lo, &hi);
		if (!simt_blas_range(fn, "A", dims, A, lo * 4, hi * 4, false))
			return CUBLAS_STATUS_EXECUTION_FAILED;
	}
	if (be != 0) {
		snprintf(dims, sizeof dims, "ldb=%d", ldb);
		simt_blas_extent(tb == CUBLAS_OP_N ? m : n,
				 tb == CUBLAS_OP_N ? n : m, ldb, 0, 1, &lo, &hi);
		if (!simt_blas_range(fn, "B", dims, B, lo * 4, hi * 4, false))
			return CUBLAS_STATUS_EXECUTION_FAILED;
	}
	snprintf(dims, sizeof dims, "ldc=%d", ldc);
	simt_blas_extent(m, n, ldc, 0, 1, &lo, &hi);
	if (!simt_blas_range(fn, "C", dims, C, lo * 4, hi * 4, true))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	simt_lock();
	lane = blas_open(fn, h, false);
	if (al != 0)
		simt_blas_order_mat(&am, ta == CUBLAS_OP_N ? m : n,
				    ta == CUBLAS_OP_N ? n : m, 1, false);
	if (be != 0)
		simt_blas_order_mat(&bm, tb == CUBLAS_OP_N ? m : n,
				    tb == CUBLAS_OP_N ? n : m, 1, false);
	simt_blas_order_mat(&cm, m, n, 1, true);
	geam_compute(ta, tb, m, n, (float)al, simt_mem_host(A), lda, (float)be,
		     simt_mem_host(B), ldb, simt_mem_host(C), ldc);
	for (j = 0; j < n; j++)
		simt_mem_written(C + (int64_t)j * ldc, (uint64_t)m * 4);
	simt_hz_op_end(lane);
	simt_blas_count(fn, 3.0 * m * n, false, 0);
	simt_unlock();
	return CUBLAS_STATUS_SUCCESS;
}

/* ---- level 1 ---- */

/* Checks a vector of n elements of `es` bytes with increment inc (a
 * negative increment starts from the far end, as BLAS does). */
static bool vec_ok(const char *fn, const char *arg, const void *x, int n,
		   int inc, size_t es, bool write)
{
	char dims[64];
	int64_t span = (int64_t)(n - 1) * (inc < 0 ? -inc : inc) + 1;

	snprintf(dims, sizeof dims, "n=%d, inc=%d", n, inc);
	return simt_blas_range(fn, arg, dims, x, 0, span * (int64_t)es, write);
}

static int64_t vidx(int i, int n, int inc)
{
	return inc >= 0 ? (int64_t)i * inc : (int64_t)(n - 1 - i) * -inc;
}

/* A vector of n elements of es bytes, inc apart (from the far end when
 * inc is negative), as the stream order sees the current operation
 * touch it. */
static void vec_order(const void *x, int n, int inc, size_t es, bool write)
{
	int i;

	if (inc == 1) {
		simt_hz_op_range(x, (uint64_t)n * es, write);
		return;
	}
	for (i = 0; i < n; i++)
		simt_hz_op_range((const char *)x + vidx(i, n, inc) * (int64_t)es,
				 es, write);
}

/* Stores a result to the host or, in device pointer mode, to device
 * memory. */
static bool put_result(const char *fn, cublasHandle_t h, float *res, float v)
{
	if (h->pointer_mode == CUBLAS_POINTER_MODE_DEVICE) {
		if (!simt_blas_range(fn, "result", "a scalar in device pointer "
				     "mode", res, 0, 4, true))
			return false;
		simt_hz_op_range(res, 4, true);
		*(float *)simt_mem_host(res) = v;
		simt_mem_written(res, 4);
		return true;
	}
	if (!simt_blas_host_scalar(fn, "result", res))
		return false;
	*res = v;
	return true;
}

/* Common entry checks of the level-1 calls; returns SUCCESS to go on. */
static cublasStatus_t l1_enter(const char *fn, cublasHandle_t h)
{
	if (!handle_ok(h))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	return simt_blas_stream_check(fn, h->stream);
}

cublasStatus_t cublasSaxpy_v2(cublasHandle_t h, int n, const float *alpha,
			      const float *x, int incx, float *y, int incy)
{
	const char *fn = "cublasSaxpy";
	const float *hx = simt_mem_host(x);
	float *hy = simt_mem_host(y);
	cublasStatus_t st;
	uint32_t lane;
	double a;
	int i;

	if ((st = l1_enter(fn, h)))
		return st;
	if (!alpha)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (n <= 0)
		return CUBLAS_STATUS_SUCCESS;
	if (!scalar(fn, "alpha", h->pointer_mode, CUDA_R_32F, alpha, &a) ||
	    !vec_ok(fn, "x", x, n, incx, 4, false) ||
	    !vec_ok(fn, "y", y, n, incy, 4, true))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	simt_lock();
	lane = blas_open(fn, h, false);
	vec_order(x, n, incx, 4, false);
	vec_order(y, n, incy, 4, false);
	vec_order(y, n, incy, 4, true);
	for (i = 0; i < n; i++)
		hy[vidx(i, n, incy)] += (float)a * hx[vidx(i, n, incx)];
	for (i = 0; i < n; i++)
		simt_mem_written(&y[vidx(i, n, incy)], 4);
	simt_hz_op_end(lane);
	simt_blas_count(fn, 2.0 * n, false, 0);
	simt_unlock();
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float *x,
			     int incx, const float *y, int incy, float *result)
{
	const char *fn = "cublasSdot";
	const float *hx = simt_mem_host(x), *hy = simt_mem_host(y);
	cublasStatus_t st;
	uint32_t lane;
	double s = 0;
	bool ok;
	int i;

	if ((st = l1_enter(fn, h)))
		return st;
	if (!result)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (n > 0 && (!vec_ok(fn, "x", x, n, incx, 4, false) ||
		      !vec_ok(fn, "y", y, n, incy, 4, false)))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	simt_lock();
	lane = blas_open(fn, h, true);
	if (n > 0) {
		vec_order(x, n, incx, 4, false);
		vec_order(y, n, incy, 4, false);
	}
	for (i = 0; i < n; i++)
		s += (double)hx[vidx(i, n, incx)] * hy[vidx(i, n, incy)];
	ok = put_result(fn, h, result, (float)s);
	simt_hz_op_end(lane);
	simt_unlock();
	simt_blas_count(fn, 2.0 * (n > 0 ? n : 0), false, 0);
	return ok ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

cublasStatus_t cublasSnrm2_v2(cublasHandle_t h, int n, const float *x,
			      int incx, float *result)
{
	const char *fn = "cublasSnrm2";
	const float *hx = simt_mem_host(x);
	cublasStatus_t st;
	uint32_t lane;
	double s = 0;
	bool ok;
	int i;

	if ((st = l1_enter(fn, h)))
		return st;
	if (!result)
		return CUBLAS_STATUS_INVALID_VALUE;
	/* BLAS: the norm of no elements, or with incx <= 0, is 0. */
	if (n > 0 && incx > 0 && !vec_ok(fn, "x", x, n, incx, 4, false))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	simt_lock();
	lane = blas_open(fn, h, true);
	if (n > 0 && incx > 0) {
		vec_order(x, n, incx, 4, false);
		for (i = 0; i < n; i++)
			s += (double)hx[(int64_t)i * incx] * hx[(int64_t)i * incx];
		simt_blas_count(fn, 2.0 * n, false, 0);
	}
	ok = put_result(fn, h, result, (float)sqrt(s));
	simt_hz_op_end(lane);
	simt_unlock();
	return ok ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float *alpha,
			      float *x, int incx)
{
	const char *fn = "cublasSscal";
	float *hx = simt_mem_host(x);
	cublasStatus_t st;
	uint32_t lane;
	double a;
	int i;

	if ((st = l1_enter(fn, h)))
		return st;
	if (!alpha)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (n <= 0 || incx <= 0)
		return CUBLAS_STATUS_SUCCESS;
	if (!scalar(fn, "alpha", h->pointer_mode, CUDA_R_32F, alpha, &a) ||
	    !vec_ok(fn, "x", x, n, incx, 4, true))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	simt_lock();
	lane = blas_open(fn, h, false);
	vec_order(x, n, incx, 4, false);
	vec_order(x, n, incx, 4, true);
	for (i = 0; i < n; i++) {
		hx[(int64_t)i * incx] *= (float)a;
		simt_mem_written(&x[(int64_t)i * incx], 4);
	}
	simt_hz_op_end(lane);
	simt_blas_count(fn, n, false, 0);
	simt_unlock();
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasScopy_v2(cublasHandle_t h, int n, const float *x,
			      int incx, float *y, int incy)
{
	const char *fn = "cublasScopy";
	const float *hx = simt_mem_host(x);
	float *hy = simt_mem_host(y);
	cublasStatus_t st;
	uint32_t lane;
	int i;

	if ((st = l1_enter(fn, h)))
		return st;
	if (n <= 0)
		return CUBLAS_STATUS_SUCCESS;
	if (!vec_ok(fn, "x", x, n, incx, 4, false) ||
	    !vec_ok(fn, "y", y, n, incy, 4, true))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	simt_lock();
	lane = blas_open(fn, h, false);
	vec_order(x, n, incx, 4, false);
	vec_order(y, n, incy, 4, true);
	for (i = 0; i < n; i++) {
		hy[vidx(i, n, incy)] = hx[vidx(i, n, incx)];
		simt_mem_written(&y[vidx(i, n, incy)], 4);
	}
	simt_hz_op_end(lane);
	simt_unlock();
	return CUBLAS_STATUS_SUCCESS;
}

/* ---- level 2 ---- */

/* y = alpha op(A) x + beta y, A m x n, in single (es 4) or double (8)
 * precision; y is not read when beta == 0.  Each element sums in double
 * and is rounded once. */
static cublasStatus_t gemv(const char *fn, cublasHandle_t h, int trans, int m,
			   int n, const void *alpha, const void *A, int lda,
			   const void *x, int incx, const void *beta, void *y,
			   int incy, size_t es)
{
	int xn = trans == CUBLAS_OP_N ? n : m, yn = trans == CUBLAS_OP_N ? m : n;
	int type = es == 8 ? CUDA_R_64F : CUDA_R_32F;
	struct blas_mat am = {type, A, NULL, lda, 0};
	const void *hA = simt_mem_host(A), *hx = simt_mem_host(x);
	void *hy = simt_mem_host(y);
	cublasStatus_t st;
	double al, be;
	char dims[96];
	int64_t lo, hi;
	uint32_t lane;
	int i, j;

	if (!handle_ok(h))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (!op_ok(trans) || m < 0 || n < 0 || lda < max1(m) || incx == 0 ||
	    incy == 0 || !alpha || !beta)
		return invalid(fn, "trans=%d, m=%d, n=%d, lda=%d, incx=%d, "
			       "incy=%d: the operation must be CUBLAS_OP_N, _T "
			       "or _C, the sizes not negative, lda at least "
			       "max(1, m), the increments not 0, the scalars "
			       "not null", trans, m, n, lda, incx, incy);
	if (m == 0 || n == 0)
		return CUBLAS_STATUS_SUCCESS;
	if ((st = simt_blas_stream_check(fn, h->stream)))
		return st;
	if (!scalar(fn, "alpha", h->pointer_mode, type, alpha, &al) ||
	    !scalar(fn, "beta", h->pointer_mode, type, beta, &be))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	if (al != 0) {
		snprintf(dims, sizeof dims, "%d x %d, lda=%d", m, n, lda);
		simt_blas_extent(m, n, lda, 0, 1, &lo, &hi);
		if (!simt_blas_range(fn, "A", dims, A, lo * (int64_t)es, hi * (int64_t)es,
				     false) ||
		    !vec_ok(fn, "x", x, xn, incx, es, false))
			return CUBLAS_STATUS_EXECUTION_FAILED;
	}
	if (!vec_ok(fn, "y", y, yn, incy, es, true))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	simt_lock();
	lane = blas_open(fn, h, false);
	if (al != 0) {
		simt_blas_order_mat(&am, m, n, 1, false);
		vec_order(x, xn, incx, es, false);
	}
	if (be != 0)
		vec_order(y, yn, incy, es, false);
	vec_order(y, yn, incy, es, true);
	for (i = 0; i < yn; i++) {
		double s = 0, v;

		if (al != 0)
			for (j = 0; j < xn; j++) {
				int64_t ai = trans == CUBLAS_OP_N ? i + (int64_t)j * lda
								  : j + (int64_t)i * lda;

				s += es == 8 ? ((const double *)hA)[ai] *
					       ((const double *)hx)[vidx(j, xn, incx)]
					     : (double)((const float *)hA)[ai] *
					       ((const float *)hx)[vidx(j, xn, incx)];
			}
		v = al * s;
		if (es == 8) {
			double *yp = &((double *)hy)[vidx(i, yn, incy)];

			*yp = be != 0 ? v + be * *yp : v;
		} else {
			float *yp = &((float *)hy)[vidx(i, yn, incy)];

			*yp = (float)(be != 0 ? v + be * *yp : v);
		}
		simt_mem_written((char *)y + vidx(i, yn, incy) * (int64_t)es, es);
	}
	simt_hz_op_end(lane);
	simt_blas_count(fn, 2.0 * m * n, es == 8, 0);
	simt_unlock();
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t h, int trans, int m, int n,
			      const float *alpha, const float *A, int lda,
			      const float *x, int incx, const float *beta,
			      float *y, int incy)
{
	return gemv("cublasSgemv", h, trans, m, n, alpha, A, lda, x, incx, beta,
		    y, incy, 4);
}

cublasStatus_t cublasDgemv_v2(cublasHandle_t h, int trans, int m, int n,
			      const double *alpha, const double *A, int lda,
			      const double *x, int incx, const double *beta,
			      double *y, int incy)
{
	return gemv("cublasDgemv", h, trans, m, n, alpha, A, lda, x, incx, beta,
		    y, incy, 8);
}

/* ---- entry points simt does not implement ----
 *
 * Defined so that programs referring to them link; a call says so and
 * fails instead of returning a result that was never computed.  The
 * arguments are not read. */
#define NOT_IMPLEMENTED(name) \
	cublasStatus_t name(void); \
	cublasStatus_t name(void) \
	{ \
		simt_warn(#name " is not implemented"); \
		return CUBLAS_STATUS_NOT_SUPPORTED; \
	}

NOT_IMPLEMENTED(cublasSger_v2)
NOT_IMPLEMENTED(cublasDaxpy_v2)
NOT_IMPLEMENTED(cublasDdot_v2)
NOT_IMPLEMENTED(cublasDnrm2_v2)
NOT_IMPLEMENTED(cublasDscal_v2)
NOT_IMPLEMENTED(cublasDcopy_v2)
NOT_IMPLEMENTED(cublasSasum_v2)
NOT_IMPLEMENTED(cublasIsamax_v2)
NOT_IMPLEMENTED(cublasIsamin_v2)
NOT_IMPLEMENTED(cublasSswap_v2)
NOT_IMPLEMENTED(cublasSsyrk_v2)
NOT_IMPLEMENTED(cublasStrsm_v2)
NOT_IMPLEMENTED(cublasStrmm_v2)
NOT_IMPLEMENTED(cublasSsymm_v2)
NOT_IMPLEMENTED(cublasCgemm_v2)
NOT_IMPLEMENTED(cublasZgemm_v2)
NOT_IMPLEMENTED(cublasSgemmEx)
NOT_IMPLEMENTED(cublasDgeam)
NOT_IMPLEMENTED(cublasHgemmStridedBatched)
NOT_IMPLEMENTED(cublasHgemmBatched)
NOT_IMPLEMENTED(cublasDgemmBatched)
NOT_IMPLEMENTED(cublasSetVector)
NOT_IMPLEMENTED(cublasGetVector)
NOT_IMPLEMENTED(cublasSetMatrix)
NOT_IMPLEMENTED(cublasGetMatrix)
NOT_IMPLEMENTED(cublasSgemm_v2_64)
NOT_IMPLEMENTED(cublasGemmEx_64)
NOT_IMPLEMENTED(cublasGemmStridedBatchedEx_64)
