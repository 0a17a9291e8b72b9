/* cuBLASLt on simt: descriptors (matmul, matrix layout, preference), the
 * heuristic query, and cublasLtMatmul for column-major FP32, FP16, BF16
 * and FP64 GEMMs with transposes, strided batches, alpha/beta, and the
 * bias, ReLU and GELU epilogues (GELU's input kept in an aux matrix when
 * asked) and DGELU (the product times GELU's derivative at that aux
 * matrix, the backward pass).  blas.c computes the product when the call
 * is made. */
#include "libs/blas.h"
#include "check/hazard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LT_MAGIC 0x63626c74u

struct cublasLtContext {
	uint32_t magic;
};

struct lt_layout {
	int32_t type;
	int32_t order;
	uint64_t rows, cols;
	int64_t ld;
	int32_t batch;
	int64_t stride;
	int64_t plane;
};

struct lt_desc {
	int32_t compute, scale_type, pointer_mode;
	int32_t transa, transb, transc, fill;
	uint32_t epilogue;
	const void *bias;
	int64_t bias_stride;
	void *aux;
	int64_t aux_ld, aux_stride;
	int32_t sm_count, aux_type, bias_type;
	int8_t fast_accum;
};

struct lt_pref {
	uint32_t search_mode, reduction_mask;
	uint64_t max_workspace;
	uint32_t align[4];
	float max_waves;
	uint64_t impl_mask;
};

static bool lt_ok(cublasLtHandle_t h)
{
	return h && h->magic == LT_MAGIC;
}

cublasStatus_t cublasLtCreate(cublasLtHandle_t *handle)
{
	cublasLtHandle_t h;

	if (!handle)
		return CUBLAS_STATUS_INVALID_VALUE;
	simt_init();
	h = simt_xcalloc(1, sizeof *h);
	h->magic = LT_MAGIC;
	*handle = h;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle)
{
	if (!lt_ok(handle))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	handle->magic = 0;
	free(handle);
	return CUBLAS_STATUS_SUCCESS;
}

size_t cublasLtGetVersion(void)
{
	return SIMT_CUBLAS_VERSION;
}

size_t cublasLtGetCudartVersion(void)
{
	return 13000;
}

cublasStatus_t cublasLtGetProperty(int type, int *value)
{
	return cublasGetProperty(type, value);
}

/* ---- attributes ----
 *
 * Each attribute is a field of a fixed size; Set and Get require exactly
 * that size, as cuBLASLt documents.  A field table per object keeps the
 * three Set/Get pairs to one copy routine. */

struct field {
	int attr;
	size_t off, size;
};

static cublasStatus_t set_field(const char *fn, const struct field *f,
				size_t nf, void *obj, int attr, const void *buf,
				size_t size)
{
	size_t i;

	if (!obj || !buf) {
		simt_warn("%s: the %s is null", fn, obj ? "buffer" : "object");
		return CUBLAS_STATUS_INVALID_VALUE;
	}
	for (i = 0; i < nf; i++)
		if (f[i].attr == attr) {
			if (size != f[i].size) {
				simt_warn("%s: attribute %d takes %zu bytes, "
					  "not %zu", fn, attr, f[i].size, size);
				return CUBLAS_STATUS_INVALID_VALUE;
			}
			memcpy((char *)obj + f[i].off, buf, size);
			return CUBLAS_STATUS_SUCCESS;
		}
	simt_warn("%s: attribute %d is not one simt knows", fn, attr);
	return CUBLAS_STATUS_INVALID_VALUE;
}

/* Get: with size 0 and a size pointer, only reports the size. */
static cublasStatus_t get_field(const struct field *f, size_t nf,
				const void *obj, int attr, void *buf,
				size_t size, size_t *written)
{
	size_t i;

	if (!obj)
		return CUBLAS_STATUS_INVALID_VALUE;
	for (i = 0; i < nf; i++)
		if (f[i].attr == attr) {
			if (size == 0 && written) {
				*written = f[i].size;
				return CUBLAS_STATUS_SUCCESS;
			}
			if (!buf || size < f[i].size)
				return CUBLAS_STATUS_INVALID_VALUE;
			memcpy(buf, (const char *)obj + f[i].off, f[i].size);
			if (written)
				*written = f[i].size;
			return CUBLAS_STATUS_SUCCESS;
		}
	return CUBLAS_STATUS_INVALID_VALUE;
}

#define FIELD(attr, type, member) \
	{attr, offsetof(type, member), sizeof(((type *)0)->member)}
#define NFIELDS(t) (sizeof t / sizeof t[0])

static const struct field layout_fields[] = {
	FIELD(CUBLASLT_MATRIX_LAYOUT_TYPE, struct lt_layout, type),
	FIELD(CUBLASLT_MATRIX_LAYOUT_ORDER, struct lt_layout, order),
	FIELD(CUBLASLT_MATRIX_LAYOUT_ROWS, struct lt_layout, rows),
	FIELD(CUBLASLT_MATRIX_LAYOUT_COLS, struct lt_layout, cols),
	FIELD(CUBLASLT_MATRIX_LAYOUT_LD, struct lt_layout, ld),
	FIELD(CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, struct lt_layout, batch),
	FIELD(CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, struct lt_layout,
	      stride),
	FIELD(CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET, struct lt_layout, plane),
};

static const struct field desc_fields[] = {
	FIELD(CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, struct lt_desc, compute),
	FIELD(CUBLASLT_MATMUL_DESC_SCALE_TYPE, struct lt_desc, scale_type),
	FIELD(CUBLASLT_MATMUL_DESC_POINTER_MODE, struct lt_desc, pointer_mode),
	FIELD(CUBLASLT_MATMUL_DESC_TRANSA, struct lt_desc, transa),
	FIELD(CUBLASLT_MATMUL_DESC_TRANSB, struct lt_desc, transb),
	FIELD(CUBLASLT_MATMUL_DESC_TRANSC, struct lt_desc, transc),
	FIELD(CUBLASLT_MATMUL_DESC_FILL_MODE, struct lt_desc, fill),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE, struct lt_desc, epilogue),
	FIELD(CUBLASLT_MATMUL_DESC_BIAS_POINTER, struct lt_desc, bias),
	FIELD(CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, struct lt_desc,
	      bias_stride),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, struct lt_desc, aux),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, struct lt_desc, aux_ld),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, struct lt_desc,
	      aux_stride),
	FIELD(CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, struct lt_desc, sm_count),
	FIELD(CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE, struct lt_desc,
	      aux_type),
	FIELD(CUBLASLT_MATMUL_DESC_FAST_ACCUM, struct lt_desc, fast_accum),
	FIELD(CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, struct lt_desc, bias_type),
};

static const struct field pref_fields[] = {
	FIELD(CUBLASLT_MATMUL_PREF_SEARCH_MODE, struct lt_pref, search_mode),
	FIELD(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, struct lt_pref,
	      max_workspace),
	FIELD(CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK, struct lt_pref,
	      reduction_mask),
	FIELD(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, struct lt_pref,
	      align[0]),
	FIELD(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, struct lt_pref,
	      align[1]),
	FIELD(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, struct lt_pref,
	      align[2]),
	FIELD(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, struct lt_pref,
	      align[3]),
	FIELD(CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT, struct lt_pref, max_waves),
	FIELD(CUBLASLT_MATMUL_PREF_IMPL_MASK, struct lt_pref, impl_mask),
};

/* ---- matrix layouts ---- */

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *layout,
					  int type, uint64_t rows,
					  uint64_t cols, int64_t ld)
{
	struct lt_layout *l;

	if (!layout)
		return CUBLAS_STATUS_INVALID_VALUE;
	l = simt_xcalloc(1, sizeof *l);
	l->type = type;
	l->order = CUBLASLT_ORDER_COL;
	l->rows = rows;
	l->cols = cols;
	l->ld = ld;
	l->batch = 1;
	*layout = l;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t layout)
{
	free(layout);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t l,
						int attr, const void *buf,
						size_t size)
{
	return set_field(__func__, layout_fields, NFIELDS(layout_fields), l, attr,
			 buf, size);
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t l,
						int attr, void *buf,
						size_t size, size_t *written)
{
	return get_field(layout_fields, NFIELDS(layout_fields), l, attr, buf,
			 size, written);
}

/* ---- matmul descriptors ---- */

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *desc,
					int compute, int scale_type)
{
	struct lt_desc *d;

	if (!desc)
		return CUBLAS_STATUS_INVALID_VALUE;
	d = simt_xcalloc(1, sizeof *d);
	d->compute = compute;
	d->scale_type = scale_type;
	d->pointer_mode = CUBLAS_POINTER_MODE_HOST;
	d->transa = d->transb = d->transc = CUBLAS_OP_N;
	d->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
	d->aux_type = -1;
	d->bias_type = -1;
	*desc = d;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t desc)
{
	free(desc);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t d,
					      int attr, const void *buf,
					      size_t size)
{
	return set_field(__func__, desc_fields, NFIELDS(desc_fields), d, attr,
			 buf, size);
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t d,
					      int attr, void *buf,
					      size_t size, size_t *written)
{
	return get_field(desc_fields, NFIELDS(desc_fields), d, attr, buf,
			 size, written);
}

/* ---- preferences ---- */

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *p)
{
	struct lt_pref *q;

	if (!p)
		return CUBLAS_STATUS_INVALID_VALUE;
	q = simt_xcalloc(1, sizeof *q);
	q->reduction_mask = 0xff;
	q->align[0] = q->align[1] = q->align[2] = q->align[3] = 256;
	q->impl_mask = UINT64_MAX;
	*p = q;
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t p)
{
	free(p);
	return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(
	cublasLtMatmulPreference_t p, int attr, const void *buf, size_t size)
{
	return set_field(__func__, pref_fields, NFIELDS(pref_fields), p, attr,
			 buf, size);
}

cublasStatus_t cublasLtMatmulPreferenceGetAttribute(
	cublasLtMatmulPreference_t p, int attr, void *buf, size_t size,
	size_t *written)
{
	return get_field(pref_fields, NFIELDS(pref_fields), p, attr, buf,
			 size, written);
}

/* ---- the matmul ---- */

/* A matmul as blas.c runs it, from the descriptors; NOT_SUPPORTED or
 * INVALID_VALUE (after saying why, naming fn) when they describe one simt
 * cannot run or one that is inconsistent. */
static cublasStatus_t plan(const char *fn, const struct lt_desc *d,
			   const struct lt_layout *a, const struct lt_layout *b,
			   const struct lt_layout *c, const struct lt_layout *dd,
			   struct blas_gemm *g)
{
	uint64_t am, ak, bk, bn;
	int scale;

	memset(g, 0, sizeof *g);
	if (!d || !a || !b || !c || !dd)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (a->order != CUBLASLT_ORDER_COL || b->order != CUBLASLT_ORDER_COL ||
	    c->order != CUBLASLT_ORDER_COL || dd->order != CUBLASLT_ORDER_COL) {
		simt_warn("%s: only column-major layouts (CUBLASLT_ORDER_COL) "
			  "are supported", fn);
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
	if ((d->transa != CUBLAS_OP_N && d->transa != CUBLAS_OP_T) ||
	    (d->transb != CUBLAS_OP_N && d->transb != CUBLAS_OP_T) ||
	    d->transc != CUBLAS_OP_N) {
		simt_warn("%s: TRANSA %d, TRANSB %d, TRANSC %d: A and B take "
			  "CUBLAS_OP_N or _T, C only _N", fn, d->transa,
			  d->transb, d->transc);
		return CUBLAS_STATUS_INVALID_VALUE;
	}
	am = d->transa == CUBLAS_OP_N ? a->rows : a->cols;
	ak = d->transa == CUBLAS_OP_N ? a->cols : a->rows;
	bk = d->transb == CUBLAS_OP_N ? b->rows : b->cols;
	bn = d->transb == CUBLAS_OP_N ? b->cols : b->rows;
	if (ak != bk || am != dd->rows || bn != dd->cols ||
	    c->rows != dd->rows || c->cols != dd->cols) {
		simt_warn("%s: op(A) is %llu x %llu, op(B) %llu x %llu, C %llu "
			  "x %llu, D %llu x %llu: the shapes do not agree", fn,
			  (unsigned long long)am, (unsigned long long)ak,
			  (unsigned long long)bk, (unsigned long long)bn,
			  (unsigned long long)c->rows,
			  (unsigned long long)c->cols,
			  (unsigned long long)dd->rows,
			  (unsigned long long)dd->cols);
		return CUBLAS_STATUS_INVALID_VALUE;
	}
	if (am > INT32_MAX || bn > INT32_MAX || ak > INT32_MAX) {
		simt_warn("%s: m=%llu, n=%llu, k=%llu: simt takes sizes up to "
			  "2^31 - 1", fn, (unsigned long long)am,
			  (unsigned long long)bn, (unsigned long long)ak);
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
	if (a->ld < (int64_t)(a->rows ? a->rows : 1) ||
	    b->ld < (int64_t)(b->rows ? b->rows : 1) ||
	    c->ld < (int64_t)(c->rows ? c->rows : 1) ||
	    dd->ld < (int64_t)(dd->rows ? dd->rows : 1)) {
		simt_warn("%s: leading dimensions A %lld, B %lld, C %lld, D "
			  "%lld must each be at least max(1, its rows: %llu, "
			  "%llu, %llu, %llu)", fn, (long long)a->ld,
			  (long long)b->ld, (long long)c->ld, (long long)dd->ld,
			  (unsigned long long)a->rows,
			  (unsigned long long)b->rows,
			  (unsigned long long)c->rows,
			  (unsigned long long)dd->rows);
		return CUBLAS_STATUS_INVALID_VALUE;
	}
	if (a->batch != dd->batch || b->batch != dd->batch ||
	    c->batch != dd->batch || dd->batch < 1) {
		simt_warn("%s: batch counts differ (A %d, B %d, C %d, D %d)",
			  fn, a->batch, b->batch, c->batch, dd->batch);
		return CUBLAS_STATUS_INVALID_VALUE;
	}
	/* Types: as cublasGemmEx takes them, plus D (like C). */
	switch (d->compute) {
	case CUBLAS_COMPUTE_16F: case CUBLAS_COMPUTE_16F_PEDANTIC:
		scale = CUDA_R_16F;
		if (a->type != CUDA_R_16F || b->type != CUDA_R_16F ||
		    c->type != CUDA_R_16F)
			goto combo;
		break;
	case CUBLAS_COMPUTE_32F: case CUBLAS_COMPUTE_32F_PEDANTIC:
	case CUBLAS_COMPUTE_32F_FAST_16F: case CUBLAS_COMPUTE_32F_FAST_16BF:
	case CUBLAS_COMPUTE_32F_FAST_TF32:
		scale = CUDA_R_32F;
		if (a->type != b->type || (a->type != CUDA_R_32F &&
					   a->type != CUDA_R_16F &&
					   a->type != CUDA_R_16BF) ||
		    (c->type != a->type && c->type != CUDA_R_32F))
			goto combo;
		break;
	case CUBLAS_COMPUTE_64F: case CUBLAS_COMPUTE_64F_PEDANTIC:
		scale = CUDA_R_64F;
		g->f64 = true;
		if (a->type != CUDA_R_64F || b->type != CUDA_R_64F ||
		    c->type != CUDA_R_64F)
			goto combo;
		break;
	default:
		simt_warn("%s: compute type %d is not supported by simt (16F, "
			  "32F and its FAST variants, 64F are)", fn, d->compute);
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
	if (dd->type != c->type || d->scale_type != scale) {
		simt_warn("%s: D's type %s must be C's (%s) and the scale type "
			  "%s", fn, simt_blas_type_name(dd->type),
			  simt_blas_type_name(c->type),
			  simt_blas_type_name(scale));
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
	if (d->pointer_mode != CUBLAS_POINTER_MODE_HOST &&
	    d->pointer_mode != CUBLAS_POINTER_MODE_DEVICE) {
		simt_warn("%s: pointer mode %d is not supported (host and "
			  "device are)", fn, d->pointer_mode);
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
	switch (d->epilogue) {
	case CUBLASLT_EPILOGUE_DEFAULT:
	case CUBLASLT_EPILOGUE_BIAS:
		break;
	case CUBLASLT_EPILOGUE_RELU:
	case CUBLASLT_EPILOGUE_RELU_BIAS:
		g->act = BLAS_ACT_RELU;
		break;
	case CUBLASLT_EPILOGUE_GELU:
	case CUBLASLT_EPILOGUE_GELU_BIAS:
	case CUBLASLT_EPILOGUE_GELU_AUX:
	case CUBLASLT_EPILOGUE_GELU_AUX_BIAS:
		g->act = BLAS_ACT_GELU;
		break;
	case CUBLASLT_EPILOGUE_DGELU:
		g->act = BLAS_ACT_DGELU;
		break;
	default:
		simt_warn("%s: epilogue %u is not implemented (DEFAULT, RELU, "
			  "BIAS, RELU_BIAS, GELU, GELU_BIAS, GELU_AUX, "
			  "GELU_AUX_BIAS and DGELU are)", fn, d->epilogue);
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
	if (d->epilogue & CUBLASLT_EPILOGUE_BIAS) {
		if (!d->bias) {
			simt_warn("%s: a bias epilogue without "
				  "CUBLASLT_MATMUL_DESC_BIAS_POINTER", fn);
			return CUBLAS_STATUS_INVALID_VALUE;
		}
		g->bias = d->bias;
		/* Unset (-1): D's type, as cuBLASLt has it for every type
		 * simt computes with. */
		g->bias_type = d->bias_type >= 0 ? d->bias_type : dd->type;
		g->bias_stride = d->bias_stride;
		if (!simt_blas_type_size(g->bias_type))
			goto combo;
	}
	if (d->epilogue & 128) {
		if (!d->aux || d->aux_ld < (int64_t)dd->rows) {
			simt_warn("%s: an aux epilogue needs "
				  "CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER "
				  "(%p) and EPILOGUE_AUX_LD (%lld) at least D's "
				  "rows (%llu)", fn, d->aux, (long long)d->aux_ld,
				  (unsigned long long)dd->rows);
			return CUBLAS_STATUS_INVALID_VALUE;
		}
		g->aux = d->aux;
		g->aux_ld = d->aux_ld;
		g->aux_stride = d->aux_stride;
		g->aux_type = d->aux_type >= 0 ? d->aux_type : dd->type;
		if (!simt_blas_type_size(g->aux_type))
			goto combo;
	}
	g->m = (int)am;
	g->n = (int)bn;
	g->k = (int)ak;
	g->batch = dd->batch;
	g->transa = d->transa;
	g->transb = d->transb;
	g->a = (struct blas_mat){a->type, NULL, NULL, a->ld, a->stride};
	g->b = (struct blas_mat){b->type, NULL, NULL, b->ld, b->stride};
	g->c = (struct blas_mat){c->type, NULL, NULL, c->ld, c->stride};
	g->d = (struct blas_mat){dd->type, NULL, NULL, dd->ld, dd->stride};
	return CUBLAS_STATUS_SUCCESS;
combo:
	simt_warn("%s: types A %s, B %s, C %s, D %s are not a supported "
		  "combination for compute type %d", fn,
		  simt_blas_type_name(a->type), simt_blas_type_name(b->type),
		  simt_blas_type_name(c->type), simt_blas_type_name(dd->type),
		  d->compute);
	return CUBLAS_STATUS_NOT_SUPPORTED;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
	cublasLtHandle_t h, cublasLtMatmulDesc_t d, cublasLtMatrixLayout_t a,
	cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c,
	cublasLtMatrixLayout_t dd, cublasLtMatmulPreference_t pref,
	int requested, cublasLtMatmulHeuristicResult_t results[], int *count)
{
	struct blas_gemm g;
	cublasStatus_t st;

	if (!lt_ok(h))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if (requested <= 0 || !results || !count || !pref)
		return CUBLAS_STATUS_INVALID_VALUE;
	*count = 0;
	st = plan("cublasLtMatmulAlgoGetHeuristic", d, a, b, c, dd, &g);
	if (st)
		return st;
	/* One algorithm: simt's, which needs no workspace. */
	memset(&results[0], 0, sizeof results[0]);
	results[0].algo.data[0] = 1;
	results[0].state = CUBLAS_STATUS_SUCCESS;
	results[0].wavesCount = 1.0f;
	*count = 1;
	return CUBLAS_STATUS_SUCCESS;
}

/* Range check of one operand described by layout l at p. */
static bool lt_operand(const char *fn, const char *name,
		       const struct lt_layout *l, const void *p, bool write)
{
	char dims[128];
	int64_t lo, hi, es = (int64_t)simt_blas_type_size(l->type);

	snprintf(dims, sizeof dims, "%llu x %llu, ld=%lld, stride %lld, "
		 "batch %d", (unsigned long long)l->rows,
		 (unsigned long long)l->cols, (long long)l->ld,
		 (long long)l->stride, l->batch);
	simt_blas_extent((int64_t)l->rows, (int64_t)l->cols, l->ld, l->stride,
			 l->batch, &lo, &hi);
	return simt_blas_range(fn, name, dims, p, lo * es, hi * es, write);
}

/* The stream order sees operand l at p (see simt_blas_order_mat). */
static void lt_order(const struct lt_layout *l, const void *p, bool write)
{
	struct blas_mat x = {l->type, p, NULL, l->ld, l->stride};

	simt_blas_order_mat(&x, (int64_t)l->rows, (int64_t)l->cols, l->batch, write);
}

static void lt_written(const void *p, int type, int64_t rows, int64_t cols,
		       int64_t ld, int64_t stride, int batch)
{
	int64_t es = (int64_t)simt_blas_type_size(type), j;
	int i;

	for (i = 0; i < batch; i++)
		for (j = 0; j < cols; j++)
			simt_mem_written((const char *)p +
					 (i * stride + j * ld) * es,
					 (uint64_t)(rows * es));
}

cublasStatus_t cublasLtMatmul(cublasLtHandle_t h, cublasLtMatmulDesc_t d,
			      const void *alpha, const void *A,
			      cublasLtMatrixLayout_t a, const void *B,
			      cublasLtMatrixLayout_t b, const void *beta,
			      const void *C, cublasLtMatrixLayout_t c, void *D,
			      cublasLtMatrixLayout_t dd,
			      const cublasLtMatmulAlgo_t *algo,
			      void *workspace, size_t workspace_size,
			      cudaStream_t stream)
{
	const char *fn = "cublasLtMatmul";
	struct blas_gemm g;
	cublasStatus_t st;
	uint32_t lane;
	int scale;
	double t0;

	(void)algo;
	(void)workspace;
	(void)workspace_size;
	if (!lt_ok(h))
		return CUBLAS_STATUS_NOT_INITIALIZED;
	if ((st = plan(fn, d, a, b, c, dd, &g)))
		return st;
	if (!alpha || !beta)
		return CUBLAS_STATUS_INVALID_VALUE;
	if (g.m == 0 || g.n == 0)
		return CUBLAS_STATUS_SUCCESS;
	if ((st = simt_blas_stream_check(fn, stream)))
		return st;
	scale = g.f64 ? CUDA_R_64F : d->scale_type;
	if (d->pointer_mode == CUBLAS_POINTER_MODE_DEVICE &&
	    (!simt_blas_range(fn, "alpha", "a scalar in device pointer mode",
			      alpha, 0, (int64_t)simt_blas_type_size(scale),
			      false) ||
	     !simt_blas_range(fn, "beta", "a scalar in device pointer mode",
			      beta, 0, (int64_t)simt_blas_type_size(scale),
			      false)))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	if (d->pointer_mode == CUBLAS_POINTER_MODE_HOST &&
	    (!simt_blas_host_scalar(fn, "alpha", alpha) ||
	     !simt_blas_host_scalar(fn, "beta", beta)))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	g.alpha = simt_blas_load(scale, alpha, 0);
	g.beta = simt_blas_load(scale, beta, 0);
	g.a.p = A;
	g.b.p = B;
	g.c.p = C;
	g.d.p = D;
	if ((g.k > 0 && g.alpha != 0 &&
	     (!lt_operand(fn, "A", a, A, false) ||
	      !lt_operand(fn, "B", b, B, false))) ||
	    (g.beta != 0 && !lt_operand(fn, "C", c, C, false)) ||
	    !lt_operand(fn, "D", dd, D, true))
		return CUBLAS_STATUS_EXECUTION_FAILED;
	if (g.bias) {
		int64_t es = (int64_t)simt_blas_type_size(g.bias_type);
		int64_t lo = 0, hi = g.m;

		if (g.batch > 1 && g.bias_stride > 0)
			hi += (g.batch - 1) * g.bias_stride;
		if (!simt_blas_range(fn, "bias", "a vector of D's rows",
				     g.bias, lo * es, hi * es, false))
			return CUBLAS_STATUS_EXECUTION_FAILED;
	}
	if (g.aux) {
		int64_t es = (int64_t)simt_blas_type_size(g.aux_type);
		int64_t lo, hi;

		simt_blas_extent(g.m, g.n, g.aux_ld, g.aux_stride, g.batch,
				 &lo, &hi);
		if (!simt_blas_range(fn, "epilogue aux", "D's rows x columns, "
				     "EPILOGUE_AUX_LD", g.aux, lo * es, hi * es,
				     g.act != BLAS_ACT_DGELU))
			return CUBLAS_STATUS_EXECUTION_FAILED;
	}
	simt_lock();
	/* an operation of the stream for the hazard checks */
	lane = simt_stream_lane(stream);
	simt_hz_op_begin(lane, false, fn);
	if (g.k > 0 && g.alpha != 0) {
		lt_order(a, A, false);
		lt_order(b, B, false);
	}
	if (g.beta != 0)
		lt_order(c, C, false);
	if (g.aux) {
		struct blas_mat x = {g.aux_type, g.aux, NULL, g.aux_ld, g.aux_stride};

		simt_blas_order_mat(&x, g.m, g.n, g.batch, g.act != BLAS_ACT_DGELU);
	}
	lt_order(dd, D, true);
	t0 = simt_now();
	simt_blas_gemm(&g);
	lt_written(D, g.d.type, g.m, g.n, g.d.ld, g.d.stride, g.batch);
	if (g.aux && g.act != BLAS_ACT_DGELU)
		lt_written(g.aux, g.aux_type, g.m, g.n, g.aux_ld, g.aux_stride,
			   g.batch);
	simt_hz_op_end(lane);
	simt_blas_count(fn, 2.0 * g.m * g.n * g.k * g.batch, g.f64,
			simt_now() - t0);
	simt_unlock();
	return CUBLAS_STATUS_SUCCESS;
}

/* Entry points programs may refer to that simt does not implement (see
 * cublas.c). */
#define NOT_IMPLEMENTED(name) \
	cublasStatus_t name(void); \
	cublasStatus_t name(void) \
	{ \
		simt_warn(#name " is not implemented"); \
		return CUBLAS_STATUS_NOT_SUPPORTED; \
	}

NOT_IMPLEMENTED(cublasLtMatrixTransform)
NOT_IMPLEMENTED(cublasLtMatrixTransformDescCreate)
NOT_IMPLEMENTED(cublasLtMatrixTransformDescDestroy)
NOT_IMPLEMENTED(cublasLtMatrixTransformDescSetAttribute)
NOT_IMPLEMENTED(cublasLtMatmulAlgoInit)
NOT_IMPLEMENTED(cublasLtMatmulAlgoGetIds)
NOT_IMPLEMENTED(cublasLtMatmulAlgoCheck)
NOT_IMPLEMENTED(cublasLtMatmulAlgoCapGetAttribute)
NOT_IMPLEMENTED(cublasLtMatmulAlgoConfigSetAttribute)
NOT_IMPLEMENTED(cublasLtMatmulAlgoConfigGetAttribute)
