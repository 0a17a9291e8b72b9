/* The GEMM behind simt's cuBLAS and cuBLASLt: native C, never interpreted.
 *
 * C is cut into tiles of MC x NC; host threads take tiles (of every batch
 * matrix) from a shared counter.  A thread packs, for KC values of k at a
 * time, the tile's rows of op(A) and columns of op(B) into panels of MR
 * rows and NR columns in the compute type (so every input type and
 * transpose reaches one micro-kernel), and the micro-kernel keeps an
 * MR x NR block of sums in registers.  Packing per tile repeats the
 * conversion of A n/NC times and of B m/MC times, a few per cent of the
 * work, and needs no coordination between threads.  The epilogue (alpha,
 * beta, bias, activation, conversion to D's type) runs once per tile in
 * double. */
#include "libs/blas.h"
#include "check/hazard.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define MC 96
#define NC 96
#define KC 256

size_t simt_blas_type_size(int t)
{
	switch (t) {
	case CUDA_R_32F: return 4;
	case CUDA_R_64F: return 8;
	case CUDA_R_16F: case CUDA_R_16BF: return 2;
	default: return 0;
	}
}

const char *simt_blas_type_name(int t)
{
	switch (t) {
	case CUDA_R_32F: return "CUDA_R_32F";
	case CUDA_R_64F: return "CUDA_R_64F";
	case CUDA_R_16F: return "CUDA_R_16F";
	case CUDA_R_16BF: return "CUDA_R_16BF";
	default: return "an unsupported cudaDataType";
	}
}

double simt_blas_load(int type, const void *p, int64_t i)
{
	p = simt_mem_host(p);
	switch (type) {
	case CUDA_R_32F: return ((const float *)p)[i];
	case CUDA_R_64F: return ((const double *)p)[i];
	case CUDA_R_16F: return simt_h2f(((const uint16_t *)p)[i]);
	default: return simt_bf2f(((const uint16_t *)p)[i]);
	}
}

void simt_blas_store(int type, void *p, int64_t i, double v)
{
	p = simt_mem_host(p);
	switch (type) {
	case CUDA_R_32F: ((float *)p)[i] = (float)v; break;
	case CUDA_R_64F: ((double *)p)[i] = v; break;
	case CUDA_R_16F: ((uint16_t *)p)[i] = simt_f2h(v, RND_RN); break;
	default: ((uint16_t *)p)[i] = simt_f2bf(v, RND_RN); break;
	}
}

const void *simt_blas_batch(const struct blas_mat *x, int b)
{
	size_t es = simt_blas_type_size(x->type);

	if (x->ptrs)
		return ((const void *const *)simt_mem_host(x->ptrs))[b];
	return (const char *)x->p + (int64_t)b * x->stride * (int64_t)es;
}

/* Where the GEMM reads matrix b of operand x. */
static const void *mat_ptr(const struct blas_mat *x, int b)
{
	return simt_mem_host(simt_blas_batch(x, b));
}

/* Element (r, c) of op(X) for X stored column-major with leading
 * dimension ld. */
static inline int64_t op_index(int trans, int64_t ld, int64_t r, int64_t c)
{
	return trans == CUBLAS_OP_N ? r + c * ld : c + r * ld;
}

/* Generates, for compute type T: pack_a (rows i0.. of op(A), k in
 * [p0, p0+kc), panels of MR rows, zero past m), pack_b (columns j0.. of
 * op(B), panels of NR columns) and the micro-kernel, which adds the
 * product of one A panel and one B panel to an MR x NR block of the tile
 * (column-major, leading dimension MC).  The f32 fast path reads float
 * input directly; other types go through simt_blas_load. */
#define GEMM_KERNELS(T, SUF, MR, NR) \
static void pack_a_##SUF(T *dst, const struct blas_gemm *g, const void *a, \
			 int i0, int mc, int p0, int kc) \
{ \
	int ip, r, p; \
	for (ip = 0; ip < mc; ip += MR) \
		for (p = 0; p < kc; p++) \
			for (r = 0; r < MR; r++) { \
				int i = i0 + ip + r; \
				int64_t x; \
				if (ip + r >= mc || i >= g->m) { \
					*dst++ = 0; \
					continue; \
				} \
				x = op_index(g->transa, g->a.ld, i, p0 + p); \
				*dst++ = g->a.type == CUDA_R_32F \
					? (T)((const float *)a)[x] \
					: (T)simt_blas_load(g->a.type, a, x); \
			} \
} \
static void pack_b_##SUF(T *dst, const struct blas_gemm *g, const void *b, \
			 int j0, int nc, int p0, int kc) \
{ \
	int jp, c, p; \
	for (jp = 0; jp < nc; jp += NR) \
		for (p = 0; p < kc; p++) \
			for (c = 0; c < NR; c++) { \
				int j = j0 + jp + c; \
				int64_t x; \
				if (jp + c >= nc || j >= g->n) { \
					*dst++ = 0; \
					continue; \
				} \
				x = op_index(g->transb, g->b.ld, p0 + p, j); \
				*dst++ = g->b.type == CUDA_R_32F \
					? (T)((const float *)b)[x] \
					: (T)simt_blas_load(g->b.type, b, x); \
			} \
} \
/* Sums of one tile at (i0, j0) into acc (MC x NC, column-major). */ \
static void tile_##SUF(const struct blas_gemm *g, int bt, int i0, int j0, \
		       T *acc, T *pa, T *pb) \
{ \
	const void *a = mat_ptr(&g->a, bt), *b = mat_ptr(&g->b, bt); \
	int mc = g->m - i0 < MC ? g->m - i0 : MC; \
	int nc = g->n - j0 < NC ? g->n - j0 : NC; \
	int p0, ip, jp; \
	memset(acc, 0, sizeof(T) * MC * NC); \
	if (g->alpha == 0) \
		return; \
	for (p0 = 0; p0 < g->k; p0 += KC) { \
		int kc = g->k - p0 < KC ? g->k - p0 : KC; \
		pack_a_##SUF(pa, g, a, i0, mc, p0, kc); \
		pack_b_##SUF(pb, g, b, j0, nc, p0, kc); \
		for (jp = 0; jp < nc; jp += NR) \
			for (ip = 0; ip < mc; ip += MR) \
				micro_##SUF(kc, pa + (size_t)ip * kc, \
					    pb + (size_t)jp * kc, \
					    acc + jp * MC + ip); \
	} \
}

/* The micro-kernels, in GCC vector types so that the sums stay in
 * registers: MR x NR of 8 x 6 floats are twelve 4-wide vectors, 4 x 6
 * doubles twelve 2-wide ones, and both leave registers for the operands.
 * Each step loads MR values of A and broadcasts NR values of B. */
typedef float v4f __attribute__((vector_size(16)));
typedef double v2d __attribute__((vector_size(16)));

#define MICRO(T, SUF, V, W, MR, NR) \
static void micro_##SUF(int kc, const T *restrict a, const T *restrict b, \
			T *restrict c) \
{ \
	V acc[NR][MR / W], av[MR / W]; \
	int p, i, j; \
	memset(acc, 0, sizeof acc); \
	for (p = 0; p < kc; p++) { \
		for (i = 0; i < MR / W; i++) \
			memcpy(&av[i], a + i * W, sizeof av[i]); \
		for (j = 0; j < NR; j++) \
			for (i = 0; i < MR / W; i++) \
				acc[j][i] += av[i] * b[j]; \
		a += MR; \
		b += NR; \
	} \
	for (j = 0; j < NR; j++) \
		for (i = 0; i < MR / W; i++) { \
			V cv; \
			memcpy(&cv, c + j * MC + i * W, sizeof cv); \
			cv += acc[j][i]; \
			memcpy(c + j * MC + i * W, &cv, sizeof cv); \
		} \
}

MICRO(float, f32_sse, v4f, 4, 8, 6)
MICRO(double, f64, v2d, 2, 4, 6)

/* On x86-64 processors with AVX2, the float kernel takes the 8 rows of a
 * panel as one 8-wide vector, twice the work per instruction.  It is
 * chosen at run time, so the library still runs on any x86-64; both do
 * the same multiplications and additions in the same order (no fused
 * multiply-add), so results do not depend on the processor. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
typedef float v8f __attribute__((vector_size(32)));

__attribute__((target("avx2")))
static void micro_f32_avx2(int kc, const float *restrict a,
			   const float *restrict b, float *restrict c)
{
	v8f acc[6], av, cv;
	int p, j;

	memset(acc, 0, sizeof acc);
	for (p = 0; p < kc; p++) {
		memcpy(&av, a, sizeof av);
		for (j = 0; j < 6; j++)
			acc[j] += av * b[j];
		a += 8;
		b += 6;
	}
	for (j = 0; j < 6; j++) {
		memcpy(&cv, c + j * MC, sizeof cv);
		cv += acc[j];
		memcpy(c + j * MC, &cv, sizeof cv);
	}
}

static void micro_f32(int kc, const float *restrict a, const float *restrict b,
		      float *restrict c)
{
	/* worker threads may ask at once; each finds the same answer */
	static atomic_int avx2 = -1;
	int v = atomic_load_explicit(&avx2, memory_order_relaxed);

	if (v < 0) {
		v = __builtin_cpu_supports("avx2") ? 1 : 0;
		atomic_store_explicit(&avx2, v, memory_order_relaxed);
	}
	if (v)
		micro_f32_avx2(kc, a, b, c);
	else
		micro_f32_sse(kc, a, b, c);
}
#else
#define micro_f32 micro_f32_sse
#endif

GEMM_KERNELS(float, f32, 8, 6)
GEMM_KERNELS(double, f64, 4, 6)

/* tanh form of GELU, as cuBLASLt's GELU epilogues compute it. */
static double gelu(double x)
{
	const double s = 0.7978845608028654; /* sqrt(2/pi) */

	return 0.5 * x * (1 + tanh(s * (x + 0.044715 * x * x * x)));
}

/* Its derivative, for the DGELU epilogue. */
static double gelu_grad(double x)
{
	const double s = 0.7978845608028654, c = 0.044715;
	double t = tanh(s * (x + c * x * x * x));

	return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * s * (1 + 3 * c * x * x);
}

static void epilogue(const struct blas_gemm *g, int bt, int i0, int j0,
		     const float *af, const double *ad)
{
	const void *c = g->beta != 0 ? mat_ptr(&g->c, bt) : NULL;
	void *d = (void *)mat_ptr(&g->d, bt);
	const char *bias = simt_mem_host(g->bias);
	char *aux = simt_mem_host(g->aux);
	int mc = g->m - i0 < MC ? g->m - i0 : MC;
	int nc = g->n - j0 < NC ? g->n - j0 : NC;
	int i, j;

	if (bias)
		bias += (int64_t)bt * g->bias_stride *
			(int64_t)simt_blas_type_size(g->bias_type);
	if (aux)
		aux += (int64_t)bt * g->aux_stride *
		       (int64_t)simt_blas_type_size(g->aux_type);
	for (j = 0; j < nc; j++)
		for (i = 0; i < mc; i++) {
			int64_t r = i0 + i, col = j0 + j;
			double s = af ? af[j * MC + i] : ad[j * MC + i];
			double v = g->alpha * s;

			if (c)
				v += g->beta * simt_blas_load(g->c.type, c,
							      r + col * g->c.ld);
			if (bias)
				v += simt_blas_load(g->bias_type, bias, r);
			if (g->act == BLAS_ACT_DGELU)
				v *= gelu_grad(simt_blas_load(
					g->aux_type, aux, r + col * g->aux_ld));
			else if (aux)
				simt_blas_store(g->aux_type, aux,
						r + col * g->aux_ld, v);
			if (g->act == BLAS_ACT_RELU)
				v = v > 0 ? v : 0;
			else if (g->act == BLAS_ACT_GELU)
				v = gelu(v);
			simt_blas_store(g->d.type, d, r + col * g->d.ld, v);
		}
}

struct job {
	const struct blas_gemm *g;
	int tm, tn;          /* tiles down and across one matrix */
	int64_t ntiles;
	atomic_llong next;
};

static void *worker(void *arg)
{
	struct job *jb = arg;
	const struct blas_gemm *g = jb->g;
	size_t es = g->f64 ? sizeof(double) : sizeof(float);
	void *acc = simt_xmalloc(es * MC * NC);
	void *pa = simt_xmalloc(es * (MC + 8) * KC);
	void *pb = simt_xmalloc(es * (NC + 8) * KC);
	int64_t t;

	while ((t = atomic_fetch_add(&jb->next, 1)) < jb->ntiles) {
		int64_t per = (int64_t)jb->tm * jb->tn;
		int bt = (int)(t / per);
		int i0 = (int)(t % per % jb->tm) * MC;
		int j0 = (int)(t % per / jb->tm) * NC;

		if (g->f64) {
			tile_f64(g, bt, i0, j0, acc, pa, pb);
			epilogue(g, bt, i0, j0, NULL, acc);
		} else {
			tile_f32(g, bt, i0, j0, acc, pa, pb);
			epilogue(g, bt, i0, j0, acc, NULL);
		}
	}
	free(acc);
	free(pa);
	free(pb);
	return NULL;
}

void simt_blas_gemm(const struct blas_gemm *g)
{
	struct job jb;
	pthread_t th[64];
	double work;
	int nth, i, started = 0;

	if (g->m <= 0 || g->n <= 0 || g->batch <= 0)
		return;
	jb.g = g;
	jb.tm = (g->m + MC - 1) / MC;
	jb.tn = (g->n + NC - 1) / NC;
	jb.ntiles = (int64_t)jb.tm * jb.tn * g->batch;
	atomic_init(&jb.next, 0);
	/* Threads only pay off past a few hundred thousand multiply-adds. */
	work = (double)g->m * g->n * (g->k + 1) * g->batch;
	nth = work < (1 << 18) ? 1 : simt_worker_count();
	if (nth > 64)
		nth = 64;
	if (nth > jb.ntiles)
		nth = (int)jb.ntiles;
	for (i = 1; i < nth; i++)
		if (pthread_create(&th[started], NULL, worker, &jb) == 0)
			started++;
	worker(&jb);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

void simt_blas_order_mat(const struct blas_mat *x, int64_t rows, int64_t cols,
			 int batch, bool write)
{
	int64_t es = (int64_t)simt_blas_type_size(x->type), j;
	int i;

	if (rows <= 0 || cols <= 0)
		return;
	for (i = 0; i < batch; i++) {
		const char *p = simt_blas_batch(x, i);

		if (x->ld == rows) {
			simt_hz_op_range(p, (uint64_t)(rows * cols * es), write);
			continue;
		}
		for (j = 0; j < cols; j++)
			simt_hz_op_range(p + j * x->ld * es, (uint64_t)(rows * es), write);
	}
}
