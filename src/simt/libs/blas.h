/* The C view of the cuBLAS and cuBLASLt interfaces that simt implements
 * (cublas.c, cublaslt.c), and the native GEMM kernel behind them (blas.c).
 *
 * Programs include the toolkit's cublas_v2.h and cublasLt.h and call the
 * symbols those headers name (cublasSgemm is cublasSgemm_v2, ...).  The
 * enum values below are the toolkit's (CUDA 13: cublas_api.h, cublasLt.h,
 * library_types.h); tests/simt/cublas_abi.cu checks each one against the
 * headers, so a wrong value fails a test rather than a program. */
#ifndef SIMT_BLAS_H
#define SIMT_BLAS_H

#include "runtime/runtime.h"

typedef enum {
	CUBLAS_STATUS_SUCCESS = 0,
	CUBLAS_STATUS_NOT_INITIALIZED = 1,
	CUBLAS_STATUS_ALLOC_FAILED = 3,
	CUBLAS_STATUS_INVALID_VALUE = 7,
	CUBLAS_STATUS_ARCH_MISMATCH = 8,
	CUBLAS_STATUS_MAPPING_ERROR = 11,
	CUBLAS_STATUS_EXECUTION_FAILED = 13,
	CUBLAS_STATUS_INTERNAL_ERROR = 14,
	CUBLAS_STATUS_NOT_SUPPORTED = 15,
	CUBLAS_STATUS_LICENSE_ERROR = 16,
} cublasStatus_t;

typedef enum {
	CUBLAS_OP_N = 0,
	CUBLAS_OP_T = 1,
	CUBLAS_OP_C = 2,
} cublasOperation_t;

typedef enum {
	CUBLAS_POINTER_MODE_HOST = 0,
	CUBLAS_POINTER_MODE_DEVICE = 1,
} cublasPointerMode_t;

typedef enum {
	CUBLAS_ATOMICS_NOT_ALLOWED = 0,
	CUBLAS_ATOMICS_ALLOWED = 1,
} cublasAtomicsMode_t;

typedef enum {
	CUBLAS_DEFAULT_MATH = 0,
	CUBLAS_TENSOR_OP_MATH = 1,
	CUBLAS_PEDANTIC_MATH = 2,
	CUBLAS_TF32_TENSOR_OP_MATH = 3,
	CUBLAS_FP32_EMULATED_BF16X9_MATH = 4,
	CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH = 8,
	CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16,
} cublasMath_t;

typedef enum {
	CUBLAS_COMPUTE_16F = 64,
	CUBLAS_COMPUTE_16F_PEDANTIC = 65,
	CUBLAS_COMPUTE_32F = 68,
	CUBLAS_COMPUTE_32F_PEDANTIC = 69,
	CUBLAS_COMPUTE_64F = 70,
	CUBLAS_COMPUTE_64F_PEDANTIC = 71,
	CUBLAS_COMPUTE_32I = 72,
	CUBLAS_COMPUTE_32I_PEDANTIC = 73,
	CUBLAS_COMPUTE_32F_FAST_16F = 74,
	CUBLAS_COMPUTE_32F_FAST_16BF = 75,
	CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
	CUBLAS_COMPUTE_32F_EMULATED_16BFX9 = 78,
} cublasComputeType_t;

/* cudaDataType (library_types.h); only the real types simt computes with. */
typedef enum {
	CUDA_R_32F = 0,
	CUDA_R_64F = 1,
	CUDA_R_16F = 2,
	CUDA_R_16BF = 14,
} cudaDataType;

/* libraryPropertyType (library_types.h). */
enum { MAJOR_VERSION = 0, MINOR_VERSION = 1, PATCH_LEVEL = 2 };

/* The cuBLAS version simt answers with: the toolkit's it mirrors. */
#define SIMT_CUBLAS_MAJOR 13
#define SIMT_CUBLAS_MINOR 1
#define SIMT_CUBLAS_PATCH 0
#define SIMT_CUBLAS_VERSION \
	(SIMT_CUBLAS_MAJOR * 10000 + SIMT_CUBLAS_MINOR * 100 + SIMT_CUBLAS_PATCH)

/* ---- cuBLASLt ---- */

typedef enum {
	CUBLASLT_MATRIX_LAYOUT_TYPE = 0,
	CUBLASLT_MATRIX_LAYOUT_ORDER = 1,
	CUBLASLT_MATRIX_LAYOUT_ROWS = 2,
	CUBLASLT_MATRIX_LAYOUT_COLS = 3,
	CUBLASLT_MATRIX_LAYOUT_LD = 4,
	CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5,
	CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6,
	CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET = 7,
} cublasLtMatrixLayoutAttribute_t;

enum { CUBLASLT_ORDER_COL = 0, CUBLASLT_ORDER_ROW = 1 };

typedef enum {
	CUBLASLT_MATMUL_DESC_COMPUTE_TYPE = 0,
	CUBLASLT_MATMUL_DESC_SCALE_TYPE = 1,
	CUBLASLT_MATMUL_DESC_POINTER_MODE = 2,
	CUBLASLT_MATMUL_DESC_TRANSA = 3,
	CUBLASLT_MATMUL_DESC_TRANSB = 4,
	CUBLASLT_MATMUL_DESC_TRANSC = 5,
	CUBLASLT_MATMUL_DESC_FILL_MODE = 6,
	CUBLASLT_MATMUL_DESC_EPILOGUE = 7,
	CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8,
	CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE = 10,
	CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER = 11,
	CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD = 12,
	CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE = 13,
	CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET = 15,
	CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE = 22,
	CUBLASLT_MATMUL_DESC_FAST_ACCUM = 25,
	CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE = 26,
} cublasLtMatmulDescAttributes_t;

typedef enum {
	CUBLASLT_EPILOGUE_DEFAULT = 1,
	CUBLASLT_EPILOGUE_RELU = 2,
	CUBLASLT_EPILOGUE_RELU_AUX = 2 | 128,
	CUBLASLT_EPILOGUE_BIAS = 4,
	CUBLASLT_EPILOGUE_RELU_BIAS = 2 | 4,
	CUBLASLT_EPILOGUE_RELU_AUX_BIAS = 2 | 128 | 4,
	CUBLASLT_EPILOGUE_DRELU = 8 | 128,
	CUBLASLT_EPILOGUE_DRELU_BGRAD = 8 | 128 | 16,
	CUBLASLT_EPILOGUE_GELU = 32,
	CUBLASLT_EPILOGUE_GELU_AUX = 32 | 128,
	CUBLASLT_EPILOGUE_GELU_BIAS = 32 | 4,
	CUBLASLT_EPILOGUE_GELU_AUX_BIAS = 32 | 128 | 4,
	CUBLASLT_EPILOGUE_DGELU = 64 | 128,
	CUBLASLT_EPILOGUE_DGELU_BGRAD = 64 | 128 | 16,
	CUBLASLT_EPILOGUE_BGRADA = 256,
	CUBLASLT_EPILOGUE_BGRADB = 512,
} cublasLtEpilogue_t;

typedef enum {
	CUBLASLT_MATMUL_PREF_SEARCH_MODE = 0,
	CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1,
	CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK = 3,
	CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5,
	CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6,
	CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7,
	CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8,
	CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT = 9,
	CUBLASLT_MATMUL_PREF_IMPL_MASK = 12,
} cublasLtMatmulPreferenceAttributes_t;

/* cublasLtMatmulAlgo_t and cublasLtMatmulHeuristicResult_t: layouts as in
 * cublasLt.h. */
typedef struct {
	uint64_t data[8];
} cublasLtMatmulAlgo_t;

typedef struct {
	cublasLtMatmulAlgo_t algo;
	size_t workspaceSize;
	cublasStatus_t state;
	float wavesCount;
	int reserved[4];
} cublasLtMatmulHeuristicResult_t;

/* ---- handles and descriptors (cublas.c, cublaslt.c) ---- */

struct cublasContext;
struct cublasLtContext;
struct lt_desc;
struct lt_layout;
struct lt_pref;
typedef struct cublasContext *cublasHandle_t;
typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct lt_desc *cublasLtMatmulDesc_t;
typedef struct lt_layout *cublasLtMatrixLayout_t;
typedef struct lt_pref *cublasLtMatmulPreference_t;

/* ---- the GEMM kernel (blas.c) ---- */

/* One operand: element type (cudaDataType), base pointer, leading
 * dimension and batch stride in elements.  `ptrs`, when set, is an array
 * of per-batch pointers (the *Batched calls) used instead of p + i*stride. */
struct blas_mat {
	int type;
	const void *p;
	const void *const *ptrs;
	int64_t ld, stride;
};

/* What an epilogue adds after alpha*op(A)op(B) + beta*C (cuBLASLt):
 * nothing, ReLU, GELU, or (DGELU) a product with GELU's derivative at the
 * aux matrix's element. */
enum { BLAS_ACT_NONE, BLAS_ACT_RELU, BLAS_ACT_GELU, BLAS_ACT_DGELU };

/* D = act(alpha*op(A)op(B) + beta*C + bias) for `batch` matrices of
 * m x n, with op(A) m x k and op(B) k x n.  In double when `f64`, else in
 * float (every other compute type).  beta == 0 never reads C.  With
 * `aux`, the value before the activation is also stored there (aux_type,
 * aux_ld, aux_stride), except for BLAS_ACT_DGELU, which reads it.  Output elements are converted to D's type with
 * round-to-nearest-even. */
struct blas_gemm {
	int m, n, k, batch;
	int transa, transb;  /* CUBLAS_OP_N or T (C is T for real types) */
	bool f64;
	double alpha, beta;
	struct blas_mat a, b, c, d;
	int act;
	const void *bias;    /* m elements of bias_type, or NULL */
	int bias_type;
	int64_t bias_stride;
	void *aux;
	int aux_type;
	int64_t aux_ld, aux_stride;
};

void simt_blas_gemm(const struct blas_gemm *g);
/* Matrix b of a batch, as the program knows its address (reading a
 * pointer array where simt reaches it). */
const void *simt_blas_batch(const struct blas_mat *x, int b);
/* The size in bytes of an element of cudaDataType t, 0 for one simt does
 * not compute with. */
size_t simt_blas_type_size(int t);
const char *simt_blas_type_name(int t);
/* Elements of an operand, read and written as double (p as the program
 * knows it, or where simt reaches it). */
double simt_blas_load(int type, const void *p, int64_t i);
void simt_blas_store(int type, void *p, int64_t i, double v);

/* ---- shared by cublas.c and cublaslt.c ---- */

/* Whether [p, p + bytes) lies in one allocation; if not, prints the
 * diagnostic naming the function, the argument and what it hit, makes
 * cudaErrorIllegalAddress sticky and returns false. */
bool simt_blas_range(const char *fn, const char *arg, const char *dims,
		     const void *p, int64_t lo, int64_t hi, bool write);
/* In host pointer mode, whether p (a scalar argument or result) is not
 * device memory; if it is, says so naming fn and arg and returns false:
 * a GPU program would read it on the host and crash. */
bool simt_blas_host_scalar(const char *fn, const char *arg, const void *p);
/* Extent of an operand of rows x cols (ld, batch stride, count), in
 * elements relative to its base: [*lo, *hi). */
void simt_blas_extent(int64_t rows, int64_t cols, int64_t ld, int64_t stride,
		      int64_t batch, int64_t *lo, int64_t *hi);
/* The stream check every compute call makes: cudaSuccess when s can run
 * work now; otherwise prints why (naming fn) and returns the status. */
cublasStatus_t simt_blas_stream_check(const char *fn, cudaStream_t s);
/* The hazard checks' stream order (hazard.h) sees what a call reads or
 * writes of a column-major operand: rows x cols, `batch` of them (at
 * x->ptrs[i], or x->stride elements apart), a column at a time unless the
 * columns are contiguous.  Between simt_hz_op_begin and _end. */
void simt_blas_order_mat(const struct blas_mat *x, int64_t rows, int64_t cols,
			 int batch, bool write);
/* Counts a call and its floating-point operations (as FP64 ones when
 * f64, else FP32) in the counters. */
void simt_blas_count(const char *fn, double flops, bool f64, double seconds);

/* ---- entry points (the toolkit's names; enum arguments as int) ---- */

/* cublas.c */
cublasStatus_t cublasCreate_v2(cublasHandle_t *handle);
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle);
cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version);
cublasStatus_t cublasGetProperty(int type, int *value);
size_t cublasGetCudartVersion(void);
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream);
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *stream);
cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *workspace,
				     size_t size);
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, int mode);
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, int *mode);
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, int mode);
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, int *mode);
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, int mode);
cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, int *mode);
const char *cublasGetStatusName(int status);
const char *cublasGetStatusString(int status);
const char *cublasLtGetStatusName(int status);
const char *cublasLtGetStatusString(int status);
cublasStatus_t cublasSgemm_v2(cublasHandle_t h, int ta, int tb, int m, int n,
			      int k, const float *alpha, const float *A,
			      int lda, const float *B, int ldb,
			      const float *beta, float *C, int ldc);
cublasStatus_t cublasDgemm_v2(cublasHandle_t h, int ta, int tb, int m, int n,
			      int k, const double *alpha, const double *A,
			      int lda, const double *B, int ldb,
			      const double *beta, double *C, int ldc);
cublasStatus_t cublasHgemm(cublasHandle_t h, int ta, int tb, int m, int n,
			   int k, const uint16_t *alpha, const uint16_t *A,
			   int lda, const uint16_t *B, int ldb,
			   const uint16_t *beta, uint16_t *C, int ldc);
cublasStatus_t cublasSgemmStridedBatched(
	cublasHandle_t h, int ta, int tb, int m, int n, int k,
	const float *alpha, const float *A, int lda, long long sA,
	const float *B, int ldb, long long sB, const float *beta, float *C,
	int ldc, long long sC, int batch);
cublasStatus_t cublasDgemmStridedBatched(
	cublasHandle_t h, int ta, int tb, int m, int n, int k,
	const double *alpha, const double *A, int lda, long long sA,
	const double *B, int ldb, long long sB, const double *beta, double *C,
	int ldc, long long sC, int batch);
cublasStatus_t cublasSgemmBatched(cublasHandle_t h, int ta, int tb, int m,
				  int n, int k, const float *alpha,
				  const float *const A[], int lda,
				  const float *const B[], int ldb,
				  const float *beta, float *const C[], int ldc,
				  int batch);
cublasStatus_t cublasGemmEx(cublasHandle_t h, int ta, int tb, int m, int n,
			    int k, const void *alpha, const void *A, int at,
			    int lda, const void *B, int bt, int ldb,
			    const void *beta, void *C, int ct, int ldc,
			    int compute, int algo);
cublasStatus_t cublasGemmStridedBatchedEx(
	cublasHandle_t h, int ta, int tb, int m, int n, int k,
	const void *alpha, const void *A, int at, int lda, long long sA,
	const void *B, int bt, int ldb, long long sB, const void *beta,
	void *C, int ct, int ldc, long long sC, int batch, int compute,
	int algo);
cublasStatus_t cublasGemmBatchedEx(
	cublasHandle_t h, int ta, int tb, int m, int n, int k,
	const void *alpha, const void *const A[], int at, int lda,
	const void *const B[], int bt, int ldb, const void *beta,
	void *const C[], int ct, int ldc, int batch, int compute, int algo);
cublasStatus_t cublasSgeam(cublasHandle_t h, int ta, int tb, int m, int n,
			   const float *alpha, const float *A, int lda,
			   const float *beta, const float *B, int ldb,
			   float *C, int ldc);
cublasStatus_t cublasSaxpy_v2(cublasHandle_t h, int n, const float *alpha,
			      const float *x, int incx, float *y, int incy);
cublasStatus_t cublasSdot_v2(cublasHandle_t h, int n, const float *x,
			     int incx, const float *y, int incy, float *result);
cublasStatus_t cublasSnrm2_v2(cublasHandle_t h, int n, const float *x,
			      int incx, float *result);
cublasStatus_t cublasSscal_v2(cublasHandle_t h, int n, const float *alpha,
			      float *x, int incx);
cublasStatus_t cublasScopy_v2(cublasHandle_t h, int n, const float *x,
			      int incx, float *y, int incy);
cublasStatus_t cublasSgemv_v2(cublasHandle_t h, int trans, int m, int n,
			      const float *alpha, const float *A, int lda,
			      const float *x, int incx, const float *beta,
			      float *y, int incy);
cublasStatus_t cublasDgemv_v2(cublasHandle_t h, int trans, int m, int n,
			      const double *alpha, const double *A, int lda,
			      const double *x, int incx, const double *beta,
			      double *y, int incy);
/* cublaslt.c */
cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle);
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle);
size_t cublasLtGetVersion(void);
size_t cublasLtGetCudartVersion(void);
cublasStatus_t cublasLtGetProperty(int type, int *value);
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout,
					  int type, uint64_t rows,
					  uint64_t cols, int64_t ld);
cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout);
cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l,
						int attr, const void *buf,
						size_t size);
cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t l,
						int attr, void *buf,
						size_t size, size_t *written);
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc,
					int compute, int scale_type);
cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc);
cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d,
					      int attr, const void *buf,
					      size_t size);
cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t d,
					      int attr, void *buf,
					      size_t size, size_t *written);
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *p);
cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p);
cublasStatus_t cublasLtMatmulPreferenceSetAttribute(
	cublasLtMatmulPreference_t p, int attr, const void *buf, size_t size);
cublasStatus_t cublasLtMatmulPreferenceGetAttribute(
	cublasLtMatmulPreference_t p, int attr, void *buf, size_t size,
	size_t *written);
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
	cublasLtHandle_t h, cublasLtMatmulDesc_t d, cublasLtMatrixLayout_t a,
	cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c,
	cublasLtMatrixLayout_t dd, cublasLtMatmulPreference_t pref,
	int requested, cublasLtMatmulHeuristicResult_t results[], int *count);
cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t d,
			      const void *alpha, const void *A,
			      cublasLtMatrixLayout_t a, const void *B,
			      cublasLtMatrixLayout_t b, const void *beta,
			      const void *C, cublasLtMatrixLayout_t c, void *D,
			      cublasLtMatrixLayout_t dd,
			      const cublasLtMatmulAlgo_t *algo,
			      void *workspace, size_t workspace_size,
			      cudaStream_t stream);

#endif
