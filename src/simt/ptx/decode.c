/* Turning one parsed PTX instruction into its decoded form: the operation
 * the interpreter runs, resolved register rows, constant rows for
 * immediates, addressing mode, types and modifiers.  Instructions simt
 * does not implement become OP_UNSUPPORTED and mark their function, so a
 * launch that could reach them fails with a message naming them. */
#include "ptx/ptx_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXMODS 16

struct mods {
	const char *s[MAXMODS];
	uint32_t len[MAXMODS];
	int n;
	int types[4];
	int ntypes;
	int space;
	int rnd;
	int vec;
};

struct dctx {
	struct ptx_parser *ps;
	const char *op;
	uint32_t oplen;
	struct ptx_rop *ops;
	int nops;
	int guard;
	bool guard_neg;
	uint32_t line;
	struct mods m;
};

static bool meq(const char *s, uint32_t len, const char *w)
{
	return strlen(w) == len && memcmp(s, w, len) == 0;
}

static bool has(const struct dctx *d, const char *w)
{
	int i;

	for (i = 1; i < d->m.n; i++)
		if (meq(d->m.s[i], d->m.len[i], w))
			return true;
	return false;
}

/* Index of the first modifier among `words` (NULL-terminated), or -1. */
static int which(const struct dctx *d, const char *const *words)
{
	int i, j;

	for (i = 1; i < d->m.n; i++)
		for (j = 0; words[j]; j++)
			if (meq(d->m.s[i], d->m.len[i], words[j]))
				return j;
	return -1;
}

static const char *const rnd_words[] = {"rn", "rz", "rm", "rp", "rni", "rzi",
					"rmi", "rpi", "rna", NULL};

static void split_mods(struct dctx *d)
{
	const char *p = d->op, *end = d->op + d->oplen;
	struct mods *m = &d->m;
	int r;

	memset(m, 0, sizeof *m);
	m->space = SS_GENERIC;
	m->vec = 1;
	while (p < end && m->n < MAXMODS) {
		const char *q = p;

		while (q < end && *q != '.')
			q++;
		m->s[m->n] = p;
		m->len[m->n] = (uint32_t)(q - p);
		if (m->n > 0) {
			int t = ptx_parse_type(p, (uint32_t)(q - p));

			if (t != ST_NONE && m->ntypes < 4)
				m->types[m->ntypes++] = t;
			if (meq(p, (uint32_t)(q - p), "global"))
				m->space = SS_GLOBAL;
			else if ((q - p) >= 6 && memcmp(p, "shared", 6) == 0)
				m->space = SS_SHARED;
			else if (meq(p, (uint32_t)(q - p), "local"))
				m->space = SS_LOCAL;
			else if (meq(p, (uint32_t)(q - p), "const"))
				m->space = SS_CONST;
			else if ((q - p) >= 5 && memcmp(p, "param", 5) == 0)
				m->space = SS_PARAM;
			else if (meq(p, (uint32_t)(q - p), "v2"))
				m->vec = 2;
			else if (meq(p, (uint32_t)(q - p), "v4"))
				m->vec = 4;
			else if (meq(p, (uint32_t)(q - p), "v8"))
				m->vec = 8;
		}
		m->n++;
		p = q < end ? q + 1 : q;
	}
	r = which(d, rnd_words);
	m->rnd = r < 0 ? RND_NONE : RND_RN + r;
}

static bool base_is(const struct dctx *d, const char *w)
{
	return meq(d->m.s[0], d->m.len[0], w);
}

/* ---- errors ---- */

static struct simt_insn *emit(struct dctx *d)
{
	struct simt_insn *in = ptx_emit(d->ps, d->line);

	in->guard = d->guard;
	in->guard_neg = d->guard_neg;
	return in;
}

/* Emits an instruction that cannot run and records why on its function. */
static void unsupported(struct dctx *d, const char *why)
{
	struct ptx_parser *ps = d->ps;
	struct simt_insn *in = emit(d);
	struct simt_func *f;

	in->op = OP_UNSUPPORTED;
	if (ps->fn < 0)
		return;
	f = &ps->mod->funcs[ps->fn];
	if (!f->bad)
		f->bad = simt_xasprintf("unsupported PTX instruction '%.*s' at "
					"PTX line %u%s%s", (int)d->oplen, d->op,
					d->line, why ? ": " : "", why ? why : "");
}

static void bad_operands(struct dctx *d)
{
	unsupported(d, "operands not understood");
}

/* ---- operands ---- */

static uint64_t float_bits(const struct ptx_rop *r, int type)
{
	double x = r->fval;

	switch (type) {
	case ST_F32: {
		float f = (float)x;
		uint32_t u;

		if (r->kind == RO_FLOAT && r->fbits == 32)
			return r->raw;
		memcpy(&u, &f, 4);
		return u;
	}
	case ST_F64: {
		uint64_t u;

		if (r->kind == RO_FLOAT && r->fbits == 64)
			return r->raw;
		memcpy(&u, &x, 8);
		return u;
	}
	case ST_F16:
		return simt_f2h(x, RND_RN);
	case ST_BF16:
		return simt_f2bf(x, RND_RN);
	default:
		if (r->kind == RO_FLOAT && r->fbits)
			return r->raw;
		return simt_float_literal_bits(x);
	}
}

/* a + b as addresses add: modulo 2^64. */
static int64_t wrap_add(int64_t a, uint64_t b)
{
	return (int64_t)((uint64_t)a + b);
}

static uint64_t imm_value(const struct ptx_rop *r, int type)
{
	if (r->kind == RO_FLOAT)
		return float_bits(r, type);
	if (type == ST_F32 || type == ST_F64 || type == ST_F16 ||
	    type == ST_BF16) {
		struct ptx_rop t = *r;

		t.kind = RO_INT;
		t.fval = (double)(int64_t)r->ival;
		return float_bits(&t, type);
	}
	return r->ival;
}

static void add_shfix(struct ptx_parser *ps, bool is_row, uint32_t where,
		      int var)
{
	struct ptx_shfix *s;

	if (ps->nshfix >= ps->capshfix) {
		ps->capshfix = ps->capshfix ? ps->capshfix * 2 : 64;
		ps->shfix = simt_xrealloc(ps->shfix,
					  (size_t)ps->capshfix * sizeof *ps->shfix);
	}
	s = &ps->shfix[ps->nshfix++];
	s->is_row = is_row;
	s->where = where;
	s->var = (uint32_t)var;
	s->func = ps->fn;
}

/* Resolves a symbol used as a value: the address of a .global/.const
 * variable, or a shared-window offset patched after layout.  Returns
 * false if the symbol is something else. */
static bool symbol_value(struct dctx *d, const struct ptx_rop *r,
			 struct simt_opnd *o)
{
	struct ptx_parser *ps = d->ps;
	int vi = ptx_find_var(ps, r->sym, r->symlen);

	if (vi < 0 && r->symlen == 7 && memcmp(r->sym, "WARP_SZ", 7) == 0) {
		o->kind = OK_IMM;
		o->idx = ptx_const_row(ps, 32);
		return true;
	}
	if (vi < 0)
		return false;
	if (ps->mod->vars[vi].space == SS_SHARED) {
		o->kind = OK_IMM;
		o->idx = ptx_fresh_row(ps, (uint64_t)r->off);
		add_shfix(ps, true, o->idx, vi);
		return true;
	}
	if (!ps->mod->vars[vi].data)
		return false;
	o->kind = OK_IMM;
	o->idx = ptx_const_row(ps, (uint64_t)(uintptr_t)ps->mod->vars[vi].data +
				       (uint64_t)r->off);
	return true;
}

/* A source operand of the given type; false if it cannot be one. */
static bool src(struct dctx *d, const struct ptx_rop *r, int type,
		struct simt_opnd *o)
{
	memset(o, 0, sizeof *o);
	o->neg = r->neg;
	switch (r->kind) {
	case RO_REG:
		o->kind = OK_REG;
		o->idx = r->row;
		return true;
	case RO_INT:
	case RO_FLOAT:
		o->kind = OK_IMM;
		o->idx = ptx_const_row(d->ps, imm_value(r, type));
		return true;
	case RO_SREG:
		if (r->sreg < 0)
			return false;
		o->kind = OK_SREG;
		o->idx = (uint32_t)r->sreg;
		return true;
	case RO_SYM:
		return symbol_value(d, r, o);
	default:
		return false;
	}
}

static bool dst(const struct ptx_rop *r, struct simt_opnd *o)
{
	memset(o, 0, sizeof *o);
	if (r->kind == RO_SINK) {
		o->kind = OK_NONE;
		return true;
	}
	if (r->kind != RO_REG)
		return false;
	o->kind = OK_REG;
	o->idx = r->row;
	return true;
}

static bool pred(const struct ptx_rop *r, struct simt_opnd *o)
{
	memset(o, 0, sizeof *o);
	if (r->kind == RO_INT) {
		/* A constant predicate: use the all-ones or zero special. */
		o->kind = OK_SREG;
		o->idx = SR_ZERO;
		o->neg = (r->ival != 0) ^ r->neg;
		return true;
	}
	if (r->kind != RO_REG || r->rtype != ST_PRED)
		return false;
	o->kind = OK_REG;
	o->idx = r->row;
	o->neg = r->neg;
	return true;
}

/* Fills o[first..] with `n` sources of `type`; false on a bad operand. */
static bool srcs(struct dctx *d, struct simt_insn *in, int first, int from,
		 int n, int type)
{
	int i;

	if (from + n > d->nops)
		return false;
	for (i = 0; i < n; i++)
		if (!src(d, &d->ops[from + i], type, &in->o[first + i]))
			return false;
	return true;
}

static int last_type(const struct dctx *d)
{
	return d->m.ntypes ? d->m.types[d->m.ntypes - 1] : ST_NONE;
}

/* ---- simple arithmetic ---- */

/* "op.type d, a, b, ..." with n sources of the instruction's type. */
static struct simt_insn *std_op(struct dctx *d, int op, int type, int nsrc)
{
	struct simt_insn *in;

	if (d->nops != nsrc + 1) {
		bad_operands(d);
		return NULL;
	}
	in = emit(d);
	in->op = (uint16_t)op;
	in->type = (uint8_t)type;
	in->rnd = (uint8_t)d->m.rnd;
	if (has(d, "ftz"))
		in->flags |= F_FTZ;
	if (has(d, "sat") || has(d, "satfinite"))
		in->flags |= F_SAT;
	if (has(d, "approx"))
		in->flags |= F_APPROX;
	if (has(d, "NaN"))
		in->flags |= F_NAN;
	if (!dst(&d->ops[0], &in->o[0]) || !srcs(d, in, 1, 1, nsrc, type)) {
		in->op = OP_NOP;
		d->ps->mod->ncode--;
		bad_operands(d);
		return NULL;
	}
	in->nops = (uint8_t)(nsrc + 1);
	return in;
}

static bool is_i32(int t)
{
	return t == ST_S32 || t == ST_U32 || t == ST_B32;
}

static bool is_i64(int t)
{
	return t == ST_S64 || t == ST_U64 || t == ST_B64;
}

static bool plain_rnd(int rnd)
{
	return rnd == RND_NONE || rnd == RND_RN;
}

static void set_flop(struct simt_insn *in, int per_lane)
{
	if (!in)
		return;
	in->flop = (uint8_t)per_lane;
	switch (in->type) {
	case ST_F64:
		in->flop_type = 1;
		break;
	case ST_F16: case ST_BF16:
		in->flop_type = 2;
		break;
	case ST_F16X2: case ST_BF16X2:
		in->flop_type = 2;
		in->flop = (uint8_t)(per_lane * 2);
		break;
	default:
		in->flop_type = 0;
	}
}

static void dec_addsub(struct dctx *d, bool sub)
{
	int t = last_type(d);
	bool cc = has(d, "cc"), ci = base_is(d, "addc") || base_is(d, "subc");
	bool sat = has(d, "sat");
	struct simt_insn *in;
	int op;

	if (is_i32(t) && !cc && !ci && !sat)
		op = sub ? OP_SUB_I32 : OP_ADD_I32;
	else if (is_i64(t) && !cc && !ci)
		op = sub ? OP_SUB_I64 : OP_ADD_I64;
	else if (t == ST_F32 && plain_rnd(d->m.rnd) && !sat)
		op = sub ? OP_SUB_F32 : OP_ADD_F32;
	else if (t == ST_F64 && plain_rnd(d->m.rnd))
		op = sub ? OP_SUB_F64 : OP_ADD_F64;
	else if (simt_type_float(t))
		op = OP_FALU;
	else
		op = OP_IALU;
	in = std_op(d, op, t, 2);
	if (!in)
		return;
	in->sub = sub ? SUB_SUB : SUB_ADD;
	if (cc)
		in->flags |= F_CC;
	if (ci)
		in->flags |= F_CI;
	if (simt_type_float(t))
		set_flop(in, 1);
}

static void dec_mul(struct dctx *d)
{
	int t = last_type(d);
	bool hi = has(d, "hi"), wide = has(d, "wide");
	struct simt_insn *in;
	int op = OP_IALU, sub = SUB_MUL;

	if (simt_type_float(t)) {
		op = (t == ST_F32 && plain_rnd(d->m.rnd) && !has(d, "sat"))
			? OP_MUL_F32
			: (t == ST_F64 && plain_rnd(d->m.rnd)) ? OP_MUL_F64
							       : OP_FALU;
	} else if (wide) {
		sub = SUB_MULWIDE;
		if (t == ST_S32)
			op = OP_MUL_WIDE_S32;
		else if (t == ST_U32)
			op = OP_MUL_WIDE_U32;
	} else if (hi) {
		sub = SUB_MULHI;
	} else if (is_i32(t)) {
		op = OP_MUL_LO_I32;
	} else if (is_i64(t)) {
		op = OP_MUL_LO_I64;
	}
	in = std_op(d, op, t, 2);
	if (!in)
		return;
	in->sub = (uint8_t)sub;
	if (simt_type_float(t))
		set_flop(in, 1);
}

static void dec_mad(struct dctx *d)
{
	int t = last_type(d);
	bool hi = has(d, "hi"), wide = has(d, "wide"), cc = has(d, "cc");
	bool ci = base_is(d, "madc");
	struct simt_insn *in;
	int op = OP_IALU, sub = SUB_MAD;

	if (simt_type_float(t)) {
		op = (t == ST_F32 && plain_rnd(d->m.rnd) && !has(d, "sat"))
			? OP_FMA_F32
			: (t == ST_F64 && plain_rnd(d->m.rnd)) ? OP_FMA_F64
							       : OP_FALU;
		sub = SUB_FMA;
	} else if (wide) {
		sub = SUB_MADWIDE;
		if (t == ST_S32 && !cc && !ci)
			op = OP_MAD_WIDE_S32;
		else if (t == ST_U32 && !cc && !ci)
			op = OP_MAD_WIDE_U32;
	} else if (hi) {
		sub = SUB_MADHI;
	} else if (is_i32(t) && !cc && !ci) {
		op = OP_MAD_LO_I32;
	} else if (is_i64(t) && !cc && !ci) {
		op = OP_MAD_LO_I64;
	}
	in = std_op(d, op, t, 3);
	if (!in)
		return;
	in->sub = (uint8_t)sub;
	if (cc)
		in->flags |= F_CC;
	if (ci)
		in->flags |= F_CI;
	if (simt_type_float(t))
		set_flop(in, 2);
}

static void dec_fma(struct dctx *d)
{
	int t = last_type(d);
	int op = OP_FALU;
	struct simt_insn *in;

	if (t == ST_F32 && plain_rnd(d->m.rnd) && !has(d, "sat") &&
	    !has(d, "relu"))
		op = OP_FMA_F32;
	else if (t == ST_F64 && plain_rnd(d->m.rnd))
		op = OP_FMA_F64;
	in = std_op(d, op, t, 3);
	if (!in)
		return;
	in->sub = SUB_FMA;
	if (has(d, "relu"))
		in->sub2 = 1;
	set_flop(in, 2);
}

/* Ops with one generic integer and one float implementation. */
static void dec_generic(struct dctx *d, int isub, int fsub, int nsrc)
{
	int t = last_type(d);
	struct simt_insn *in;

	in = std_op(d, simt_type_float(t) ? OP_FALU : OP_IALU, t, nsrc);
	if (in)
		in->sub = (uint8_t)(simt_type_float(t) ? fsub : isub);
}

static void dec_minmax(struct dctx *d, bool max)
{
	int t = last_type(d);
	int op;
	struct simt_insn *in;

	if (t == ST_S32)
		op = max ? OP_MAX_S32 : OP_MIN_S32;
	else if (t == ST_U32)
		op = max ? OP_MAX_U32 : OP_MIN_U32;
	else if (t == ST_F32 && !has(d, "xorsign") && !has(d, "abs") &&
		 !has(d, "relu"))
		op = max ? OP_MAX_F32 : OP_MIN_F32;
	else
		op = simt_type_float(t) ? OP_FALU : OP_IALU;
	if (d->nops == 4) {
		unsupported(d, "three-input min/max");
		return;
	}
	in = std_op(d, op, t, 2);
	if (!in)
		return;
	in->sub = simt_type_float(t) ? (max ? SUB_FMAX : SUB_FMIN)
				     : (max ? SUB_MAX : SUB_MIN);
	if (has(d, "relu"))
		in->sub2 = 1;
	if (has(d, "xorsign") || has(d, "abs"))
		unsupported(d, "min/max .xorsign.abs");
}

static void dec_absneg(struct dctx *d, bool neg)
{
	int t = last_type(d);
	int op = simt_type_float(t) ? OP_FALU : OP_IALU;
	struct simt_insn *in;

	if (t == ST_F32)
		op = neg ? OP_NEG_F32 : OP_ABS_F32;
	in = std_op(d, op, t, 1);
	if (in)
		in->sub = neg ? SUB_NEG : SUB_ABS;
}

static void dec_logic(struct dctx *d, int sub)
{
	int t = last_type(d);
	int op = OP_IALU, n = sub == SUB_NOT || sub == SUB_CNOT ? 1 : 2;
	struct simt_insn *in;

	if (t == ST_PRED) {
		if (sub == SUB_CNOT) {
			unsupported(d, "cnot on predicates");
			return;
		}
		op = sub == SUB_AND ? OP_AND_P : sub == SUB_OR ? OP_OR_P
				  : sub == SUB_XOR ? OP_XOR_P : OP_NOT_P;
		if (d->nops != n + 1) {
			bad_operands(d);
			return;
		}
		in = emit(d);
		in->op = (uint16_t)op;
		in->type = ST_PRED;
		if (!pred(&d->ops[0], &in->o[0]) || !pred(&d->ops[1], &in->o[1]) ||
		    (n == 2 && !pred(&d->ops[2], &in->o[2]))) {
			d->ps->mod->ncode--;
			bad_operands(d);
		}
		return;
	}
	if (is_i32(t) || t == ST_B32) {
		op = sub == SUB_AND ? OP_AND_32 : sub == SUB_OR ? OP_OR_32
		   : sub == SUB_XOR ? OP_XOR_32 : sub == SUB_NOT ? OP_NOT_32
								 : OP_IALU;
	} else if (is_i64(t)) {
		op = sub == SUB_AND ? OP_AND_64 : sub == SUB_OR ? OP_OR_64
		   : sub == SUB_XOR ? OP_XOR_64 : sub == SUB_NOT ? OP_NOT_64
								 : OP_IALU;
	}
	in = std_op(d, op, t, n);
	if (in)
		in->sub = (uint8_t)sub;
}

static void dec_shift(struct dctx *d, bool left)
{
	int t = last_type(d);
	int op = OP_IALU;
	struct simt_insn *in;

	if (is_i32(t))
		op = left ? OP_SHL_32 : t == ST_S32 ? OP_SHR_S32 : OP_SHR_U32;
	else if (is_i64(t))
		op = left ? OP_SHL_64 : t == ST_S64 ? OP_SHR_S64 : OP_SHR_U64;
	if (d->nops != 3) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = (uint16_t)op;
	in->type = (uint8_t)t;
	in->sub = left ? SUB_SHL : SUB_SHR;
	in->nops = 3;
	if (!dst(&d->ops[0], &in->o[0]) ||
	    !src(d, &d->ops[1], t, &in->o[1]) ||
	    !src(d, &d->ops[2], ST_U32, &in->o[2])) {
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

static void dec_ialu_misc(struct dctx *d)
{
	int t = last_type(d);
	struct simt_insn *in = NULL;

	if (base_is(d, "popc") || base_is(d, "clz") || base_is(d, "brev") ||
	    base_is(d, "bfind")) {
		int sub = base_is(d, "popc") ? SUB_POPC : base_is(d, "clz") ? SUB_CLZ
			: base_is(d, "brev") ? SUB_BREV
			: has(d, "shiftamt") ? SUB_BFIND_SHIFT : SUB_BFIND;

		in = std_op(d, OP_IALU, t, 1);
		if (in)
			in->sub = (uint8_t)sub;
		return;
	}
	if (base_is(d, "bfe")) {
		in = std_op(d, OP_IALU, t, 3);
		if (in) {
			in->sub = SUB_BFE;
			/* b and c are .u32 whatever the type */
			src(d, &d->ops[2], ST_U32, &in->o[2]);
			src(d, &d->ops[3], ST_U32, &in->o[3]);
		}
	} else if (base_is(d, "bfi")) {
		in = std_op(d, OP_IALU, t, 4);
		if (in) {
			in->sub = SUB_BFI;
			src(d, &d->ops[3], ST_U32, &in->o[3]);
			src(d, &d->ops[4], ST_U32, &in->o[4]);
		}
	} else if (base_is(d, "prmt")) {
		static const char *const modes[] = {"f4e", "b4e", "rc8", "ecl",
						    "ecr", "rc16", NULL};
		in = std_op(d, OP_IALU, ST_B32, 3);
		if (in) {
			in->sub = SUB_PRMT;
			in->sub2 = (uint8_t)(which(d, modes) + 1);
		}
	} else if (base_is(d, "shf")) {
		in = std_op(d, OP_IALU, ST_B32, 3);
		if (in) {
			in->sub = has(d, "l") ? SUB_SHFL_L : SUB_SHFL_R;
			in->sub2 = has(d, "clamp") ? 1 : 0;
		}
	} else if (base_is(d, "lop3")) {
		if (d->nops != 5) {
			unsupported(d, "lop3 with a predicate output");
			return;
		}
		in = std_op(d, OP_IALU, ST_B32, 4);
		if (in)
			in->sub = SUB_LOP3;
	} else if (base_is(d, "dp4a") || base_is(d, "dp2a")) {
		int ta = d->m.ntypes > 0 ? d->m.types[0] : ST_U32;
		int tb = d->m.ntypes > 1 ? d->m.types[1] : ST_U32;

		in = std_op(d, OP_IALU, ST_B32, 3);
		if (in) {
			in->sub = base_is(d, "dp4a") ? SUB_DP4A
				: has(d, "hi") ? SUB_DP2A_HI : SUB_DP2A_LO;
			in->sub2 = (uint8_t)((ta == ST_S32 ? 1 : 0) |
					     (tb == ST_S32 ? 2 : 0));
		}
	} else if (base_is(d, "sad")) {
		in = std_op(d, OP_IALU, t, 3);
		if (in)
			in->sub = SUB_SAD;
	} else if (base_is(d, "mul24") || base_is(d, "mad24")) {
		bool mad = base_is(d, "mad24");

		in = std_op(d, OP_IALU, t, mad ? 3 : 2);
		if (in)
			in->sub = (uint8_t)(has(d, "hi") ? (mad ? SUB_MAD24HI : SUB_MUL24HI)
						       : (mad ? SUB_MAD24 : SUB_MUL24));
	} else if (base_is(d, "fns")) {
		in = std_op(d, OP_IALU, ST_B32, 3);
		if (in) {
			in->sub = SUB_FNS;
			src(d, &d->ops[3], ST_S32, &in->o[3]);
		}
	} else if (base_is(d, "bmsk")) {
		in = std_op(d, OP_IALU, ST_B32, 2);
		if (in) {
			in->sub = SUB_BMSK;
			in->sub2 = has(d, "wrap") ? 1 : 0;
		}
	} else if (base_is(d, "szext")) {
		in = std_op(d, OP_IALU, t, 2);
		if (in) {
			in->sub = SUB_SZEXT;
			in->sub2 = has(d, "wrap") ? 1 : 0;
		}
	} else if (base_is(d, "cnot")) {
		dec_logic(d, SUB_CNOT);
	}
}

static void dec_falu1(struct dctx *d, int sub)
{
	int t = last_type(d);
	struct simt_insn *in = std_op(d, OP_FALU, t, 1);

	if (in)
		in->sub = (uint8_t)sub;
}

static void dec_div(struct dctx *d)
{
	int t = last_type(d);
	struct simt_insn *in;

	if (simt_type_float(t)) {
		in = std_op(d, OP_FALU, t, 2);
		if (in) {
			in->sub = SUB_DIV;
			if (has(d, "full"))
				in->flags |= F_APPROX;
		}
		set_flop(in, 1);
		return;
	}
	in = std_op(d, OP_IALU, t, 2);
	if (in)
		in->sub = SUB_DIV;
}

static void dec_testp(struct dctx *d)
{
	static const char *const ops[] = {"finite", "infinite", "number",
					  "notanumber", "normal", "subnormal",
					  NULL};
	int t = last_type(d), k = which(d, ops);
	struct simt_insn *in;

	if (k < 0 || d->nops != 2) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_TESTP;
	in->type = (uint8_t)t;
	in->sub = (uint8_t)(SUB_FINITE + k);
	if (!pred(&d->ops[0], &in->o[0]) || !src(d, &d->ops[1], t, &in->o[1])) {
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

/* ---- comparisons ---- */

static const char *const cmp_words[] = {"eq", "ne", "lt", "le", "gt", "ge",
					"lo", "ls", "hi", "hs", "equ", "neu",
					"ltu", "leu", "gtu", "geu", "num",
					"nan", NULL};
static const char *const bool_words[] = {"and", "or", "xor", NULL};

static void dec_setp(struct dctx *d)
{
	int cmp = which(d, cmp_words), bop = which(d, bool_words) + 1;
	int t = last_type(d), i = 0, op;
	bool two = d->nops > 1 && d->ops[1].minus;
	struct simt_insn *in;

	if (cmp < 0 || d->nops < 3) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->type = (uint8_t)t;
	in->sub = (uint8_t)cmp;
	in->sub2 = (uint8_t)bop;
	if (has(d, "ftz"))
		in->flags |= F_FTZ;
	if (!pred(&d->ops[i++], &in->o[0]))
		goto bad;
	if (two && !pred(&d->ops[i++], &in->o[1]))
		goto bad;
	if (!two)
		in->o[1].kind = OK_NONE;
	if (i + 2 > d->nops || !src(d, &d->ops[i], t, &in->o[2]) ||
	    !src(d, &d->ops[i + 1], t, &in->o[3]))
		goto bad;
	i += 2;
	if (bop) {
		if (i >= d->nops || !pred(&d->ops[i], &in->o[4]))
			goto bad;
		i++;
	}
	if (i != d->nops)
		goto bad;
	op = OP_SETP_GEN;
	if (!bop && !two) {
		if (t == ST_S32)
			op = OP_SETP_S32;
		else if (t == ST_U32 || t == ST_B32)
			op = OP_SETP_U32;
		else if (t == ST_S64)
			op = OP_SETP_S64;
		else if (t == ST_U64 || t == ST_B64)
			op = OP_SETP_U64;
		else if (t == ST_F32 && !(in->flags & F_FTZ))
			op = OP_SETP_F32;
		else if (t == ST_F64)
			op = OP_SETP_F64;
	}
	in->op = (uint16_t)op;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static void dec_set(struct dctx *d)
{
	int cmp = which(d, cmp_words), bop = which(d, bool_words) + 1;
	int dt = d->m.ntypes > 0 ? d->m.types[0] : ST_NONE;
	int stype = last_type(d);
	struct simt_insn *in;

	if (cmp < 0 || d->m.ntypes < 2 || d->nops != (bop ? 4 : 3)) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_SET;
	in->type = (uint8_t)stype;
	in->type2 = (uint8_t)dt;
	in->sub = (uint8_t)cmp;
	in->sub2 = (uint8_t)bop;
	if (has(d, "ftz"))
		in->flags |= F_FTZ;
	if (!dst(&d->ops[0], &in->o[0]) || !src(d, &d->ops[1], stype, &in->o[1]) ||
	    !src(d, &d->ops[2], stype, &in->o[2]) ||
	    (bop && !pred(&d->ops[3], &in->o[3]))) {
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

static void dec_selp(struct dctx *d)
{
	int t = last_type(d);
	struct simt_insn *in;

	if (d->nops != 4) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_SELP;
	in->type = (uint8_t)t;
	if (!dst(&d->ops[0], &in->o[0]) || !src(d, &d->ops[1], t, &in->o[1]) ||
	    !src(d, &d->ops[2], t, &in->o[2]) || !pred(&d->ops[3], &in->o[3])) {
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

static void dec_slct(struct dctx *d)
{
	int t = d->m.ntypes > 0 ? d->m.types[0] : ST_NONE;
	int ct = last_type(d);
	struct simt_insn *in;

	if (d->nops != 4 || d->m.ntypes < 2) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_SLCT;
	in->type = (uint8_t)t;
	in->type2 = (uint8_t)ct;
	if (has(d, "ftz"))
		in->flags |= F_FTZ;
	if (!dst(&d->ops[0], &in->o[0]) || !srcs(d, in, 1, 1, 2, t) ||
	    !src(d, &d->ops[3], ct, &in->o[3])) {
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

/* ---- moves and conversions ---- */

static void dec_mov_symbol(struct dctx *d, struct simt_insn *in,
			   const struct ptx_rop *r)
{
	struct ptx_parser *ps = d->ps;
	int i;

	if (symbol_value(d, r, &in->o[1])) {
		in->op = OP_MOV;
		return;
	}
	i = ptx_find_local(ps, r->sym, r->symlen);
	if (i >= 0) {
		in->op = OP_MOV_LOCADDR;
		in->imm = wrap_add(ps->locals[i].offset, (uint64_t)r->off);
		return;
	}
	i = ptx_find_pdecl(ps, r->sym, r->symlen);
	if (i >= 0 && ps->pdecls[i].kernel) {
		in->op = OP_MOV_KPADDR;
		in->imm = wrap_add(ps->pdecls[i].offset, (uint64_t)r->off);
		return;
	}
	i = ptx_find_func(ps, r->sym, r->symlen);
	if (i >= 0) {
		in->op = OP_MOV;
		in->o[1].kind = OK_IMM;
		in->o[1].idx = ptx_const_row(ps, SIMT_FUNC_TAG | (uint64_t)i);
		ps->mod->funcs[i].address_taken = true;
		return;
	}
	ps->mod->ncode--;
	if (ptx_find_pdecl(ps, r->sym, r->symlen) >= 0)
		unsupported(d, "the address of a function parameter");
	else
		ptx_fail(ps, d->line, "unknown symbol '%.*s'", (int)r->symlen,
			 r->sym);
}

static void dec_pack(struct dctx *d, int t)
{
	const struct ptx_rop *v = &d->ops[1];
	struct simt_insn *in;
	int i, part;

	if (v->nelem < 2 || v->nelem > 4) {
		bad_operands(d);
		return;
	}
	part = simt_type_size(t) / v->nelem;
	in = emit(d);
	in->op = OP_PACK;
	in->type = (uint8_t)t;
	in->vec = (uint8_t)v->nelem;
	in->imm = part;
	if (!dst(&d->ops[0], &in->o[0]))
		goto bad;
	for (i = 0; i < v->nelem; i++) {
		int pt = part == 1 ? ST_B8 : part == 2 ? ST_B16 : part == 4 ? ST_B32
										: ST_B64;
		if (!src(d, &v->elem[i], pt, &in->o[1 + i]))
			goto bad;
	}
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static void dec_unpack(struct dctx *d, int t)
{
	const struct ptx_rop *v = &d->ops[0];
	struct simt_insn *in;
	int i;

	if (v->nelem < 2 || v->nelem > 4) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_UNPACK;
	in->type = (uint8_t)t;
	in->vec = (uint8_t)v->nelem;
	in->imm = simt_type_size(t) / v->nelem;
	for (i = 0; i < v->nelem; i++)
		if (!dst(&v->elem[i], &in->o[i]))
			goto bad;
	if (!src(d, &d->ops[1], t, &in->o[5]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static void dec_mov(struct dctx *d)
{
	int t = last_type(d);
	const struct ptx_rop *a;
	struct simt_insn *in;

	if (d->nops != 2) {
		bad_operands(d);
		return;
	}
	a = &d->ops[1];
	if (d->ops[0].kind == RO_VEC) {
		dec_unpack(d, t);
		return;
	}
	if (a->kind == RO_VEC) {
		dec_pack(d, t);
		return;
	}
	in = emit(d);
	in->type = (uint8_t)t;
	in->op = OP_MOV;
	if (!dst(&d->ops[0], &in->o[0]))
		goto bad;
	if (t == ST_PRED) {
		in->op = OP_MOV_PRED;
		if (!pred(a, &in->o[1]))
			goto bad;
		return;
	}
	if (a->kind == RO_SREG && a->sreg < 0) {
		in->op = a->sreg == -2 ? OP_CLOCK : a->sreg == -3 ? OP_CLOCK64
								   : OP_GTIMER;
		if (a->sreg == -4 && a->symlen > 12 && a->sym[13] == 'l')
			in->sub = 1;
		if (a->sreg == -4 && a->symlen > 12 && a->sym[13] == 'h')
			in->sub = 2;
		if (a->sreg == -2 && a->symlen == 9)
			in->sub = 2;
		return;
	}
	if (a->kind == RO_SYM) {
		dec_mov_symbol(d, in, a);
		return;
	}
	if (!src(d, a, t, &in->o[1]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static void dec_tensor(struct dctx *d);

static void dec_cvt(struct dctx *d)
{
	int dt, st;
	struct simt_insn *in;
	bool sat = has(d, "sat"), plain;

	if (d->m.ntypes < 2) {
		bad_operands(d);
		return;
	}
	dt = d->m.types[0];
	st = d->m.types[1];
	if (dt == ST_TF32) {
		dec_tensor(d);
		return;
	}
	if (has(d, "relu") || has(d, "satfinite") || has(d, "rs")) {
		unsupported(d, "cvt modifier");
		return;
	}
	if ((dt == ST_F16X2 || dt == ST_BF16X2) && st == ST_F32) {
		in = std_op(d, OP_CVT, dt, 2);
		if (in)
			in->type2 = (uint8_t)st;
		return;
	}
	if (dt == ST_TF32 || dt == ST_B128 || dt == ST_F16X2 ||
	    dt == ST_BF16X2 || st == ST_F16X2 || st == ST_BF16X2) {
		unsupported(d, "cvt between these types");
		return;
	}
	plain = !sat && d->m.rnd == RND_NONE && !has(d, "ftz");
	in = std_op(d, OP_CVT, dt, 1);
	if (!in)
		return;
	in->type2 = (uint8_t)st;
	/* The source operand is typed by the source type. */
	src(d, &d->ops[1], st, &in->o[1]);
	if (plain && dt == ST_U64 && (st == ST_U32 || st == ST_B32))
		in->op = OP_CVT_U64_U32;
	else if (plain && (dt == ST_S64 || dt == ST_U64) && st == ST_S32)
		in->op = OP_CVT_S64_S32;
	else if (plain && (dt == ST_U32 || dt == ST_S32 || dt == ST_B32) &&
		 is_i64(st))
		in->op = OP_CVT_TRUNC32;
}

static void dec_cvta(struct dctx *d)
{
	bool to = has(d, "to");
	int t = last_type(d);
	struct simt_insn *in = std_op(d, OP_MOV, t, 1);

	if (!in)
		return;
	switch (d->m.space) {
	case SS_LOCAL:
		in->op = to ? OP_CVTA_TO_LOCAL : OP_CVTA_LOCAL;
		break;
	case SS_SHARED:
		in->op = to ? OP_CVTA_TO_SHARED : OP_CVTA_SHARED;
		break;
	case SS_GLOBAL:
	case SS_CONST:
	case SS_PARAM:
		in->op = to ? OP_CVTA_TO : OP_MOV;
		break;
	default:
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

static void dec_isspacep(struct dctx *d)
{
	struct simt_insn *in;

	if (d->nops != 2) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_ISSPACEP;
	in->space = (uint8_t)d->m.space;
	if (!pred(&d->ops[0], &in->o[0]) || !src(d, &d->ops[1], ST_U64, &in->o[1])) {
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

/* ---- memory ---- */

/* Resolves "[...]" into the instruction's addressing mode. */
static bool mem_addr(struct dctx *d, struct simt_insn *in,
		     const struct ptx_rop *r)
{
	struct ptx_parser *ps = d->ps;
	const struct ptx_rop *b;
	int i;

	if (r->kind != RO_ADDR)
		return false;
	b = &r->elem[0];
	in->imm = r->off;
	if (b->kind == RO_REG) {
		in->am = AM_REG;
		in->addr.kind = OK_REG;
		in->addr.idx = b->row;
		if (in->space == SS_PARAM)
			in->space = SS_GENERIC;
		return true;
	}
	if (b->kind == RO_INT) {
		in->am = AM_ABS;
		in->imm = wrap_add(in->imm, (uint64_t)b->ival);
		return true;
	}
	if (b->kind != RO_SYM)
		return false;
	i = ptx_find_var(ps, b->sym, b->symlen);
	if (i >= 0) {
		struct simt_var *v = &ps->mod->vars[i];

		if (v->space == SS_SHARED) {
			in->am = AM_SHVAR;
			if (in->space == SS_GENERIC)
				in->space = SS_SHARED;
			add_shfix(ps, false, (uint32_t)(in - ps->mod->code), i);
			return true;
		}
		if (!v->data)
			return false;
		in->am = AM_ABS;
		in->imm = wrap_add(in->imm, (uintptr_t)v->data);
		return true;
	}
	i = ptx_find_local(ps, b->sym, b->symlen);
	if (i >= 0) {
		in->am = AM_LOCVAR;
		in->imm = wrap_add(in->imm, ps->locals[i].offset);
		in->space = SS_LOCAL;
		return true;
	}
	i = ptx_find_pdecl(ps, b->sym, b->symlen);
	if (i >= 0) {
		if (ps->pdecls[i].kernel) {
			in->am = AM_KPARAM;
			in->imm = wrap_add(in->imm, ps->pdecls[i].offset);
			in->space = SS_KPARAM;
		} else {
			in->am = AM_PARAM;
			in->imm = wrap_add(in->imm, (uint64_t)ps->pdecls[i].offset * 8);
			in->space = SS_PARAM;
		}
		return true;
	}
	return false;
}

/* Memory semantics of ld, st, atom and red (MSEM_*). */
static uint8_t mem_sem(const struct dctx *d, bool atomic)
{
	uint8_t sem = atomic ? MSEM_STRONG : 0;

	if (has(d, "volatile") || has(d, "relaxed") || has(d, "mmio"))
		sem |= MSEM_STRONG;
	if (has(d, "acquire"))
		sem |= MSEM_STRONG | MSEM_ACQ;
	if (has(d, "release"))
		sem |= MSEM_STRONG | MSEM_REL;
	if (has(d, "acq_rel"))
		sem |= MSEM_STRONG | MSEM_ACQ | MSEM_REL;
	if (has(d, "cta"))
		sem |= MSEM_CTA;
	return sem;
}

static int mem_type_ok(int t)
{
	return t != ST_NONE && t != ST_PRED && t != ST_B128 && t != ST_TF32;
}

static void dec_ldst(struct dctx *d, bool store)
{
	int t = last_type(d), vec = d->m.vec, i;
	const struct ptx_rop *vals, *addr;
	struct simt_insn *in;

	if (!mem_type_ok(t) || vec > 4) {
		unsupported(d, "memory access of this type");
		return;
	}
	/* A cache policy operand is only a hint. */
	if (d->nops == 3 && has(d, "L2::cache_hint"))
		d->nops = 2;
	if (d->nops != 2) {
		bad_operands(d);
		return;
	}
	addr = store ? &d->ops[0] : &d->ops[1];
	vals = store ? &d->ops[1] : &d->ops[0];
	in = emit(d);
	in->op = store ? OP_ST : OP_LD;
	in->type = (uint8_t)t;
	in->sem = mem_sem(d, false);
	in->space = (uint8_t)d->m.space;
	in->vec = (uint8_t)vec;
	if (!mem_addr(d, in, addr))
		goto bad;
	if (vec == 1) {
		if (vals->kind == RO_VEC)
			goto bad;
		if (store ? !src(d, vals, t, &in->o[0]) : !dst(vals, &in->o[0]))
			goto bad;
		if (!store && in->space == SS_SHARED && in->am == AM_REG &&
		    simt_type_size(t) == 4 && !simt_type_signed(t) &&
		    in->o[0].kind == OK_REG)
			in->form = MF_LD_SHARED4;
	} else {
		if (vals->kind != RO_VEC || vals->nelem != vec)
			goto bad;
		for (i = 0; i < vec; i++)
			if (store ? !src(d, &vals->elem[i], t, &in->o[i])
				  : !dst(&vals->elem[i], &in->o[i]))
				goto bad;
	}
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static const char *const atom_words[] = {"add", "min", "max", "and", "or",
					 "xor", "exch", "cas", "inc", "dec",
					 NULL};
static const int atom_subs[] = {SUB_ADD, SUB_MIN, SUB_MAX, SUB_AND, SUB_OR,
				SUB_XOR, SUB_EXCH, SUB_CAS, SUB_INC, SUB_DEC};

static void dec_atom(struct dctx *d, bool red)
{
	int t = last_type(d), k = which(d, atom_words), i = 0, nsrc;
	struct simt_insn *in;

	if (k < 0 || !mem_type_ok(t) || d->m.vec != 1) {
		unsupported(d, "atomic of this kind");
		return;
	}
	nsrc = atom_subs[k] == SUB_CAS ? 2 : 1;
	if (d->nops == (red ? 1 : 2) + nsrc + 1 && has(d, "L2::cache_hint"))
		d->nops--;
	if (d->nops != (red ? 1 : 2) + nsrc) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_ATOM;
	in->type = (uint8_t)t;
	in->sem = mem_sem(d, true);
	in->sub = (uint8_t)atom_subs[k];
	in->space = (uint8_t)d->m.space;
	if (!red) {
		if (!dst(&d->ops[i++], &in->o[0]))
			goto bad;
	} else {
		in->o[0].kind = OK_NONE;
	}
	if (!mem_addr(d, in, &d->ops[i++]))
		goto bad;
	if (in->space != SS_GLOBAL && in->space != SS_SHARED &&
	    in->space != SS_GENERIC)
		goto bad;
	if (!srcs(d, in, 1, i, nsrc, t))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

/* ---- control flow ---- */

static void add_label_fixup(struct ptx_parser *ps, uint32_t pc,
			    const struct ptx_rop *r, uint32_t line, int kind)
{
	struct ptx_fixup *f;

	if (ps->nfixups >= ps->capfixups) {
		ps->capfixups = ps->capfixups ? ps->capfixups * 2 : 64;
		ps->fixups = simt_xrealloc(ps->fixups, (size_t)ps->capfixups *
					   sizeof *ps->fixups);
	}
	f = &ps->fixups[ps->nfixups++];
	f->pc = pc;
	f->name = r->sym;
	f->len = r->symlen;
	f->line = line;
	f->kind = kind;
}

static void dec_bra(struct dctx *d)
{
	struct simt_insn *in;

	if (d->nops != 1 || d->ops[0].kind != RO_SYM) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_BRA;
	if (has(d, "uni"))
		in->flags |= F_UNI;
	add_label_fixup(d->ps, (uint32_t)(in - d->ps->mod->code), &d->ops[0],
			d->line, 0);
}

/* Row of a .param named in a call's argument list. */
static bool param_row(struct dctx *d, const struct ptx_rop *r, uint32_t *row,
		      uint32_t *size)
{
	int i;

	if (r->kind != RO_SYM)
		return false;
	i = ptx_find_pdecl(d->ps, r->sym, r->symlen);
	if (i < 0 || d->ps->pdecls[i].kernel)
		return false;
	*row = d->ps->pdecls[i].offset;
	*size = d->ps->pdecls[i].size;
	return true;
}

static bool builtin_call(struct dctx *d, const struct simt_func *f,
			 const struct ptx_rop *rets, const struct ptx_rop *args)
{
	struct simt_insn *in = emit(d);
	uint32_t row, size;
	int i, nargs = args ? args->nelem : 0;
	int want = f->builtin == BI_VPRINTF || f->builtin == BI_SETCOND ? 2
		 : f->builtin == BI_ASSERTFAIL ? 5 : 1;

	in->op = f->builtin == BI_VPRINTF ? OP_VPRINTF
	       : f->builtin == BI_ASSERTFAIL ? OP_ASSERTFAIL
	       : f->builtin == BI_MALLOC ? OP_MALLOC
	       : f->builtin == BI_SETCOND ? OP_SETCOND : OP_FREE;
	if (nargs != want)
		return false;
	for (i = 0; i < nargs; i++) {
		if (!param_row(d, &args->elem[i], &row, &size))
			return false;
		in->o[i].kind = OK_REG;
		in->o[i].idx = row;
	}
	in->o[5].kind = OK_NONE;
	if (rets && rets->nelem == 1) {
		if (!param_row(d, &rets->elem[0], &row, &size))
			return false;
		in->o[5].kind = OK_REG;
		in->o[5].idx = row;
	}
	return true;
}

static void add_copy(struct simt_callsite *cs, uint32_t *cap, uint32_t from,
		     uint32_t to, uint32_t n)
{
	uint32_t total = cs->ncopies_args + cs->ncopies_rets;

	if (total + 1 > *cap) {
		*cap = *cap ? *cap * 2 : 8;
		cs->copies = simt_xrealloc(cs->copies, (size_t)*cap * 3 *
					   sizeof *cs->copies);
	}
	cs->copies[total * 3] = from;
	cs->copies[total * 3 + 1] = to;
	cs->copies[total * 3 + 2] = n;
}

static struct simt_callsite *new_callsite(struct simt_module *mod)
{
	struct simt_callsite *cs;

	if (mod->ncalls >= mod->capcalls) {
		mod->capcalls = mod->capcalls ? mod->capcalls * 2 : 16;
		mod->calls = simt_xrealloc(mod->calls,
					   mod->capcalls * sizeof *mod->calls);
	}
	cs = &mod->calls[mod->ncalls];
	memset(cs, 0, sizeof *cs);
	return cs;
}

/* A call through a function pointer: the callee side of every copy is a
 * parameter index, resolved when the call runs. */
static void dec_calli(struct dctx *d, const struct ptx_rop *target,
		      const struct ptx_rop *rets, const struct ptx_rop *args)
{
	struct simt_module *mod = d->ps->mod;
	struct simt_callsite *cs = new_callsite(mod);
	struct simt_insn *in;
	uint32_t cap = 0, row, size;
	int i;

	cs->func = UINT32_MAX;
	cs->indirect = true;
	cs->nargs = (uint16_t)(args ? args->nelem : 0);
	cs->nrets = (uint16_t)(rets ? rets->nelem : 0);
	for (i = 0; args && i < args->nelem; i++) {
		if (!param_row(d, &args->elem[i], &row, &size))
			goto bad;
		add_copy(cs, &cap, row, (uint32_t)i, (size + 7) / 8);
		cs->ncopies_args++;
	}
	for (i = 0; rets && i < rets->nelem; i++) {
		if (!param_row(d, &rets->elem[i], &row, &size))
			goto bad;
		add_copy(cs, &cap, (uint32_t)i, row, (size + 7) / 8);
		cs->ncopies_rets++;
	}
	in = emit(d);
	in->op = OP_CALLI;
	in->target = mod->ncalls++;
	in->addr.kind = OK_REG;
	in->addr.idx = target->row;
	return;
bad:
	free(cs->copies);
	bad_operands(d);
}

static void dec_call(struct dctx *d)
{
	struct ptx_parser *ps = d->ps;
	struct simt_module *mod = ps->mod;
	const struct ptx_rop *rets = NULL, *args = NULL, *target = NULL;
	struct simt_callsite *cs;
	struct simt_func *f;
	struct simt_insn *in;
	uint32_t cap = 0, row, size;
	int i = 0, fi;

	if (i < d->nops && d->ops[i].kind == RO_LIST)
		rets = &d->ops[i++];
	if (i < d->nops)
		target = &d->ops[i++];
	if (i < d->nops && d->ops[i].kind == RO_LIST)
		args = &d->ops[i++];
	if (!target) {
		bad_operands(d);
		return;
	}
	if (target->kind == RO_REG) {
		if (i < d->nops && d->ops[i].kind == RO_SYM)
			i++;
		if (i != d->nops)
			bad_operands(d);
		else
			dec_calli(d, target, rets, args);
		return;
	}
	if (target->kind != RO_SYM || i != d->nops) {
		bad_operands(d);
		return;
	}
	fi = ptx_find_func(ps, target->sym, target->symlen);
	if (fi < 0)
		ptx_fail(ps, d->line, "call to undeclared function '%.*s'",
			 (int)target->symlen, target->sym);
	f = &mod->funcs[fi];
	if (f->builtin) {
		if (!builtin_call(d, f, rets, args)) {
			mod->ncode--;
			bad_operands(d);
		}
		return;
	}
	if ((args ? args->nelem : 0) != f->nparams ||
	    (rets ? rets->nelem : 0) != f->nrets) {
		bad_operands(d);
		return;
	}
	cs = new_callsite(mod);
	cs->func = (uint32_t)fi;
	cs->nargs = (uint16_t)f->nparams;
	cs->nrets = (uint16_t)f->nrets;
	for (i = 0; args && i < args->nelem; i++) {
		if (!param_row(d, &args->elem[i], &row, &size))
			goto bad;
		add_copy(cs, &cap, row, f->params[i].offset, (f->params[i].size + 7) / 8);
		cs->ncopies_args++;
	}
	for (i = 0; rets && i < rets->nelem; i++) {
		if (!param_row(d, &rets->elem[i], &row, &size))
			goto bad;
		add_copy(cs, &cap, f->rets[i].offset, row, (f->rets[i].size + 7) / 8);
		cs->ncopies_rets++;
	}
	in = emit(d);
	in->op = OP_CALL;
	in->target = mod->ncalls++;
	return;
bad:
	free(cs->copies);
	bad_operands(d);
}

/* The mbarrier forms: the OP_MBAR kind, the operand count, and whether
 * one more may follow (a count, or try_wait's suspend-time hint, which
 * needs no emulation). */
struct mbar_form {
	const char *word;
	uint8_t sub, nops;
	bool more;
};

static const struct mbar_form mbar_forms[] = {
	{"init", MB_INIT, 2, false}, {"inval", MB_INVAL, 1, false},
	{"arrive", MB_ARRIVE, 2, true}, {"arrive_drop", MB_ARRIVE_DROP, 2, true},
	{"test_wait", MB_TEST_WAIT, 3, false}, {"try_wait", MB_TEST_WAIT, 3, true},
	{"pending_count", MB_PENDING, 2, false}, {NULL, 0, 0, false},
};

/* Operands of an OP_MBAR (layout in mbarrier.h); false if not understood. */
static bool mbar_operands(struct dctx *d, struct simt_insn *in)
{
	int i = 0;

	if (in->sub == MB_PENDING)
		return dst(&d->ops[0], &in->o[0]) &&
		       src(d, &d->ops[1], ST_U64, &in->o[1]);
	if (in->sub == MB_TEST_WAIT || in->sub == MB_TEST_PARITY) {
		if (!pred(&d->ops[i++], &in->o[0]))
			return false;
	} else if (in->sub == MB_ARRIVE || in->sub == MB_ARRIVE_DROP) {
		if (!dst(&d->ops[i++], &in->o[0]))
			return false;
	}
	if (!mem_addr(d, in, &d->ops[i++]) ||
	    (in->space != SS_SHARED && in->space != SS_GENERIC))
		return false;
	if (i == d->nops || in->sub == MB_INVAL || in->sub >= MB_CP_ARRIVE)
		return true;
	if (in->sub == MB_ARRIVE || in->sub == MB_ARRIVE_DROP)
		in->sub2 |= MBF_COUNT;
	return src(d, &d->ops[i], in->sub == MB_TEST_WAIT ? ST_U64 : ST_U32,
		   &in->o[1]);
}

/* mbarrier.* and cp.async.mbarrier.arrive.  The transaction counts of
 * sm_90 bulk copies and objects of other blocks of a cluster are not
 * emulated. */
static void dec_mbarrier(struct dctx *d, bool cp)
{
	static const struct mbar_form cp_form = {"", MB_CP_ARRIVE, 1, false};
	const struct mbar_form *f = cp ? &cp_form : mbar_forms;
	struct simt_insn *in;

	while (!cp && f->word && !has(d, f->word))
		f++;
	if (!f->word || has(d, "expect_tx") || has(d, "complete_tx") ||
	    has(d, "shared::cluster")) {
		unsupported(d, "mbarrier transaction counts and cluster objects "
			    "are not emulated");
		return;
	}
	if (d->nops != f->nops && !(f->more && d->nops == f->nops + 1)) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_MBAR;
	in->sub = f->sub;
	if (cp && has(d, "noinc"))
		in->sub = MB_CP_NOINC;
	else if (f->sub == MB_TEST_WAIT && has(d, "parity"))
		in->sub = MB_TEST_PARITY;
	if (has(d, "noComplete"))
		in->sub2 |= MBF_NOCOMPLETE;
	in->space = (uint8_t)d->m.space;
	in->o[0].kind = OK_NONE;
	in->o[1].kind = OK_NONE;
	if (!mbar_operands(d, in)) {
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

/* cp.async (non-bulk): runs as a synchronous copy; commit and wait only
 * tell the hazard checker when the copies count as done.  dst is the
 * memory operand; the source base
 * goes in o[0] with its offset in o[1], the sizes in o[2] and o[3]. */
static void dec_cp_async(struct dctx *d)
{
	struct simt_insn *in;
	const struct ptx_rop *from;

	if (has(d, "commit_group")) {
		in = emit(d);
		in->op = OP_CP_COMMIT;
		return;
	}
	if (has(d, "wait_group") || has(d, "wait_all")) {
		in = emit(d);
		in->op = OP_CP_WAIT;
		in->sub = has(d, "wait_all");
		if (!in->sub && (d->nops != 1 || d->ops[0].kind != RO_INT)) {
			d->ps->mod->ncode--;
			bad_operands(d);
			return;
		}
		in->imm = in->sub ? 0 : (int64_t)d->ops[0].ival;
		return;
	}
	if (has(d, "mbarrier") && !has(d, "bulk")) {
		dec_mbarrier(d, true);
		return;
	}
	if (has(d, "bulk") || has(d, "mbarrier") || has(d, "tensor") ||
	    !has(d, "shared") || !has(d, "global") || d->nops < 3) {
		unsupported(d, "asynchronous copies of this kind are not emulated");
		return;
	}
	if (d->nops > 4 || (d->nops == 4 && d->ops[3].kind == RO_REG &&
			    d->ops[3].rtype == ST_PRED)) {
		unsupported(d, "cp.async with a cache policy or ignore-src operand");
		return;
	}
	in = emit(d);
	in->op = OP_CP_ASYNC;
	in->space = SS_SHARED;
	in->type = ST_B8;
	if (!mem_addr(d, in, &d->ops[0]))
		goto bad;
	in->space = SS_SHARED;
	from = &d->ops[1];
	if (from->kind != RO_ADDR || !src(d, &from->elem[0], ST_U64, &in->o[0]))
		goto bad;
	in->o[1].kind = OK_IMM;
	in->o[1].idx = ptx_const_row(d->ps, (uint64_t)from->off);
	if (!src(d, &d->ops[2], ST_U32, &in->o[2]))
		goto bad;
	if (d->nops == 4 ? !src(d, &d->ops[3], ST_U32, &in->o[3])
			 : !src(d, &d->ops[2], ST_U32, &in->o[3]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

/* ---- barriers and warp-level operations ---- */

static void dec_bar(struct dctx *d)
{
	bool red = has(d, "red"), arrive = has(d, "arrive");
	struct simt_insn *in;
	int i = 0;

	if (has(d, "warp")) {
		in = emit(d);
		in->op = OP_BAR_WARP;
		if (d->nops != 1 || !src(d, &d->ops[0], ST_U32, &in->o[0]))
			goto bad;
		return;
	}
	if (has(d, "cluster")) {
		unsupported(d, "cluster barriers");
		return;
	}
	in = emit(d);
	if (base_is(d, "bar") || has(d, "aligned"))
		in->sem = MSEM_ALIGNED;
	if (red) {
		static const char *const rops[] = {"popc", "and", "or", NULL};
		int k = which(d, rops);

		in->op = OP_BAR_RED;
		in->sub = (uint8_t)k;
		in->type = (uint8_t)last_type(d);
		if (k < 0 || d->nops < 3)
			goto bad;
		if (in->type == ST_PRED ? !pred(&d->ops[i], &in->o[0])
					: !dst(&d->ops[i], &in->o[0]))
			goto bad;
		i++;
		if (!src(d, &d->ops[i++], ST_U32, &in->o[1]))
			goto bad;
		in->o[2].kind = OK_NONE;
		if (d->nops == 4 && !src(d, &d->ops[i++], ST_U32, &in->o[2]))
			goto bad;
		if (i >= d->nops || !pred(&d->ops[i], &in->o[3]))
			goto bad;
		return;
	}
	in->op = arrive ? OP_BAR_ARRIVE : OP_BAR;
	if (d->nops < 1 || d->nops > 2 || !src(d, &d->ops[0], ST_U32, &in->o[0]))
		goto bad;
	in->o[1].kind = OK_NONE;
	if (d->nops == 2 && !src(d, &d->ops[1], ST_U32, &in->o[1]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static void dec_shfl(struct dctx *d)
{
	static const char *const modes[] = {"up", "down", "bfly", "idx", NULL};
	int k = which(d, modes), i = 0;
	bool two = d->nops > 1 && d->ops[1].minus;
	struct simt_insn *in;

	if (k < 0) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_SHFL;
	in->sub = (uint8_t)(SUB_UP + k);
	in->type = ST_B32;
	if (!dst(&d->ops[i++], &in->o[0]))
		goto bad;
	in->o[1].kind = OK_NONE;
	if (two && !pred(&d->ops[i++], &in->o[1]))
		goto bad;
	if (!srcs(d, in, 2, i, 3, ST_B32))
		goto bad;
	i += 3;
	in->o[5].kind = OK_NONE;
	if (has(d, "sync")) {
		if (i >= d->nops || !src(d, &d->ops[i++], ST_U32, &in->o[5]))
			goto bad;
	}
	if (i != d->nops)
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static void dec_vote(struct dctx *d)
{
	static const char *const modes[] = {"all", "any", "uni", "ballot", NULL};
	int k = which(d, modes);
	struct simt_insn *in;

	if (k < 0 || d->nops < 2) {
		bad_operands(d);
		return;
	}
	in = emit(d);
	in->op = OP_VOTE;
	in->sub = (uint8_t)(SUB_ALL + k);
	if (k == 3 ? !dst(&d->ops[0], &in->o[0]) : !pred(&d->ops[0], &in->o[0]))
		goto bad;
	if (!pred(&d->ops[1], &in->o[1]))
		goto bad;
	in->o[5].kind = OK_NONE;
	if (d->nops == 3 && !src(d, &d->ops[2], ST_U32, &in->o[5]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static void dec_match(struct dctx *d)
{
	bool all = has(d, "all"), two = d->nops > 1 && d->ops[1].minus;
	int t = last_type(d), i = 0;
	struct simt_insn *in = emit(d);

	in->op = OP_MATCH;
	in->sub = all ? SUB_ALL : SUB_ANY;
	in->type = (uint8_t)t;
	if (!dst(&d->ops[i++], &in->o[0]))
		goto bad;
	in->o[1].kind = OK_NONE;
	if (two && !pred(&d->ops[i++], &in->o[1]))
		goto bad;
	if (i + 2 != d->nops || !src(d, &d->ops[i], t, &in->o[2]) ||
	    !src(d, &d->ops[i + 1], ST_U32, &in->o[5]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	bad_operands(d);
}

static void dec_redux(struct dctx *d)
{
	static const char *const ops[] = {"add", "min", "max", "and", "or",
					  "xor", NULL};
	static const int subs[] = {SUB_ADD, SUB_MIN, SUB_MAX, SUB_AND, SUB_OR,
				   SUB_XOR};
	int k = which(d, ops), t = last_type(d);
	struct simt_insn *in;

	if (k < 0 || d->nops != 3 || simt_type_float(t)) {
		unsupported(d, "redux of this kind");
		return;
	}
	in = emit(d);
	in->op = OP_REDUX;
	in->sub = (uint8_t)subs[k];
	in->type = (uint8_t)t;
	if (!dst(&d->ops[0], &in->o[0]) || !src(d, &d->ops[1], t, &in->o[1]) ||
	    !src(d, &d->ops[2], ST_U32, &in->o[5])) {
		d->ps->mod->ncode--;
		bad_operands(d);
	}
}

static void dec_simple(struct dctx *d, int op, int ndst, bool pred_dst)
{
	struct simt_insn *in = emit(d);
	int i;

	in->op = (uint16_t)op;
	in->type = (uint8_t)last_type(d);
	for (i = 0; i < d->nops && i < 6; i++) {
		bool ok;

		if (i < ndst)
			ok = (pred_dst && i == ndst - 1 && d->ops[i].kind == RO_REG &&
			      d->ops[i].rtype == ST_PRED)
				? pred(&d->ops[i], &in->o[i])
				: dst(&d->ops[i], &in->o[i]);
		else
			ok = src(d, &d->ops[i], ST_U32, &in->o[i]);
		if (!ok) {
			d->ps->mod->ncode--;
			bad_operands(d);
			return;
		}
	}
	in->nops = (uint8_t)d->nops;
}

/* ---- tensor cores ---- */

/* wmma, mma, ldmatrix, movmatrix and cvt to tf32: the operands are
 * flattened here, and tensor.c works out what they mean. */
static void dec_tensor(struct dctx *d)
{
	struct simt_tensor_operands t;
	struct simt_insn *in = emit(d);
	const char *why = "operands not understood";
	int i, j;

	memset(&t, 0, sizeof t);
	in->space = (uint8_t)d->m.space;
	if (d->nops > SIMT_TENSOR_MAXGROUPS)
		goto bad;
	for (i = 0; i < d->nops; i++) {
		const struct ptx_rop *r = &d->ops[i];
		int ne = r->kind == RO_VEC ? r->nelem : r->kind == RO_ADDR ? 0 : 1;

		if (t.n + ne > SIMT_TENSOR_MAXOPS || (!ne && !mem_addr(d, in, r)))
			goto bad;
		for (j = 0; j < ne; j++) {
			const struct ptx_rop *e = r->kind == RO_VEC ? &r->elem[j] : r;

			if (e->kind == RO_SINK ? !dst(e, &t.o[t.n])
					       : !src(d, e, ST_B32, &t.o[t.n]))
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
	unsupported(d, why);
}

/* ---- textures ---- */

/* tex, txq, suld and sust: the values (destinations, or the sources of a
 * sust), the texture or surface object and the coordinates are flattened
 * here, and texture.c works out what they mean. */
static void dec_tex(struct dctx *d)
{
	struct simt_tex_operands t;
	struct simt_insn *in = emit(d);
	const struct ptx_rop *dv, *a, *c;
	const char *why = "operands not understood";
	bool store = base_is(d, "sust");
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

		if (store ? !src(d, e, ST_B64, &t.dst[j]) : !dst(e, &t.dst[j]))
			goto bad;
	}
	if (a->elem[0].kind != RO_REG || !src(d, &a->elem[0], ST_U64, &t.handle))
		goto bad;
	c = a->nelem > 1 ? &a->elem[1] : NULL;
	t.ncoord = !c ? 0 : c->kind == RO_VEC ? c->nelem : 1;
	if (t.ncoord > 4)
		goto bad;
	for (j = 0; j < t.ncoord; j++)
		if (!src(d, c->kind == RO_VEC ? &c->elem[j] : c, ST_B32,
			 &t.coord[j]))
			goto bad;
	why = simt_tex_decode(d->ps, in, d->op, d->oplen, &t);
	if (!why)
		return;
bad:
	d->ps->mod->ncode--;
	unsupported(d, why);
}

/* ---- dispatch ---- */

/* Decoders of a mnemonic with what sets them apart; each takes the
 * entry's argument. */
static void t_addsub(struct dctx *d, int a) { dec_addsub(d, a); }
static void t_mul(struct dctx *d, int a) { (void)a; dec_mul(d); }
static void t_mad(struct dctx *d, int a) { (void)a; dec_mad(d); }
static void t_fma(struct dctx *d, int a) { (void)a; dec_fma(d); }
static void t_div(struct dctx *d, int a) { (void)a; dec_div(d); }
static void t_generic2(struct dctx *d, int a) { dec_generic(d, a, a, 2); }
static void t_absneg(struct dctx *d, int a) { dec_absneg(d, a); }
static void t_minmax(struct dctx *d, int a) { dec_minmax(d, a); }
static void t_logic(struct dctx *d, int a) { dec_logic(d, a); }
static void t_shift(struct dctx *d, int a) { dec_shift(d, a); }
static void t_ialu_misc(struct dctx *d, int a) { (void)a; dec_ialu_misc(d); }
static void t_falu1(struct dctx *d, int a) { dec_falu1(d, a); }
static void t_testp(struct dctx *d, int a) { (void)a; dec_testp(d); }
static void t_bra(struct dctx *d, int a) { (void)a; dec_bra(d); }
static void t_call(struct dctx *d, int a) { (void)a; dec_call(d); }
static void t_bar(struct dctx *d, int a) { (void)a; dec_bar(d); }
static void t_shfl(struct dctx *d, int a) { (void)a; dec_shfl(d); }
static void t_vote(struct dctx *d, int a) { (void)a; dec_vote(d); }
static void t_match(struct dctx *d, int a) { (void)a; dec_match(d); }
static void t_redux(struct dctx *d, int a) { (void)a; dec_redux(d); }
static void t_mov(struct dctx *d, int a) { (void)a; dec_mov(d); }
static void t_setp(struct dctx *d, int a) { (void)a; dec_setp(d); }
static void t_set(struct dctx *d, int a) { (void)a; dec_set(d); }
static void t_selp(struct dctx *d, int a) { (void)a; dec_selp(d); }
static void t_slct(struct dctx *d, int a) { (void)a; dec_slct(d); }
static void t_cvt(struct dctx *d, int a) { (void)a; dec_cvt(d); }
static void t_cvta(struct dctx *d, int a) { (void)a; dec_cvta(d); }
static void t_isspacep(struct dctx *d, int a) { (void)a; dec_isspacep(d); }
static void t_ldst(struct dctx *d, int a) { dec_ldst(d, a); }
static void t_atom(struct dctx *d, int a) { dec_atom(d, a); }
static void t_tensor(struct dctx *d, int a) { (void)a; dec_tensor(d); }
static void t_mbarrier(struct dctx *d, int a) { (void)a; dec_mbarrier(d, false); }
static void t_tex(struct dctx *d, int a) { (void)a; dec_tex(d); }

/* activemask (1 destination), elect (a value and a predicate),
 * createpolicy (a cache policy simt has no use for: a plain move). */
static void t_simple(struct dctx *d, int op)
{
	if (op == OP_ELECT)
		dec_simple(d, op, 2, true);
	else
		dec_simple(d, op, 1, false);
}

/* ret, exit, trap and brkpt: no operands. */
static void t_plain(struct dctx *d, int op)
{
	emit(d)->op = (uint16_t)op;
}

/* Hints and scheduling controls that change no result simt computes. */
static void t_nop(struct dctx *d, int a)
{
	(void)a;
	emit(d)->op = OP_NOP;
}

static void t_membar(struct dctx *d, int a)
{
	struct simt_insn *in = emit(d);

	(void)a;
	in->op = OP_MEMBAR;
	/* proxy and mbarrier_init fences order nothing simt tracks */
	if (has(d, "proxy") || has(d, "mbarrier_init") || has(d, "op_restrict"))
		in->op = OP_NOP;
	else if (has(d, "acquire"))
		in->sem = MSEM_ACQ;
	else if (has(d, "release"))
		in->sem = MSEM_REL;
	else
		in->sem = MSEM_ACQ | MSEM_REL;
	if (has(d, "cta"))
		in->sem |= MSEM_CTA;
}

static void t_cp(struct dctx *d, int a)
{
	(void)a;
	if (has(d, "async"))
		dec_cp_async(d);
	else
		unsupported(d, NULL);
}

enum { NOT_BRX, NOT_TENSOR, NOT_ASYNC, NOT_TEX };

static const char *const not_emulated[] = {
	[NOT_BRX] = "indirect branches",
	[NOT_TENSOR] = "tensor-core instructions are not emulated",
	[NOT_ASYNC] = "asynchronous copies and memory barriers are not emulated",
	[NOT_TEX] = "this texture or surface instruction is not emulated",
};

static void t_not(struct dctx *d, int why)
{
	unsupported(d, not_emulated[why]);
}

/* Every base mnemonic (the text before the first dot) simt knows, sorted
 * by strcmp, with its decoder.  A mnemonic not here is unsupported. */
static const struct mnemonic {
	const char *name;
	void (*dec)(struct dctx *d, int arg);
	int arg;
} mnemonics[] = {
	{"abs", t_absneg, false},
	{"activemask", t_simple, OP_ACTIVEMASK},
	{"add", t_addsub, false},
	{"addc", t_addsub, false},
	{"and", t_logic, SUB_AND},
	{"applypriority", t_nop, 0},
	{"atom", t_atom, false},
	{"bar", t_bar, 0},
	{"barrier", t_bar, 0},
	{"bfe", t_ialu_misc, 0},
	{"bfi", t_ialu_misc, 0},
	{"bfind", t_ialu_misc, 0},
	{"bmsk", t_ialu_misc, 0},
	{"bra", t_bra, 0},
	{"brev", t_ialu_misc, 0},
	{"brkpt", t_plain, OP_BRKPT},
	{"brx", t_not, NOT_BRX},
	{"call", t_call, 0},
	{"clusterlaunchcontrol", t_not, NOT_ASYNC},
	{"clz", t_ialu_misc, 0},
	{"cnot", t_ialu_misc, 0},
	{"copysign", t_generic2, SUB_COPYSIGN},
	{"cos", t_falu1, SUB_COS},
	{"cp", t_cp, 0},
	{"createpolicy", t_simple, OP_MOV},
	{"cvt", t_cvt, 0},
	{"cvta", t_cvta, 0},
	{"discard", t_nop, 0},
	{"div", t_div, 0},
	{"dp2a", t_ialu_misc, 0},
	{"dp4a", t_ialu_misc, 0},
	{"elect", t_simple, OP_ELECT},
	{"ex2", t_falu1, SUB_EX2},
	{"exit", t_plain, OP_EXIT},
	{"fence", t_membar, 0},
	{"fma", t_fma, 0},
	{"fns", t_ialu_misc, 0},
	{"griddepcontrol", t_nop, 0},
	{"isspacep", t_isspacep, 0},
	{"istypep", t_not, NOT_TEX},
	{"ld", t_ldst, false},
	{"ldmatrix", t_tensor, 0},
	{"ldu", t_ldst, false},
	{"lg2", t_falu1, SUB_LG2},
	{"lop3", t_ialu_misc, 0},
	{"mad", t_mad, 0},
	{"mad24", t_ialu_misc, 0},
	{"madc", t_mad, 0},
	{"match", t_match, 0},
	{"max", t_minmax, true},
	{"mbarrier", t_mbarrier, 0},
	{"membar", t_membar, 0},
	{"min", t_minmax, false},
	{"mma", t_tensor, 0},
	{"mov", t_mov, 0},
	{"movmatrix", t_tensor, 0},
	{"mul", t_mul, 0},
	{"mul24", t_ialu_misc, 0},
	{"multimem", t_not, NOT_ASYNC},
	{"nanosleep", t_nop, 0},
	{"neg", t_absneg, true},
	{"not", t_logic, SUB_NOT},
	{"or", t_logic, SUB_OR},
	{"pmevent", t_nop, 0},
	{"popc", t_ialu_misc, 0},
	{"prefetch", t_nop, 0},
	{"prefetchu", t_nop, 0},
	{"prmt", t_ialu_misc, 0},
	{"rcp", t_falu1, SUB_RCP},
	{"red", t_atom, true},
	{"redux", t_redux, 0},
	{"rem", t_generic2, SUB_REM},
	{"ret", t_plain, OP_RET},
	{"rsqrt", t_falu1, SUB_RSQRT},
	{"sad", t_ialu_misc, 0},
	{"selp", t_selp, 0},
	{"set", t_set, 0},
	{"setmaxnreg", t_nop, 0},
	{"setp", t_setp, 0},
	{"shf", t_ialu_misc, 0},
	{"shfl", t_shfl, 0},
	{"shl", t_shift, true},
	{"shr", t_shift, false},
	{"sin", t_falu1, SUB_SIN},
	{"slct", t_slct, 0},
	{"sqrt", t_falu1, SUB_SQRT},
	{"st", t_ldst, true},
	{"stmatrix", t_not, NOT_TENSOR},
	{"sub", t_addsub, true},
	{"subc", t_addsub, true},
	{"suld", t_tex, 0},
	{"suq", t_not, NOT_TEX},
	{"sured", t_not, NOT_TEX},
	{"sust", t_tex, 0},
	{"szext", t_ialu_misc, 0},
	{"tanh", t_falu1, SUB_TANH},
	{"tcgen05", t_not, NOT_TENSOR},
	{"tensormap", t_not, NOT_ASYNC},
	{"testp", t_testp, 0},
	{"tex", t_tex, 0},
	{"tld4", t_not, NOT_TEX},
	{"trap", t_plain, OP_TRAP},
	{"txq", t_tex, 0},
	{"vote", t_vote, 0},
	{"wgmma", t_not, NOT_TENSOR},
	{"wmma", t_tensor, 0},
	{"xor", t_logic, SUB_XOR},
};

#define NMNEMONICS (sizeof mnemonics / sizeof mnemonics[0])

static int mnemonic_cmp(const void *key, const void *elt)
{
	const struct dctx *d = key;
	const char *name = ((const struct mnemonic *)elt)->name;
	size_t n = strlen(name);
	int c = strncmp(d->m.s[0], name, d->m.len[0] < n ? d->m.len[0] : n);

	if (c)
		return c;
	return d->m.len[0] < n ? -1 : d->m.len[0] > n;
}

static void decode_one(struct dctx *d)
{
	const struct mnemonic *mn =
		bsearch(d, mnemonics, NMNEMONICS, sizeof *mnemonics, mnemonic_cmp);

	if (mn)
		mn->dec(d, mn->arg);
	else
		unsupported(d, NULL);
}

/* The table must stay sorted for bsearch (checked once per load). */
static bool mnemonics_sorted(void)
{
	static _Atomic int state;   /* 0: not checked, 1: sorted, -1: not */
	int s = state;
	size_t i;

	if (!s) {
		s = 1;
		for (i = 1; i < NMNEMONICS; i++)
			if (strcmp(mnemonics[i - 1].name, mnemonics[i].name) >= 0)
				s = -1;
		state = s;
	}
	return s > 0;
}

void ptx_decode(struct ptx_parser *ps, const char *op, uint32_t oplen,
		struct ptx_rop *ops, int nops, int guard, bool guard_neg,
		uint32_t line)
{
	struct dctx d;
	uint32_t first = ps->mod->ncode, i;

	memset(&d, 0, sizeof d);
	d.ps = ps;
	d.op = op;
	d.oplen = oplen;
	d.ops = ops;
	d.nops = nops;
	d.guard = guard;
	d.guard_neg = guard_neg;
	d.line = line;
	if (ps->fn < 0)
		ptx_fail(ps, line, "instruction outside a function");
	if (!mnemonics_sorted())
		ptx_fail(ps, line, "simt's mnemonic table is out of order");
	split_mods(&d);
	decode_one(&d);
	ptx_du_note(ps, op, oplen, ops, nops, guard, first);
	/* the common typed forms run as ops of their own (typed.c) */
	for (i = first; i < ps->mod->ncode; i++)
		simt_typed_pick(&ps->mod->code[i]);
}

static const char *const op_names[] = {
#define SIMT_OP_NAME(n) #n,
	SIMT_OPS(SIMT_OP_NAME)
#undef SIMT_OP_NAME
};

const char *simt_op_name(int op)
{
	return op >= 0 && op < OP_COUNT ? op_names[op] : "?";
}
