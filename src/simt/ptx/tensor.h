/* The fragments of tensor-core instructions: which matrix element each
 * lane holds in which register, for every shape simt runs.  The decoder
 * (decode_tensor.c) sizes operand lists by them and the interpreter
 * (exec/tensor.c) moves elements by them, so both read this one table.
 *
 * For mma.sync the PTX ISA fixes which element sits in which register of
 * which lane ("Matrix Fragments for mma.m16n8k*", section 9.7.14.5 of the
 * PTX ISA 8.x/9.0): with groupID = laneid >> 2 and threadID_in_group =
 * laneid % 4, each shape and type has a row/column formula per element.
 * simt uses those formulas exactly.
 *
 * For wmma the ISA fixes only how many registers a fragment takes and
 * leaves the element mapping to the implementation, so programs can rely
 * on nothing but element-wise operations being consistent.  simt builds
 * every wmma fragment out of the same mma.sync tiles (a 16x16 A tile of
 * m16n8k16, 16x8 B and C tiles side by side or stacked; m8n32k16 as the
 * transpose of m32n8k16), which covers each matrix element and keeps load,
 * mma and store consistent.  Where the ISA gives a lane more registers
 * than elements (.f16 A and B fragments always take eight registers),
 * the extra registers repeat the tile: a load fills every copy, an mma
 * reads the first. */
#ifndef SIMT_TENSOR_FRAG_H
#define SIMT_TENSOR_FRAG_H

#include "ptx/ptx.h"

/* A tensor instruction's operands are stored in a constant row, one
 * operand a lane. */
_Static_assert(sizeof(struct simt_opnd) == sizeof(uint64_t),
	       "an operand fills one lane of a constant row");

/* in->sub of OP_TENSOR, and the matrices of a shape. */
enum { TS_WMMA_LD, TS_WMMA_ST, TS_MMA, TS_LDMATRIX, TS_MOVMATRIX };
enum { MAT_A, MAT_B, MAT_C };

/* Tiles: the lane-to-element maps of mma.sync fragments. */
enum {
	T_A16,   /* 16x16, 8 a lane: A of m16n8k16 .f16/.bf16 */
	T_B16,   /* 16x8, 4: B of m16n8k16 .f16/.bf16 */
	T_C,     /* 16x8, 4: C/D of every m16n8 shape; A of m16n8k8 .f16 */
	T_B8,    /* 8x8, 2: B of m16n8k8 .f16/.bf16 */
	T_A8T,   /* 16x8, 4: A of m16n8k8 .tf32 */
	T_B8T,   /* 8x8, 2: B of m16n8k8 .tf32 */
	T_A4T,   /* 16x4, 2: A of m16n8k4 .tf32 */
	T_B4T,   /* 4x8, 1: B of m16n8k4 .tf32 */
};

static const uint8_t tile_rows[] = {16, 16, 16, 8, 16, 8, 16, 4};
static const uint8_t tile_cols[] = {16, 8, 8, 8, 8, 8, 4, 8};
static const uint8_t tile_elems[] = {8, 4, 4, 2, 4, 2, 2, 1};

/* Row and column of element i (low to high) that `lane` holds of a tile,
 * as the PTX ISA's fragment figures for mma.m16n8k16/k8/k4 give them. */
static inline void tile_pos(int tile, unsigned lane, unsigned i, unsigned *r,
		     unsigned *c)
{
	unsigned g = lane >> 2, t = lane & 3;

	switch (tile) {
	case T_A16:
		*r = g + 8 * ((i >> 1) & 1);
		*c = 2 * t + (i & 1) + 8 * (i >> 2);
		break;
	case T_B16:
		*r = 2 * t + (i & 1) + 8 * (i >> 1);
		*c = g;
		break;
	case T_C:
		*r = g + 8 * (i >> 1);
		*c = 2 * t + (i & 1);
		break;
	case T_B8:
		*r = 2 * t + i;
		*c = g;
		break;
	case T_A8T:
		*r = g + 8 * (i & 1);
		*c = t + 4 * (i >> 1);
		break;
	case T_B8T:
		*r = t + 4 * i;
		*c = g;
		break;
	case T_A4T:
		*r = g + 8 * i;
		*c = t;
		break;
	default:
		*r = t;
		*c = g;
		break;
	}
}

/* A fragment: `ntiles` tiles side by side (or stacked when `down`),
 * covering the matrix or, when `trans`, its transpose. */
struct frag {
	uint8_t tile, ntiles;
	bool down, trans;
};

struct shape {
	const char *name;
	uint8_t m, n, k;
	bool wmma;
	bool tf32;           /* the shape of .tf32 operands */
	struct frag f[3];    /* A, B, C/D */
};

static const struct shape shapes[] = {
	{"m16n16k16", 16, 16, 16, true, false,
	 {{T_A16, 1, false, false}, {T_B16, 2, false, false},
	  {T_C, 2, false, false}}},
	{"m32n8k16", 32, 8, 16, true, false,
	 {{T_A16, 2, true, false}, {T_B16, 1, false, false},
	  {T_C, 2, true, false}}},
	/* the transpose of m32n8k16: D^T = B^T A^T */
	{"m8n32k16", 8, 32, 16, true, false,
	 {{T_B16, 1, false, true}, {T_A16, 2, true, true},
	  {T_C, 2, true, true}}},
	{"m16n16k8", 16, 16, 8, true, true,
	 {{T_A8T, 1, false, false}, {T_B8T, 2, false, false},
	  {T_C, 2, false, false}}},
	{"m16n8k16", 16, 8, 16, false, false,
	 {{T_A16, 1, false, false}, {T_B16, 1, false, false},
	  {T_C, 1, false, false}}},
	{"m16n8k8", 16, 8, 8, false, false,
	 {{T_C, 1, false, false}, {T_B8, 1, false, false},
	  {T_C, 1, false, false}}},
	{"m16n8k8", 16, 8, 8, false, true,
	 {{T_A8T, 1, false, false}, {T_B8T, 1, false, false},
	  {T_C, 1, false, false}}},
	{"m16n8k4", 16, 8, 4, false, true,
	 {{T_A4T, 1, false, false}, {T_B4T, 1, false, false},
	  {T_C, 1, false, false}}},
};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

static inline unsigned frag_unique(const struct frag *f)
{
	return (unsigned)tile_elems[f->tile] * f->ntiles;
}

/* Row and column in the matrix of element j < frag_unique(f) of `lane`. */
static inline void frag_pos(const struct frag *f, unsigned lane, unsigned j,
		     unsigned *r, unsigned *c)
{
	unsigned per = tile_elems[f->tile], ti = j / per, rr, cc;

	tile_pos(f->tile, lane, j % per, &rr, &cc);
	if (f->down)
		rr += ti * tile_rows[f->tile];
	else
		cc += ti * tile_cols[f->tile];
	*r = f->trans ? cc : rr;
	*c = f->trans ? rr : cc;
}

static inline bool is16(int type)
{
	return type == ST_F16 || type == ST_BF16;
}

static inline unsigned per_reg(int type)
{
	return is16(type) ? 2 : 1;
}

/* Elements a lane holds: the tile's, or sixteen for the .f16 A and B
 * fragments of wmma, which the ISA gives eight registers whatever the
 * shape. */
static inline unsigned frag_elems(const struct shape *s, int mat, int type)
{
	if (s->wmma && mat != MAT_C && type == ST_F16)
		return 16;
	return frag_unique(&s->f[mat]);
}

static inline unsigned frag_regs(const struct shape *s, int mat, int type)
{
	return frag_elems(s, mat, type) / per_reg(type);
}

/* Matrix dimensions (rows, columns) of A, B or C. */
static inline void mat_dims(const struct shape *s, int mat, unsigned *rows,
		     unsigned *cols)
{
	*rows = mat == MAT_B ? s->k : s->m;
	*cols = mat == MAT_A ? s->k : s->n;
}

/* What the time model needs of an OP_TENSOR instruction: an mma's FLOPs
 * per warp and input type, and the registers it writes and reads (the
 * operand table decode keeps in the module's constant rows). */
enum { TI_OTHER, TI_MMA, TI_LOAD, TI_STORE };
struct simt_tensor_info {
	int kind;
	int type;            /* an mma's input type */
	bool f32_acc;        /* accumulates in f32 */
	double flops;        /* 2*m*n*k of an mma */
	uint32_t dst[16], src[32];
	int ndst, nsrc;
};
void simt_tensor_info(const struct simt_module *mod, const struct simt_insn *in,
		      struct simt_tensor_info *ti);

#endif
