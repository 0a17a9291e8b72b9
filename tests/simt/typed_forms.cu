// The typed forms simt gives its commonest conversions, integer operations
// and comparisons, written as inline PTX so that each form is the one
// tested: cvt between integers and floats (NaN, infinities, values beyond
// the integer type, ties, every integer rounding mode, .ftz on subnormals),
// between float widths and to and from f16, integer widening and
// narrowing; setp/set/selp with signed and unsigned edge values, NaN and
// .ftz; mul.hi, div, rem, abs, neg, min/max, popc, clz, brev, shf, bfe,
// prmt, and shifts by amounts at and beyond the width ("negative" amounts
// read as unsigned).  Every expected value is computed on the host with
// integer arithmetic and plain C, or written out by hand.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include "check.h"

typedef unsigned long long u64;
typedef long long s64;

enum { N = 48, K = 96 };

__host__ __device__ unsigned divisor32(unsigned b)
{
    return (b | 1) == 0xffffffffu ? 3u : b | 1;
}

__host__ __device__ u64 divisor64(u64 b)
{
    return (b | 1) == ~0ull ? 3ull : b | 1;
}

__device__ unsigned f2i(float x, int k)
{
    unsigned r;
    switch (k) {
    case 0: asm("cvt.rni.s32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    case 1: asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    case 2: asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    case 3: asm("cvt.rpi.s32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    case 4: asm("cvt.rni.u32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    case 5: asm("cvt.rzi.u32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    case 6: asm("cvt.rmi.u32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    case 7: asm("cvt.rpi.u32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    case 8: asm("cvt.rpi.ftz.s32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    default: asm("cvt.rmi.ftz.s32.f32 %0, %1;" : "=r"(r) : "f"(x)); break;
    }
    return r;
}

__device__ unsigned d2i(double x, int k)
{
    unsigned r;
    switch (k) {
    case 0: asm("cvt.rni.s32.f64 %0, %1;" : "=r"(r) : "d"(x)); break;
    case 1: asm("cvt.rzi.s32.f64 %0, %1;" : "=r"(r) : "d"(x)); break;
    case 2: asm("cvt.rmi.u32.f64 %0, %1;" : "=r"(r) : "d"(x)); break;
    default: asm("cvt.rpi.u32.f64 %0, %1;" : "=r"(r) : "d"(x)); break;
    }
    return r;
}

__device__ float fround(float x, int k)
{
    float r;
    switch (k) {
    case 0: asm("cvt.rni.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case 1: asm("cvt.rzi.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    case 2: asm("cvt.rmi.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    default: asm("cvt.rpi.f32.f32 %0, %1;" : "=f"(r) : "f"(x)); break;
    }
    return r;
}

// Conversions of one input: integer bits ia (as u32, s32, u64, s64), float
// bits fa (as f32) and double da.
__global__ void conversions(const u64 *ia, const unsigned *fa, const double *da, u64 *out)
{
    int t = threadIdx.x;
    u64 v = ia[t], *o = out + t * K;
    unsigned u = (unsigned)v, w;
    float f = __uint_as_float(fa[t]), g;
    double d = da[t], e;
    unsigned short h;
    int k = 0;

    asm("cvt.rn.f32.u32 %0, %1;" : "=f"(g) : "r"(u)); o[k++] = __float_as_uint(g);
    asm("cvt.rn.f32.s32 %0, %1;" : "=f"(g) : "r"(u)); o[k++] = __float_as_uint(g);
    asm("cvt.rn.f32.u64 %0, %1;" : "=f"(g) : "l"(v)); o[k++] = __float_as_uint(g);
    asm("cvt.rn.f32.s64 %0, %1;" : "=f"(g) : "l"(v)); o[k++] = __float_as_uint(g);
    asm("cvt.rn.f64.u32 %0, %1;" : "=d"(e) : "r"(u)); o[k++] = __double_as_longlong(e);
    asm("cvt.rz.f64.s32 %0, %1;" : "=d"(e) : "r"(u)); o[k++] = __double_as_longlong(e);
    asm("cvt.rn.f64.u64 %0, %1;" : "=d"(e) : "l"(v)); o[k++] = __double_as_longlong(e);
    asm("cvt.rn.f64.s64 %0, %1;" : "=d"(e) : "l"(v)); o[k++] = __double_as_longlong(e);
    for (int m = 0; m < 10; m++)
        o[k++] = f2i(f, m);
    for (int m = 0; m < 4; m++)
        o[k++] = d2i(d, m);
    for (int m = 0; m < 4; m++)
        o[k++] = __float_as_uint(fround(f, m));
    asm("cvt.rmi.ftz.f32.f32 %0, %1;" : "=f"(g) : "f"(f)); o[k++] = __float_as_uint(g);
    asm("cvt.rpi.f64.f64 %0, %1;" : "=d"(e) : "d"(d)); o[k++] = __double_as_longlong(e);
    asm("cvt.rn.f32.f64 %0, %1;" : "=f"(g) : "d"(d)); o[k++] = __float_as_uint(g);
    asm("cvt.rn.ftz.f32.f64 %0, %1;" : "=f"(g) : "d"(d)); o[k++] = __float_as_uint(g);
    asm("cvt.f64.f32 %0, %1;" : "=d"(e) : "f"(f)); o[k++] = __double_as_longlong(e);
    asm("cvt.ftz.f64.f32 %0, %1;" : "=d"(e) : "f"(f)); o[k++] = __double_as_longlong(e);
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); o[k++] = h;
    asm("cvt.f32.f16 %0, %1;" : "=f"(g) : "h"((unsigned short)u)); o[k++] = __float_as_uint(g);
    asm("cvt.s32.s8 %0, %1;" : "=r"(w) : "r"(u)); o[k++] = w;
    asm("cvt.u32.u8 %0, %1;" : "=r"(w) : "r"(u)); o[k++] = w;
    asm("cvt.s32.s16 %0, %1;" : "=r"(w) : "r"(u)); o[k++] = w;
    asm("cvt.u32.u16 %0, %1;" : "=r"(w) : "r"(u)); o[k++] = w;
    asm("cvt.u16.u32 %0, %1;" : "=h"(h) : "r"(u)); o[k++] = h;
    asm("{ .reg .u16 t; cvt.u16.u32 t, %1; cvt.s64.s16 %0, t; }" : "=l"(v) : "r"(u));
    o[k++] = v;
    asm("{ .reg .u16 t; cvt.u16.u32 t, %1; cvt.u64.u16 %0, t; }" : "=l"(v) : "r"(u));
    o[k++] = v;
}

// Comparisons and integer operations of one input triple.
__global__ void integers(const u64 *ia, const u64 *ib, const unsigned *ic, const unsigned *fa,
                         const unsigned *fb, u64 *out)
{
    int t = threadIdx.x;
    u64 a = ia[t], b = ib[t], r64, *o = out + t * K;
    unsigned a32 = (unsigned)a, b32 = (unsigned)b, c = ic[t], r;
    float x = __uint_as_float(fa[t]), y = __uint_as_float(fb[t]), fr;
    unsigned short ha = (unsigned short)a, hb = (unsigned short)b;
    int k = 0;

#define SETP(cmp)                                                                              \
    asm("{ .reg .pred p; setp." cmp " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r)           \
        : "r"(a32), "r"(b32));                                                                 \
    o[k++] = r
#define SETP64(cmp)                                                                            \
    asm("{ .reg .pred p; setp." cmp " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r)           \
        : "l"(a), "l"(b));                                                                     \
    o[k++] = r
#define SETPF(cmp)                                                                             \
    asm("{ .reg .pred p; setp." cmp " p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r)           \
        : "f"(x), "f"(y));                                                                     \
    o[k++] = r
    SETP("lt.s32"); SETP("lo.u32"); SETP("ge.s32"); SETP("hs.u32"); SETP("ne.b32");
    SETP64("lt.s64"); SETP64("hi.u64"); SETP64("le.s64");
    asm("{ .reg .pred p; setp.lt.s16 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r)
        : "h"(ha), "h"(hb));
    o[k++] = r;
    asm("{ .reg .pred p; setp.lo.u16 p, %1, %2; selp.u32 %0, 1, 0, p; }" : "=r"(r)
        : "h"(ha), "h"(hb));
    o[k++] = r;
    SETPF("lt.f32"); SETPF("lt.ftz.f32"); SETPF("eq.ftz.f32"); SETPF("ne.f32");
    SETPF("neu.f32"); SETPF("equ.f32"); SETPF("num.f32"); SETPF("nan.f32");
    SETPF("geu.ftz.f32"); SETPF("le.f32");
    asm("{ .reg .pred c, p, q; setp.ne.u32 c, %3, 0; setp.lt.and.s32 p|q, %1, %2, c;"
        " selp.u32 %0, 2, 0, p; @q add.u32 %0, %0, 1; }" : "=r"(r) : "r"(a32), "r"(b32), "r"(c & 1));
    o[k++] = r;
    asm("{ .reg .pred c, p, q; setp.ne.u32 c, %3, 0; setp.lt.or.s32 p|q, %1, %2, !c;"
        " selp.u32 %0, 2, 0, p; @q add.u32 %0, %0, 1; }" : "=r"(r) : "r"(a32), "r"(b32), "r"(c & 1));
    o[k++] = r;
    asm("set.gt.u32.s32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(b32)); o[k++] = r;
    asm("set.lo.u32.u32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(b32)); o[k++] = r;
    asm("set.lt.ftz.f32.f32 %0, %1, %2;" : "=f"(fr) : "f"(x), "f"(y)); o[k++] = __float_as_uint(fr);
    asm("set.nan.u32.f32 %0, %1, %2;" : "=r"(r) : "f"(x), "f"(y)); o[k++] = r;
    asm("mul.hi.u32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(b32)); o[k++] = r;
    asm("mul.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(b32)); o[k++] = r;
    asm("mul.hi.u64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(b)); o[k++] = r64;
    asm("mul.hi.s64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(b)); o[k++] = r64;
    // division by zero and of the most negative value by -1 are
    // machine-specific: the divisors are odd and never -1
    unsigned d32 = divisor32(b32);
    u64 d64 = divisor64(b);
    asm("div.u32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(d32)); o[k++] = r;
    asm("rem.u32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(d32)); o[k++] = r;
    asm("div.s32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(d32)); o[k++] = r;
    asm("rem.s32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(d32)); o[k++] = r;
    asm("div.u64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(d64)); o[k++] = r64;
    asm("rem.u64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(d64)); o[k++] = r64;
    asm("div.s64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(d64)); o[k++] = r64;
    asm("rem.s64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(d64)); o[k++] = r64;
    asm("neg.s32 %0, %1;" : "=r"(r) : "r"(a32)); o[k++] = r;
    asm("abs.s32 %0, %1;" : "=r"(r) : "r"(a32 == 0x80000000u ? 5u : a32)); o[k++] = r;
    asm("neg.s64 %0, %1;" : "=l"(r64) : "l"(a)); o[k++] = r64;
    asm("abs.s64 %0, %1;" : "=l"(r64) : "l"(a == 0x8000000000000000ull ? 5ull : a)); o[k++] = r64;
    asm("min.s64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(b)); o[k++] = r64;
    asm("max.s64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(b)); o[k++] = r64;
    asm("min.u64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(b)); o[k++] = r64;
    asm("max.u64 %0, %1, %2;" : "=l"(r64) : "l"(a), "l"(b)); o[k++] = r64;
    asm("popc.b32 %0, %1;" : "=r"(r) : "r"(a32)); o[k++] = r;
    asm("popc.b64 %0, %1;" : "=r"(r) : "l"(a)); o[k++] = r;
    asm("clz.b32 %0, %1;" : "=r"(r) : "r"(a32)); o[k++] = r;
    asm("clz.b64 %0, %1;" : "=r"(r) : "l"(a)); o[k++] = r;
    asm("brev.b32 %0, %1;" : "=r"(r) : "r"(a32)); o[k++] = r;
    asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(b32), "r"(c)); o[k++] = r;
    asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(b32), "r"(c)); o[k++] = r;
    asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(b32), "r"(c)); o[k++] = r;
    asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(b32), "r"(c)); o[k++] = r;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(c & 0xff), "r"((c >> 8) & 0xff)); o[k++] = r;
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(c & 0xff), "r"((c >> 8) & 0xff)); o[k++] = r;
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a32), "r"(b32), "r"(c)); o[k++] = r;
    asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(c)); o[k++] = r;
    asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(c)); o[k++] = r;
    asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(a32), "r"(c)); o[k++] = r;
    asm("shl.b64 %0, %1, %2;" : "=l"(r64) : "l"(a), "r"(c)); o[k++] = r64;
    asm("shr.s64 %0, %1, %2;" : "=l"(r64) : "l"(a), "r"(c)); o[k++] = r64;
}

// ---- host references ----

static unsigned fbits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
static float bitsf(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
static u64 dbits(double d) { u64 u; memcpy(&u, &d, 8); return u; }
static double bitsd(u64 u) { double d; memcpy(&d, &u, 8); return d; }
static bool subnormal(float f) { return fbits(f) << 1 && !(fbits(f) & 0x7f800000u); }
static float ftz(float f) { return subnormal(f) ? bitsf(fbits(f) & 0x80000000u) : f; }

// Rounds to an integer (0 even, 1 zero, 2 down, 3 up), NaN to 0, beyond
// the 32-bit type to its limits.
static unsigned to_int(double x, int mode, bool sgn)
{
    if (x != x)
        return 0;
    x = mode == 0 ? nearbyint(x) : mode == 1 ? trunc(x) : mode == 2 ? floor(x) : ceil(x);
    if (sgn)
        return x <= -2147483648.0 ? 0x80000000u : x >= 2147483647.0 ? 0x7fffffffu
                                                                     : (unsigned)(int)x;
    return x <= 0 ? 0 : x >= 4294967295.0 ? 0xffffffffu : (unsigned)x;
}

static u64 sext(u64 v, int bits) { return (u64)((s64)(v << (64 - bits)) >> (64 - bits)); }

// What a result slot holds: NaNs compare equal whatever their bits, since
// a GPU gives its canonical NaN where the host keeps the payload.
enum { INT, F32, F64, F16 };

static bool is_nan(u64 v, int kind)
{
    switch (kind) {
    case F32: return (v & 0x7fffffffu) > 0x7f800000u;
    case F64: return (v & ~(1ull << 63)) > 0x7ff0000000000000ull;
    case F16: return (v & 0x7fff) > 0x7c00;
    default: return false;
    }
}

static unsigned short f16_bits(float f)
{
    __half h = __float2half_rn(f);
    unsigned short u;
    memcpy(&u, &h, 2);
    return u;
}

static float f16_value(unsigned short u)
{
    __half h;
    memcpy(&h, &u, 2);
    return __half2float(h);
}

static void conversions_ref(u64 v, unsigned fb, double d, u64 *o, int *kind)
{
    unsigned u = (unsigned)v;
    float f = bitsf(fb);
    int k = 0;

    o[k++] = fbits((float)u);
    o[k++] = fbits((float)(int)u);
    o[k++] = fbits((float)v);
    o[k++] = fbits((float)(s64)v);
    o[k++] = dbits((double)u);
    o[k++] = dbits((double)(int)u);
    o[k++] = dbits((double)v);
    o[k++] = dbits((double)(s64)v);
    for (int m = 0; m < 4; m++)
        o[k++] = to_int(f, m, true);
    for (int m = 0; m < 4; m++)
        o[k++] = to_int(f, m, false);
    o[k++] = to_int(ftz(f), 3, true);
    o[k++] = to_int(ftz(f), 2, true);
    o[k++] = to_int(d, 0, true);
    o[k++] = to_int(d, 1, true);
    o[k++] = to_int(d, 2, false);
    o[k++] = to_int(d, 3, false);
    o[k++] = fbits(nearbyintf(f));
    o[k++] = fbits(truncf(f));
    o[k++] = fbits(floorf(f));
    o[k++] = fbits(ceilf(f));
    o[k++] = fbits(floorf(ftz(f)));
    o[k++] = dbits(ceil(d));
    o[k++] = fbits((float)d);
    o[k++] = fbits(ftz((float)d));
    o[k++] = dbits((double)f);
    o[k++] = dbits((double)ftz(f));
    o[k++] = f16_bits(f);
    o[k++] = fbits(f16_value((unsigned short)u));
    for (int j = 0; j < k; j++)
        kind[j] = j < 4 ? F32 : j < 8 ? F64 : j < 22 ? INT : j < 27 ? F32 : j == 27 ? F64
                : j < 30 ? F32 : j < 32 ? F64 : j == 32 ? F16 : F32;
    o[k++] = (unsigned)sext(u, 8);
    o[k++] = u & 0xff;
    o[k++] = (unsigned)sext(u, 16);
    o[k++] = u & 0xffff;
    o[k++] = u & 0xffff;
    o[k++] = sext(u, 16);
    o[k++] = u & 0xffff;
}

static unsigned flt(float a, float b, int op)
{
    bool un = a != a || b != b;
    switch (op) {
    case 0: return !un && a < b;
    case 1: return !un && a == b;
    case 2: return !un && a != b;
    case 3: return un || a != b;
    case 4: return un || a == b;
    case 5: return !un;
    case 6: return un;
    case 7: return un || a >= b;
    default: return !un && a <= b;
    }
}

static u64 mulhi_u64(u64 a, u64 b) { return (u64)(((unsigned __int128)a * b) >> 64); }
static u64 mulhi_s64(u64 a, u64 b) { return (u64)(((__int128)(s64)a * (s64)b) >> 64); }

static unsigned brev(unsigned v)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((v >> i) & 1u) << (31 - i);
    return r;
}

static unsigned popc(u64 v)
{
    unsigned n = 0;
    for (; v; v >>= 1)
        n += v & 1;
    return n;
}

static unsigned clz(u64 v, int bits)
{
    unsigned n = 0;
    for (int i = bits - 1; i >= 0 && !((v >> i) & 1); i--)
        n++;
    return n;
}

static unsigned bfe(unsigned a, unsigned pos, unsigned len, bool sgn)
{
    unsigned d = 0, sbit = 0;
    pos &= 0xff;
    len &= 0xff;
    if (sgn && len > 0)
        sbit = (a >> (pos + len - 1 < 31 ? pos + len - 1 : 31)) & 1;
    for (unsigned i = 0; i < 32; i++) {
        unsigned bit = i < len && pos + i <= 31 ? (a >> (pos + i)) & 1 : sbit;
        d |= bit << i;
    }
    return d;
}

static unsigned prmt(unsigned a, unsigned b, unsigned c)
{
    unsigned char bytes[8];
    unsigned d = 0;
    for (int i = 0; i < 4; i++) {
        bytes[i] = (unsigned char)(a >> (8 * i));
        bytes[4 + i] = (unsigned char)(b >> (8 * i));
    }
    for (int i = 0; i < 4; i++) {
        unsigned s = (c >> (4 * i)) & 0xf, byte = bytes[s & 7];
        if (s & 8)
            byte = byte & 0x80 ? 0xff : 0;
        d |= byte << (8 * i);
    }
    return d;
}

static void integers_ref(u64 a, u64 b, unsigned c, unsigned fa, unsigned fb, u64 *o)
{
    unsigned a32 = (unsigned)a, b32 = (unsigned)b;
    int sa = (int)a32, sb = (int)b32;
    float x = bitsf(fa), y = bitsf(fb);
    int k = 0;

    o[k++] = sa < sb; o[k++] = a32 < b32; o[k++] = sa >= sb; o[k++] = a32 >= b32;
    o[k++] = a32 != b32;
    o[k++] = (s64)a < (s64)b; o[k++] = a > b; o[k++] = (s64)a <= (s64)b;
    o[k++] = (short)a < (short)b;
    o[k++] = (unsigned short)a < (unsigned short)b;
    o[k++] = flt(x, y, 0); o[k++] = flt(ftz(x), ftz(y), 0); o[k++] = flt(ftz(x), ftz(y), 1);
    o[k++] = flt(x, y, 2); o[k++] = flt(x, y, 3); o[k++] = flt(x, y, 4); o[k++] = flt(x, y, 5);
    o[k++] = flt(x, y, 6); o[k++] = flt(ftz(x), ftz(y), 7); o[k++] = flt(x, y, 8);
    {
        bool lt = sa < sb, cb = c & 1;
        o[k++] = 2 * (lt && cb) + (!lt && cb);
        o[k++] = 2 * (lt || !cb) + (!lt || !cb);
    }
    o[k++] = sa > sb ? 0xffffffffu : 0;
    o[k++] = a32 < b32 ? 0xffffffffu : 0;
    o[k++] = flt(ftz(x), ftz(y), 0) ? fbits(1.0f) : 0;
    o[k++] = flt(x, y, 6) ? 0xffffffffu : 0;
    o[k++] = (unsigned)(((u64)a32 * b32) >> 32);
    o[k++] = (unsigned)(((s64)sa * sb) >> 32);
    o[k++] = mulhi_u64(a, b);
    o[k++] = mulhi_s64(a, b);
    unsigned d32 = divisor32(b32);
    u64 d64 = divisor64(b);
    int sd = (int)d32;
    o[k++] = a32 / d32;
    o[k++] = a32 % d32;
    o[k++] = (unsigned)(sa / sd);
    o[k++] = (unsigned)(sa % sd);
    o[k++] = a / d64;
    o[k++] = a % d64;
    o[k++] = (u64)((s64)a / (s64)d64);
    o[k++] = (u64)((s64)a % (s64)d64);
    o[k++] = 0u - a32;
    {
        unsigned v = a32 == 0x80000000u ? 5u : a32;
        o[k++] = (int)v < 0 ? 0u - v : v;
        u64 w = a == 0x8000000000000000ull ? 5ull : a;
        o[k++] = 0 - a;
        o[k++] = (s64)w < 0 ? 0 - w : w;
    }
    o[k++] = (s64)a < (s64)b ? a : b;
    o[k++] = (s64)a > (s64)b ? a : b;
    o[k++] = a < b ? a : b;
    o[k++] = a > b ? a : b;
    o[k++] = popc(a32); o[k++] = popc(a);
    o[k++] = clz(a32, 32); o[k++] = clz(a, 64);
    o[k++] = brev(a32);
    {
        u64 fun = ((u64)b32 << 32) | a32;
        unsigned nw = c & 31, nc = c > 32 ? 32 : c;
        o[k++] = (unsigned)((fun << nw) >> 32);
        o[k++] = (unsigned)((fun << nc) >> 32);
        o[k++] = (unsigned)(fun >> nw);
        o[k++] = (unsigned)(fun >> nc);
    }
    o[k++] = bfe(a32, c & 0xff, (c >> 8) & 0xff, false);
    o[k++] = bfe(a32, c & 0xff, (c >> 8) & 0xff, true);
    o[k++] = prmt(a32, b32, c);
    o[k++] = c >= 32 ? 0 : a32 << c;
    o[k++] = c >= 32 ? 0 : a32 >> c;
    o[k++] = (unsigned)(sa >> (c >= 32 ? 31 : c));
    o[k++] = c >= 64 ? 0 : a << c;
    o[k++] = (u64)((s64)a >> (c >= 64 ? 63 : c));
}

int main()
{
    static const u64 ints[] = {
        0, 1, 2, 0x7f, 0x80, 0xff, 0x1ff, 0x7fff, 0x8000, 0x12345, 0xfffe8000,
        16777217, 16777219, 0x7fffffff, 0x80000000u, 0xffffffffu, 0xfffffff0u, 0x100000001ull,
        (1ull << 53) + 1, (1ull << 63) + 1025, 0x7fffffffffffffffull, 0x8000000000000000ull,
        0xffffffffffffffffull, 0xfffffffffffffc01ull, 0x123456789abcdef0ull, 0xdeadbeefcafef00dull,
        3, 10, 0xfffffffd, 1000000007, 0x55555555aaaaaaaaull, 0x80000001u};
    static const float floats[] = {
        0.0f, -0.0f, 0.5f, -0.5f, 1.5f, 2.5f, -2.5f, 3.5f, 0.49999997f, -1.0f, 1e-40f, -1e-40f,
        2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f, 4294967296.0f,
        1e10f, -1e10f, 1e20f, 16777217.0f, 8388608.5f, 0.75f};
    static const double doubles[] = {
        0.0, -0.0, 0.5, 1.5, 2.5, -2.5, -0.7, 0.7, 2147483647.4, 2147483647.6, 2147483648.0,
        -2147483648.4, -2147483648.6, 4294967295.4, 4294967295.6, 4294967296.0, 1e300, -1e300,
        3.4028235677973366e38, 3.4028236e38, 1e-310, 1e-45, 1.0000000596046448, 123456.789};
    const int ni = sizeof ints / sizeof *ints, nf = sizeof floats / sizeof *floats;
    const int nd = sizeof doubles / sizeof *doubles;
    u64 ia[N], ib[N], *out, *dout;
    unsigned fa[N], fb[N], ic[N];
    double da[N];
    static const unsigned special[] = {0x7fc00000u, 0xff800000u, 0x7f800000u, 0x7fa00000u};
    static const unsigned counts[] = {0, 1, 4, 31, 32, 33, 40, 63, 64, 100, 0xffffffffu,
                                      0x0804, 0x2000, 0x1f1f, 0x3210, 0x7654, 0x0123, 0x8888,
                                      0x4c21, 0xffe0};

    for (int i = 0; i < N; i++) {
        ia[i] = ints[i % ni];
        ib[i] = ints[(i * 7 + 3) % ni];
        fa[i] = i < 4 ? special[i] : fbits(floats[i % nf]);
        fb[i] = i % 5 == 0 ? 0x7fc00000u : fbits(floats[(i * 5 + 1) % nf]);
        da[i] = i == 4 ? bitsd(0x7ff8000000000000ull) : i == 5 ? INFINITY : doubles[i % nd];
        ic[i] = counts[i % (sizeof counts / sizeof *counts)];
    }
    fb[6] = fbits(2e-40f);
    fa[7] = fbits(-1e-40f), fb[7] = fbits(1e-40f);

    const size_t bytes = (size_t)N * K * sizeof(u64);
    u64 *dia, *dib;
    unsigned *dfa, *dfb, *dic;
    double *dda;
    out = (u64 *)malloc(bytes);
    CHECK(cudaMalloc(&dia, sizeof ia));
    CHECK(cudaMalloc(&dib, sizeof ib));
    CHECK(cudaMalloc(&dfa, sizeof fa));
    CHECK(cudaMalloc(&dfb, sizeof fb));
    CHECK(cudaMalloc(&dic, sizeof ic));
    CHECK(cudaMalloc(&dda, sizeof da));
    CHECK(cudaMalloc(&dout, bytes));
    CHECK(cudaMemcpy(dia, ia, sizeof ia, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dib, ib, sizeof ib, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dfa, fa, sizeof fa, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dfb, fb, sizeof fb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dic, ic, sizeof ic, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dda, da, sizeof da, cudaMemcpyHostToDevice));

    u64 want[K];
    int kind[K];
    CHECK(cudaMemset(dout, 0, bytes));
    conversions<<<1, N>>>(dia, dfa, dda, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        memset(want, 0, sizeof want);
        memset(kind, 0, sizeof kind);
        conversions_ref(ia[i], fa[i], da[i], want, kind);
        for (int j = 0; j < K; j++) {
            u64 got = out[i * K + j];
            if (!(is_nan(want[j], kind[j]) && is_nan(got, kind[j])))
                expect_eq("conversion", i * 1000 + j, want[j], got);
        }
    }
    CHECK(cudaMemset(dout, 0, bytes));
    integers<<<1, N>>>(dia, dib, dic, dfa, dfb, dout);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        memset(want, 0, sizeof want);
        integers_ref(ia[i], ib[i], ic[i], fa[i], fb[i], want);
        for (int j = 0; j < K; j++)
            expect_eq("integer", i * 1000 + j, want[j], out[i * K + j]);
    }
    if (failures)
        return 1;
    printf("ok typed_forms\n");
    return 0;
}
