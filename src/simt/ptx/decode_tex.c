/* Decoding tex, txq, suld and sust: decode.c hands over the operands
 * flattened; the instruction is completed here with its geometry, query
 * or surface access, and run by exec/texture.c. */
#include "ptx/decode.h"

#include <string.h>

static const char *const geom_words[] = {"1d", "2d", "3d", "a1d", "a2d",
					 "cube", "acube", NULL};
static const int geom_ncoord[] = {1, 2, 4, 2, 4, 4, 4};

static const char *const query_words[] = {
	"width", "height", "depth", "array_size", NULL};

/* The dot-separated words of an instruction, the opcode first. */
struct words {
	const char *s[8];
	uint32_t len[8];
	int n;
};

static void split_words(const char *op, uint32_t oplen, struct words *w)
{
	uint32_t i = 0;

	w->n = 0;
	while (i < oplen && w->n < 8) {
		uint32_t j = i;

		while (j < oplen && op[j] != '.')
			j++;
		w->s[w->n] = op + i;
		w->len[w->n++] = j - i;
		i = j + 1;
	}
}

static int word_in(const struct words *w, int i, const char *const *list)
{
	int j;

	if (i >= w->n)
		return -1;
	for (j = 0; list[j]; j++)
		if (strlen(list[j]) == w->len[i] &&
		    memcmp(list[j], w->s[i], w->len[i]) == 0)
			return j;
	return -1;
}

/* Stores the destinations in a fresh constant row and returns it. */
static uint32_t store_dst(struct ptx_parser *ps, const struct simt_tex_operands *t)
{
	uint32_t row = ptx_fresh_row(ps, 0);
	int i;

	for (i = 0; i < 4; i++) {
		struct simt_opnd o = {0, OK_NONE, 0, {0, 0}};
		uint64_t v = 0;

		if (i < t->ndst)
			o = t->dst[i];
		memcpy(&v, &o, sizeof o);
		ps->mod->consts[(size_t)row * 32 + (size_t)i] = v;
	}
	return row;
}

static const char *dec_txq(struct ptx_parser *ps, struct simt_insn *in,
			   const struct words *w, const struct simt_tex_operands *t)
{
	int q = word_in(w, 1, query_words);

	if (q < 0 || w->n != 3 || t->ndst != 1 || t->ncoord != 0)
		return "this txq query is not emulated";
	in->sub = TG_QUERY;
	in->sub2 = (uint8_t)q;
	in->o[4] = t->handle;
	in->target = store_dst(ps, t);
	return NULL;
}

/* The modifiers of suld.b / sust.b; false on one simt does not know. */
static bool surface_words(const struct words *w, struct simt_insn *in, int *g)
{
	static const char *const sizes[] = {"b8", "b16", "b32", "b64", NULL};
	static const char *const modes[] = {"trap", "clamp", "zero", NULL};
	static const char *const cache[] = {"ca", "cg", "cs", "cv", "wb", "wt",
					    NULL};
	int i, k;

	*g = -1;
	in->vec = 1;
	in->type = 0;
	in->type2 = SB_TRAP;
	if (w->n < 2 || w->len[1] != 1 || w->s[1][0] != 'b')
		return false;
	for (i = 2; i < w->n; i++) {
		if ((k = word_in(w, i, geom_words)) >= 0)
			*g = k;
		else if ((k = word_in(w, i, sizes)) >= 0)
			in->type = (uint8_t)(1 << k);
		else if ((k = word_in(w, i, modes)) >= 0)
			in->type2 = (uint8_t)k;
		else if (w->len[i] == 2 && w->s[i][0] == 'v' &&
			 (w->s[i][1] == '2' || w->s[i][1] == '4'))
			in->vec = (uint8_t)(w->s[i][1] - '0');
		else if (word_in(w, i, cache) < 0)
			return false;
	}
	/* surfaces reach a cubemap's faces as the layers of a2d */
	return *g >= 0 && *g <= TG_A2D && in->type != 0;
}

static const char *dec_surface(struct ptx_parser *ps, struct simt_insn *in,
			       const struct words *w,
			       const struct simt_tex_operands *t, bool store)
{
	int g, i;

	if (!surface_words(w, in, &g))
		return "surface accesses other than the .b forms of 1d, 2d, "
		       "3d, a1d and a2d are not emulated";
	if (t->ndst != in->vec || t->ncoord != geom_ncoord[g])
		return "operands not understood";
	in->sub = store ? TG_SUST : TG_SULD;
	in->sub2 = (uint8_t)g;
	for (i = 0; i < 4; i++)
		in->o[i] = i < t->ncoord ? t->coord[i] : t->coord[0];
	in->o[4] = t->handle;
	in->target = store_dst(ps, t);
	return NULL;
}

const char *simt_tex_decode(struct ptx_parser *ps, struct simt_insn *in,
			    const char *op, uint32_t oplen,
			    const struct simt_tex_operands *t)
{
	static const char *const dtypes[] = {"f32", "s32", "u32", NULL};
	static const char *const ctypes[] = {"f32", "s32", NULL};
	struct words w;
	int g, dt, ct, i;

	split_words(op, oplen, &w);
	in->op = OP_TEX;
	if (w.n >= 1 && w.len[0] == 3 && memcmp(w.s[0], "txq", 3) == 0)
		return dec_txq(ps, in, &w, t);
	if (w.n >= 1 && w.len[0] == 4 && memcmp(w.s[0], "su", 2) == 0)
		return dec_surface(ps, in, &w, t, w.s[0][2] == 's');
	g = word_in(&w, 1, geom_words);
	if (g < 0)
		return "texture geometries other than 1d, 2d, 3d, a1d, a2d, cube "
		       "and acube (and the level, grad and base forms) are not "
		       "emulated";
	if (w.n != 5 || w.len[2] != 2 || memcmp(w.s[2], "v4", 2) != 0)
		return "only four-element texture fetches are emulated";
	dt = word_in(&w, 3, dtypes);
	ct = word_in(&w, 4, ctypes);
	if (dt < 0 || ct < 0)
		return "texture fetches of this element or coordinate type are "
		       "not emulated";
	if (t->ndst != 4 || t->ncoord != geom_ncoord[g])
		return "operands not understood";
	in->sub = (uint8_t)g;
	in->type = (uint8_t)(dt == 0 ? ST_F32 : dt == 1 ? ST_S32 : ST_U32);
	in->type2 = (uint8_t)(ct == 0 ? ST_F32 : ST_S32);
	for (i = 0; i < 4; i++)
		in->o[i] = i < t->ncoord ? t->coord[i] : t->coord[0];
	in->o[4] = t->handle;
	in->target = store_dst(ps, t);
	return NULL;
}

/* ---- from the decoder ---- */

/* tex, txq, suld and sust: the values (destinations, or the sources of a
 * sust), the texture or surface object and the coordinates are flattened
 * here, and texture.c works out what they mean. */
void dec_tex(struct dctx *d)
{
	struct simt_tex_operands t;
	struct simt_insn *in = dec_emit(d);
	const struct ptx_rop *dv, *a, *c;
	const char *why = "operands not understood";
	bool store = dec_base_is(d, "sust");
	int j;

	memset(&t, 0, sizeof t);
	if (d->nops > 2) {
		why = "texture fetches with a level, gradients, an offset or a "
		      "depth comparison are not emulated";
		goto bad;
	}
	if (d->nops != 2 || d->ops[store ? 0 : 1].kind != RO_ADDR)
		goto bad;
	dv = &d->ops[store ? 1 : 0];
	a = &d->ops[store ? 0 : 1];
	t.ndst = dv->kind == RO_VEC ? dv->nelem : 1;
	if (t.ndst > 4)
		goto bad;
	for (j = 0; j < t.ndst; j++) {
		const struct ptx_rop *e = dv->kind == RO_VEC ? &dv->elem[j] : dv;

		if (store ? !dec_src(d, e, ST_B64, &t.dst[j]) : !dec_dst(e, &t.dst[j]))
			goto bad;
	}
	if (a->elem[0].kind != RO_REG || !dec_src(d, &a->elem[0], ST_U64, &t.handle))
		goto bad;
	c = a->nelem > 1 ? &a->elem[1] : NULL;
	t.ncoord = !c ? 0 : c->kind == RO_VEC ? c->nelem : 1;
	if (t.ncoord > 4)
		goto bad;
	for (j = 0; j < t.ncoord; j++)
		if (!dec_src(d, c->kind == RO_VEC ? &c->elem[j] : c, ST_B32,
			     &t.coord[j]))
			goto bad;
	why = simt_tex_decode(d->ps, in, d->op, d->oplen, &t);
	if (!why)
		return;
bad:
	d->ps->mod->ncode--;
	dec_unsupported(d, why);
}
