/* The typed form of a cvt or generic integer instruction, chosen when it
 * is decoded: the op of SIMT_TYPED_OPS that computes exactly what the
 * generic code would for its types, rounding and modifiers, which
 * exec/typed.c then runs without deciding any of that again per lane. */
#include "ptx/ptx_int.h"

static bool rnd_nearest(int rnd)
{
	return rnd == RND_NONE || rnd == RND_RN;
}

static bool is_int_type(int t)
{
	return !simt_type_float(t) && t != ST_PRED && t != ST_NONE;
}

/* Integer to f32/f64 without saturation: rounding to nearest, or any mode
 * when the conversion is exact (32-bit integers to f64). */
static int pick_int_to_float(int dt, int st, int rnd)
{
	bool near = rnd_nearest(rnd);

	if (dt == ST_F32 && near)
		return st == ST_U32 ? OP_CVT_F32_U32 : st == ST_S32 ? OP_CVT_F32_S32
		     : st == ST_U64 ? OP_CVT_F32_U64 : st == ST_S64 ? OP_CVT_F32_S64
		     : -1;
	if (dt == ST_F64)
		return st == ST_U32 ? OP_CVT_F64_U32 : st == ST_S32 ? OP_CVT_F64_S32
		     : st == ST_U64 && near ? OP_CVT_F64_U64
		     : st == ST_S64 && near ? OP_CVT_F64_S64 : -1;
	return -1;
}

/* Float to a 32-bit integer in the rounding modes a conversion to an
 * integer takes (.rn is .rni there); saturation is what they always do. */
static int pick_float_to_int(int dt, int st, int rnd)
{
	if (!rnd_nearest(rnd) && rnd != RND_RNI && rnd != RND_RZI &&
	    rnd != RND_RMI && rnd != RND_RPI)
		return -1;
	if (st == ST_F32)
		return dt == ST_S32 ? OP_CVT_S32_F32 : dt == ST_U32 ? OP_CVT_U32_F32 : -1;
	if (st == ST_F64)
		return dt == ST_S32 ? OP_CVT_S32_F64 : dt == ST_U32 ? OP_CVT_U32_F64 : -1;
	return -1;
}

static int pick_float_to_float(int dt, int st, int rnd)
{
	bool to_int = rnd >= RND_RNI && rnd <= RND_RPI;

	if (dt == st && to_int)
		return dt == ST_F32 ? OP_CVT_RND_F32 : dt == ST_F64 ? OP_CVT_RND_F64 : -1;
	if (!rnd_nearest(rnd))
		return -1;
	if (dt == ST_F32 && st == ST_F64)
		return OP_CVT_F32_F64;
	if (dt == ST_F64 && st == ST_F32)
		return OP_CVT_F64_F32;
	if (dt == ST_F16 && st == ST_F32)
		return OP_CVT_F16_F32;
	if (dt == ST_F32 && st == ST_F16)
		return OP_CVT_F32_F16;
	return -1;
}

static int pick_cvt(const struct simt_insn *in)
{
	int dt = in->type, st = in->type2;
	bool sat = in->flags & F_SAT;

	if (simt_type_size(dt) > 8 || simt_type_size(st) > 8)
		return -1;
	if (is_int_type(st) && is_int_type(dt))
		return sat ? -1 : OP_CVT_INT;
	if (is_int_type(st))
		return sat ? -1 : pick_int_to_float(dt, st, in->rnd);
	if (is_int_type(dt))
		return pick_float_to_int(dt, st, in->rnd);
	return sat ? -1 : pick_float_to_float(dt, st, in->rnd);
}

static int pick_divrem(int t, bool rem)
{
	switch (t) {
	case ST_U32: return rem ? OP_REM_U32 : OP_DIV_U32;
	case ST_S32: return rem ? OP_REM_S32 : OP_DIV_S32;
	case ST_U64: return rem ? OP_REM_U64 : OP_DIV_U64;
	case ST_S64: return rem ? OP_REM_S64 : OP_DIV_S64;
	default: return -1;
	}
}

static int pick_ialu(const struct simt_insn *in)
{
	int t = in->type;
	bool b32 = t == ST_B32 || t == ST_U32 || t == ST_S32;
	bool b64 = t == ST_B64 || t == ST_U64 || t == ST_S64;

	if (in->flags & (F_CC | F_CI | F_SAT))
		return -1;
	switch (in->sub) {
	case SUB_MULHI:
		return t == ST_U32 ? OP_MULHI_U32 : t == ST_S32 ? OP_MULHI_S32
		     : t == ST_U64 ? OP_MULHI_U64 : t == ST_S64 ? OP_MULHI_S64 : -1;
	case SUB_DIV: case SUB_REM:
		return pick_divrem(t, in->sub == SUB_REM);
	case SUB_ABS:
		return t == ST_S32 ? OP_ABS_S32 : t == ST_S64 ? OP_ABS_S64 : -1;
	case SUB_NEG:
		return t == ST_S32 ? OP_NEG_S32 : t == ST_S64 ? OP_NEG_S64 : -1;
	case SUB_MIN: case SUB_MAX:
		if (t == ST_S64 && in->sub2 != 1)
			return in->sub == SUB_MIN ? OP_MIN_S64 : OP_MAX_S64;
		if (t == ST_U64)
			return in->sub == SUB_MIN ? OP_MIN_U64 : OP_MAX_U64;
		return -1;
	case SUB_POPC:
		return b32 ? OP_POPC_32 : b64 ? OP_POPC_64 : -1;
	case SUB_CLZ:
		return b32 ? OP_CLZ_32 : b64 ? OP_CLZ_64 : -1;
	case SUB_BREV:
		return b32 ? OP_BREV_32 : -1;
	case SUB_SHFL_L:
		return OP_SHF_L;
	case SUB_SHFL_R:
		return OP_SHF_R;
	case SUB_BFE:
		return t == ST_U32 ? OP_BFE_U32 : t == ST_S32 ? OP_BFE_S32 : -1;
	case SUB_PRMT:
		return in->sub2 == 0 ? OP_PRMT : -1;
	default:
		return -1;
	}
}

void simt_typed_pick(struct simt_insn *in)
{
	int op = -1;

	if (in->op == OP_CVT)
		op = pick_cvt(in);
	else if (in->op == OP_IALU)
		op = pick_ialu(in);
	if (op >= 0)
		in->op = (uint16_t)op;
}
