/* Tensor-core instructions as plain arithmetic: a decoded wmma, mma.sync,
 * ldmatrix or movmatrix (decode_tensor.c) runs once every lane of the warp
 * has arrived, gathering each lane's fragment elements into matrices and
 * scattering the result back by the layouts of ptx/tensor.h.
 *
 * Products of f16, bf16 and tf32 values are exact in f32; the sums are
 * done in f32 with fmaf, k ascending, which is one of the orders a GPU
 * may use (the ISA leaves the order and the internal precision open). */
#include "exec/tensor.h"
#include "ptx/tensor.h"

#include <math.h>
#include <string.h>

#define ROW(o) (bases[(o).kind] + (size_t)(o).idx * 32)

static struct simt_opnd table_op(uint64_t *const *bases,
				 const struct simt_insn *in, unsigned i)
{
	struct simt_opnd o;

	memcpy(&o, &bases[OK_IMM][(size_t)in->target * 32 + i], sizeof o);
	return o;
}

static float f32_of(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static uint32_t bits_of(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* The value of a fragment element held in `bits` (16 or 32 of them).  A
 * .tf32 operand uses only the sign, exponent and upper 10 fraction bits. */
static float elem_value(int type, uint32_t bits)
{
	switch (type) {
	case ST_F16:
		return simt_h2f((uint16_t)bits);
	case ST_BF16:
		return simt_bf2f((uint16_t)bits);
	case ST_TF32:
		return f32_of(bits & 0xffffe000u);
	default:
		return f32_of(bits);
	}
}

static uint32_t elem_bits(int type, float v)
{
	return type == ST_F16 ? simt_f2h(v, RND_RN) : bits_of(v);
}

/* Register r of lane l among the table operands from `first`. */
static uint32_t reg_get(uint64_t *const *bases, const struct simt_insn *in,
			unsigned first, unsigned r, unsigned l)
{
	return (uint32_t)ROW(table_op(bases, in, first + r))[l];
}

/* Element e of lane l's fragment from table operand `first` on. */
static uint32_t frag_get(uint64_t *const *bases, const struct simt_insn *in,
			 unsigned first, int type, unsigned e, unsigned l)
{
	unsigned pr = per_reg(type);
	uint32_t v = reg_get(bases, in, first, e / pr, l);

	return pr == 2 ? (v >> (16 * (e % pr))) & 0xffffu : v;
}

/* Fills mat (row-major, `cols` wide) from the fragments of all lanes. */
static void gather(uint64_t *const *bases, const struct simt_insn *in,
		   const struct frag *f, unsigned first, int type, float *mat,
		   unsigned cols)
{
	unsigned l, j, r, c, n = frag_unique(f);

	for (l = 0; l < 32; l++)
		for (j = 0; j < n; j++) {
			frag_pos(f, l, j, &r, &c);
			mat[r * cols + c] =
				elem_value(type, frag_get(bases, in, first, type, j, l));
		}
}

/* Writes per-lane element bits vals[l][e] (e < nelem) into the fragment
 * registers of the lanes in ex, packing 16-bit elements in pairs. */
static void scatter(uint64_t *const *bases, const struct simt_insn *in,
		    unsigned first, int type, uint32_t vals[32][16],
		    unsigned nelem, uint32_t ex)
{
	unsigned pr = per_reg(type), nregs = nelem / pr, r;

	for (r = 0; r < nregs; r++) {
		uint64_t *D = ROW(table_op(bases, in, first + r));
		uint32_t m = ex;

		while (m) {
			unsigned l = (unsigned)__builtin_ctz(m);

			m &= m - 1;
			D[l] = pr == 2 ? (vals[l][2 * r] & 0xffffu) |
					 (vals[l][2 * r + 1] << 16)
				       : vals[l][r];
		}
	}
}

static uint64_t lane_addr(const struct simt_insn *in, uint64_t *const *bases,
			  const struct warp *w, unsigned l)
{
	switch (in->am) {
	case AM_REG:
		return ROW(in->addr)[l] + (uint64_t)in->imm;
	case AM_LOCVAR:
		return w->frames[w->fi].local_base + (uint64_t)in->imm;
	default:
		return (uint64_t)in->imm;
	}
}

/* Byte offset of matrix element (r, c) stored with leading dimension ld
 * elements of `esize` bytes, row- or column-major. */
static uint64_t elem_offset(bool col, unsigned r, unsigned c, uint64_t ld,
			    unsigned esize)
{
	return (col ? (uint64_t)c * ld + r : (uint64_t)r * ld + c) * esize;
}

static uint64_t leading_dim(const struct simt_insn *in, uint64_t *const *bases,
			    unsigned l, unsigned rows, unsigned cols)
{
	if (in->o[0].kind == OK_NONE)
		return in->rnd ? rows : cols;
	return (uint32_t)ROW(in->o[0])[l];
}

/* Memory counters: one request per fragment register, as if the warp
 * loaded each register with one instruction. */
static void count_regs(struct block_ctx *bc, const struct simt_insn *in,
		       uint64_t first_addr[32][16], unsigned nregs, unsigned pr,
		       unsigned esize, uint32_t ex, bool store)
{
	uint64_t addr[32];
	unsigned r;

	if (!simt_counters_on)
		return;
	for (r = 0; r < nregs; r++) {
		uint32_t m = ex;

		while (m) {
			unsigned l = (unsigned)__builtin_ctz(m);

			m &= m - 1;
			addr[l] = first_addr[l][r * pr];
		}
		simt_count_mem(bc, in, addr, ex, pr * esize, store);
	}
}

static bool exec_wmma_ld(struct block_ctx *bc, struct warp *w,
			 const struct simt_insn *in, uint64_t *const *bases,
			 uint32_t ex)
{
	const struct shape *s = &shapes[in->sub2];
	int mat = in->vec, type = in->type;
	const struct frag *f = &s->f[mat];
	unsigned rows, cols, esize = is16(type) ? 2 : 4;
	unsigned n = frag_unique(f), total = frag_elems(s, mat, type), e;
	uint32_t vals[32][16], m = ex;
	uint64_t addrs[32][16];

	mat_dims(s, mat, &rows, &cols);
	while (m) {
		unsigned l = (unsigned)__builtin_ctz(m), r, c;
		uint64_t base = lane_addr(in, bases, w, l);
		uint64_t ld = leading_dim(in, bases, l, rows, cols);

		m &= m - 1;
		for (e = 0; e < n; e++) {
			uint64_t a;
			const uint8_t *p;
			uint32_t v = 0;

			frag_pos(f, l, e, &r, &c);
			a = base + elem_offset(in->rnd, r, c, ld, esize);
			p = simt_lane_mem(bc, w, l, in, a, esize, esize, false);
			if (!p)
				return false;
			memcpy(&v, p, esize);
			vals[l][e] = v;
			addrs[l][e] = a;
		}
		for (e = n; e < total; e++)
			vals[l][e] = vals[l][e % n];
	}
	scatter(bases, in, 0, type, vals, total, ex);
	count_regs(bc, in, addrs, n / per_reg(type), per_reg(type), esize, ex,
		   false);
	return true;
}

static bool exec_wmma_st(struct block_ctx *bc, struct warp *w,
			 const struct simt_insn *in, uint64_t *const *bases,
			 uint32_t ex)
{
	const struct shape *s = &shapes[in->sub2];
	int type = in->type;
	const struct frag *f = &s->f[MAT_C];
	unsigned rows, cols, esize = is16(type) ? 2 : 4, n = frag_unique(f), e;
	uint64_t addrs[32][16];
	uint32_t m = ex;

	mat_dims(s, MAT_C, &rows, &cols);
	while (m) {
		unsigned l = (unsigned)__builtin_ctz(m), r, c;
		uint64_t base = lane_addr(in, bases, w, l);
		uint64_t ld = leading_dim(in, bases, l, rows, cols);

		m &= m - 1;
		for (e = 0; e < n; e++) {
			uint64_t a;
			uint8_t *p;
			uint32_t v = frag_get(bases, in, 0, type, e, l);

			frag_pos(f, l, e, &r, &c);
			a = base + elem_offset(in->rnd, r, c, ld, esize);
			p = simt_lane_mem(bc, w, l, in, a, esize, esize, true);
			if (!p)
				return false;
			memcpy(p, &v, esize);
			addrs[l][e] = a;
		}
	}
	count_regs(bc, in, addrs, n / per_reg(type), per_reg(type), esize, ex,
		   true);
	return true;
}

/* D = A * B + C for the whole warp. */
static void exec_mma(struct block_ctx *bc, const struct simt_insn *in,
		     uint64_t *const *bases, uint32_t ex)
{
	const struct shape *s = &shapes[in->sub2];
	int at = in->type, ct = in->type2, dt = (int)in->imm;
	unsigned M = s->m, N = s->n, K = s->k, i, j, k, l;
	unsigned nd = frag_regs(s, MAT_C, dt), na = frag_regs(s, MAT_A, at);
	unsigned nb = frag_regs(s, MAT_B, at), n = frag_unique(&s->f[MAT_C]);
	float A[512], B[512], C[512], D[512];
	uint32_t vals[32][16];
	uint64_t flops = 2ull * M * N * K;

	gather(bases, in, &s->f[MAT_A], nd, at, A, K);
	gather(bases, in, &s->f[MAT_B], nd + na, at, B, N);
	gather(bases, in, &s->f[MAT_C], nd + na + nb, ct, C, N);
	for (i = 0; i < M; i++)
		for (j = 0; j < N; j++) {
			float acc = C[i * N + j];

			for (k = 0; k < K; k++)
				acc = fmaf(A[i * K + k], B[k * N + j], acc);
			D[i * N + j] = acc;
		}
	for (l = 0; l < 32; l++)
		for (k = 0; k < n; k++) {
			frag_pos(&s->f[MAT_C], l, k, &i, &j);
			vals[l][k] = elem_bits(dt, D[i * N + j]);
		}
	scatter(bases, in, 0, dt, vals, n, ex);
	if (at == ST_TF32)
		bc->counts.flops_f32 += flops;
	else
		bc->counts.flops_f16 += flops;
}

/* ldmatrix: lanes 8j..8j+7 give the row addresses of matrix j; each lane
 * receives, per matrix, two adjacent elements of row laneid/4 (columns
 * 2*(laneid%4) and +1), or of the transpose with .trans (PTX ISA,
 * "Warp-level matrix load instruction: ldmatrix"). */
static bool exec_ldmatrix(struct block_ctx *bc, struct warp *w,
			  const struct simt_insn *in, uint64_t *const *bases,
			  uint32_t ex)
{
	unsigned num = in->vec, q, j;
	const uint8_t *rowp[32];
	uint64_t addr[32];
	uint32_t vals[32][4], m = ex;

	for (q = 0; q < 8 * num; q++) {
		addr[q] = lane_addr(in, bases, w, q);
		rowp[q] = simt_lane_mem(bc, w, q, in, addr[q], 16, 16, false);
		if (!rowp[q])
			return false;
	}
	/* the destinations may hold the addresses: read everything first */
	while (m) {
		unsigned l = (unsigned)__builtin_ctz(m), g = l >> 2, t = l & 3;

		m &= m - 1;
		for (j = 0; j < num; j++) {
			uint16_t lo, hi;

			if (in->rnd) {
				memcpy(&lo, rowp[8 * j + 2 * t] + 2 * g, 2);
				memcpy(&hi, rowp[8 * j + 2 * t + 1] + 2 * g, 2);
			} else {
				memcpy(&lo, rowp[8 * j + g] + 4 * t, 2);
				memcpy(&hi, rowp[8 * j + g] + 4 * t + 2, 2);
			}
			vals[l][j] = (uint32_t)lo | ((uint32_t)hi << 16);
		}
	}
	for (j = 0; j < num; j++) {
		uint64_t *D = ROW(table_op(bases, in, j));

		m = ex;
		while (m) {
			unsigned l = (unsigned)__builtin_ctz(m);

			m &= m - 1;
			D[l] = vals[l][j];
		}
		simt_count_mem(bc, in, addr, 0xffu << (8 * j), 16, false);
	}
	return true;
}

/* movmatrix.m8n8.trans: lane l holds row l/4, columns 2*(l%4) and +1 of
 * an 8x8 matrix of 16-bit elements; the result holds its transpose the
 * same way. */
static void exec_movmatrix(const struct simt_insn *in, uint64_t *const *bases,
			   uint32_t ex)
{
	const uint64_t *A = ROW(in->o[1]);
	uint64_t *D = ROW(in->o[0]);
	uint32_t src[32], m = ex;
	unsigned l, h;

	for (l = 0; l < 32; l++)
		src[l] = (uint32_t)A[l];
	while (m) {
		uint32_t v = 0;

		l = (unsigned)__builtin_ctz(m);
		m &= m - 1;
		for (h = 0; h < 2; h++) {
			unsigned r = 2 * (l & 3) + h, c = l >> 2;
			uint32_t e = (src[r * 4 + (c >> 1)] >> (16 * (c & 1))) & 0xffffu;

			v |= e << (16 * h);
		}
		D[l] = v;
	}
}

/* The .sync.aligned matrix instructions take their operands from all 32
 * lanes, so every thread of the warp must execute them together; with
 * fewer (divergence, an early return, a block size that is not a multiple
 * of 32) a GPU's result is undefined.  Reports that as a fault. */
static bool whole_warp(struct block_ctx *bc, struct warp *w,
		       const struct simt_insn *in, uint32_t ex)
{
	unsigned n = 0;
	uint32_t m;

	if (ex == SIMT_FULL)
		return true;
	for (m = ex; m; m &= m - 1)
		n++;
	simt_fault(bc, w, __builtin_ctz(ex), in, cudaErrorLaunchFailure,
		   "warp-level matrix instruction executed by %u of the 32 "
		   "threads of a warp%s; wmma, mma.sync, ldmatrix and movmatrix "
		   "need every thread of the warp to execute them together", n,
		   w->exist != SIMT_FULL ? " (the block's size is not a multiple "
					   "of 32)" : "");
	return false;
}

bool simt_tensor_exec(struct block_ctx *bc, struct warp *w,
		      const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex)
{
	if (!whole_warp(bc, w, in, ex))
		return false;
	switch (in->sub) {
	case TS_WMMA_LD:
		return exec_wmma_ld(bc, w, in, bases, ex);
	case TS_WMMA_ST:
		return exec_wmma_st(bc, w, in, bases, ex);
	case TS_MMA:
		exec_mma(bc, in, bases, ex);
		return true;
	case TS_LDMATRIX:
		return exec_ldmatrix(bc, w, in, bases, ex);
	default:
		exec_movmatrix(in, bases, ex);
		return true;
	}
}

/* f32 to tf32: ten fraction bits, rounded as asked, the rest zero. */
static uint32_t to_tf32(uint32_t u, int rnd, bool satfinite)
{
	uint32_t r;

	if ((u & 0x7f800000u) == 0x7f800000u)
		return (u & 0x007fffffu) ? 0x7fffffffu : u;
	switch (rnd) {
	case RND_RZ:
		r = u & 0xffffe000u;
		break;
	case RND_RN:
		r = (u + 0xfffu + ((u >> 13) & 1u)) & 0xffffe000u;
		break;
	default:
		r = (u + 0x1000u) & 0xffffe000u;
		break;
	}
	if (satfinite && (r & 0x7fffffffu) == 0x7f800000u)
		r = (r & 0x80000000u) | 0x7f7fe000u;
	return r;
}

void simt_tensor_lane(const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex)
{
	const uint64_t *A = ROW(in->o[1]);
	uint64_t *D = ROW(in->o[0]);
	bool sat = (in->flags & F_SAT) != 0;

	while (ex) {
		unsigned l = (unsigned)__builtin_ctz(ex);

		ex &= ex - 1;
		D[l] = to_tf32((uint32_t)A[l], in->rnd, sat);
	}
}
