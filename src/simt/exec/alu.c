/* The general per-lane arithmetic of the interpreter: every integer and
 * floating-point operation in every type PTX allows, with its rounding
 * modes, flush-to-zero, saturation and carry flag.  The interpreter calls
 * these for the less common instruction forms; the hot forms have their
 * own inlined loops in exec.c, which must agree with these definitions. */
#include "exec/alu.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/* ---- value helpers ---- */

static uint64_t sext(uint64_t v, int bits)
{
	if (bits >= 64)
		return v;
	v &= (1ull << bits) - 1;
	return (v ^ (1ull << (bits - 1))) - (1ull << (bits - 1));
}

static uint64_t zext(uint64_t v, int bits)
{
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

/* Reads a register value as the type says: signed types sign-extended,
 * the rest zero-extended. */
uint64_t simt_read_int(uint64_t v, int type)
{
	int bits = simt_type_size(type) * 8;

	return simt_type_signed(type) ? sext(v, bits) : zext(v, bits);
}

static uint64_t store_int(uint64_t v, int type)
{
	return simt_read_int(v, type);
}

float simt_ftz32(float x)
{
	return fpclassify(x) == FP_SUBNORMAL ? copysignf(0.0f, x) : x;
}

static int fe_mode(int rnd)
{
	switch (rnd) {
	case RND_RZ: case RND_RZI:
		return FE_TOWARDZERO;
	case RND_RM: case RND_RMI:
		return FE_DOWNWARD;
	case RND_RP: case RND_RPI:
		return FE_UPWARD;
	default:
		return FE_TONEAREST;
	}
}

bool simt_rnd_directed(int rnd)
{
	return fe_mode(rnd) != FE_TONEAREST;
}

void simt_rnd_enter(int rnd)
{
	fesetround(fe_mode(rnd));
}

void simt_rnd_leave(void)
{
	fesetround(FE_TONEAREST);
}

/* ---- integer ---- */

static uint64_t mulhi_u64(uint64_t a, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

static uint64_t mulhi_s64(uint64_t a, uint64_t b)
{
	return (uint64_t)(((__int128)(int64_t)a * (int64_t)b) >> 64);
}

static uint64_t bfe(uint64_t a, uint32_t pos, uint32_t len, int type)
{
	int msb = simt_type_size(type) * 8 - 1;
	bool sgn = simt_type_signed(type);
	uint64_t d = 0, sbit;
	uint32_t i;

	pos &= 0xff;
	len &= 0xff;
	if (sgn && len > 0) {
		uint32_t top = pos + len - 1 < (uint32_t)msb ? pos + len - 1
							      : (uint32_t)msb;

		sbit = (a >> top) & 1;
	} else {
		sbit = 0;
	}
	for (i = 0; i <= (uint32_t)msb; i++) {
		uint64_t bit = (i < len && pos + i <= (uint32_t)msb)
			? (a >> (pos + i)) & 1 : sbit;

		d |= bit << i;
	}
	return d;
}

static uint64_t bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len,
		    int type)
{
	int msb = simt_type_size(type) * 8 - 1;
	uint64_t d = b;
	uint32_t i;

	pos &= 0xff;
	len &= 0xff;
	for (i = 0; i < len && pos + i <= (uint32_t)msb; i++) {
		uint64_t bit = (a >> i) & 1;

		d = (d & ~(1ull << (pos + i))) | (bit << (pos + i));
	}
	return d;
}

static uint32_t prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	uint64_t t = ((uint64_t)b << 32) | a;
	uint32_t d = 0;
	int i, sel[4];

	switch (mode) {
	case 1: /* f4e: forward 4 extract */
		for (i = 0; i < 4; i++)
			sel[i] = (int)((c + (uint32_t)i) & 7);
		break;
	case 2: /* b4e: backward 4 extract */
		for (i = 0; i < 4; i++)
			sel[i] = (int)((c - (uint32_t)i + 8) & 7);
		sel[0] = (int)(c & 7);
		sel[1] = (int)((c + 7) & 7);
		sel[2] = (int)((c + 6) & 7);
		sel[3] = (int)((c + 5) & 7);
		break;
	case 3: /* rc8: replicate byte */
		for (i = 0; i < 4; i++)
			sel[i] = (int)(c & 3);
		break;
	case 4: /* ecl: edge clamp left */
		for (i = 0; i < 4; i++)
			sel[i] = (int)((c & 3) > (uint32_t)i ? (c & 3) : (uint32_t)i);
		break;
	case 5: /* ecr: edge clamp right */
		for (i = 0; i < 4; i++)
			sel[i] = (int)((c & 3) < (uint32_t)i ? (c & 3) : (uint32_t)i);
		break;
	case 6: /* rc16: replicate half */
		sel[0] = (int)((c & 1) * 2);
		sel[1] = sel[0] + 1;
		sel[2] = sel[0];
		sel[3] = sel[0] + 1;
		break;
	default:
		for (i = 0; i < 4; i++) {
			uint32_t s = (c >> (4 * i)) & 0xf;
			uint32_t byte = (uint32_t)(t >> ((s & 7) * 8)) & 0xff;

			if (s & 8)
				byte = (byte & 0x80) ? 0xff : 0;
			d |= byte << (8 * i);
		}
		return d;
	}
	for (i = 0; i < 4; i++)
		d |= (uint32_t)((t >> (sel[i] * 8)) & 0xff) << (8 * i);
	return d;
}

static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, uint32_t lut)
{
	uint32_t d = 0;
	int i;

	for (i = 0; i < 8; i++)
		if ((lut >> i) & 1)
			d |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) &
			     ((i & 1) ? c : ~c);
	return d;
}

static uint32_t dp4a(uint32_t a, uint32_t b, uint32_t c, int sg)
{
	int64_t acc = (int32_t)c;
	int i;

	for (i = 0; i < 4; i++) {
		int64_t x = (sg & 1) ? (int8_t)(a >> (8 * i)) : (uint8_t)(a >> (8 * i));
		int64_t y = (sg & 2) ? (int8_t)(b >> (8 * i)) : (uint8_t)(b >> (8 * i));

		acc += x * y;
	}
	return (uint32_t)acc;
}

static uint32_t dp2a(uint32_t a, uint32_t b, uint32_t c, int sg, bool hi)
{
	int64_t acc = (int32_t)c;
	int i;

	for (i = 0; i < 2; i++) {
		int64_t x = (sg & 1) ? (int16_t)(a >> (16 * i))
				     : (uint16_t)(a >> (16 * i));
		int sh = 8 * (i + (hi ? 2 : 0));
		int64_t y = (sg & 2) ? (int8_t)(b >> sh) : (uint8_t)(b >> sh);

		acc += x * y;
	}
	return (uint32_t)acc;
}

static uint32_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
	int32_t i, n = offset;

	if (offset == 0)
		return (mask >> (base & 31)) & 1 ? base & 31 : 0xffffffffu;
	if (offset > 0) {
		for (i = (int32_t)(base & 31); i < 32; i++)
			if ((mask >> i) & 1 && --n == 0)
				return (uint32_t)i;
	} else {
		for (i = (int32_t)(base & 31); i >= 0; i--)
			if ((mask >> i) & 1 && ++n == 0)
				return (uint32_t)i;
	}
	return 0xffffffffu;
}

static uint64_t bfind(uint64_t a, int type, bool shiftamt)
{
	int bits = simt_type_size(type) * 8, i;

	if (simt_type_signed(type) && (a >> (bits - 1)) & 1)
		a = ~a;
	a = zext(a, bits);
	for (i = bits - 1; i >= 0; i--)
		if ((a >> i) & 1)
			return shiftamt ? (uint64_t)(bits - 1 - i) : (uint64_t)i;
	return 0xffffffffu;
}

static uint64_t idiv(uint64_t a, uint64_t b, int type, bool rem)
{
	int bits = simt_type_size(type) * 8;

	if (simt_type_signed(type)) {
		int64_t x = (int64_t)sext(a, bits), y = (int64_t)sext(b, bits);

		if (y == 0)
			return rem ? (uint64_t)x : ~0ull;
		if (y == -1)
			return rem ? 0 : (uint64_t)(-(uint64_t)x);
		return (uint64_t)(rem ? x % y : x / y);
	}
	a = zext(a, bits);
	b = zext(b, bits);
	if (b == 0)
		return rem ? a : ~0ull;
	return rem ? a % b : a / b;
}

static uint64_t imul(const struct simt_insn *in, uint64_t a, uint64_t b,
		     int bits, bool sgn)
{
	uint64_t x = sgn ? sext(a, bits) : zext(a, bits);
	uint64_t y = sgn ? sext(b, bits) : zext(b, bits);

	switch (in->sub) {
	case SUB_MULHI: case SUB_MADHI:
		if (bits == 64)
			return sgn ? mulhi_s64(x, y) : mulhi_u64(x, y);
		return (x * y) >> bits;
	case SUB_MULWIDE: case SUB_MADWIDE:
		return x * y;
	case SUB_MUL24: case SUB_MAD24:
		x = sgn ? sext(a, 24) : zext(a, 24);
		y = sgn ? sext(b, 24) : zext(b, 24);
		return x * y;
	case SUB_MUL24HI: case SUB_MAD24HI:
		x = sgn ? sext(a, 24) : zext(a, 24);
		y = sgn ? sext(b, 24) : zext(b, 24);
		return (x * y) >> 16;
	default:
		return x * y;
	}
}

static uint64_t sat_s32(int64_t v)
{
	if (v > INT32_MAX)
		return (uint64_t)INT32_MAX;
	if (v < INT32_MIN)
		return (uint64_t)(int64_t)INT32_MIN;
	return (uint64_t)v;
}

/* Add or subtract with carry in/out; width 32 or 64 (16 without carry). */
static uint64_t addsub(const struct simt_insn *in, uint64_t a, uint64_t b,
		       int bits, uint32_t *cf)
{
	bool sub = in->sub == SUB_SUB;
	uint64_t cin = (in->flags & F_CI) ? (*cf & 1) : 0;
	uint64_t x = zext(a, bits), y = zext(b, bits), r;

	if ((in->flags & F_SAT) && in->type == ST_S32) {
		int64_t s = (int64_t)sext(a, 32), t = (int64_t)sext(b, 32);

		return sat_s32(sub ? s - t : s + t);
	}
	if (sub) {
		r = x - y - cin;
		if (in->flags & F_CC) {
			if (bits == 64)
				*cf = (x < y || (x == y && cin)) ? 1 : 0;
			else
				*cf = (uint32_t)((r >> bits) & 1);
		}
	} else {
		r = x + y + cin;
		if (in->flags & F_CC) {
			if (bits == 64)
				*cf = (r < x || (cin && r == x)) ? 1 : 0;
			else
				*cf = (uint32_t)((r >> bits) & 1);
		}
	}
	return zext(r, bits);
}

static uint64_t mad(const struct simt_insn *in, uint64_t a, uint64_t b,
		    uint64_t c, int bits, bool sgn, uint32_t *cf)
{
	uint64_t p = imul(in, a, b, bits, sgn);
	uint64_t cin = (in->flags & F_CI) ? (*cf & 1) : 0;
	int rbits = (in->sub == SUB_MADWIDE) ? bits * 2 : bits;
	uint64_t x, y, r;

	if (in->sub == SUB_MAD24 || in->sub == SUB_MAD24HI)
		rbits = 32;
	x = zext(p, rbits);
	y = zext(c, rbits);
	r = x + y + cin;
	if (in->flags & F_CC) {
		if (rbits == 64)
			*cf = (r < x || (cin && r == x)) ? 1 : 0;
		else
			*cf = (uint32_t)((r >> rbits) & 1);
	}
	if ((in->flags & F_SAT) && in->type == ST_S32)
		return sat_s32((int64_t)sext(p, 64) + (int64_t)sext(c, 32));
	return zext(r, rbits);
}

static uint64_t shift(const struct simt_insn *in, uint64_t a, uint64_t b,
		      int bits)
{
	uint32_t n = (uint32_t)b;

	if (in->sub == SUB_SHL)
		return n >= (uint32_t)bits ? 0 : zext(a << n, bits);
	if (simt_type_signed(in->type)) {
		int64_t x = (int64_t)sext(a, bits);

		return zext((uint64_t)(x >> (n >= (uint32_t)bits ? (uint32_t)bits - 1 : n)),
			    bits);
	}
	return n >= (uint32_t)bits ? 0 : zext(a, bits) >> n;
}

static uint64_t minmax(const struct simt_insn *in, uint64_t a, uint64_t b,
		       int bits, bool sgn)
{
	bool max = in->sub == SUB_MAX;
	uint64_t r;

	if (sgn) {
		int64_t x = (int64_t)sext(a, bits), y = (int64_t)sext(b, bits);

		r = (uint64_t)(max ? (x > y ? x : y) : (x < y ? x : y));
		if (in->sub2 == 1 && (int64_t)r < 0)
			r = 0;
	} else {
		uint64_t x = zext(a, bits), y = zext(b, bits);

		r = max ? (x > y ? x : y) : (x < y ? x : y);
	}
	return r;
}

static uint64_t funnel(const struct simt_insn *in, uint32_t a, uint32_t b,
		       uint32_t c)
{
	uint64_t t = ((uint64_t)b << 32) | a;
	uint32_t n = in->sub2 ? (c > 32 ? 32 : c) : (c & 31);

	if (in->sub == SUB_SHFL_L)
		return (uint32_t)((t << n) >> 32);
	return (uint32_t)(t >> n);
}

static uint64_t bitop(const struct simt_insn *in, uint64_t a, uint64_t b,
		      int bits)
{
	switch (in->sub) {
	case SUB_AND:
		return zext(a & b, bits);
	case SUB_OR:
		return zext(a | b, bits);
	case SUB_XOR:
		return zext(a ^ b, bits);
	case SUB_NOT:
		return zext(~a, bits);
	default: /* CNOT */
		return zext(a, bits) == 0 ? 1 : 0;
	}
}

static uint64_t ialu_bits(const struct simt_insn *in, uint64_t a, uint64_t b,
			  uint64_t c, uint64_t d, int bits)
{
	switch (in->sub) {
	case SUB_POPC:
		return (uint64_t)__builtin_popcountll(zext(a, bits));
	case SUB_CLZ:
		a = zext(a, bits);
		return a == 0 ? (uint64_t)bits
			      : (uint64_t)(__builtin_clzll(a) - (64 - bits));
	case SUB_BREV: {
		uint64_t r = 0;
		int i;

		for (i = 0; i < bits; i++)
			r |= ((a >> i) & 1) << (bits - 1 - i);
		return r;
	}
	case SUB_BFIND:
	case SUB_BFIND_SHIFT:
		return bfind(a, in->type, in->sub == SUB_BFIND_SHIFT);
	case SUB_BFE:
		return store_int(bfe(a, (uint32_t)b, (uint32_t)c, in->type),
				 in->type);
	case SUB_BFI:
		return zext(bfi(a, b, (uint32_t)c, (uint32_t)d, in->type), bits);
	case SUB_PRMT:
		return prmt((uint32_t)a, (uint32_t)b, (uint32_t)c, in->sub2);
	case SUB_SHFL_L: case SUB_SHFL_R:
		return funnel(in, (uint32_t)a, (uint32_t)b, (uint32_t)c);
	case SUB_LOP3:
		return lop3((uint32_t)a, (uint32_t)b, (uint32_t)c, (uint32_t)d);
	case SUB_DP4A:
		return dp4a((uint32_t)a, (uint32_t)b, (uint32_t)c, in->sub2);
	case SUB_DP2A_LO: case SUB_DP2A_HI:
		return dp2a((uint32_t)a, (uint32_t)b, (uint32_t)c, in->sub2,
			    in->sub == SUB_DP2A_HI);
	case SUB_FNS:
		return fns((uint32_t)a, (uint32_t)b, (int32_t)c);
	case SUB_BMSK: {
		uint32_t pos = (uint32_t)a, len = (uint32_t)b;

		if (in->sub2) {
			pos &= 31;
			len &= 31;
		} else {
			pos = pos > 32 ? 32 : pos;
			len = len > 32 ? 32 : len;
		}
		if (pos + len >= 32)
			return pos >= 32 ? 0 : (uint32_t)(~0u << pos);
		return (uint32_t)(((1u << len) - 1) << pos);
	}
	case SUB_SZEXT: {
		uint32_t n = in->sub2 ? ((uint32_t)b & 31)
				      : ((uint32_t)b > 32 ? 32 : (uint32_t)b);

		if (n == 0)
			return 0;
		return simt_type_signed(in->type) ? zext(sext(a, (int)n), 32)
						  : zext(a, (int)n);
	}
	default:
		return 0;
	}
}

uint64_t simt_ialu(const struct simt_insn *in, uint64_t a, uint64_t b,
		   uint64_t c, uint64_t d, uint32_t *cf)
{
	int bits = simt_type_size(in->type) * 8;
	bool sgn = simt_type_signed(in->type);
	uint64_t r;

	switch (in->sub) {
	case SUB_ADD: case SUB_SUB:
		return store_int(addsub(in, a, b, bits, cf), in->type);
	case SUB_MUL: case SUB_MULHI: case SUB_MUL24: case SUB_MUL24HI:
		r = imul(in, a, b, bits, sgn);
		return in->sub == SUB_MUL24 || in->sub == SUB_MUL24HI
			? zext(r, 32) : store_int(r, in->type);
	case SUB_MULWIDE:
		return store_int(imul(in, a, b, bits, sgn),
				 sgn ? (bits == 16 ? ST_S32 : ST_S64)
				     : (bits == 16 ? ST_U32 : ST_U64));
	case SUB_MAD: case SUB_MADHI: case SUB_MADWIDE: case SUB_MAD24:
	case SUB_MAD24HI:
		return mad(in, a, b, c, bits, sgn, cf);
	case SUB_DIV: case SUB_REM:
		return store_int(idiv(a, b, in->type, in->sub == SUB_REM),
				 in->type);
	case SUB_ABS:
		r = sext(a, bits);
		return store_int((int64_t)r < 0 ? -r : r, in->type);
	case SUB_NEG:
		return store_int(-a, in->type);
	case SUB_MIN: case SUB_MAX:
		return store_int(minmax(in, a, b, bits, sgn), in->type);
	case SUB_SHL: case SUB_SHR:
		return store_int(shift(in, a, b, bits), in->type);
	case SUB_AND: case SUB_OR: case SUB_XOR: case SUB_NOT: case SUB_CNOT:
		return bitop(in, a, b, bits);
	case SUB_SAD: {
		uint64_t x = sgn ? sext(a, bits) : zext(a, bits);
		uint64_t y = sgn ? sext(b, bits) : zext(b, bits);
		bool lt = sgn ? (int64_t)x < (int64_t)y : x < y;

		return store_int((lt ? y - x : x - y) + c, in->type);
	}
	default:
		return ialu_bits(in, a, b, c, d, bits);
	}
}

/* ---- floating point ---- */

float simt_u2f(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

uint64_t simt_f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

double simt_u2d(uint64_t v)
{
	double d;

	memcpy(&d, &v, 8);
	return d;
}

uint64_t simt_d2u(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

static float fminmax32(float a, float b, bool max, bool nan)
{
	if (isnan(a) || isnan(b)) {
		if (nan || (isnan(a) && isnan(b)))
			return simt_u2f(0x7fffffffu);
		return isnan(a) ? b : a;
	}
	if (a == b && a == 0) {
		bool na = signbit(a), nb = signbit(b);

		return max ? (na && nb ? a : (na ? b : a)) : (na ? a : b);
	}
	return max ? (a > b ? a : b) : (a < b ? a : b);
}

static double fminmax64(double a, double b, bool max, bool nan)
{
	if (isnan(a) || isnan(b)) {
		if (nan || (isnan(a) && isnan(b)))
			return simt_u2d(0x7fffffffffffffffull);
		return isnan(a) ? b : a;
	}
	if (a == b && a == 0) {
		bool na = signbit(a), nb = signbit(b);

		return max ? (na && nb ? a : (na ? b : a)) : (na ? a : b);
	}
	return max ? (a > b ? a : b) : (a < b ? a : b);
}

static float sat01(float x)
{
	if (isnan(x))
		return 0.0f;
	return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

/* One f32 operation; rounding modes are set by the caller. */
static float f32_op(const struct simt_insn *in, float a, float b, float c)
{
	bool ftz = in->flags & F_FTZ;
	float r;

	if (ftz) {
		a = simt_ftz32(a);
		b = simt_ftz32(b);
		c = simt_ftz32(c);
	}
	switch (in->sub) {
	case SUB_ADD: r = a + b; break;
	case SUB_SUB: r = a - b; break;
	case SUB_MUL: r = a * b; break;
	case SUB_FMA: case SUB_MAD: r = fmaf(a, b, c); break;
	case SUB_DIV: r = a / b; break;
	case SUB_RCP: r = 1.0f / a; break;
	case SUB_SQRT: r = sqrtf(a); break;
	case SUB_RSQRT: r = 1.0f / sqrtf(a); break;
	case SUB_SIN: r = sinf(a); break;
	case SUB_COS: r = cosf(a); break;
	case SUB_LG2: r = log2f(a); break;
	case SUB_EX2: r = exp2f(a); break;
	case SUB_TANH: r = tanhf(a); break;
	case SUB_COPYSIGN: r = copysignf(b, a); break;
	case SUB_FMIN: case SUB_FMAX:
		r = fminmax32(a, b, in->sub == SUB_FMAX, in->flags & F_NAN);
		if (in->sub2 == 1 && !(r >= 0.0f) && !isnan(r))
			r = 0.0f;
		break;
	case SUB_ABS: return simt_u2f(simt_f2u(ftz ? simt_ftz32(a) : a) & 0x7fffffffu);
	case SUB_NEG: return simt_u2f(simt_f2u(ftz ? simt_ftz32(a) : a) ^ 0x80000000u);
	default: r = 0; break;
	}
	if (in->sub == SUB_FMA && in->sub2 == 1 && !(r >= 0.0f))
		r = 0.0f;
	if (in->flags & F_SAT)
		r = sat01(r);
	if (ftz)
		r = simt_ftz32(r);
	return r;
}

static double f64_op(const struct simt_insn *in, double a, double b, double c)
{
	switch (in->sub) {
	case SUB_ADD: return a + b;
	case SUB_SUB: return a - b;
	case SUB_MUL: return a * b;
	case SUB_FMA: case SUB_MAD: return fma(a, b, c);
	case SUB_DIV: return a / b;
	case SUB_RCP: return 1.0 / a;
	case SUB_SQRT: return sqrt(a);
	case SUB_RSQRT: return 1.0 / sqrt(a);
	case SUB_SIN: return sin(a);
	case SUB_COS: return cos(a);
	case SUB_LG2: return log2(a);
	case SUB_EX2: return exp2(a);
	case SUB_TANH: return tanh(a);
	case SUB_COPYSIGN: return copysign(b, a);
	case SUB_FMIN: case SUB_FMAX:
		return fminmax64(a, b, in->sub == SUB_FMAX, in->flags & F_NAN);
	case SUB_ABS: return simt_u2d(simt_d2u(a) & 0x7fffffffffffffffull);
	case SUB_NEG: return simt_u2d(simt_d2u(a) ^ 0x8000000000000000ull);
	default: return 0;
	}
}

/* A 16-bit float operation computed exactly enough in double and rounded
 * once to the format. */
static uint16_t f16_op(const struct simt_insn *in, uint16_t a, uint16_t b,
		       uint16_t c, bool bf)
{
	double x = bf ? simt_bf2f(a) : simt_h2f(a);
	double y = bf ? simt_bf2f(b) : simt_h2f(b);
	double z = bf ? simt_bf2f(c) : simt_h2f(c);
	int rnd = in->rnd == RND_NONE ? RND_RN : in->rnd;
	double r;

	switch (in->sub) {
	case SUB_ADD: r = x + y; break;
	case SUB_SUB: r = x - y; break;
	case SUB_MUL: r = x * y; break;
	case SUB_FMA: case SUB_MAD: r = fma(x, y, z); break;
	case SUB_DIV: r = x / y; break;
	case SUB_RCP: r = 1.0 / x; break;
	case SUB_SQRT: r = sqrt(x); break;
	case SUB_RSQRT: r = 1.0 / sqrt(x); break;
	case SUB_SIN: r = sin(x); break;
	case SUB_COS: r = cos(x); break;
	case SUB_LG2: r = log2(x); break;
	case SUB_EX2: r = exp2(x); break;
	case SUB_TANH: r = tanh(x); break;
	case SUB_COPYSIGN: r = copysign(y, x); break;
	case SUB_FMIN: case SUB_FMAX:
		r = fminmax64(x, y, in->sub == SUB_FMAX, in->flags & F_NAN);
		if (in->sub2 == 1 && !(r >= 0))
			r = 0;
		if (isnan(r))
			return 0x7fff;
		break;
	case SUB_ABS: return a & 0x7fff;
	case SUB_NEG: return a ^ 0x8000;
	default: r = 0; break;
	}
	if (in->sub == SUB_FMA && in->sub2 == 1 && !(r >= 0))
		r = 0;
	if (in->flags & F_SAT)
		r = isnan(r) ? 0 : r < 0 ? 0 : r > 1 ? 1 : r;
	return bf ? simt_f2bf(r, rnd) : simt_f2h(r, rnd);
}

uint64_t simt_falu(const struct simt_insn *in, uint64_t a, uint64_t b,
		   uint64_t c)
{
	switch (in->type) {
	case ST_F32:
		return simt_f2u(f32_op(in, simt_u2f(a), simt_u2f(b), simt_u2f(c)));
	case ST_F64:
		return simt_d2u(f64_op(in, simt_u2d(a), simt_u2d(b), simt_u2d(c)));
	case ST_F16: case ST_BF16:
		return f16_op(in, (uint16_t)a, (uint16_t)b, (uint16_t)c,
			      in->type == ST_BF16);
	case ST_F16X2: case ST_BF16X2: {
		bool bf = in->type == ST_BF16X2;
		uint16_t lo = f16_op(in, (uint16_t)a, (uint16_t)b, (uint16_t)c, bf);
		uint16_t hi = f16_op(in, (uint16_t)(a >> 16), (uint16_t)(b >> 16),
				     (uint16_t)(c >> 16), bf);

		return (uint64_t)lo | (uint64_t)hi << 16;
	}
	default:
		return 0;
	}
}

/* ---- conversions ---- */

static bool is_int(int t)
{
	return !simt_type_float(t) && t != ST_PRED && t != ST_NONE;
}

static double read_float(uint64_t v, int t)
{
	switch (t) {
	case ST_F16: return simt_h2f((uint16_t)v);
	case ST_BF16: return simt_bf2f((uint16_t)v);
	case ST_F32: return simt_u2f(v);
	default: return simt_u2d(v);
	}
}

static double round_int(double x, int rnd)
{
	switch (rnd) {
	case RND_RZI: return trunc(x);
	case RND_RMI: return floor(x);
	case RND_RPI: return ceil(x);
	case RND_RNI: return nearbyint(x);
	default: return x;
	}
}

/* Float to integer: rounded as asked, clamped to the type, NaN -> 0. */
static uint64_t float_to_int(double x, int rnd, int dt)
{
	int bits = simt_type_size(dt) * 8;

	if (isnan(x))
		return 0;
	if (rnd == RND_NONE || rnd == RND_RN)
		rnd = RND_RNI;
	x = round_int(x, rnd);
	if (simt_type_signed(dt)) {
		double lo = -ldexp(1.0, bits - 1), hi = ldexp(1.0, bits - 1);

		if (x <= lo)
			return store_int((uint64_t)1 << (bits - 1), dt);
		if (x >= hi)
			return zext(((uint64_t)1 << (bits - 1)) - 1, bits);
		return store_int((uint64_t)(int64_t)x, dt);
	}
	if (x <= 0)
		return 0;
	if (x >= ldexp(1.0, bits))
		return zext(~0ull, bits);
	return (uint64_t)x;
}

static uint64_t int_to_int(uint64_t v, int st, int dt, bool sat)
{
	int dbits = simt_type_size(dt) * 8;
	uint64_t x = simt_read_int(v, st);

	if (sat) {
		bool ssrc = simt_type_signed(st), sdst = simt_type_signed(dt);

		if (ssrc && sdst) {
			int64_t lo = dbits == 64 ? INT64_MIN : -(1ll << (dbits - 1));
			int64_t hi = dbits == 64 ? INT64_MAX : (1ll << (dbits - 1)) - 1;
			int64_t s = (int64_t)x;

			x = (uint64_t)(s < lo ? lo : s > hi ? hi : s);
		} else if (ssrc) {
			int64_t s = (int64_t)x;
			uint64_t hi = dbits == 64 ? ~0ull : (1ull << dbits) - 1;

			x = s < 0 ? 0 : (uint64_t)s > hi ? hi : (uint64_t)s;
		} else {
			uint64_t hi = sdst ? (dbits == 64 ? (uint64_t)INT64_MAX
							  : (1ull << (dbits - 1)) - 1)
					   : (dbits == 64 ? ~0ull : (1ull << dbits) - 1);

			x = x > hi ? hi : x;
		}
	}
	return store_int(x, dt);
}

static uint64_t to_float(double x, int dt, int rnd, bool ftz, bool sat)
{
	if (rnd == RND_NONE)
		rnd = RND_RN;
	if (sat)
		x = isnan(x) ? 0 : x < 0 ? 0 : x > 1 ? 1 : x;
	switch (dt) {
	case ST_F16: return simt_f2h(x, rnd);
	case ST_BF16: return simt_f2bf(x, rnd);
	case ST_F32: {
		/* The FPU rounds to nearest; other modes in software. */
		float f = rnd == RND_RN || (rnd >= RND_RNI && rnd <= RND_RPI) ? (float)x
							  : simt_round_f32(x, rnd);

		return simt_f2u(ftz ? simt_ftz32(f) : f);
	}
	default:
		return simt_d2u(x);
	}
}

/* Integer to float through the FPU in the requested rounding mode, so
 * 64-bit integers round once. */
static uint64_t int_to_float(uint64_t v, int st, int dt, int rnd, bool sat)
{
	uint64_t x = simt_read_int(v, st);
	bool sgn = simt_type_signed(st);
	uint64_t r;

	if (dt == ST_F16 || dt == ST_BF16) {
		double d = sgn ? (double)(int64_t)x : (double)x;

		return to_float(d, dt, rnd, false, sat);
	}
	if (simt_rnd_directed(rnd))
		simt_rnd_enter(rnd);
	if (dt == ST_F32) {
		volatile float f = sgn ? (float)(int64_t)x : (float)x;

		r = simt_f2u(sat ? sat01(f) : f);
	} else {
		volatile double d = sgn ? (double)(int64_t)x : (double)x;

		r = simt_d2u(sat ? (isnan(d) ? 0 : d < 0 ? 0 : d > 1 ? 1 : d) : d);
	}
	if (simt_rnd_directed(rnd))
		simt_rnd_leave();
	return r;
}

uint64_t simt_cvt(const struct simt_insn *in, uint64_t a, uint64_t b)
{
	int dt = in->type, st = in->type2, rnd = in->rnd;
	bool sat = in->flags & F_SAT, ftz = in->flags & F_FTZ;
	double x;

	if (dt == ST_F16X2 || dt == ST_BF16X2) {
		uint64_t hi = to_float(simt_u2f(a), dt == ST_F16X2 ? ST_F16 : ST_BF16,
				       rnd, false, sat);
		uint64_t lo = to_float(simt_u2f(b), dt == ST_F16X2 ? ST_F16 : ST_BF16,
				       rnd, false, sat);

		return lo | hi << 16;
	}
	if (is_int(st) && is_int(dt))
		return int_to_int(a, st, dt, sat);
	if (is_int(st))
		return int_to_float(a, st, dt, rnd, sat);
	x = read_float(a, st);
	if (ftz && st == ST_F32)
		x = simt_ftz32((float)x);
	if (is_int(dt))
		return float_to_int(x, rnd, dt);
	if (rnd >= RND_RNI && rnd <= RND_RPI)
		x = round_int(x, rnd);
	return to_float(x, dt, rnd, ftz, sat);
}

/* ---- comparisons ---- */

bool simt_compare(int type, int cmp, uint64_t a, uint64_t b, bool ftz)
{
	if (simt_type_float(type)) {
		double x = read_float(a, type), y = read_float(b, type);
		bool un;

		if (ftz && type == ST_F32) {
			x = simt_ftz32((float)x);
			y = simt_ftz32((float)y);
		}
		un = isnan(x) || isnan(y);
		switch (cmp) {
		case CMP_EQ: return !un && x == y;
		case CMP_NE: return !un && x != y;
		case CMP_LT: case CMP_LO: return !un && x < y;
		case CMP_LE: case CMP_LS: return !un && x <= y;
		case CMP_GT: case CMP_HI: return !un && x > y;
		case CMP_GE: case CMP_HS: return !un && x >= y;
		case CMP_EQU: return un || x == y;
		case CMP_NEU: return un || x != y;
		case CMP_LTU: return un || x < y;
		case CMP_LEU: return un || x <= y;
		case CMP_GTU: return un || x > y;
		case CMP_GEU: return un || x >= y;
		case CMP_NUM: return !un;
		default: return un;
		}
	}
	if (simt_type_signed(type)) {
		int64_t x = (int64_t)simt_read_int(a, type);
		int64_t y = (int64_t)simt_read_int(b, type);

		switch (cmp) {
		case CMP_EQ: return x == y;
		case CMP_NE: return x != y;
		case CMP_LT: case CMP_LO: return x < y;
		case CMP_LE: case CMP_LS: return x <= y;
		case CMP_GT: case CMP_HI: return x > y;
		default: return x >= y;
		}
	}
	a = simt_read_int(a, type);
	b = simt_read_int(b, type);
	switch (cmp) {
	case CMP_EQ: return a == b;
	case CMP_NE: return a != b;
	case CMP_LT: case CMP_LO: return a < b;
	case CMP_LE: case CMP_LS: return a <= b;
	case CMP_GT: case CMP_HI: return a > b;
	default: return a >= b;
	}
}

bool simt_testp(int sub, int type, uint64_t a)
{
	double x = read_float(a, type);

	switch (sub) {
	case SUB_FINITE: return isfinite(x);
	case SUB_INFINITE: return isinf(x);
	case SUB_NUMBER: return !isnan(x);
	case SUB_NOTANUMBER: return isnan(x);
	case SUB_NORMAL:
		return type == ST_F32 ? fpclassify((float)x) == FP_NORMAL
				      : fpclassify(x) == FP_NORMAL;
	default:
		return type == ST_F32 ? fpclassify((float)x) == FP_SUBNORMAL
				      : fpclassify(x) == FP_SUBNORMAL;
	}
}
