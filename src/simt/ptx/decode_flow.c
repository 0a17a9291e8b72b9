/* Decoding control flow (branches, calls and their call sites, the
 * device library's builtins) and the barriers and warp-level operations
 * (bar, shfl, vote, match, redux, activemask, elect). */
#include "ptx/decode.h"

#include <stdlib.h>
#include <string.h>

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

void dec_bra(struct dctx *d)
{
	struct simt_insn *in;

	if (d->nops != 1 || d->ops[0].kind != RO_SYM) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_BRA;
	if (dec_has(d, "uni"))
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
	struct simt_insn *in = dec_emit(d);
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
	in = dec_emit(d);
	in->op = OP_CALLI;
	in->target = mod->ncalls++;
	in->addr.kind = OK_REG;
	in->addr.idx = target->row;
	return;
bad:
	free(cs->copies);
	dec_bad_operands(d);
}

void dec_call(struct dctx *d)
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
		dec_bad_operands(d);
		return;
	}
	if (target->kind == RO_REG) {
		if (i < d->nops && d->ops[i].kind == RO_SYM)
			i++;
		if (i != d->nops)
			dec_bad_operands(d);
		else
			dec_calli(d, target, rets, args);
		return;
	}
	if (target->kind != RO_SYM || i != d->nops) {
		dec_bad_operands(d);
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
			dec_bad_operands(d);
		}
		return;
	}
	if ((args ? args->nelem : 0) != f->nparams ||
	    (rets ? rets->nelem : 0) != f->nrets) {
		dec_bad_operands(d);
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
	in = dec_emit(d);
	in->op = OP_CALL;
	in->target = mod->ncalls++;
	return;
bad:
	free(cs->copies);
	dec_bad_operands(d);
}

/* ---- barriers and warp-level operations ---- */

void dec_bar(struct dctx *d)
{
	bool red = dec_has(d, "red"), arrive = dec_has(d, "arrive");
	struct simt_insn *in;
	int i = 0;

	if (dec_has(d, "warp")) {
		in = dec_emit(d);
		in->op = OP_BAR_WARP;
		if (d->nops != 1 || !dec_src(d, &d->ops[0], ST_U32, &in->o[0]))
			goto bad;
		return;
	}
	if (dec_has(d, "cluster")) {
		dec_unsupported(d, "cluster barriers");
		return;
	}
	in = dec_emit(d);
	if (dec_base_is(d, "bar") || dec_has(d, "aligned"))
		in->sem = MSEM_ALIGNED;
	if (red) {
		static const char *const rops[] = {"popc", "and", "or", NULL};
		int k = dec_which(d, rops);

		in->op = OP_BAR_RED;
		in->sub = (uint8_t)k;
		in->type = (uint8_t)dec_last_type(d);
		if (k < 0 || d->nops < 3)
			goto bad;
		if (in->type == ST_PRED ? !dec_pred(&d->ops[i], &in->o[0])
					: !dec_dst(&d->ops[i], &in->o[0]))
			goto bad;
		i++;
		if (!dec_src(d, &d->ops[i++], ST_U32, &in->o[1]))
			goto bad;
		in->o[2].kind = OK_NONE;
		if (d->nops == 4 && !dec_src(d, &d->ops[i++], ST_U32, &in->o[2]))
			goto bad;
		if (i >= d->nops || !dec_pred(&d->ops[i], &in->o[3]))
			goto bad;
		return;
	}
	in->op = arrive ? OP_BAR_ARRIVE : OP_BAR;
	if (d->nops < 1 || d->nops > 2 || !dec_src(d, &d->ops[0], ST_U32, &in->o[0]))
		goto bad;
	in->o[1].kind = OK_NONE;
	if (d->nops == 2 && !dec_src(d, &d->ops[1], ST_U32, &in->o[1]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

void dec_shfl(struct dctx *d)
{
	static const char *const modes[] = {"up", "down", "bfly", "idx", NULL};
	int k = dec_which(d, modes), i = 0;
	bool two = d->nops > 1 && d->ops[1].minus;
	struct simt_insn *in;

	if (k < 0) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_SHFL;
	in->sub = (uint8_t)(SUB_UP + k);
	in->type = ST_B32;
	if (!dec_dst(&d->ops[i++], &in->o[0]))
		goto bad;
	in->o[1].kind = OK_NONE;
	if (two && !dec_pred(&d->ops[i++], &in->o[1]))
		goto bad;
	if (!dec_srcs(d, in, 2, i, 3, ST_B32))
		goto bad;
	i += 3;
	in->o[5].kind = OK_NONE;
	if (dec_has(d, "sync")) {
		if (i >= d->nops || !dec_src(d, &d->ops[i++], ST_U32, &in->o[5]))
			goto bad;
	}
	if (i != d->nops)
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

void dec_vote(struct dctx *d)
{
	static const char *const modes[] = {"all", "any", "uni", "ballot", NULL};
	int k = dec_which(d, modes);
	struct simt_insn *in;

	if (k < 0 || d->nops < 2) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_VOTE;
	in->sub = (uint8_t)(SUB_ALL + k);
	if (k == 3 ? !dec_dst(&d->ops[0], &in->o[0]) : !dec_pred(&d->ops[0], &in->o[0]))
		goto bad;
	if (!dec_pred(&d->ops[1], &in->o[1]))
		goto bad;
	in->o[5].kind = OK_NONE;
	if (d->nops == 3 && !dec_src(d, &d->ops[2], ST_U32, &in->o[5]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

void dec_match(struct dctx *d)
{
	bool all = dec_has(d, "all"), two = d->nops > 1 && d->ops[1].minus;
	int t = dec_last_type(d), i = 0;
	struct simt_insn *in = dec_emit(d);

	in->op = OP_MATCH;
	in->sub = all ? SUB_ALL : SUB_ANY;
	in->type = (uint8_t)t;
	if (!dec_dst(&d->ops[i++], &in->o[0]))
		goto bad;
	in->o[1].kind = OK_NONE;
	if (two && !dec_pred(&d->ops[i++], &in->o[1]))
		goto bad;
	if (i + 2 != d->nops || !dec_src(d, &d->ops[i], t, &in->o[2]) ||
	    !dec_src(d, &d->ops[i + 1], ST_U32, &in->o[5]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

void dec_redux(struct dctx *d)
{
	static const char *const ops[] = {"add", "min", "max", "and", "or",
					  "xor", NULL};
	static const int subs[] = {SUB_ADD, SUB_MIN, SUB_MAX, SUB_AND, SUB_OR,
				   SUB_XOR};
	int k = dec_which(d, ops), t = dec_last_type(d);
	struct simt_insn *in;

	if (k < 0 || d->nops != 3 || simt_type_float(t)) {
		dec_unsupported(d, "redux of this kind");
		return;
	}
	in = dec_emit(d);
	in->op = OP_REDUX;
	in->sub = (uint8_t)subs[k];
	in->type = (uint8_t)t;
	if (!dec_dst(&d->ops[0], &in->o[0]) || !dec_src(d, &d->ops[1], t, &in->o[1]) ||
	    !dec_src(d, &d->ops[2], ST_U32, &in->o[5])) {
		d->ps->mod->ncode--;
		dec_bad_operands(d);
	}
}

void dec_simple(struct dctx *d, int op, int ndst, bool pred_dst)
{
	struct simt_insn *in = dec_emit(d);
	int i;

	in->op = (uint16_t)op;
	in->type = (uint8_t)dec_last_type(d);
	for (i = 0; i < d->nops && i < 6; i++) {
		bool ok;

		if (i < ndst)
			ok = (pred_dst && i == ndst - 1 && d->ops[i].kind == RO_REG &&
			      d->ops[i].rtype == ST_PRED)
				? dec_pred(&d->ops[i], &in->o[i])
				: dec_dst(&d->ops[i], &in->o[i]);
		else
			ok = dec_src(d, &d->ops[i], ST_U32, &in->o[i]);
		if (!ok) {
			d->ps->mod->ncode--;
			dec_bad_operands(d);
			return;
		}
	}
	in->nops = (uint8_t)d->nops;
}
