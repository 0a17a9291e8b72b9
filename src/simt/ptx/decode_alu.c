/* Decoding arithmetic (integer, floating point, bit operations),
 * comparisons and selections, moves and conversions: the op each becomes,
 * with its types, rounding, modifiers and FLOPs, for the interpreter's
 * ALU (exec/alu.c, exec/typed.c). */
#include "ptx/decode.h"

#include <stdlib.h>
#include <string.h>

/* ---- simple arithmetic ---- */

/* "op.type d, a, b, ..." with n sources of the instruction's type. */
static struct simt_insn *std_op(struct dctx *d, int op, int type, int nsrc)
{
	struct simt_insn *in;

	if (d->nops != nsrc + 1) {
		dec_bad_operands(d);
		return NULL;
	}
	in = dec_emit(d);
	in->op = (uint16_t)op;
	in->type = (uint8_t)type;
	in->rnd = (uint8_t)d->m.rnd;
	if (dec_has(d, "ftz"))
		in->flags |= F_FTZ;
	if (dec_has(d, "sat") || dec_has(d, "satfinite"))
		in->flags |= F_SAT;
	if (dec_has(d, "approx"))
		in->flags |= F_APPROX;
	if (dec_has(d, "NaN"))
		in->flags |= F_NAN;
	if (!dec_dst(&d->ops[0], &in->o[0]) || !dec_srcs(d, in, 1, 1, nsrc, type)) {
		in->op = OP_NOP;
		d->ps->mod->ncode--;
		dec_bad_operands(d);
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

void dec_addsub(struct dctx *d, bool sub)
{
	int t = dec_last_type(d);
	bool cc = dec_has(d, "cc"), ci = dec_base_is(d, "addc") || dec_base_is(d, "subc");
	bool sat = dec_has(d, "sat");
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

void dec_mul(struct dctx *d)
{
	int t = dec_last_type(d);
	bool hi = dec_has(d, "hi"), wide = dec_has(d, "wide");
	struct simt_insn *in;
	int op = OP_IALU, sub = SUB_MUL;

	if (simt_type_float(t)) {
		op = (t == ST_F32 && plain_rnd(d->m.rnd) && !dec_has(d, "sat"))
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

void dec_mad(struct dctx *d)
{
	int t = dec_last_type(d);
	bool hi = dec_has(d, "hi"), wide = dec_has(d, "wide"), cc = dec_has(d, "cc");
	bool ci = dec_base_is(d, "madc");
	struct simt_insn *in;
	int op = OP_IALU, sub = SUB_MAD;

	if (simt_type_float(t)) {
		op = (t == ST_F32 && plain_rnd(d->m.rnd) && !dec_has(d, "sat"))
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

void dec_fma(struct dctx *d)
{
	int t = dec_last_type(d);
	int op = OP_FALU;
	struct simt_insn *in;

	if (t == ST_F32 && plain_rnd(d->m.rnd) && !dec_has(d, "sat") &&
	    !dec_has(d, "relu"))
		op = OP_FMA_F32;
	else if (t == ST_F64 && plain_rnd(d->m.rnd))
		op = OP_FMA_F64;
	in = std_op(d, op, t, 3);
	if (!in)
		return;
	in->sub = SUB_FMA;
	if (dec_has(d, "relu"))
		in->sub2 = 1;
	set_flop(in, 2);
}

/* Ops with one generic integer and one float implementation. */
void dec_generic(struct dctx *d, int isub, int fsub, int nsrc)
{
	int t = dec_last_type(d);
	struct simt_insn *in;

	in = std_op(d, simt_type_float(t) ? OP_FALU : OP_IALU, t, nsrc);
	if (in)
		in->sub = (uint8_t)(simt_type_float(t) ? fsub : isub);
}

void dec_minmax(struct dctx *d, bool max)
{
	int t = dec_last_type(d);
	int op;
	struct simt_insn *in;

	if (t == ST_S32)
		op = max ? OP_MAX_S32 : OP_MIN_S32;
	else if (t == ST_U32)
		op = max ? OP_MAX_U32 : OP_MIN_U32;
	else if (t == ST_F32 && !dec_has(d, "xorsign") && !dec_has(d, "abs") &&
		 !dec_has(d, "relu"))
		op = max ? OP_MAX_F32 : OP_MIN_F32;
	else
		op = simt_type_float(t) ? OP_FALU : OP_IALU;
	if (d->nops == 4) {
		dec_unsupported(d, "three-input min/max");
		return;
	}
	in = std_op(d, op, t, 2);
	if (!in)
		return;
	in->sub = simt_type_float(t) ? (max ? SUB_FMAX : SUB_FMIN)
				     : (max ? SUB_MAX : SUB_MIN);
	if (dec_has(d, "relu"))
		in->sub2 = 1;
	if (dec_has(d, "xorsign") || dec_has(d, "abs"))
		dec_unsupported(d, "min/max .xorsign.abs");
}

void dec_absneg(struct dctx *d, bool neg)
{
	int t = dec_last_type(d);
	int op = simt_type_float(t) ? OP_FALU : OP_IALU;
	struct simt_insn *in;

	if (t == ST_F32)
		op = neg ? OP_NEG_F32 : OP_ABS_F32;
	in = std_op(d, op, t, 1);
	if (in)
		in->sub = neg ? SUB_NEG : SUB_ABS;
}

void dec_logic(struct dctx *d, int sub)
{
	int t = dec_last_type(d);
	int op = OP_IALU, n = sub == SUB_NOT || sub == SUB_CNOT ? 1 : 2;
	struct simt_insn *in;

	if (t == ST_PRED) {
		if (sub == SUB_CNOT) {
			dec_unsupported(d, "cnot on predicates");
			return;
		}
		op = sub == SUB_AND ? OP_AND_P : sub == SUB_OR ? OP_OR_P
				  : sub == SUB_XOR ? OP_XOR_P : OP_NOT_P;
		if (d->nops != n + 1) {
			dec_bad_operands(d);
			return;
		}
		in = dec_emit(d);
		in->op = (uint16_t)op;
		in->type = ST_PRED;
		if (!dec_pred(&d->ops[0], &in->o[0]) || !dec_pred(&d->ops[1], &in->o[1]) ||
		    (n == 2 && !dec_pred(&d->ops[2], &in->o[2]))) {
			d->ps->mod->ncode--;
			dec_bad_operands(d);
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

void dec_shift(struct dctx *d, bool left)
{
	int t = dec_last_type(d);
	int op = OP_IALU;
	struct simt_insn *in;

	if (is_i32(t))
		op = left ? OP_SHL_32 : t == ST_S32 ? OP_SHR_S32 : OP_SHR_U32;
	else if (is_i64(t))
		op = left ? OP_SHL_64 : t == ST_S64 ? OP_SHR_S64 : OP_SHR_U64;
	if (d->nops != 3) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = (uint16_t)op;
	in->type = (uint8_t)t;
	in->sub = left ? SUB_SHL : SUB_SHR;
	in->nops = 3;
	if (!dec_dst(&d->ops[0], &in->o[0]) ||
	    !dec_src(d, &d->ops[1], t, &in->o[1]) ||
	    !dec_src(d, &d->ops[2], ST_U32, &in->o[2])) {
		d->ps->mod->ncode--;
		dec_bad_operands(d);
	}
}

void dec_ialu_misc(struct dctx *d)
{
	int t = dec_last_type(d);
	struct simt_insn *in = NULL;

	if (dec_base_is(d, "popc") || dec_base_is(d, "clz") || dec_base_is(d, "brev") ||
	    dec_base_is(d, "bfind")) {
		int sub = dec_base_is(d, "popc") ? SUB_POPC : dec_base_is(d, "clz") ? SUB_CLZ
			: dec_base_is(d, "brev") ? SUB_BREV
			: dec_has(d, "shiftamt") ? SUB_BFIND_SHIFT : SUB_BFIND;

		in = std_op(d, OP_IALU, t, 1);
		if (in)
			in->sub = (uint8_t)sub;
		return;
	}
	if (dec_base_is(d, "bfe")) {
		in = std_op(d, OP_IALU, t, 3);
		if (in) {
			in->sub = SUB_BFE;
			/* b and c are .u32 whatever the type */
			dec_src(d, &d->ops[2], ST_U32, &in->o[2]);
			dec_src(d, &d->ops[3], ST_U32, &in->o[3]);
		}
	} else if (dec_base_is(d, "bfi")) {
		in = std_op(d, OP_IALU, t, 4);
		if (in) {
			in->sub = SUB_BFI;
			dec_src(d, &d->ops[3], ST_U32, &in->o[3]);
			dec_src(d, &d->ops[4], ST_U32, &in->o[4]);
		}
	} else if (dec_base_is(d, "prmt")) {
		static const char *const modes[] = {"f4e", "b4e", "rc8", "ecl",
						    "ecr", "rc16", NULL};
		in = std_op(d, OP_IALU, ST_B32, 3);
		if (in) {
			in->sub = SUB_PRMT;
			in->sub2 = (uint8_t)(dec_which(d, modes) + 1);
		}
	} else if (dec_base_is(d, "shf")) {
		in = std_op(d, OP_IALU, ST_B32, 3);
		if (in) {
			in->sub = dec_has(d, "l") ? SUB_SHFL_L : SUB_SHFL_R;
			in->sub2 = dec_has(d, "clamp") ? 1 : 0;
		}
	} else if (dec_base_is(d, "lop3")) {
		if (d->nops != 5) {
			dec_unsupported(d, "lop3 with a predicate output");
			return;
		}
		in = std_op(d, OP_IALU, ST_B32, 4);
		if (in)
			in->sub = SUB_LOP3;
	} else if (dec_base_is(d, "dp4a") || dec_base_is(d, "dp2a")) {
		int ta = d->m.ntypes > 0 ? d->m.types[0] : ST_U32;
		int tb = d->m.ntypes > 1 ? d->m.types[1] : ST_U32;

		in = std_op(d, OP_IALU, ST_B32, 3);
		if (in) {
			in->sub = dec_base_is(d, "dp4a") ? SUB_DP4A
				: dec_has(d, "hi") ? SUB_DP2A_HI : SUB_DP2A_LO;
			in->sub2 = (uint8_t)((ta == ST_S32 ? 1 : 0) |
					     (tb == ST_S32 ? 2 : 0));
		}
	} else if (dec_base_is(d, "sad")) {
		in = std_op(d, OP_IALU, t, 3);
		if (in)
			in->sub = SUB_SAD;
	} else if (dec_base_is(d, "mul24") || dec_base_is(d, "mad24")) {
		bool mad = dec_base_is(d, "mad24");

		in = std_op(d, OP_IALU, t, mad ? 3 : 2);
		if (in)
			in->sub = (uint8_t)(dec_has(d, "hi") ? (mad ? SUB_MAD24HI : SUB_MUL24HI)
						       : (mad ? SUB_MAD24 : SUB_MUL24));
	} else if (dec_base_is(d, "fns")) {
		in = std_op(d, OP_IALU, ST_B32, 3);
		if (in) {
			in->sub = SUB_FNS;
			dec_src(d, &d->ops[3], ST_S32, &in->o[3]);
		}
	} else if (dec_base_is(d, "bmsk")) {
		in = std_op(d, OP_IALU, ST_B32, 2);
		if (in) {
			in->sub = SUB_BMSK;
			in->sub2 = dec_has(d, "wrap") ? 1 : 0;
		}
	} else if (dec_base_is(d, "szext")) {
		in = std_op(d, OP_IALU, t, 2);
		if (in) {
			in->sub = SUB_SZEXT;
			in->sub2 = dec_has(d, "wrap") ? 1 : 0;
		}
	} else if (dec_base_is(d, "cnot")) {
		dec_logic(d, SUB_CNOT);
	}
}

void dec_falu1(struct dctx *d, int sub)
{
	int t = dec_last_type(d);
	struct simt_insn *in = std_op(d, OP_FALU, t, 1);

	if (in)
		in->sub = (uint8_t)sub;
}

void dec_div(struct dctx *d)
{
	int t = dec_last_type(d);
	struct simt_insn *in;

	if (simt_type_float(t)) {
		in = std_op(d, OP_FALU, t, 2);
		if (in) {
			in->sub = SUB_DIV;
			if (dec_has(d, "full"))
				in->flags |= F_APPROX;
		}
		set_flop(in, 1);
		return;
	}
	in = std_op(d, OP_IALU, t, 2);
	if (in)
		in->sub = SUB_DIV;
}

void dec_testp(struct dctx *d)
{
	static const char *const ops[] = {"finite", "infinite", "number",
					  "notanumber", "normal", "subnormal",
					  NULL};
	int t = dec_last_type(d), k = dec_which(d, ops);
	struct simt_insn *in;

	if (k < 0 || d->nops != 2) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_TESTP;
	in->type = (uint8_t)t;
	in->sub = (uint8_t)(SUB_FINITE + k);
	if (!dec_pred(&d->ops[0], &in->o[0]) || !dec_src(d, &d->ops[1], t, &in->o[1])) {
		d->ps->mod->ncode--;
		dec_bad_operands(d);
	}
}

/* ---- comparisons ---- */

static const char *const cmp_words[] = {"eq", "ne", "lt", "le", "gt", "ge",
					"lo", "ls", "hi", "hs", "equ", "neu",
					"ltu", "leu", "gtu", "geu", "num",
					"nan", NULL};
static const char *const bool_words[] = {"and", "or", "xor", NULL};

void dec_setp(struct dctx *d)
{
	int cmp = dec_which(d, cmp_words), bop = dec_which(d, bool_words) + 1;
	int t = dec_last_type(d), i = 0, op;
	bool two = d->nops > 1 && d->ops[1].minus;
	struct simt_insn *in;

	if (cmp < 0 || d->nops < 3) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->type = (uint8_t)t;
	in->sub = (uint8_t)cmp;
	in->sub2 = (uint8_t)bop;
	if (dec_has(d, "ftz"))
		in->flags |= F_FTZ;
	if (!dec_pred(&d->ops[i++], &in->o[0]))
		goto bad;
	if (two && !dec_pred(&d->ops[i++], &in->o[1]))
		goto bad;
	if (!two)
		in->o[1].kind = OK_NONE;
	if (i + 2 > d->nops || !dec_src(d, &d->ops[i], t, &in->o[2]) ||
	    !dec_src(d, &d->ops[i + 1], t, &in->o[3]))
		goto bad;
	i += 2;
	if (bop) {
		if (i >= d->nops || !dec_pred(&d->ops[i], &in->o[4]))
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
	dec_bad_operands(d);
}

void dec_set(struct dctx *d)
{
	int cmp = dec_which(d, cmp_words), bop = dec_which(d, bool_words) + 1;
	int dt = d->m.ntypes > 0 ? d->m.types[0] : ST_NONE;
	int stype = dec_last_type(d);
	struct simt_insn *in;

	if (cmp < 0 || d->m.ntypes < 2 || d->nops != (bop ? 4 : 3)) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_SET;
	in->type = (uint8_t)stype;
	in->type2 = (uint8_t)dt;
	in->sub = (uint8_t)cmp;
	in->sub2 = (uint8_t)bop;
	if (dec_has(d, "ftz"))
		in->flags |= F_FTZ;
	if (!dec_dst(&d->ops[0], &in->o[0]) || !dec_src(d, &d->ops[1], stype, &in->o[1]) ||
	    !dec_src(d, &d->ops[2], stype, &in->o[2]) ||
	    (bop && !dec_pred(&d->ops[3], &in->o[3]))) {
		d->ps->mod->ncode--;
		dec_bad_operands(d);
	}
}

void dec_selp(struct dctx *d)
{
	int t = dec_last_type(d);
	struct simt_insn *in;

	if (d->nops != 4) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_SELP;
	in->type = (uint8_t)t;
	if (!dec_dst(&d->ops[0], &in->o[0]) || !dec_src(d, &d->ops[1], t, &in->o[1]) ||
	    !dec_src(d, &d->ops[2], t, &in->o[2]) || !dec_pred(&d->ops[3], &in->o[3])) {
		d->ps->mod->ncode--;
		dec_bad_operands(d);
	}
}

void dec_slct(struct dctx *d)
{
	int t = d->m.ntypes > 0 ? d->m.types[0] : ST_NONE;
	int ct = dec_last_type(d);
	struct simt_insn *in;

	if (d->nops != 4 || d->m.ntypes < 2) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_SLCT;
	in->type = (uint8_t)t;
	in->type2 = (uint8_t)ct;
	if (dec_has(d, "ftz"))
		in->flags |= F_FTZ;
	if (!dec_dst(&d->ops[0], &in->o[0]) || !dec_srcs(d, in, 1, 1, 2, t) ||
	    !dec_src(d, &d->ops[3], ct, &in->o[3])) {
		d->ps->mod->ncode--;
		dec_bad_operands(d);
	}
}

/* ---- moves and conversions ---- */

static void dec_mov_symbol(struct dctx *d, struct simt_insn *in,
			   const struct ptx_rop *r)
{
	struct ptx_parser *ps = d->ps;
	int i;

	if (dec_symbol_value(d, r, &in->o[1])) {
		in->op = OP_MOV;
		return;
	}
	i = ptx_find_local(ps, r->sym, r->symlen);
	if (i >= 0) {
		in->op = OP_MOV_LOCADDR;
		in->imm = dec_wrap_add(ps->locals[i].offset, (uint64_t)r->off);
		return;
	}
	i = ptx_find_pdecl(ps, r->sym, r->symlen);
	if (i >= 0 && ps->pdecls[i].kernel) {
		in->op = OP_MOV_KPADDR;
		in->imm = dec_wrap_add(ps->pdecls[i].offset, (uint64_t)r->off);
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
		dec_unsupported(d, "the address of a function parameter");
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
		dec_bad_operands(d);
		return;
	}
	part = simt_type_size(t) / v->nelem;
	in = dec_emit(d);
	in->op = OP_PACK;
	in->type = (uint8_t)t;
	in->vec = (uint8_t)v->nelem;
	in->imm = part;
	if (!dec_dst(&d->ops[0], &in->o[0]))
		goto bad;
	for (i = 0; i < v->nelem; i++) {
		int pt = part == 1 ? ST_B8 : part == 2 ? ST_B16 : part == 4 ? ST_B32
										: ST_B64;
		if (!dec_src(d, &v->elem[i], pt, &in->o[1 + i]))
			goto bad;
	}
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

static void dec_unpack(struct dctx *d, int t)
{
	const struct ptx_rop *v = &d->ops[0];
	struct simt_insn *in;
	int i;

	if (v->nelem < 2 || v->nelem > 4) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_UNPACK;
	in->type = (uint8_t)t;
	in->vec = (uint8_t)v->nelem;
	in->imm = simt_type_size(t) / v->nelem;
	for (i = 0; i < v->nelem; i++)
		if (!dec_dst(&v->elem[i], &in->o[i]))
			goto bad;
	if (!dec_src(d, &d->ops[1], t, &in->o[5]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

void dec_mov(struct dctx *d)
{
	int t = dec_last_type(d);
	const struct ptx_rop *a;
	struct simt_insn *in;

	if (d->nops != 2) {
		dec_bad_operands(d);
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
	in = dec_emit(d);
	in->type = (uint8_t)t;
	in->op = OP_MOV;
	if (!dec_dst(&d->ops[0], &in->o[0]))
		goto bad;
	if (t == ST_PRED) {
		in->op = OP_MOV_PRED;
		if (!dec_pred(a, &in->o[1]))
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
	if (!dec_src(d, a, t, &in->o[1]))
		goto bad;
	return;
bad:
	d->ps->mod->ncode--;
	dec_bad_operands(d);
}

void dec_cvt(struct dctx *d)
{
	int dt, st;
	struct simt_insn *in;
	bool sat = dec_has(d, "sat"), plain;

	if (d->m.ntypes < 2) {
		dec_bad_operands(d);
		return;
	}
	dt = d->m.types[0];
	st = d->m.types[1];
	if (dt == ST_TF32) {
		dec_tensor(d);
		return;
	}
	if (dec_has(d, "relu") || dec_has(d, "satfinite") || dec_has(d, "rs")) {
		dec_unsupported(d, "cvt modifier");
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
		dec_unsupported(d, "cvt between these types");
		return;
	}
	plain = !sat && d->m.rnd == RND_NONE && !dec_has(d, "ftz");
	in = std_op(d, OP_CVT, dt, 1);
	if (!in)
		return;
	in->type2 = (uint8_t)st;
	/* The source operand is typed by the source type. */
	dec_src(d, &d->ops[1], st, &in->o[1]);
	if (plain && dt == ST_U64 && (st == ST_U32 || st == ST_B32))
		in->op = OP_CVT_U64_U32;
	else if (plain && (dt == ST_S64 || dt == ST_U64) && st == ST_S32)
		in->op = OP_CVT_S64_S32;
	else if (plain && (dt == ST_U32 || dt == ST_S32 || dt == ST_B32) &&
		 is_i64(st))
		in->op = OP_CVT_TRUNC32;
}

void dec_cvta(struct dctx *d)
{
	bool to = dec_has(d, "to");
	int t = dec_last_type(d);
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
		dec_bad_operands(d);
	}
}

void dec_isspacep(struct dctx *d)
{
	struct simt_insn *in;

	if (d->nops != 2) {
		dec_bad_operands(d);
		return;
	}
	in = dec_emit(d);
	in->op = OP_ISSPACEP;
	in->space = (uint8_t)d->m.space;
	if (!dec_pred(&d->ops[0], &in->o[0]) || !dec_src(d, &d->ops[1], ST_U64, &in->o[1])) {
		d->ps->mod->ncode--;
		dec_bad_operands(d);
	}
}
