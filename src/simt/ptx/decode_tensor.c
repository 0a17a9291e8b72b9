/* Decoding the tensor-core instructions: wmma.load/mma/store, mma.sync,
 * ldmatrix, movmatrix and cvt to tf32.  decode.c hands over the operands
 * flattened; the instruction is completed here, its operand list stored
 * in a constant row, and the shape chosen from the fragments of
 * ptx/tensor.h, by which exec/tensor.c runs it. */
#include "ptx/decode.h"
#include "ptx/tensor.h"

#include <string.h>

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

/* ---- from the decoder ---- */

/* wmma, mma, ldmatrix, movmatrix and cvt to tf32: the operands are
 * flattened here, and tensor.c works out what they mean. */
void dec_tensor(struct dctx *d)
{
	struct simt_tensor_operands t;
	struct simt_insn *in = dec_emit(d);
	const char *why = "operands not understood";
	int i, j;

	memset(&t, 0, sizeof t);
	in->space = (uint8_t)d->m.space;
	if (d->nops > SIMT_TENSOR_MAXGROUPS)
		goto bad;
	for (i = 0; i < d->nops; i++) {
		const struct ptx_rop *r = &d->ops[i];
		int ne = r->kind == RO_VEC ? r->nelem : r->kind == RO_ADDR ? 0 : 1;

		if (t.n + ne > SIMT_TENSOR_MAXOPS || (!ne && !dec_mem_addr(d, in, r)))
			goto bad;
		for (j = 0; j < ne; j++) {
			const struct ptx_rop *e = r->kind == RO_VEC ? &r->elem[j] : r;

			if (e->kind == RO_SINK ? !dec_dst(e, &t.o[t.n])
					       : !dec_src(d, e, ST_B32, &t.o[t.n]))
				goto bad;
			t.n++;
		}
		t.len[t.ngroups++] = (uint8_t)ne;
	}
	why = simt_tensor_decode(d->ps, in, d->op, d->oplen, &t);
	if (!why)
		return;
bad:
	d->ps->mod->ncode--;
	dec_unsupported(d, why);
}

/* ---- what the time model reads ---- */

/* The i-th operand of the instruction's operand table. */
static struct simt_opnd table_entry(const struct simt_module *mod,
				    const struct simt_insn *in, unsigned i)
{
	struct simt_opnd o;

	memcpy(&o, &mod->consts[(size_t)in->target * 32 + i], sizeof o);
	return o;
}

static void info_rows(const struct simt_module *mod, const struct simt_insn *in,
		      unsigned from, unsigned to, uint32_t *rows, int *n, int cap)
{
	unsigned i;

	for (i = from; i < to && *n < cap; i++) {
		struct simt_opnd o = table_entry(mod, in, i);

		if (o.kind == OK_REG)
			rows[(*n)++] = o.idx;
	}
}

void simt_tensor_info(const struct simt_module *mod, const struct simt_insn *in,
		      struct simt_tensor_info *ti)
{
	memset(ti, 0, sizeof *ti);
	switch (in->sub) {
	case TS_MMA: {
		const struct shape *s = &shapes[in->sub2];
		unsigned nd = frag_regs(s, MAT_C, (int)in->imm);

		ti->kind = TI_MMA;
		ti->type = in->type;
		ti->f32_acc = (int)in->imm == ST_F32 || in->type2 == ST_F32;
		ti->flops = 2.0 * s->m * s->n * s->k;
		info_rows(mod, in, 0, nd, ti->dst, &ti->ndst, 16);
		info_rows(mod, in, nd, in->nops, ti->src, &ti->nsrc, 32);
		break;
	}
	case TS_WMMA_LD: case TS_LDMATRIX:
		ti->kind = TI_LOAD;
		info_rows(mod, in, 0, in->nops, ti->dst, &ti->ndst, 16);
		break;
	case TS_WMMA_ST:
		ti->kind = TI_STORE;
		info_rows(mod, in, 0, in->nops, ti->src, &ti->nsrc, 32);
		break;
	default:
		ti->kind = TI_OTHER;
		if (in->o[0].kind == OK_REG)
			ti->dst[ti->ndst++] = in->o[0].idx;
		if (in->o[1].kind == OK_REG)
			ti->src[ti->nsrc++] = in->o[1].idx;
		break;
	}
}
