/* Turning one parsed PTX instruction into its decoded form: the operation
 * the interpreter runs, resolved register rows, constant rows for
 * immediates, addressing mode, types and modifiers.  Instructions simt
 * does not implement become OP_UNSUPPORTED and mark their function, so a
 * launch that could reach them fails with a message naming them.
 *
 * This file splits the modifiers, resolves operands and holds the table
 * of mnemonics (at the end), which sends each instruction to the decoder
 * of its family: decode_alu.c, decode_mem.c, decode_flow.c,
 * decode_tensor.c and decode_tex.c. */
#include "ptx/decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool meq(const char *s, uint32_t len, const char *w)
{
	return strlen(w) == len && memcmp(s, w, len) == 0;
}

bool dec_has(const struct dctx *d, const char *w)
{
	int i;

	for (i = 1; i < d->m.n; i++)
		if (meq(d->m.s[i], d->m.len[i], w))
			return true;
	return false;
}

/* Index of the first modifier among `words` (NULL-terminated), or -1. */
int dec_which(const struct dctx *d, const char *const *words)
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
	r = dec_which(d, rnd_words);
	m->rnd = r < 0 ? RND_NONE : RND_RN + r;
}

bool dec_base_is(const struct dctx *d, const char *w)
{
	return meq(d->m.s[0], d->m.len[0], w);
}

/* ---- errors ---- */

struct simt_insn *dec_emit(struct dctx *d)
{
	struct simt_insn *in = ptx_emit(d->ps, d->line);

	in->guard = d->guard;
	in->guard_neg = d->guard_neg;
	return in;
}

/* Emits an instruction that cannot run and records why on its function. */
void dec_unsupported(struct dctx *d, const char *why)
{
	struct ptx_parser *ps = d->ps;
	struct simt_insn *in = dec_emit(d);
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

void dec_bad_operands(struct dctx *d)
{
	dec_unsupported(d, "operands not understood");
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
int64_t dec_wrap_add(int64_t a, uint64_t b)
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

void dec_add_shfix(struct ptx_parser *ps, bool is_row, uint32_t where,
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
bool dec_symbol_value(struct dctx *d, const struct ptx_rop *r,
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
		dec_add_shfix(ps, true, o->idx, vi);
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
bool dec_src(struct dctx *d, const struct ptx_rop *r, int type,
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
		return dec_symbol_value(d, r, o);
	default:
		return false;
	}
}

bool dec_dst(const struct ptx_rop *r, struct simt_opnd *o)
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

bool dec_pred(const struct ptx_rop *r, struct simt_opnd *o)
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
bool dec_srcs(struct dctx *d, struct simt_insn *in, int first, int from,
	      int n, int type)
{
	int i;

	if (from + n > d->nops)
		return false;
	for (i = 0; i < n; i++)
		if (!dec_src(d, &d->ops[from + i], type, &in->o[first + i]))
			return false;
	return true;
}

int dec_last_type(const struct dctx *d)
{
	return d->m.ntypes ? d->m.types[d->m.ntypes - 1] : ST_NONE;
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
	dec_emit(d)->op = (uint16_t)op;
}

/* Hints and scheduling controls that change no result simt computes. */
static void t_nop(struct dctx *d, int a)
{
	(void)a;
	dec_emit(d)->op = OP_NOP;
}

static void t_membar(struct dctx *d, int a)
{
	struct simt_insn *in = dec_emit(d);

	(void)a;
	in->op = OP_MEMBAR;
	/* proxy and mbarrier_init fences order nothing simt tracks */
	if (dec_has(d, "proxy") || dec_has(d, "mbarrier_init") || dec_has(d, "op_restrict"))
		in->op = OP_NOP;
	else if (dec_has(d, "acquire"))
		in->sem = MSEM_ACQ;
	else if (dec_has(d, "release"))
		in->sem = MSEM_REL;
	else
		in->sem = MSEM_ACQ | MSEM_REL;
	if (dec_has(d, "cta"))
		in->sem |= MSEM_CTA;
}

static void t_cp(struct dctx *d, int a)
{
	(void)a;
	if (dec_has(d, "async"))
		dec_cp_async(d);
	else
		dec_unsupported(d, NULL);
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
	dec_unsupported(d, not_emulated[why]);
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
		dec_unsupported(d, NULL);
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
