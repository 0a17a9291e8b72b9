/* Part of cudalab/lab.h, the one header exercises include: element types:
 * the types arrays hold, as numbers and text, and the canary bytes that
 * guard outputs. */
#ifndef CUDALAB_LAB_ELEM_H
#define CUDALAB_LAB_ELEM_H

#include "base.h"
#include "text.h"

namespace lab {
namespace {

/* --------------------------------------------------------- element types */

/* IEEE binary16 bits to float (exact: every half is a float). */
inline float half_bits_to_float(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v;
    if (exp == 0)
        v = std::ldexp((float)mant, -24);
    else if (exp == 31)
        v = mant ? std::numeric_limits<float>::quiet_NaN()
                 : std::numeric_limits<float>::infinity();
    else
        v = std::ldexp((float)(mant | 0x400), exp - 25);
    return sign ? -v : v;
}

/* float to IEEE binary16 bits, rounding to nearest even; NaN stays NaN,
 * magnitudes from 65520 up become infinity. */
inline uint16_t float_to_half_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
    uint32_t ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00);
    if (ax >= 0x477ff000u) /* 65520, halfway to 65536, rounds (to even) up */
        return (uint16_t)(sign | 0x7c00);
    if (ax < 0x38800000u) /* below 2^-14: a subnormal half or zero */
        return (uint16_t)(sign | (uint16_t)std::nearbyint(std::fabs(f) * 16777216.0f));
    uint32_t h = ((ax >> 23) - 112) << 10 | ((ax >> 13) & 0x3ff);
    uint32_t rest = ax & 0x1fff;
    if (rest > 0x1000 || (rest == 0x1000 && (h & 1)))
        h++;
    return (uint16_t)(sign | h);
}

inline float bf16_bits_to_float(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* float to bfloat16 bits, rounding to nearest even; NaN stays NaN. */
inline uint16_t float_to_bf16_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x0040);
    x += 0x7fffu + ((x >> 16) & 1);
    return (uint16_t)(x >> 16);
}

/* What the harness needs to know about an element type: whether it is an
 * integer, its canary byte, how to convert it, and how to show it exactly.
 * Types without a specialization do not compile, which is the point. */
template <class T> struct Elem;

template <class T, class Bits> struct ElemFloat {
    static constexpr bool is_int() { return false; }
    static constexpr unsigned char canary_byte() { return 0xFF; }
    /* Floating values are compared through close_enough, never bitwise. */
    static bool exact_equal(const T&, const T&) { return false; }
    static std::string text(const T& v)
    {
        return number_text(Bits::to_double(v), Bits::digits());
    }
};

template <> struct Elem<float> : ElemFloat<float, Elem<float>> {
    static constexpr int digits() { return 9; }
    static double to_double(float v) { return v; }
    static float from_double(double d) { return (float)d; }
};
template <> struct Elem<double> : ElemFloat<double, Elem<double>> {
    static constexpr int digits() { return 0; }
    static double to_double(double v) { return v; }
    static double from_double(double d) { return d; }
};
template <> struct Elem<__half> : ElemFloat<__half, Elem<__half>> {
    static constexpr int digits() { return 5; }
    static double to_double(__half v)
    {
        uint16_t b;
        memcpy(&b, &v, sizeof b);
        return half_bits_to_float(b);
    }
    static __half from_double(double d)
    {
        uint16_t b = float_to_half_bits((float)d);
        __half v;
        memcpy((void*)&v, &b, sizeof v);
        return v;
    }
};
template <> struct Elem<__nv_bfloat16> : ElemFloat<__nv_bfloat16, Elem<__nv_bfloat16>> {
    static constexpr int digits() { return 4; }
    static double to_double(__nv_bfloat16 v)
    {
        uint16_t b;
        memcpy(&b, &v, sizeof b);
        return bf16_bits_to_float(b);
    }
    static __nv_bfloat16 from_double(double d)
    {
        uint16_t b = float_to_bf16_bits((float)d);
        __nv_bfloat16 v;
        memcpy((void*)&v, &b, sizeof v);
        return v;
    }
};

template <class I> struct ElemInt {
    static constexpr bool is_int() { return true; }
    static constexpr unsigned char canary_byte() { return 0xA5; }
    static constexpr int digits() { return 0; }
    static bool exact_equal(const I& a, const I& b) { return a == b; }
    static double to_double(I v) { return (double)v; }
    static I from_double(double d) { return (I)d; }
    static std::string text(const I& v)
    {
        if (std::numeric_limits<I>::is_signed)
            return fmt("%lld", (long long)v);
        return fmt("%llu", (unsigned long long)v);
    }
};
/* The fundamental types, so int8_t ... uint64_t are all covered whichever
 * of them the platform's <cstdint> picks. */
template <> struct Elem<signed char> : ElemInt<signed char> {};
template <> struct Elem<unsigned char> : ElemInt<unsigned char> {};
template <> struct Elem<short> : ElemInt<short> {};
template <> struct Elem<unsigned short> : ElemInt<unsigned short> {};
template <> struct Elem<int> : ElemInt<int> {};
template <> struct Elem<unsigned> : ElemInt<unsigned> {};
template <> struct Elem<long> : ElemInt<long> {};
template <> struct Elem<unsigned long> : ElemInt<unsigned long> {};
template <> struct Elem<long long> : ElemInt<long long> {};
template <> struct Elem<unsigned long long> : ElemInt<unsigned long long> {};

/* An element as exact text: "0.100000001", "nan", "-3". */
template <class T> inline std::string elem_text(const T& v)
{
    return Elem<T>::text(v);
}

/* ------------------------------------------------------------ the canary */

/* Number of canary elements after each output (lab::output, lab::inout):
 * enough to catch a missing bounds check with blocks of up to 1024. */
const size_t kGuard = 1024;

template <class T> inline void fill_canary_host(T* p, size_t n)
{
    memset((void*)p, Elem<T>::canary_byte(), n * sizeof(T));
}

/* True when every byte of v is `byte`. */
template <class T> inline bool is_fill(const T& v, unsigned char byte)
{
    const unsigned char* b = (const unsigned char*)&v;
    for (size_t i = 0; i < sizeof(T); i++)
        if (b[i] != byte)
            return false;
    return true;
}

template <class T> inline bool is_canary(const T& v)
{
    return is_fill(v, Elem<T>::canary_byte());
}

/* The byte an output is refilled with when the first canary is itself a
 * right answer somewhere (an int8 of -91, say): no element whose answer is
 * the first canary can hold this one. */
template <class T> inline unsigned char second_canary_byte()
{
    return (unsigned char)~Elem<T>::canary_byte();
}
} /* namespace */
} /* namespace lab */

#endif
