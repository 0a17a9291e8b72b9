/* Part of cudalab/lab.h, the one header exercises include: random input:
 * the generator of cases and seeds. */
#ifndef CUDALAB_LAB_RANDOM_H
#define CUDALAB_LAB_RANDOM_H

#include "base.h"
#include "elem.h"

namespace lab {
namespace {

/* ---------------------------------------------------------- random input */

/* splitmix64: tiny, fast, and the same sequence for a seed everywhere. */
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}

    uint64_t next()
    {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    /* Uniform in [0, 1), 53 random bits. */
    double unit() { return (double)(next() >> 11) * (1.0 / 9007199254740992.0); }

    /* Fills p[0..n) uniformly: [lo, hi) for floating types (rounded to T),
     * the integers of [lo, hi] for integer types. */
    template <class T> void fill(T* p, size_t n, double lo, double hi)
    {
        fill_as(p, n, lo, hi, std::integral_constant<bool, Elem<T>::is_int()>());
    }

    template <class T> std::vector<T> uniform(size_t n, double lo, double hi)
    {
        std::vector<T> v(n);
        fill(v.data(), n, lo, hi);
        return v;
    }

private:
    uint64_t state_;

    template <class T>
    void fill_as(T* p, size_t n, double lo, double hi, std::true_type)
    {
        long long a = (long long)lo, b = (long long)hi;
        uint64_t span = (uint64_t)(b - a) + 1; /* 0: the whole 64-bit range */
        for (size_t i = 0; i < n; i++) {
            uint64_t r = span ? next() % span : next();
            p[i] = (T)(a + (long long)r);
        }
    }
    template <class T>
    void fill_as(T* p, size_t n, double lo, double hi, std::false_type)
    {
        for (size_t i = 0; i < n; i++)
            p[i] = Elem<T>::from_double(lo + (hi - lo) * unit());
    }
};
} /* namespace */
} /* namespace lab */

#endif
