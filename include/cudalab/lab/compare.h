/* Part of cudalab/lab.h, the one header exercises include: comparison:
 * tolerances, errors and the first mismatch. */
#ifndef CUDALAB_LAB_COMPARE_H
#define CUDALAB_LAB_COMPARE_H

#include "base.h"
#include "elem.h"

namespace lab {
namespace {

/* ----------------------------------------------------------- comparison */

struct Tol {
    double atol;
    double rtol;
};

/* The outcome of comparing one output array. */
struct Compare {
    size_t count = 0;      /* elements compared */
    size_t bad = 0;        /* elements that failed (a guard overrun counts 1) */
    size_t unwritten = 0;  /* of them: still holding the canary */
    bool past_end = false; /* the guard after the output was written */
    double max_abs = 0.0;  /* infinity: a non-finite value where a finite */
    double max_rel = 0.0;  /* one was expected (written as null)          */
    bool has_first = false; /* the first failure: */
    size_t index = 0;
    double expected = 0.0, got = 0.0;
    std::string expected_text, got_text, note;

    bool pass() const { return bad == 0; }
};

/* |got - want| <= atol + rtol * |want|, with the NaN and infinity rules of
 * the header comment. */
inline bool close_enough(double got, double want, Tol t)
{
    if (std::isnan(want))
        return std::isnan(got);
    if (std::isnan(got))
        return false;
    if (std::isinf(want) || std::isinf(got))
        return got == want;
    return std::fabs(got - want) <= t.atol + t.rtol * std::fabs(want);
}

/* Folds one pair into the error maxima.  Relative error is taken only where
 * the expected value is non-zero. */
inline void account_error(Compare& c, double got, double want)
{
    const double inf = std::numeric_limits<double>::infinity();
    if (std::isnan(want)) {
        if (!std::isnan(got))
            c.max_abs = c.max_rel = inf;
        return;
    }
    if (!std::isfinite(want) || !std::isfinite(got)) {
        if (got != want)
            c.max_abs = c.max_rel = inf;
        return;
    }
    double d = std::fabs(got - want);
    c.max_abs = std::max(c.max_abs, d);
    if (want != 0.0)
        c.max_rel = std::max(c.max_rel, d / std::fabs(want));
}

template <class T>
inline void note_first(Compare& c, size_t i, const T& got, const T& want)
{
    c.has_first = true;
    c.index = i;
    c.expected = Elem<T>::to_double(want);
    c.got = Elem<T>::to_double(got);
    c.expected_text = elem_text(want);
    c.got_text = elem_text(got);
    if (is_canary(got))
        c.note = "never written: the element still holds the canary the "
                 "harness filled the output with";
}

/* Compares got[0..n) with want[0..n). */
template <class T>
inline Compare compare_host(const T* got, const T* want, size_t n, Tol tol)
{
    Compare c;
    c.count = n;
    /* The same bytes: every element passes with no error (a value equals
     * itself, a NaN is where a NaN was expected, an infinity the same
     * infinity), which one memcmp tells far sooner than the loop. */
    if (n && memcmp(got, want, n * sizeof(T)) == 0)
        return c;
    /* Integers with no tolerance compare exactly, also past 2^53. */
    const bool exact = Elem<T>::is_int() && tol.atol == 0 && tol.rtol == 0;
    for (size_t i = 0; i < n; i++) {
        double g = Elem<T>::to_double(got[i]);
        double w = Elem<T>::to_double(want[i]);
        bool ok = Elem<T>::exact_equal(got[i], want[i]) ||
                  (!exact && close_enough(g, w, tol));
        account_error(c, g, w);
        if (!ok && is_canary(got[i]))
            c.unwritten++;
        if (!ok && c.bad++ == 0)
            note_first(c, i, got[i], want[i]);
    }
    return c;
}

/* Checks that the m guard elements after an n-element output still hold
 * the canary; a write there fails the comparison (counted once) and, when
 * it is the first failure, becomes the reported mismatch. */
template <class T>
inline bool check_guard(const T* guard, size_t m, size_t n, Compare& c)
{
    for (size_t j = 0; j < m; j++) {
        if (is_canary(guard[j]))
            continue;
        c.past_end = true;
        if (c.bad++ == 0) {
            c.has_first = true;
            c.index = n + j;
            c.expected = std::numeric_limits<double>::quiet_NaN();
            c.got = Elem<T>::to_double(guard[j]);
            c.expected_text = "(past the end: must stay untouched)";
            c.got_text = elem_text(guard[j]);
            c.note = fmt("written past the end of the output: index %zu of "
                         "an output of %zu elements (check the bounds)",
                         n + j, n);
        }
        return false;
    }
    return true;
}
} /* namespace */
} /* namespace lab */

#endif
