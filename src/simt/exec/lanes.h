/* What the interpreter's lane loops share (exec.c, typed.c): operand rows,
 * the loop over a group's lanes, bit casts between register rows and
 * floating-point values, and comparisons of whole rows by type. */
#ifndef SIMT_LANES_H
#define SIMT_LANES_H

#include "exec/alu.h"

#include <string.h>

/* Functions whose lane loops are worth a second, AVX2 build on x86-64
 * (chosen at load time by the CPU); elsewhere a plain function. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SIMT_LANE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SIMT_LANE_CLONES
#endif

/* Whether the 32 lanes of row A lie in a line: all equal (*step 0) or
 * rising by `n` from lane to lane (*step n).  One comparison per lane,
 * which vectorises. */
static inline bool lanes_in_line(const uint64_t *A, uint64_t n,
				 uint64_t *step)
{
	uint64_t d = A[1] - A[0], dev = 0, e = A[0];

	if (d != 0 && d != n)
		return false;
	for (unsigned l = 0; l < 32; l++, e += d)
		dev |= A[l] ^ e;
	*step = d;
	return !dev;
}

/* The 32 lanes' pointers of a warp in a line from lane 0's (step 0: all
 * at one place; otherwise rising by step). */
static inline void line_ptrs(uint8_t **pt, uint64_t step)
{
	for (unsigned l = 1; l < 32; l++)
		pt[l] = pt[0] + l * step;
}

/* Row D from a whole warp's 4-byte loads in a line from p (step 0: one
 * word for every lane; 4: a rising run), zero-extended. */
static inline void load_line32(uint64_t *restrict D, const uint8_t *p,
			       uint64_t step)
{
	uint32_t v;

	if (step) {
		for (unsigned l = 0; l < 32; l++) {
			memcpy(&v, p + 4 * l, 4);
			D[l] = v;
		}
	} else {
		memcpy(&v, p, 4);
		for (unsigned l = 0; l < 32; l++)
			D[l] = v;
	}
}

/* The row of operand o: 32 lanes of 64 bits. */
#define R(o) (bases[(o).kind] + (size_t)(o).idx * 32)

/* Runs `body` for every lane l set in `mask`. */
#define FOR_LANES(mask, ...) \
	do { \
		uint32_t mm_ = (mask); \
		if (mm_ == SIMT_FULL) { \
			for (unsigned l = 0; l < 32; l++) { \
				__VA_ARGS__; \
			} \
		} else { \
			while (mm_) { \
				unsigned l = (unsigned)__builtin_ctz(mm_); \
				mm_ &= mm_ - 1; \
				__VA_ARGS__; \
			} \
		} \
	} while (0)

/* Bit count without a library call on CPUs built for without POPCNT. */
static inline uint32_t popc(uint32_t m)
{
	m = m - ((m >> 1) & 0x55555555u);
	m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
	m = (m + (m >> 4)) & 0x0f0f0f0fu;
	return (m * 0x01010101u) >> 24;
}

/* Lane mask of a predicate operand, honouring '!'. */
static inline uint32_t pred_of(uint64_t *const *bases, struct simt_opnd o)
{
	uint32_t p = (uint32_t)R(o)[0];

	return o.neg ? ~p : p;
}

static inline void pred_set(uint64_t *const *bases, struct simt_opnd o,
			    uint32_t bits, uint32_t lanes)
{
	uint64_t *row = R(o);

	row[0] = ((uint32_t)row[0] & ~lanes) | (bits & lanes);
}

static inline float u2f(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static inline uint64_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static inline double u2d(uint64_t v)
{
	double d;

	memcpy(&d, &v, 8);
	return d;
}

static inline uint64_t d2u(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

static inline uint64_t sext_to(uint64_t v, int bits)
{
	if (bits >= 64)
		return v;
	v &= (1ull << bits) - 1;
	return (v ^ (1ull << (bits - 1))) - (1ull << (bits - 1));
}

/* flush-to-zero of an f32 held in a register: a subnormal becomes a zero
 * of its sign (as simt_ftz32, without the library call). */
static inline uint32_t ftz32_bits(uint64_t v)
{
	uint32_t u = (uint32_t)v;

	return (u & 0x7f800000u) ? u : u & 0x80000000u;
}

/* Lane bits of an integer comparison of rows A and Bv as type T (the
 * unsigned operators lo/ls/hi/hs compare as the type says, as
 * simt_compare does); `bits`, `ex` and `in` come from the caller. */
#define CMP_INT(T) \
	do { \
		switch (in->sub) { \
		case CMP_EQ: FOR_LANES(ex, bits |= (uint32_t)((T)A[l] == (T)Bv[l]) << l); break; \
		case CMP_NE: FOR_LANES(ex, bits |= (uint32_t)((T)A[l] != (T)Bv[l]) << l); break; \
		case CMP_LT: case CMP_LO: FOR_LANES(ex, bits |= (uint32_t)((T)A[l] < (T)Bv[l]) << l); break; \
		case CMP_LE: case CMP_LS: FOR_LANES(ex, bits |= (uint32_t)((T)A[l] <= (T)Bv[l]) << l); break; \
		case CMP_GT: case CMP_HI: FOR_LANES(ex, bits |= (uint32_t)((T)A[l] > (T)Bv[l]) << l); break; \
		default: FOR_LANES(ex, bits |= (uint32_t)((T)A[l] >= (T)Bv[l]) << l); break; \
		} \
	} while (0)

/* The same for floats read by CONV; the operators without a direct C
 * form go through simt_compare, flushing subnormals when FTZ. */
#define CMP_FLT(CONV, FTZ) \
	do { \
		switch (in->sub) { \
		case CMP_EQ: FOR_LANES(ex, bits |= (uint32_t)(CONV(A[l]) == CONV(Bv[l])) << l); break; \
		case CMP_NE: FOR_LANES(ex, { __typeof__(CONV(A[l])) a = CONV(A[l]), b = CONV(Bv[l]); \
			bits |= (uint32_t)(a == a && b == b && a != b) << l; }); break; \
		case CMP_LT: FOR_LANES(ex, bits |= (uint32_t)(CONV(A[l]) < CONV(Bv[l])) << l); break; \
		case CMP_LE: FOR_LANES(ex, bits |= (uint32_t)(CONV(A[l]) <= CONV(Bv[l])) << l); break; \
		case CMP_GT: FOR_LANES(ex, bits |= (uint32_t)(CONV(A[l]) > CONV(Bv[l])) << l); break; \
		case CMP_GE: FOR_LANES(ex, bits |= (uint32_t)(CONV(A[l]) >= CONV(Bv[l])) << l); break; \
		case CMP_NEU: FOR_LANES(ex, bits |= (uint32_t)!(CONV(A[l]) == CONV(Bv[l])) << l); break; \
		case CMP_LTU: FOR_LANES(ex, bits |= (uint32_t)!(CONV(A[l]) >= CONV(Bv[l])) << l); break; \
		case CMP_LEU: FOR_LANES(ex, bits |= (uint32_t)!(CONV(A[l]) > CONV(Bv[l])) << l); break; \
		case CMP_GTU: FOR_LANES(ex, bits |= (uint32_t)!(CONV(A[l]) <= CONV(Bv[l])) << l); break; \
		case CMP_GEU: FOR_LANES(ex, bits |= (uint32_t)!(CONV(A[l]) < CONV(Bv[l])) << l); break; \
		default: FOR_LANES(ex, bits |= (uint32_t)simt_compare(in->type, in->sub, A[l], Bv[l], FTZ) << l); break; \
		} \
	} while (0)

#endif
