/* The data movement and arithmetic of simt's NCCL collectives.
 *
 * Device memory is host memory, so a matched operation runs here in C on
 * the posts of every rank.  Reductions combine the ranks in ring order
 * 0, 1, ..., n-1 one step at a time, each step rounded to the operation's
 * type as a ring's would be (half, bfloat16 and fp8 are computed in float,
 * which for these formats rounds exactly as the narrow arithmetic does,
 * and rounded back to nearest-even; fp8 saturates to its largest finite
 * value).  Every result is first built in a scratch buffer, so in-place
 * operations read their inputs before anything is overwritten. */
#include "libs/nccl_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t simt_nccl_type_size(int type)
{
	switch (type) {
	case SIMT_NCCL_INT8: case SIMT_NCCL_UINT8:
	case SIMT_NCCL_FLOAT8E4M3: case SIMT_NCCL_FLOAT8E5M2:
		return 1;
	case SIMT_NCCL_FLOAT16: case SIMT_NCCL_BFLOAT16:
		return 2;
	case SIMT_NCCL_INT32: case SIMT_NCCL_UINT32: case SIMT_NCCL_FLOAT32:
		return 4;
	case SIMT_NCCL_INT64: case SIMT_NCCL_UINT64: case SIMT_NCCL_FLOAT64:
		return 8;
	}
	return 0;
}

/* ---- fp8 (OCP E4M3 with bias 7 and no infinity; E5M2 with bias 15) ---- */

static float fp8_to_float(uint8_t b, int mbits, int bias, bool e4m3)
{
	int emask = e4m3 ? 15 : 31;
	int e = (b >> mbits) & emask;
	int m = b & ((1 << mbits) - 1);
	float s = (b & 0x80) ? -1.0f : 1.0f;

	if (e4m3 && (b & 0x7f) == 0x7f)
		return NAN;
	if (!e4m3 && e == 31)
		return m ? NAN : s * INFINITY;
	if (e == 0)
		return s * ldexpf((float)m, 1 - bias - mbits);
	return s * ldexpf((float)((1 << mbits) + m), e - bias - mbits);
}

/* Round to nearest even, saturating to the largest finite value (as the
 * toolkit's fp8 types convert by default). */
static uint8_t float_to_fp8(float f, int mbits, int bias, uint8_t maxbits)
{
	uint8_t sign = signbit(f) ? 0x80 : 0;
	float a = fabsf(f), q;
	int e;
	unsigned bits;

	if (isnan(f))
		return 0x7f;
	if (isinf(a))
		return sign | maxbits;
	if (a == 0)
		return sign;
	frexpf(a, &e);
	e -= 1;
	if (e < 1 - bias)
		e = 1 - bias;
	q = rintf(ldexpf(a, mbits - e));
	if (q < (float)(1 << mbits))  /* subnormal: the quantum count is the code */
		bits = (unsigned)q;
	else
		bits = ((unsigned)(e + bias) << mbits) + ((unsigned)q - (1u << mbits));
	if (bits > maxbits)
		bits = maxbits;
	return (uint8_t)(sign | bits);
}

uint8_t simt_nccl_fp8_from_double(double x, int type)
{
	if (type == SIMT_NCCL_FLOAT8E4M3)
		return float_to_fp8((float)x, 3, 7, 0x7e);
	return float_to_fp8((float)x, 2, 15, 0x7b);
}

/* ---- narrow floating types through float ---- */

static bool narrow_float(int type)
{
	return type == SIMT_NCCL_FLOAT16 || type == SIMT_NCCL_BFLOAT16 ||
	       type == SIMT_NCCL_FLOAT8E4M3 || type == SIMT_NCCL_FLOAT8E5M2;
}

static float narrow_load(const unsigned char *p, size_t i, int type)
{
	uint16_t h;

	switch (type) {
	case SIMT_NCCL_FLOAT16:
		memcpy(&h, p + 2 * i, 2);
		return simt_h2f(h);
	case SIMT_NCCL_BFLOAT16:
		memcpy(&h, p + 2 * i, 2);
		return simt_bf2f(h);
	case SIMT_NCCL_FLOAT8E4M3:
		return fp8_to_float(p[i], 3, 7, true);
	default:
		return fp8_to_float(p[i], 2, 15, false);
	}
}

static void narrow_store(unsigned char *p, size_t i, int type, float v)
{
	uint16_t h;

	switch (type) {
	case SIMT_NCCL_FLOAT16:
		h = simt_f2h(v, RND_RN);
		memcpy(p + 2 * i, &h, 2);
		break;
	case SIMT_NCCL_BFLOAT16:
		h = simt_f2bf(v, RND_RN);
		memcpy(p + 2 * i, &h, 2);
		break;
	case SIMT_NCCL_FLOAT8E4M3:
		p[i] = float_to_fp8(v, 3, 7, 0x7e);
		break;
	default:
		p[i] = float_to_fp8(v, 2, 15, 0x7b);
		break;
	}
}

/* ---- element-wise steps ---- */

/* acc[i] = acc[i] op x[i]; integers wrap as the GPU's do. */
#define INT_COMBINE(T, UT)                                                   \
	do {                                                                 \
		T *a = acc;                                                  \
		const T *b = x;                                              \
		for (i = 0; i < n; i++)                                      \
			switch (op) {                                        \
			case SIMT_NCCL_SUM:                                  \
				a[i] = (T)((UT)a[i] + (UT)b[i]);             \
				break;                                       \
			case SIMT_NCCL_PROD:                                 \
				a[i] = (T)((UT)a[i] * (UT)b[i]);             \
				break;                                       \
			case SIMT_NCCL_MAX:                                  \
				a[i] = a[i] > b[i] ? a[i] : b[i];            \
				break;                                       \
			default:                                             \
				a[i] = a[i] < b[i] ? a[i] : b[i];            \
				break;                                       \
			}                                                    \
	} while (0)

#define FLT_COMBINE(T, MAXF, MINF)                                           \
	do {                                                                 \
		T *a = acc;                                                  \
		const T *b = x;                                              \
		for (i = 0; i < n; i++)                                      \
			switch (op) {                                        \
			case SIMT_NCCL_SUM: a[i] = a[i] + b[i]; break;       \
			case SIMT_NCCL_PROD: a[i] = a[i] * b[i]; break;      \
			case SIMT_NCCL_MAX: a[i] = MAXF(a[i], b[i]); break;  \
			default: a[i] = MINF(a[i], b[i]); break;             \
			}                                                    \
	} while (0)

static void combine(void *acc, const void *x, size_t n, int type, int op)
{
	size_t i;

	switch (type) {
	case SIMT_NCCL_INT8: INT_COMBINE(int8_t, uint8_t); return;
	case SIMT_NCCL_UINT8: INT_COMBINE(uint8_t, unsigned); return;
	case SIMT_NCCL_INT32: INT_COMBINE(int32_t, uint32_t); return;
	case SIMT_NCCL_UINT32: INT_COMBINE(uint32_t, uint32_t); return;
	case SIMT_NCCL_INT64: INT_COMBINE(int64_t, uint64_t); return;
	case SIMT_NCCL_UINT64: INT_COMBINE(uint64_t, uint64_t); return;
	case SIMT_NCCL_FLOAT32: FLT_COMBINE(float, fmaxf, fminf); return;
	case SIMT_NCCL_FLOAT64: FLT_COMBINE(double, fmax, fmin); return;
	}
	for (i = 0; i < n; i++) {
		float a = narrow_load(acc, i, type), b = narrow_load(x, i, type);
		float r;

		switch (op) {
		case SIMT_NCCL_SUM: r = a + b; break;
		case SIMT_NCCL_PROD: r = a * b; break;
		case SIMT_NCCL_MAX: r = fmaxf(a, b); break;
		default: r = fminf(a, b); break;
		}
		narrow_store(acc, i, type, r);
	}
}

/* x[i] = x[i] * scalar, rounded to the type (the first step of a
 * pre-multiplied sum). */
static void premul(void *x, size_t n, int type, const unsigned char *scalar)
{
	uint64_t s8 = 0;
	size_t i;

	if (narrow_float(type)) {
		float s = narrow_load(scalar, 0, type);

		for (i = 0; i < n; i++)
			narrow_store(x, i, type, narrow_load(x, i, type) * s);
		return;
	}
	/* The scalar as an aligned array of one element, combined as a
	 * product with each (a device scalar may sit at any address). */
	memcpy(&s8, scalar, simt_nccl_type_size(type));
	for (i = 0; i < n; i++)
		combine((unsigned char *)x + i * simt_nccl_type_size(type), &s8, 1,
			type, SIMT_NCCL_PROD);
}

/* x[i] /= d for integer averages (the sum divided once at the end). */
#define INT_DIV(T)                                                           \
	do {                                                                 \
		T *a = x;                                                    \
		for (i = 0; i < n; i++)                                      \
			a[i] = (T)(a[i] / (T)d);                             \
	} while (0)

static void postdiv(void *x, size_t n, int type, uint64_t d)
{
	size_t i;

	switch (type) {
	case SIMT_NCCL_INT8: INT_DIV(int8_t); break;
	case SIMT_NCCL_UINT8: INT_DIV(uint8_t); break;
	case SIMT_NCCL_INT32: INT_DIV(int32_t); break;
	case SIMT_NCCL_UINT32: INT_DIV(uint32_t); break;
	case SIMT_NCCL_INT64: INT_DIV(int64_t); break;
	case SIMT_NCCL_UINT64: INT_DIV(uint64_t); break;
	}
}

static unsigned char *scratch(size_t n)
{
	return simt_xmalloc(n ? n : 1);
}

/* Where simt reads byte `off` of a rank's send buffer (simt_mem_host). */
static const unsigned char *sent(const struct nccl_post *p, size_t off)
{
	return (const unsigned char *)simt_mem_host(p->send) + off;
}

/* acc = the reduction over ranks 0..n-1 of `len` elements at byte offset
 * `off` of each rank's send buffer. */
static void reduce_ranks(unsigned char *acc, struct nccl_post **ops, int n,
			 size_t off, size_t len)
{
	const struct nccl_post *p0 = ops[0];
	int type = p0->type;
	size_t bytes = len * simt_nccl_type_size(type);
	unsigned char *t = scratch(bytes);
	int r;

	for (r = 0; r < n; r++) {
		const struct nccl_redop *red = &ops[r]->red;
		unsigned char *dst = r ? t : acc;

		memcpy(dst, sent(ops[r], off), bytes);
		if (red->premul)
			premul(dst, len, type, red->dscalar ? simt_mem_host(red->dscalar)
							    : red->scalar);
		if (r)
			combine(acc, t, len, type, red->base);
	}
	if (p0->red.divisor)
		postdiv(acc, len, type, p0->red.divisor);
	free(t);
}

static void put(void *dst, const void *data, size_t n, const void *src_mark)
{
	if (!n)
		return;
	memmove(simt_mem_host(dst), data, n);
	if (src_mark)
		simt_mem_copied(dst, src_mark, n);
	else
		simt_mem_written(dst, n);
}

void simt_nccl_execute(struct nccl_post **ops, int n)
{
	const struct nccl_post *p0 = ops[0];
	size_t es = simt_nccl_type_size(p0->type), c = p0->count, S = c * es;
	int root = p0->root, r, j;
	unsigned char *t = NULL;

	if (!S)
		return;   /* nothing moves; the buffers may be NULL */
	switch (p0->kind) {
	case NK_ALL_REDUCE:
	case NK_REDUCE:
		t = scratch(S);
		reduce_ranks(t, ops, n, 0, c);
		for (r = 0; r < n; r++)
			if (p0->kind == NK_ALL_REDUCE || r == root)
				put(ops[r]->recv, t, S, NULL);
		break;
	case NK_BROADCAST:
		t = scratch(S);
		memcpy(t, sent(ops[root], 0), S);
		for (r = 0; r < n; r++)
			put(ops[r]->recv, t, S,
			    ops[root]->send == ops[r]->recv ? NULL : ops[root]->send);
		break;
	case NK_ALL_GATHER:
	case NK_GATHER:
		t = scratch(S * n);
		for (j = 0; j < n; j++)
			memcpy(t + j * S, sent(ops[j], 0), S);
		for (r = 0; r < n; r++) {
			if (p0->kind == NK_GATHER && r != root)
				continue;
			for (j = 0; j < n; j++)
				put((unsigned char *)ops[r]->recv + j * S, t + j * S, S,
				    ops[j]->send);
		}
		break;
	case NK_REDUCE_SCATTER:
		t = scratch(S * n);
		reduce_ranks(t, ops, n, 0, c * n);
		for (r = 0; r < n; r++)
			put(ops[r]->recv, t + r * S, S, NULL);
		break;
	case NK_SCATTER:
		t = scratch(S * n);
		memcpy(t, sent(ops[root], 0), S * n);
		for (r = 0; r < n; r++)
			put(ops[r]->recv, t + r * S, S, NULL);
		break;
	case NK_ALLTOALL:
		/* t holds what rank r receives from j at [r][j]. */
		t = scratch(S * n * n);
		for (r = 0; r < n; r++)
			for (j = 0; j < n; j++)
				memcpy(t + (r * n + j) * S, sent(ops[j], r * S), S);
		for (r = 0; r < n; r++)
			put(ops[r]->recv, t + r * n * S, S * n, NULL);
		break;
	}
	free(t);
}

void simt_nccl_execute_p2p(struct nccl_post *send, struct nccl_post *recv)
{
	size_t S = send->count * simt_nccl_type_size(send->type);

	put(recv->recv, sent(send, 0), S, send->send);
}
