/* Typed forms of cvt, integer arithmetic and comparisons, chosen when an
 * instruction is decoded (ptx/pick.c) so that the lane loop runs with
 * the types, rounding and modifiers fixed.  The generic code in alu.c
 * decides all of that again for every lane; each form here computes
 * exactly what it computes, bit for bit (64-bit rows included: signed
 * results are kept sign-extended as alu.c keeps them), and every other
 * form stays with it. */
#include "exec/typed.h"

#include "exec/lanes.h"

#include <math.h>

/* ---- conversions ---- */

/* Float to 32-bit integer as alu.c's float_to_int: NaN is 0, values
 * beyond the type saturate; x is already rounded to an integer (or,
 * for truncation, the cast truncates: clamping before or after it gives
 * the same integer). */
static inline uint64_t s32_of(double x)
{
	if (x != x)
		return 0;
	if (x <= -2147483648.0)
		return (uint64_t)(int64_t)INT32_MIN;
	if (x >= 2147483648.0)
		return (uint64_t)INT32_MAX;
	return (uint64_t)(int64_t)x;
}

static inline uint64_t u32_of(double x)
{
	if (x != x || x <= 0)
		return 0;
	if (x >= 4294967296.0)
		return UINT32_MAX;
	return (uint64_t)x;
}

static inline double f32_at(uint64_t v)
{
	return (double)u2f(v);
}

static inline double f32_ftz_at(uint64_t v)
{
	return (double)u2f(ftz32_bits(v));
}

static inline double f64_at(uint64_t v)
{
	return u2d(v);
}

/* A NaN made quiet, as alu.c's round trip of an f32 through double
 * makes it. */
static inline uint64_t quiet32(uint64_t u)
{
	return (u & 0x7fffffffu) > 0x7f800000u ? u | 0x00400000u : u;
}

/* D = FINISH(ROUND(READ(A))) for the rounding mode of the instruction
 * (nearest: to even, in the current mode as alu.c rounds it). */
#define F2I(READ, FINISH) \
	do { \
		switch (in->rnd) { \
		case RND_RZI: FOR_LANES(ex, D[l] = FINISH(READ(A[l]))); break; \
		case RND_RMI: FOR_LANES(ex, D[l] = FINISH(floor(READ(A[l])))); break; \
		case RND_RPI: FOR_LANES(ex, D[l] = FINISH(ceil(READ(A[l])))); break; \
		default: FOR_LANES(ex, D[l] = FINISH(nearbyint(READ(A[l])))); break; \
		} \
	} while (0)

static void cvt_float_to_int(const struct simt_insn *in, uint64_t *D,
			     const uint64_t *A, uint32_t ex)
{
	bool ftz = in->flags & F_FTZ;

	switch (in->op) {
	case OP_CVT_S32_F32:
		if (ftz)
			F2I(f32_ftz_at, s32_of);
		else
			F2I(f32_at, s32_of);
		break;
	case OP_CVT_U32_F32:
		if (ftz)
			F2I(f32_ftz_at, u32_of);
		else
			F2I(f32_at, u32_of);
		break;
	case OP_CVT_S32_F64:
		F2I(f64_at, s32_of);
		break;
	default:
		F2I(f64_at, u32_of);
		break;
	}
}

/* Rounding to an integral value in the same float type. */
static void cvt_round(const struct simt_insn *in, uint64_t *D,
		      const uint64_t *A, uint32_t ex)
{
	bool ftz = in->flags & F_FTZ;

	if (in->op == OP_CVT_RND_F64) {
		switch (in->rnd) {
		case RND_RZI: FOR_LANES(ex, D[l] = d2u(trunc(u2d(A[l])))); break;
		case RND_RMI: FOR_LANES(ex, D[l] = d2u(floor(u2d(A[l])))); break;
		case RND_RPI: FOR_LANES(ex, D[l] = d2u(ceil(u2d(A[l])))); break;
		default: FOR_LANES(ex, D[l] = d2u(nearbyint(u2d(A[l])))); break;
		}
		return;
	}
	/* f32: rounded in double as alu.c does (exact either way), the
	 * source and the result flushed under .ftz */
	switch (in->rnd) {
	case RND_RZI:
		FOR_LANES(ex, D[l] = f2u((float)trunc(ftz ? f32_ftz_at(A[l]) : f32_at(A[l]))));
		break;
	case RND_RMI:
		FOR_LANES(ex, D[l] = f2u((float)floor(ftz ? f32_ftz_at(A[l]) : f32_at(A[l]))));
		break;
	case RND_RPI:
		FOR_LANES(ex, D[l] = f2u((float)ceil(ftz ? f32_ftz_at(A[l]) : f32_at(A[l]))));
		break;
	default:
		FOR_LANES(ex, D[l] = f2u((float)nearbyint(ftz ? f32_ftz_at(A[l]) : f32_at(A[l]))));
		break;
	}
	if (ftz)
		FOR_LANES(ex, D[l] = ftz32_bits(D[l]));
}

/* Integer to integer without saturation: the source read as its type
 * (sign- or zero-extended from its width), then kept as the
 * destination's type. */
static inline uint64_t ext(uint64_t v, unsigned sh, bool sgn)
{
	return sgn ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}

static void cvt_int(const struct simt_insn *in, uint64_t *D,
		    const uint64_t *A, uint32_t ex)
{
	unsigned ssh = 64u - 8u * (unsigned)simt_type_size(in->type2);
	unsigned dsh = 64u - 8u * (unsigned)simt_type_size(in->type);
	bool ssg = simt_type_signed(in->type2), dsg = simt_type_signed(in->type);

	FOR_LANES(ex, D[l] = ext(ext(A[l], ssh, ssg), dsh, dsg));
}

static void typed_cvt(const struct simt_insn *in, uint64_t *const *bases,
		      uint32_t ex)
{
	uint64_t *D = R(in->o[0]);
	const uint64_t *A = R(in->o[1]);
	bool ftz = in->flags & F_FTZ;

	switch (in->op) {
	case OP_CVT_F32_U32: FOR_LANES(ex, D[l] = f2u((float)(uint32_t)A[l])); break;
	case OP_CVT_F32_S32: FOR_LANES(ex, D[l] = f2u((float)(int32_t)A[l])); break;
	case OP_CVT_F32_U64: FOR_LANES(ex, D[l] = f2u((float)A[l])); break;
	case OP_CVT_F32_S64: FOR_LANES(ex, D[l] = f2u((float)(int64_t)A[l])); break;
	case OP_CVT_F64_U32: FOR_LANES(ex, D[l] = d2u((double)(uint32_t)A[l])); break;
	case OP_CVT_F64_S32: FOR_LANES(ex, D[l] = d2u((double)(int32_t)A[l])); break;
	case OP_CVT_F64_U64: FOR_LANES(ex, D[l] = d2u((double)A[l])); break;
	case OP_CVT_F64_S64: FOR_LANES(ex, D[l] = d2u((double)(int64_t)A[l])); break;
	case OP_CVT_F32_F64:
		FOR_LANES(ex, D[l] = f2u((float)u2d(A[l])));
		if (ftz)
			FOR_LANES(ex, D[l] = ftz32_bits(D[l]));
		break;
	case OP_CVT_F64_F32:
		if (ftz)
			FOR_LANES(ex, D[l] = d2u(f32_ftz_at(A[l])));
		else
			FOR_LANES(ex, D[l] = d2u(f32_at(A[l])));
		break;
	case OP_CVT_F16_F32:
		FOR_LANES(ex, D[l] = simt_f2h(ftz ? f32_ftz_at(A[l]) : f32_at(A[l]), RND_RN));
		break;
	case OP_CVT_F32_F16:
		FOR_LANES(ex, D[l] = quiet32(f2u(simt_h2f((uint16_t)A[l]))));
		if (ftz)
			FOR_LANES(ex, D[l] = ftz32_bits(D[l]));
		break;
	case OP_CVT_RND_F32: case OP_CVT_RND_F64:
		cvt_round(in, D, A, ex);
		break;
	case OP_CVT_INT:
		cvt_int(in, D, A, ex);
		break;
	default:
		cvt_float_to_int(in, D, A, ex);
		break;
	}
}

/* ---- integer arithmetic ---- */

static inline uint64_t s32_row(uint32_t v)
{
	return (uint64_t)(int64_t)(int32_t)v;
}

/* Division by zero gives all ones (and the remainder the dividend), and
 * the most negative value divided by -1 wraps, as on the hardware. */
static inline uint64_t div_s32(uint64_t a, uint64_t b, bool rem)
{
	int32_t x = (int32_t)a, y = (int32_t)b;

	if (y == 0)
		return rem ? s32_row((uint32_t)x) : ~0ull;
	if (y == -1)
		return rem ? 0 : s32_row(0u - (uint32_t)x);
	return s32_row((uint32_t)(rem ? x % y : x / y));
}

static inline uint64_t div_u32(uint64_t a, uint64_t b, bool rem)
{
	uint32_t x = (uint32_t)a, y = (uint32_t)b;

	if (y == 0)
		return rem ? x : UINT32_MAX;
	return rem ? x % y : x / y;
}

static inline uint64_t div_s64(uint64_t a, uint64_t b, bool rem)
{
	int64_t x = (int64_t)a, y = (int64_t)b;

	if (y == 0)
		return rem ? a : ~0ull;
	if (y == -1)
		return rem ? 0 : 0 - a;
	return (uint64_t)(rem ? x % y : x / y);
}

static inline uint64_t div_u64(uint64_t a, uint64_t b, bool rem)
{
	if (b == 0)
		return rem ? a : ~0ull;
	return rem ? a % b : a / b;
}

static inline uint32_t popc32(uint32_t m)
{
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	m = (m + (m >> 4)) & 0x0f0f0f0fu;
	return (m * 0x01010101u) >> 24;
}

static inline uint32_t brev32(uint32_t v)
{
	v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
	v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
	v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
	v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
	return (v >> 16) | (v << 16);
}

/* bfe.u32/.s32: len bits from pos, the rest filled with the sign bit
 * (the field's top bit, or bit 31 when the field runs past it) for .s32
 * and with zeros for .u32; a zero length gives 0. */
static inline uint32_t bfe32(uint32_t a, uint32_t b, uint32_t c, bool sgn)
{
	uint32_t pos = b & 0xff, len = c & 0xff, k, mask, sbit = 0;

	if (sgn && len > 0)
		sbit = (a >> (pos + len - 1 < 31 ? pos + len - 1 : 31)) & 1;
	k = pos > 31 ? 0 : len < 32 - pos ? len : 32 - pos;
	mask = k >= 32 ? UINT32_MAX : (1u << k) - 1;
	return (k ? (a >> pos) & mask : 0) | (sbit ? ~mask : 0);
}

/* prmt in its default mode: each byte of the result picked from the 8
 * bytes of b:a by a selector nibble of c, whose top bit replicates the
 * picked byte's sign. */
static inline uint32_t prmt32(uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t t = ((uint64_t)b << 32) | a;
	uint32_t d = 0;
	int i;

	for (i = 0; i < 4; i++) {
		uint32_t s = (c >> (4 * i)) & 0xf;
		uint32_t byte = (uint32_t)(t >> ((s & 7) * 8)) & 0xff;

		if (s & 8)
			byte = (byte & 0x80) ? 0xff : 0;
		d |= byte << (8 * i);
	}
	return d;
}

/* shf: the funnel b:a shifted by c (wrapped to 0..31, or clamped to 32),
 * its high word for .l and its low word for .r. */
static void shf(const struct simt_insn *in, uint64_t *D, const uint64_t *A,
		const uint64_t *Bv, const uint64_t *Cv, uint32_t ex)
{
	bool clamp = in->sub2, left = in->op == OP_SHF_L;

	FOR_LANES(ex, {
		uint64_t t = ((uint64_t)(uint32_t)Bv[l] << 32) | (uint32_t)A[l];
		uint32_t c = (uint32_t)Cv[l], n = clamp ? (c > 32 ? 32 : c) : (c & 31);

		D[l] = left ? (uint32_t)((t << n) >> 32) : (uint32_t)(t >> n);
	});
}

static void typed_ialu(const struct simt_insn *in, uint64_t *const *bases,
		       uint32_t ex)
{
	uint64_t *D = R(in->o[0]);
	const uint64_t *A = R(in->o[1]), *Bv = R(in->o[2]), *Cv = R(in->o[3]);

	switch (in->op) {
	case OP_MULHI_U32:
		FOR_LANES(ex, D[l] = ((uint64_t)(uint32_t)A[l] * (uint32_t)Bv[l]) >> 32);
		break;
	case OP_MULHI_S32:
		FOR_LANES(ex, D[l] = s32_row((uint32_t)(((int64_t)(int32_t)A[l] *
							   (int32_t)Bv[l]) >> 32)));
		break;
	case OP_MULHI_U64:
		FOR_LANES(ex, D[l] = (uint64_t)(((unsigned __int128)A[l] * Bv[l]) >> 64));
		break;
	case OP_MULHI_S64:
		FOR_LANES(ex, D[l] = (uint64_t)(((__int128)(int64_t)A[l] *
						(int64_t)Bv[l]) >> 64));
		break;
	case OP_DIV_U32: FOR_LANES(ex, D[l] = div_u32(A[l], Bv[l], false)); break;
	case OP_REM_U32: FOR_LANES(ex, D[l] = div_u32(A[l], Bv[l], true)); break;
	case OP_DIV_S32: FOR_LANES(ex, D[l] = div_s32(A[l], Bv[l], false)); break;
	case OP_REM_S32: FOR_LANES(ex, D[l] = div_s32(A[l], Bv[l], true)); break;
	case OP_DIV_U64: FOR_LANES(ex, D[l] = div_u64(A[l], Bv[l], false)); break;
	case OP_REM_U64: FOR_LANES(ex, D[l] = div_u64(A[l], Bv[l], true)); break;
	case OP_DIV_S64: FOR_LANES(ex, D[l] = div_s64(A[l], Bv[l], false)); break;
	case OP_REM_S64: FOR_LANES(ex, D[l] = div_s64(A[l], Bv[l], true)); break;
	case OP_ABS_S32:
		FOR_LANES(ex, { uint32_t v = (uint32_t)A[l];
			D[l] = s32_row((int32_t)v < 0 ? 0u - v : v); });
		break;
	case OP_NEG_S32: FOR_LANES(ex, D[l] = s32_row(0u - (uint32_t)A[l])); break;
	case OP_ABS_S64: FOR_LANES(ex, D[l] = (int64_t)A[l] < 0 ? 0 - A[l] : A[l]); break;
	case OP_NEG_S64: FOR_LANES(ex, D[l] = 0 - A[l]); break;
	case OP_MIN_S64:
		FOR_LANES(ex, D[l] = (int64_t)A[l] < (int64_t)Bv[l] ? A[l] : Bv[l]);
		break;
	case OP_MAX_S64:
		FOR_LANES(ex, D[l] = (int64_t)A[l] > (int64_t)Bv[l] ? A[l] : Bv[l]);
		break;
	case OP_MIN_U64: FOR_LANES(ex, D[l] = A[l] < Bv[l] ? A[l] : Bv[l]); break;
	case OP_MAX_U64: FOR_LANES(ex, D[l] = A[l] > Bv[l] ? A[l] : Bv[l]); break;
	case OP_POPC_32: FOR_LANES(ex, D[l] = popc32((uint32_t)A[l])); break;
	case OP_POPC_64:
		FOR_LANES(ex, D[l] = popc32((uint32_t)A[l]) + popc32((uint32_t)(A[l] >> 32)));
		break;
	case OP_CLZ_32:
		FOR_LANES(ex, D[l] = (uint32_t)A[l] ? (uint64_t)__builtin_clz((uint32_t)A[l]) : 32);
		break;
	case OP_CLZ_64:
		FOR_LANES(ex, D[l] = A[l] ? (uint64_t)__builtin_clzll(A[l]) : 64);
		break;
	case OP_BREV_32: FOR_LANES(ex, D[l] = brev32((uint32_t)A[l])); break;
	case OP_SHF_L: case OP_SHF_R:
		shf(in, D, A, Bv, Cv, ex);
		break;
	case OP_BFE_U32:
		FOR_LANES(ex, D[l] = bfe32((uint32_t)A[l], (uint32_t)Bv[l], (uint32_t)Cv[l],
					   false));
		break;
	case OP_BFE_S32:
		FOR_LANES(ex, D[l] = s32_row(bfe32((uint32_t)A[l], (uint32_t)Bv[l],
						   (uint32_t)Cv[l], true)));
		break;
	default: /* OP_PRMT */
		FOR_LANES(ex, D[l] = prmt32((uint32_t)A[l], (uint32_t)Bv[l], (uint32_t)Cv[l]));
		break;
	}
}

void simt_typed_exec(const struct simt_insn *in, uint64_t *const *bases,
		     uint32_t ex)
{
	if (in->op >= OP_CVT_F32_U32 && in->op <= OP_CVT_INT)
		typed_cvt(in, bases, ex);
	else
		typed_ialu(in, bases, ex);
}

/* ---- comparisons ---- */

static inline float f32_ftz(uint64_t v)
{
	return u2f(ftz32_bits(v));
}

uint32_t simt_compare_lanes(const struct simt_insn *in, const uint64_t *A,
			    const uint64_t *Bv, uint32_t ex)
{
	uint32_t bits = 0;

	switch (in->type) {
	case ST_S32: CMP_INT(int32_t); break;
	case ST_U32: case ST_B32: CMP_INT(uint32_t); break;
	case ST_S64: CMP_INT(int64_t); break;
	case ST_U64: case ST_B64: CMP_INT(uint64_t); break;
	case ST_S16: CMP_INT(int16_t); break;
	case ST_U16: case ST_B16: CMP_INT(uint16_t); break;
	case ST_F32:
		if (in->flags & F_FTZ)
			CMP_FLT(f32_ftz, true);
		else
			CMP_FLT(u2f, false);
		break;
	case ST_F64: CMP_FLT(u2d, false); break;
	default:
		FOR_LANES(ex, bits |= (uint32_t)simt_compare(in->type, in->sub, A[l], Bv[l],
							     in->flags & F_FTZ) << l);
		break;
	}
	return bits;
}
