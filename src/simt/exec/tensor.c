/* Tensor-core instructions as plain arithmetic.
 *
 * A fragment is the part of a matrix that one lane holds in registers.
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
 * reads the first.
 *
 * Products of f16, bf16 and tf32 values are exact in f32; the sums are
 * done in f32 with fmaf, k ascending, which is one of the orders a GPU
 * may use (the ISA leaves the order and the internal precision open). */
#include "exec/tensor.h"

#include "exec/exec.h"
#include "ptx/ptx_int.h"

#include <math.h>
#include <string.h>

_Static_assert(sizeof(struct simt_opnd) == sizeof(uint64_t),
	       "an operand fills one lane of a constant row");

enum { TS_WMMA_LD, TS_WMMA_ST, TS_MMA, TS_LDMATRIX, TS_MOVMATRIX };
enum { MAT_A, MAT_B, MAT_C };

/* ---- fragments ---- */

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
static void tile_pos(int tile, unsigned lane, unsigned i, unsigned *r,
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

static unsigned frag_unique(const struct frag *f)
{
	return (unsigned)tile_elems[f->tile] * f->ntiles;
}

/* Row and column in the matrix of element j < frag_unique(f) of `lane`. */
static void frag_pos(const struct frag *f, unsigned lane, unsigned j,
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

static bool is16(int type)
{
	return type == ST_F16 || type == ST_BF16;
}

static unsigned per_reg(int type)
{
	return is16(type) ? 2 : 1;
}

/* Elements a lane holds: the tile's, or sixteen for the .f16 A and B
 * fragments of wmma, which the ISA gives eight registers whatever the
 * shape. */
static unsigned frag_elems(const struct shape *s, int mat, int type)
{
	if (s->wmma && mat != MAT_C && type == ST_F16)
		return 16;
	return frag_unique(&s->f[mat]);
}

static unsigned frag_regs(const struct shape *s, int mat, int type)
{
	return frag_elems(s, mat, type) / per_reg(type);
}

/* Matrix dimensions (rows, columns) of A, B or C. */
static void mat_dims(const struct shape *s, int mat, unsigned *rows,
		     unsigned *cols)
{
	*rows = mat == MAT_B ? s->k : s->m;
	*cols = mat == MAT_A ? s->k : s->n;
}

/* ---- decoding ---- */

struct words {
	const char *s[24];
	uint32_t len[24];
	int n;
};

static void split_words(const char *op, uint32_t len, struct words *w)
{
	const char *p = op, *end = op + len;

	w->n = 0;
	while (p < end && w->n < 24) {
		const char *q = p;

		while (q < end && *q != '.')
			q++;
		w->s[w->n] = p;
		w->len[w->n++] = (uint32_t)(q - p);
		p = q < end ? q + 1 : q;
	}
}

static bool word_is(const struct words *w, int i, const char *x)
{
	return strlen(x) == w->len[i] && memcmp(w->s[i], x, w->len[i]) == 0;
}

static bool word_starts(const struct words *w, int i, const char *x)
{
	size_t n = strlen(x);

	return w->len[i] >= n && memcmp(w->s[i], x, n) == 0;
}

/* What the modifiers of a tensor instruction say. */
struct tmods {
	const char *shape;
	uint32_t shape_len;
	int layout[2], nlayout;   /* 0 row, 1 col */
	int types[4], ntypes;
	int matrix;               /* 'a', 'b', 'c', 'd' or 0 */
	int num;                  /* .x1/.x2/.x4 */
	int rnd;
	bool sync, aligned, trans, satfinite, space;
	bool narrow;              /* an integer, fp8, fp6, fp4 or b1 type */
	bool unknown;
};

static bool narrow_type(const struct words *w, int i)
{
	static const char *const names[] = {"e4m3", "e5m2", "e3m2", "e2m3",
					    "e2m1", "ue8m0", "ue4m3", "s4", "u4",
					    "b1", "s8", "u8", "s32", NULL};
	int j;

	for (j = 0; names[j]; j++)
		if (word_is(w, i, names[j]))
			return true;
	return false;
}

static void read_mods(const struct words *w, int from, struct tmods *m)
{
	static const char *const rnd_words[] = {"rn", "rz", "rm", "rp", NULL};
	int i, j;

	memset(m, 0, sizeof *m);
	for (i = from; i < w->n; i++) {
		int t = ptx_parse_type(w->s[i], w->len[i]);

		if (narrow_type(w, i)) {
			m->narrow = true;
		} else if (word_is(w, i, "sync")) {
			m->sync = true;
		} else if (word_is(w, i, "aligned")) {
			m->aligned = true;
		} else if (word_is(w, i, "row") || word_is(w, i, "col")) {
			if (m->nlayout < 2)
				m->layout[m->nlayout++] = word_is(w, i, "col");
			else
				m->unknown = true;
		} else if (w->len[i] == 1 && strchr("abcd", w->s[i][0])) {
			m->matrix = w->s[i][0];
		} else if (w->len[i] == 2 && w->s[i][0] == 'x' &&
			   strchr("124", w->s[i][1])) {
			m->num = w->s[i][1] - '0';
		} else if (word_is(w, i, "trans")) {
			m->trans = true;
		} else if (word_is(w, i, "satfinite")) {
			m->satfinite = true;
		} else if (word_is(w, i, "rna")) {
			m->rnd = RND_RNA;
		} else if (word_is(w, i, "global") || word_starts(w, i, "shared")) {
			m->space = true;
		} else if (w->s[i][0] == 'm' && w->len[i] > 3 && !m->shape) {
			m->shape = w->s[i];
			m->shape_len = w->len[i];
		} else if (t != ST_NONE && m->ntypes < 4) {
			m->types[m->ntypes++] = t;
		} else {
			for (j = 0; rnd_words[j] && !word_is(w, i, rnd_words[j]); j++)
				;
			if (rnd_words[j])
				m->rnd = RND_RN + j;
			else
				m->unknown = true;
		}
	}
}

static int find_shape(const struct tmods *m, bool wmma, bool tf32)
{
	int i;

	for (i = 0; i < NSHAPES; i++)
		if (shapes[i].wmma == wmma && shapes[i].tf32 == tf32 && m->shape &&
		    strlen(shapes[i].name) == m->shape_len &&
		    memcmp(shapes[i].name, m->shape, m->shape_len) == 0)
			return i;
	return -1;
}

/* Stores the operand list in fresh constant rows (one operand a lane,
 * rows consecutive) and returns the first row. */
static uint32_t store_table(struct ptx_parser *ps, const struct simt_opnd *o,
			    int n)
{
	uint32_t first = 0;
	int i;

	for (i = 0; i < n; i++) {
		uint64_t v;

		if (i % 32 == 0) {
			uint32_t row = ptx_fresh_row(ps, 0);

			if (i == 0)
				first = row;
		}
		memcpy(&v, &o[i], sizeof v);
		ps->mod->consts[(size_t)first * 32 + (size_t)i] = v;
	}
	return first;
}

static bool writable(const struct simt_opnd *o, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (o[i].kind != OK_REG && o[i].kind != OK_NONE)
			return false;
	return true;
}

/* Checks the operand groups against the expected element counts (-1
 * ends the list; 0 is the memory operand). */
static bool groups_are(const struct simt_tensor_operands *t, const int *want)
{
	int i;

	for (i = 0; want[i] >= 0; i++)
		if (i >= t->ngroups || t->len[i] != want[i])
			return false;
	return i == t->ngroups;
}

static bool mem_ok(const struct simt_insn *in)
{
	return in->am == AM_REG || in->am == AM_ABS || in->am == AM_SHVAR ||
	       in->am == AM_LOCVAR;
}

static void set_common(struct ptx_parser *ps, struct simt_insn *in, int sub)
{
	in->op = OP_TENSOR;
	in->sub = (uint8_t)sub;
	/* Every lane of the warp takes part: the member mask is all of it. */
	in->o[5].kind = OK_IMM;
	in->o[5].idx = ptx_const_row(ps, SIMT_FULL);
}

static bool elem_type_ok(int t)
{
	return t == ST_F16 || t == ST_BF16 || t == ST_TF32 || t == ST_F32;
}

static const char int_types[] =
	"integer, fp8 and single-bit tensor-core instructions are not emulated";

/* wmma.load.{a,b,c} and wmma.store.d */
static const char *dec_wmma_ldst(struct ptx_parser *ps, struct simt_insn *in,
				 const struct tmods *m, bool store,
				 const struct simt_tensor_operands *t)
{
	int mat = m->matrix == 'a' ? MAT_A : m->matrix == 'b' ? MAT_B : MAT_C;
	int type = m->ntypes == 1 ? m->types[0] : ST_NONE;
	int sh, want[4], nregs;
	const struct shape *s;

	if (m->narrow)
		return int_types;
	if (!m->sync || !m->aligned || m->nlayout != 1 || m->ntypes != 1 ||
	    m->unknown || m->trans || m->num || m->rnd || m->satfinite ||
	    (store ? m->matrix != 'd' : !m->matrix || m->matrix == 'd'))
		return "wmma form not emulated";
	if (!elem_type_ok(type) || (type == ST_F32 && mat != MAT_C) ||
	    (type == ST_TF32 && mat == MAT_C) ||
	    (type == ST_BF16 && mat == MAT_C))
		return "wmma element type not emulated (f16, bf16, tf32 with "
		       "f16 or f32 accumulators are)";
	sh = find_shape(m, true, type == ST_TF32);
	if (sh < 0 && mat == MAT_C)
		sh = find_shape(m, true, true);
	if (sh < 0)
		return "wmma shape not emulated (m16n16k16, m32n8k16, m8n32k16 "
		       "and m16n16k8 are)";
	s = &shapes[sh];
	nregs = (int)frag_regs(s, mat, type);
	want[store ? 1 : 0] = nregs;
	want[store ? 0 : 1] = 0;
	want[2] = t->ngroups == 3 ? 1 : -1;
	want[3] = -1;
	if (!groups_are(t, want) || !mem_ok(in) ||
	    (!store && !writable(t->o, nregs)))
		return "operands not understood";
	set_common(ps, in, store ? TS_WMMA_ST : TS_WMMA_LD);
	in->sub2 = (uint8_t)sh;
	in->vec = (uint8_t)mat;
	in->type = (uint8_t)type;
	in->rnd = (uint8_t)m->layout[0];
	in->target = store_table(ps, t->o, nregs);
	in->nops = (uint8_t)nregs;
	if (t->ngroups == 3)
		in->o[0] = t->o[nregs];
	return NULL;
}

/* wmma.mma (from_wmma) and mma.sync: d, a, b, c fragments. */
static const char *dec_mma(struct ptx_parser *ps, struct simt_insn *in,
			   const struct tmods *m, bool from_wmma,
			   const struct simt_tensor_operands *t)
{
	int dt, at, bt, ct, sh, want[5];
	const struct shape *s;
	unsigned nd, na, nb, nc;

	if (m->narrow)
		return int_types;
	if (!m->sync || !m->aligned || m->nlayout != 2 || m->unknown ||
	    m->trans || m->num || m->rnd || m->satfinite || m->space ||
	    m->matrix)
		return "mma form not emulated";
	if (!from_wmma && (m->layout[0] != 0 || m->layout[1] != 1))
		return "mma form not emulated";
	if (from_wmma && m->ntypes == 2) {
		dt = m->types[0];
		ct = m->types[1];
		at = bt = ST_F16;
	} else if (m->ntypes == 4) {
		dt = m->types[0];
		at = m->types[1];
		bt = m->types[2];
		ct = m->types[3];
	} else {
		return "mma types not understood";
	}
	if (at != bt || (at != ST_F16 && at != ST_BF16 && at != ST_TF32) ||
	    (dt != ST_F16 && dt != ST_F32) || (ct != ST_F16 && ct != ST_F32) ||
	    (at != ST_F16 && (dt != ST_F32 || ct != ST_F32)))
		return "mma types not emulated (f16, bf16 and tf32 inputs with "
		       "f16 or f32 accumulators are)";
	sh = find_shape(m, from_wmma, at == ST_TF32);
	if (sh < 0)
		return "mma shape not emulated";
	s = &shapes[sh];
	nd = frag_regs(s, MAT_C, dt);
	na = frag_regs(s, MAT_A, at);
	nb = frag_regs(s, MAT_B, bt);
	nc = frag_regs(s, MAT_C, ct);
	want[0] = (int)nd;
	want[1] = (int)na;
	want[2] = (int)nb;
	want[3] = (int)nc;
	want[4] = -1;
	if (!groups_are(t, want) || !writable(t->o, (int)nd))
		return "operands not understood";
	set_common(ps, in, TS_MMA);
	in->sub2 = (uint8_t)sh;
	in->type = (uint8_t)at;
	in->type2 = (uint8_t)ct;
	in->imm = dt;
	in->target = store_table(ps, t->o, t->n);
	in->nops = (uint8_t)t->n;
	return NULL;
}

static const char *dec_ldmatrix(struct ptx_parser *ps, struct simt_insn *in,
				const struct tmods *m,
				const struct simt_tensor_operands *t)
{
	int want[3];

	if (!m->sync || !m->aligned || !m->num || m->nlayout || m->unknown ||
	    m->rnd || m->satfinite || m->matrix || m->ntypes != 1 ||
	    m->types[0] != ST_B16 || !m->shape || m->shape_len != 4 ||
	    memcmp(m->shape, "m8n8", 4) != 0)
		return "ldmatrix form not emulated (.m8n8 .b16 is)";
	want[0] = m->num;
	want[1] = 0;
	want[2] = -1;
	if (!groups_are(t, want) || !mem_ok(in) || !writable(t->o, m->num))
		return "operands not understood";
	set_common(ps, in, TS_LDMATRIX);
	in->vec = (uint8_t)m->num;
	in->rnd = m->trans;
	in->target = store_table(ps, t->o, m->num);
	in->nops = (uint8_t)m->num;
	return NULL;
}

static const char *dec_movmatrix(struct ptx_parser *ps, struct simt_insn *in,
				 const struct tmods *m,
				 const struct simt_tensor_operands *t)
{
	static const int want[] = {1, 1, -1};

	if (!m->sync || !m->aligned || !m->trans || m->num || m->nlayout ||
	    m->unknown || m->rnd || m->space || m->ntypes != 1 ||
	    m->types[0] != ST_B16 || !m->shape || m->shape_len != 4 ||
	    memcmp(m->shape, "m8n8", 4) != 0)
		return "movmatrix form not emulated";
	if (!groups_are(t, want) || !writable(t->o, 1))
		return "operands not understood";
	set_common(ps, in, TS_MOVMATRIX);
	in->o[0] = t->o[0];
	in->o[1] = t->o[1];
	return NULL;
}

/* cvt.{rna,rn,rz}{.satfinite}.tf32.f32 */
static const char *dec_cvt_tf32(struct simt_insn *in, const struct tmods *m,
				const struct simt_tensor_operands *t)
{
	static const int want[] = {1, 1, -1};

	if (m->ntypes != 2 || m->types[0] != ST_TF32 || m->types[1] != ST_F32 ||
	    m->unknown || m->nlayout || m->shape || m->space ||
	    (m->rnd != RND_RNA && m->rnd != RND_RN && m->rnd != RND_RZ))
		return "cvt to tf32 of this kind";
	if (!groups_are(t, want) || !writable(t->o, 1))
		return "operands not understood";
	in->op = OP_TENSOR_LANE;
	in->rnd = (uint8_t)m->rnd;
	if (m->satfinite)
		in->flags |= F_SAT;
	in->o[0] = t->o[0];
	in->o[1] = t->o[1];
	return NULL;
}

const char *simt_tensor_decode(struct ptx_parser *ps, struct simt_insn *in,
			       const char *op, uint32_t oplen,
			       const struct simt_tensor_operands *t)
{
	struct words w;
	struct tmods m;

	split_words(op, oplen, &w);
	if (w.n < 2)
		return "tensor-core instruction not emulated";
	if (word_is(&w, 0, "wmma")) {
		read_mods(&w, 2, &m);
		if (word_is(&w, 1, "load"))
			return dec_wmma_ldst(ps, in, &m, false, t);
		if (word_is(&w, 1, "store"))
			return dec_wmma_ldst(ps, in, &m, true, t);
		if (word_is(&w, 1, "mma"))
			return dec_mma(ps, in, &m, true, t);
		return "wmma form not emulated";
	}
	read_mods(&w, 1, &m);
	if (word_is(&w, 0, "mma"))
		return dec_mma(ps, in, &m, false, t);
	if (word_is(&w, 0, "ldmatrix"))
		return dec_ldmatrix(ps, in, &m, t);
	if (word_is(&w, 0, "movmatrix"))
		return dec_movmatrix(ps, in, &m, t);
	if (word_is(&w, 0, "cvt"))
		return dec_cvt_tf32(in, &m, t);
	return "tensor-core instruction not emulated";
}

/* ---- execution ---- */

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
