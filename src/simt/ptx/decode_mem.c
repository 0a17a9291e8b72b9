/* Decoding loads, stores and atomics (with their addressing modes and
 * memory semantics), mbarrier objects and cp.async. */
#include "ptx/decode.h"

#include <stdlib.h>
#include <string.h>

/* ---- memory ---- */

/* Resolves "[...]" into the instruction's addressing mode. */
bool dec_mem_addr(struct dctx *d, struct simt_insn *in,
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
		in->imm = dec_wrap_add(in->imm, (uint64_t)b->ival);
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
			dec_add_shfix(ps, false, (uint32_t)(in - ps->mod->code), i);
			return true;
		}
		if (!v->data)
			return false;
		in->am = AM_ABS;
		in->imm = dec_wrap_add(in->imm, (uintptr_t)v->data);
		return true;
	}
	i = ptx_find_local(ps, b->sym, b->symlen);
	if (i >= 0) {
		in->am = AM_LOCVAR;
		in->imm = dec_wrap_add(in->imm, ps->locals[i].offset);
		in->space = SS_LOCAL;
		return true;
	}
	i = ptx_find_pdecl(ps, b->sym, b->symlen);
	if (i >= 0) {
		if (ps->pdecls[i].kernel) {
			in->am = AM_KPARAM;
			in->imm = dec_wrap_add(in->imm, ps->pdecls[i].offset);
			in->space = SS_KPARAM;
		} else {
			in->am = AM_PARAM;
			in->imm = dec_wrap_add(in->imm, (uint64_t)ps->pdecls[i].offset * 8);
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

	if (dec_has(d, "volatile") || dec_has(d, "relaxed") || dec_has(d, "mmio"))
		sem |= MSEM_STRONG;
	if (dec_has(d, "acquire"))
		sem |= MSEM_STRONG | MSEM_ACQ;
	if (dec_has(d, "release"))
		sem |= MSEM_STRONG | MSEM_REL;
	if (dec_has(d, "acq_rel"))
		sem |= MSEM_STRONG | MSEM_ACQ | MSEM_REL;
	if (dec_has(d, "cta"))
		sem |= MSEM_CTA;
	return sem;
}

static int mem_type_ok(int t)
{
	return t != ST_NONE && t != ST_PRED && t != ST_B128 && t != ST_TF32;
}

void dec_ldst(struct dctx *d, bool store)
{
	int t = dec_last_type(d), vec = d->m.vec, i;
	const struct ptx_rop *vals, *addr;
	struct simt_insn *in;

	if (!mem_type_ok(t) || vec > 4) {
		dec_unsupported(d, "memory access of this type");
		return;
	}
	/* A cache policy operand is only a hint. */
	if (d->nops == 3 && dec_has(d, "L2::cache_hint"))
		d->nops = 2;
	if (d->nops != 2) {
		dec_bad_operands(d);
		return;
	}
	addr = store ? &d->ops[0] : &d->ops[1];
	vals = store ? &d->ops[1] : &d->ops[0];
	in = dec_emit(d);
	in->op = store ? OP_ST : OP_LD;
	in->type = (uint8_t)t;
	in->sem = mem_sem(d, false);
	in->space = (uint8_t)d->m.space;
	in->vec = (uint8_t)vec;
	if (!dec_mem_addr(d, in, addr))
		goto bad;
	if (vec == 1) {
		if (vals->kind == RO_VEC)
			goto bad;
		if (store ? !dec_src(d, vals, t, &in->o[0]) : !dec_dst(vals, &in->o[0]))
			goto bad;
		if (!store && in->space == SS_SHARED && in->am == AM_REG &&
		    simt_type_size(t) == 4 && !simt_type_signed(t) &&
		    in->o[0].kind == OK_REG)
			in->form = MF_LD_SHARED4;
	} else {
		if (vals->kind != RO_VEC || vals->nelem != vec)
			goto bad;
		for (i = 0; i < vec; i++)
			if (store ? !dec_src(d, &vals->elem[i], t, &in->o[i])
				  : !dec_dst(&vals->elem[i], &in->o[i]))
				goto bad;
	}
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

static const char *const atom_words[] = {"add", "min", "max", "and", "or",
					 "xor", "exch", "cas", "inc", "dec",
					 NULL};
static const int atom_subs[] = {SUB_ADD, SUB_MIN, SUB_MAX, SUB_AND, SUB_OR,
				SUB_XOR, SUB_EXCH, SUB_CAS, SUB_INC, SUB_DEC};

void dec_atom(struct dctx *d, bool red)
{
	int t = dec_last_type(d), k = dec_which(d, atom_words), i = 0, nsrc;
	struct simt_insn *in;

	if (k < 0 || !mem_type_ok(t) || d->m.vec != 1) {
		dec_unsupported(d, "atomic of this kind");
		return;
	}
	nsrc = atom_subs[k] == SUB_CAS ? 2 : 1;
	if (d->nops == (red ? 1 : 2) + nsrc + 1 && dec_has(d, "L2::cache_hint"))
		d->nops--;
	if (d->nops != (red ? 1 : 2) + nsrc) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_ATOM;
	in->type = (uint8_t)t;
	in->sem = mem_sem(d, true);
	in->sub = (uint8_t)atom_subs[k];
	in->space = (uint8_t)d->m.space;
	if (!red) {
		if (!dec_dst(&d->ops[i++], &in->o[0]))
			goto bad;
	} else {
		in->o[0].kind = OK_NONE;
	}
	if (!dec_mem_addr(d, in, &d->ops[i++]))
		goto bad;
	if (in->space != SS_GLOBAL && in->space != SS_SHARED &&
	    in->space != SS_GENERIC)
		goto bad;
	if (!dec_srcs(d, in, 1, i, nsrc, t))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

/* ---- mbarrier objects and cp.async ---- */

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
		return dec_dst(&d->ops[0], &in->o[0]) &&
		       dec_src(d, &d->ops[1], ST_U64, &in->o[1]);
	if (in->sub == MB_TEST_WAIT || in->sub == MB_TEST_PARITY) {
		if (!dec_pred(&d->ops[i++], &in->o[0]))
			return false;
	} else if (in->sub == MB_ARRIVE || in->sub == MB_ARRIVE_DROP) {
		if (!dec_dst(&d->ops[i++], &in->o[0]))
			return false;
	}
	if (!dec_mem_addr(d, in, &d->ops[i++]) ||
	    (in->space != SS_SHARED && in->space != SS_GENERIC))
		return false;
	if (i == d->nops || in->sub == MB_INVAL || in->sub >= MB_CP_ARRIVE)
		return true;
	if (in->sub == MB_ARRIVE || in->sub == MB_ARRIVE_DROP)
		in->sub2 |= MBF_COUNT;
	return dec_src(d, &d->ops[i], in->sub == MB_TEST_WAIT ? ST_U64 : ST_U32,
		       &in->o[1]);
}

/* mbarrier.* and cp.async.mbarrier.arrive.  The transaction counts of
 * sm_90 bulk copies and objects of other blocks of a cluster are not
 * emulated. */
void dec_mbarrier(struct dctx *d, bool cp)
{
	static const struct mbar_form cp_form = {"", MB_CP_ARRIVE, 1, false};
	const struct mbar_form *f = cp ? &cp_form : mbar_forms;
	struct simt_insn *in;

	while (!cp && f->word && !dec_has(d, f->word))
		f++;
	if (!f->word || dec_has(d, "expect_tx") || dec_has(d, "complete_tx") ||
	    dec_has(d, "shared::cluster")) {
		dec_unsupported(d, "mbarrier transaction counts and cluster objects "
				"are not emulated");
		return;
	}
	if (d->nops != f->nops && !(f->more && d->nops == f->nops + 1)) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_MBAR;
	in->sub = f->sub;
	if (cp && dec_has(d, "noinc"))
		in->sub = MB_CP_NOINC;
	else if (f->sub == MB_TEST_WAIT && dec_has(d, "parity"))
		in->sub = MB_TEST_PARITY;
	if (dec_has(d, "noComplete"))
		in->sub2 |= MBF_NOCOMPLETE;
	in->space = (uint8_t)d->m.space;
	in->o[0].kind = OK_NONE;
	in->o[1].kind = OK_NONE;
	if (!mbar_operands(d, in)) {
		d->ps->mod->ncode--;
		dec_bad_operands(d);
	}
}

/* cp.async (non-bulk): runs as a synchronous copy; commit and wait only
 * tell the hazard checker when the copies count as done.  dst is the
 * memory operand; the source base
 * goes in o[0] with its offset in o[1], the sizes in o[2] and o[3]. */
void dec_cp_async(struct dctx *d)
{
	struct simt_insn *in;
	const struct ptx_rop *from;

	if (dec_has(d, "commit_group")) {
		in = dec_emit(d);
		in->op = OP_CP_COMMIT;
		return;
	}
	if (dec_has(d, "wait_group") || dec_has(d, "wait_all")) {
		in = dec_emit(d);
		in->op = OP_CP_WAIT;
		in->sub = dec_has(d, "wait_all");
		if (!in->sub && (d->nops != 1 || d->ops[0].kind != RO_INT)) {
			d->ps->mod->ncode--;
			dec_bad_operands(d);
			return;
		}
		in->imm = in->sub ? 0 : (int64_t)d->ops[0].ival;
		return;
	}
	if (dec_has(d, "mbarrier") && !dec_has(d, "bulk")) {
		dec_mbarrier(d, true);
		return;
	}
	if (dec_has(d, "bulk") || dec_has(d, "mbarrier") || dec_has(d, "tensor") ||
	    !dec_has(d, "shared") || !dec_has(d, "global") || d->nops < 3) {
		dec_unsupported(d, "asynchronous copies of this kind are not emulated");
		return;
	}
	if (d->nops > 4 || (d->nops == 4 && d->ops[3].kind == RO_REG &&
			    d->ops[3].rtype == ST_PRED)) {
		dec_unsupported(d, "cp.async with a cache policy or ignore-src operand");
		return;
	}
	in = dec_emit(d);
	in->op = OP_CP_ASYNC;
	in->space = SS_SHARED;
	in->type = ST_B8;
	if (!dec_mem_addr(d, in, &d->ops[0]))
		goto bad;
	in->space = SS_SHARED;
	from = &d->ops[1];
	if (from->kind != RO_ADDR || !dec_src(d, &from->elem[0], ST_U64, &in->o[0]))
		goto bad;
	in->o[1].kind = OK_IMM;
	in->o[1].idx = ptx_const_row(d->ps, (uint64_t)from->off);
	if (!dec_src(d, &d->ops[2], ST_U32, &in->o[2]))
		goto bad;
	if (d->nops == 4 ? !dec_src(d, &d->ops[3], ST_U32, &in->o[3])
			 : !dec_src(d, &d->ops[2], ST_U32, &in->o[3]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}
