/* Conversions between the floating-point formats PTX uses, with each of
 * its rounding modes.  A double holds every f16, bf16 and f32 value
 * exactly, so narrowing goes through one correctly rounded step from the
 * exact value. */
#include "base/base.h"

#include <math.h>
#include <string.h>

/* Rounds |x| (finite, > 0) to a binary format with `mant` fraction bits and
 * exponents [emin, emax]; returns the bit pattern without sign, or the
 * infinity/max-finite pattern on overflow as the mode dictates. */
static uint64_t round_format(double a, bool neg, int mant, int emin, int emax,
			     int rnd)
{
	int e, ebits = 0;
	double q;
	uint64_t iq, maxfin, inf;

	for (e = emax - emin + 1; e > 0; e >>= 1)
		ebits++;
	inf = ((uint64_t)((1u << ebits) - 1)) << mant;
	maxfin = inf - 1;
	frexp(a, &e);
	e -= 1;                     /* a = 1.f * 2^e */
	if (e < emin)
		e = emin;
	q = ldexp(a, mant - e);     /* significand scaled to an integer */
	switch (rnd) {
	case RND_RZ: case RND_RZI:
		q = trunc(q);
		break;
	case RND_RM: case RND_RMI:
		q = neg ? ceil(q) : floor(q);
		break;
	case RND_RP: case RND_RPI:
		q = neg ? floor(q) : ceil(q);
		break;
	case RND_RNA:
		q = round(q);
		break;
	default:
		q = nearbyint(q);
		break;
	}
	iq = (uint64_t)q;
	if (iq >= (2ull << mant)) {
		iq >>= 1;
		e++;
	}
	if (e > emax) {
		bool to_inf = rnd == RND_RN || rnd == RND_NONE || rnd == RND_RNA ||
			      (rnd == RND_RP && !neg) || (rnd == RND_RM && neg);

		return to_inf ? inf : maxfin;
	}
	if (iq < (1ull << mant))
		return iq;          /* subnormal (or zero) */
	return ((uint64_t)(e - emin + 1) << mant) | (iq - (1ull << mant));
}

static uint64_t to_format(double x, int mant, int emin, int emax, int rnd,
			  uint64_t nan, int width)
{
	uint64_t sign = 1ull << (width - 1), inf;
	int ebits = width - 1 - mant;
	bool neg = signbit(x);

	inf = ((1ull << ebits) - 1) << mant;
	if (isnan(x))
		return nan;
	if (isinf(x))
		return (neg ? sign : 0) | inf;
	if (x == 0)
		return neg ? sign : 0;
	return (neg ? sign : 0) | round_format(fabs(x), neg, mant, emin, emax, rnd);
}

uint16_t simt_f2h(double x, int rnd)
{
	return (uint16_t)to_format(x, 10, -14, 15, rnd, 0x7fff, 16);
}

uint16_t simt_f2bf(double x, int rnd)
{
	return (uint16_t)to_format(x, 7, -126, 127, rnd, 0x7fff, 16);
}

float simt_round_f32(double x, int rnd)
{
	uint32_t u = (uint32_t)to_format(x, 23, -126, 127, rnd, 0x7fffffff, 32);
	float f;

	memcpy(&f, &u, 4);
	return f;
}

float simt_h2f(uint16_t h)
{
	uint32_t sign = (uint32_t)(h >> 15) << 31;
	uint32_t exp = (h >> 10) & 0x1f, man = h & 0x3ff, u;
	float f;

	if (exp == 0x1f) {
		u = sign | 0x7f800000u | (man << 13);
	} else if (exp == 0) {
		f = ldexpf((float)man, -24);
		return sign ? -f : f;
	} else {
		u = sign | ((exp + 112) << 23) | (man << 13);
	}
	memcpy(&f, &u, 4);
	return f;
}

float simt_bf2f(uint16_t h)
{
	uint32_t u = (uint32_t)h << 16;
	float f;

	memcpy(&f, &u, 4);
	return f;
}
