/* lab.h — the exercise harness: inputs, checks, timing and the result JSON.
 *
 * Every exercise's harness.cu includes this header and nothing else of
 * cudalab; the implementation is header-only (inline functions, small
 * classes), so it is compiled into each exercise program, for a GPU and for
 * simt alike.  The program is run as
 *
 *     prog --mode check|bench [--seed N]
 *
 * and writes ONE JSON object to the file descriptor named by the environment
 * variable CUDALAB_RESULT_FD (stdout when it is unset), so whatever the
 * learner's code prints never mixes with the result.  Exit code: 0 pass,
 * 1 wrong, 2 runtime error or bad usage.  When CUDALAB_PROGRESS names a
 * file, each case (and each timing) replaces its one line, "case n=4096, seed 2"
 * or "timing n=4096", for the runner's progress line.
 *
 * A harness, in outline (exercises/vector-add/harness.cu is a full one):
 *
 *     #include <cudalab/lab.h>
 *     void solve(const float* a, const float* b, float* c, int n);
 *
 *     static void run_case(lab::Lab& lab, int n, uint64_t seed)
 *     {
 *         lab.begin_case(lab::fmt("n=%d", n), seed);
 *         lab::Rng rng(seed);
 *         std::vector<float> a = rng.uniform<float>(n, -1.0, 1.0);
 *         std::vector<float> b = rng.uniform<float>(n, -1.0, 1.0);
 *         std::vector<float> want(n);
 *         for (int i = 0; i < n; i++) want[i] = a[i] + b[i];
 *
 *         auto da = lab::to_device(a), db = lab::to_device(b);
 *         auto dc = lab::output<float>(n);          // canary-filled, guarded
 *         lab.call([&] { solve(da, db, dc, n); });  // once, errors checked
 *         lab.expect(dc, want, lab::Tol{1e-6, 1e-6});
 *         lab.time([&] { solve(da, db, dc, n); },   // bench mode only
 *                  lab::Work{12.0 * n, 1.0 * n, "fp32"});
 *     }
 *
 *     int main(int argc, char** argv)
 *     {
 *         lab::Lab lab("vector-add", argc, argv);
 *         for (long long n : lab.sizes({1, 17, 4099, 100003}, 1 << 26))
 *             for (uint64_t seed : lab.seeds())
 *                 run_case(lab, (int)n, seed);
 *         return lab.finish();
 *     }
 *
 * What each piece promises:
 *
 * lab::Lab(exercise, argc, argv)
 *     Parses the command line and queries device 0 (name, compute capability,
 *     SM count, L2 size, peak bandwidth, datasheet compute peaks).  A bad
 *     command line or a CUDA failure here writes a runtime_error result and
 *     exits 2.  The backend is "simt" when the device name starts with
 *     "simt", else "gpu".
 * lab.sizes(check_sizes, gpu_bench_size)
 *     check: all of check_sizes.  bench: gpu_bench_size on a GPU, the
 *     largest check size on simt (an interpreter is slow).
 * lab.seeds()
 *     check: three seeds starting at --seed (default 1); bench: --seed alone.
 * lab.begin_case(name, seed)
 *     Names what follows (call it first, so that an error while setting a
 *     case up is reported against it).  Results of several seeds with the same name fold
 *     into one entry of "cases" (errors are the maximum over seeds).
 * lab.call(fn, label = "solve")
 *     Runs fn once, then cudaGetLastError and cudaDeviceSynchronize; a CUDA
 *     error ends the program with status runtime_error and the error's name
 *     and message.  Every CUDA call the harness makes is checked the same way
 *     (lab.cuda(err, what) for calls the harness author adds).
 * lab.expect(device_array, want, tol)
 *     Copies the output back and compares element by element:
 *     |got - want| <= atol + rtol * |want|; a NaN expected matches only a
 *     NaN; an infinity must match exactly; a NaN or infinity where a finite
 *     value was expected fails.  Integers compare exactly unless tol says
 *     otherwise.  The guard after an output (see lab::output) must still hold
 *     the canary.  Where the right answer is the canary itself (an int8 of
 *     -91), the last lab.call of the case runs once more over an output
 *     refilled with a second canary, so an element never written is still
 *     caught.  Records max_abs_err / max_rel_err (null in the JSON when a
 *     non-finite value stood where a finite one was expected) and the first
 *     mismatch of the run.  Returns true when the output passed.
 * lab.expect_host(got_vector, want, tol, note = "")
 *     The same comparison for values already on the host (a host function's
 *     results, numbers derived from an output); no guard or canary.  note,
 *     when given, becomes the mismatch's note if these values fail: what
 *     the numbers are ("1 = the stage broke the schedule's rule").
 * lab.time(fn, work)
 *     Does nothing in check mode, or when a check has already failed.  In
 *     bench mode on a GPU: warms up, then takes samples, each one an L2
 *     flush (cudaMemsetAsync over a buffer of twice the L2 size) followed
 *     by fn between two events on the default stream.  Kernels under
 *     10 us are timed in batches of k calls between one pair of events
 *     ("batched": k; per-call time = batch / k; the L2 is then flushed only
 *     before each batch, so later calls of a batch may find warm data).  At
 *     least 10 samples and 0.5 s; stops once stdev/mean < 0.5 %, or at 1000
 *     samples or 15 s.  Headline: the median.  On simt: one run, timed by
 *     the host clock and labelled "emulated": its time is emulation time and
 *     no bandwidth is derived from it.
 * lab.finish()
 *     Writes the result and returns the exit code for main to return.
 *
 * Device arrays (lab::DeviceArray<T>, moved, never copied, freed on scope
 * exit; converts to T* so it can be passed to solve directly):
 *     lab::to_device(vec)   an input: exactly vec.size() elements.
 *     lab::output<T>(n)     an output: n elements filled with the canary plus
 *                           a guard of lab::kGuard canary elements after them,
 *                           so an output never written, or written past its
 *                           end, is caught on a GPU too.
 *     lab::inout(vec)       uploaded like an input, guarded like an output.
 * The canary is all bytes 0xFF for floating types (a NaN, never a right
 * answer for a finite expected value) and all bytes 0xA5 for integers.
 *
 * Several devices (exercises with "gpus: N" in their front matter):
 *     lab.devices(n)          the harness needs devices 0 .. n-1; a machine
 *                             with fewer gets a runtime_error
 *                             "too_few_devices" naming both counts.  Then
 *                             lab.call and lab.expect synchronize all n
 *                             devices, and lab.call restores the device that
 *                             was current before it.
 *     lab::to_device_on(d, vec), lab::output_on<T>(d, n),
 *     lab::inout_on(d, vec)   as above, allocated on device d; the array
 *                             frees (and refills) itself on d, and
 *                             lab.expect reads it back from any device.
 *     lab::DeviceScope on(d)  makes d current until the end of the scope.
 * The learner's function is called once from the harness's thread with
 * one pointer (and stream, communicator...) per device, as a
 * single-process multi-GPU program drives its devices.
 *
 * Inputs: lab::Rng (splitmix64) gives the same numbers for the same seed on
 * every machine: rng.uniform<T>(n, lo, hi) / rng.fill(ptr, n, lo, hi),
 * uniform in [lo, hi) for floating types and [lo, hi] for integers.
 * Element types: float, double, __half, __nv_bfloat16 and the integer types
 * (int8_t ... uint64_t).
 *
 * simt's counters (lab::simt_counters()): on simt a harness can read the
 * profiler counters of its own run while it runs, summed over every kernel
 * launched so far (the first read turns counting on), and take the
 * difference around a call to see what that call did:
 *
 *     lab::SimtCounters before = lab::simt_counters();
 *     lab.call(run);
 *     lab::SimtCounters used = lab::simt_counters() - before;
 *     if (used.available) ... used.global_load_sectors ...
 *
 * `available` is false on a GPU (the symbol simt defines,
 * cudalab_simt_counter, is declared weak and is then null): a harness that
 * holds a kernel to a counter must have another rule for a GPU, a timing
 * against a kernel of its own, say.
 *
 * The result JSON, written to the descriptor CUDALAB_RESULT_FD names (the
 * runner adds its own keys to it: docs/guide.md, "Result JSON"):
 *   {"schema":1,"key":"...","exercise":"...","status":"pass|wrong|runtime_error",
 * key: what the runner passed in CUDALAB_RESULT_KEY_FD, read before main
 * (see result_key); the runner refuses a result without it.
 *    "backend":"gpu|simt",
 *    "device":{"name","cc":"9.0","sm_count","peak_gbps","peak_tflops":{...}},
 *    "cases":[{"name","status","max_abs_err","max_rel_err","mismatches",
 *              "not_written","overruns"}],
 *      mismatches: elements that failed, where an output written past its
 *      end counts once; not_written: of them, those still holding the
 *      canary; overruns: outputs written past their end (max_abs_err and
 *      max_rel_err cover the elements inside the outputs)
 *    "mismatch":{"case","seed","index","expected","got","expected_text",
 *                "got_text","note"},                  only when wrong
 *    "error":{"name","message","where"},             only on runtime_error
 *    "timing":{"samples","median_ms","min_ms","mean_ms","stdev_ms",
 *              "noise_pct","l2_flushed","batched"|"emulated"},   bench only
 *    "work":{"bytes","flops","calls","peak"},                    bench only
 *    "derived":{"gbps","pct_peak_bw","tflops","pct_peak_flops"}} bench only
 * work.peak names the peak_tflops key the FLOPs are measured against;
 * work.calls counts every run of solve in the program (checks, warm-ups,
 * samples), so that counts covering the whole program (simt's counters)
 * can be read per call.
 * Numbers that are not finite are written as null; *_text give the values
 * as text ("nan", "-inf", ...).  peak_tflops keys: fp64 and fp32 (the
 * non-tensor peaks), tf32, fp16, bf16, fp8 (dense tensor-core peaks); a key
 * is present only when the datasheet figure is known for the device. */
#ifndef CUDALAB_LAB_H
#define CUDALAB_LAB_H

#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <unistd.h>

#if defined(__GNUC__)
#define LAB_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define LAB_PRINTF(f, a)
#endif

/* Defined by simt's library (src/simt/counters.c) and absent from the CUDA
 * runtime, hence weak: null when the program runs on a GPU. */
extern "C" int cudalab_simt_counter(const char* name, unsigned long long* value)
    __attribute__((weak));

namespace lab {

/* ------------------------------------------------------------------ text */

/* printf into a std::string. */
inline std::string fmt(const char* f, ...) LAB_PRINTF(1, 2);
inline std::string fmt(const char* f, ...)
{
    va_list ap;
    va_start(ap, f);
    char small[256];
    int len = vsnprintf(small, sizeof small, f, ap);
    va_end(ap);
    if (len < 0)
        return std::string();
    if ((size_t)len < sizeof small)
        return std::string(small, (size_t)len);
    std::string s((size_t)len + 1, '\0');
    va_start(ap, f);
    vsnprintf(&s[0], s.size(), f, ap);
    va_end(ap);
    s.resize((size_t)len);
    return s;
}

/* A double as text that reads back as the same double ("nan", "inf" and
 * "-inf" for the values JSON cannot hold).  digits > 0 forces %.{digits}g,
 * which is how float values (9 digits round-trip) are shown. */
inline std::string number_text(double v, int digits = 0)
{
    if (std::isnan(v))
        return "nan";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    if (digits > 0)
        return fmt("%.*g", digits, v);
    std::string s = fmt("%.15g", v);
    if (strtod(s.c_str(), nullptr) != v)
        s = fmt("%.17g", v);
    return s;
}

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

/* --------------------------------------------------------------- timing */

struct Stats {
    size_t n = 0;
    double median = 0, min = 0, mean = 0, stdev = 0, noise_pct = 0;
};

/* Median, minimum, mean, sample standard deviation (n - 1) and
 * 100 * stdev / mean of the samples. */
inline Stats summarize(std::vector<double> ms)
{
    Stats s;
    s.n = ms.size();
    if (s.n == 0)
        return s;
    std::sort(ms.begin(), ms.end());
    s.min = ms[0];
    s.median = s.n % 2 ? ms[s.n / 2] : (ms[s.n / 2 - 1] + ms[s.n / 2]) / 2;
    double sum = 0;
    for (double v : ms)
        sum += v;
    s.mean = sum / (double)s.n;
    if (s.n > 1) {
        double ss = 0;
        for (double v : ms)
            ss += (v - s.mean) * (v - s.mean);
        s.stdev = std::sqrt(ss / (double)(s.n - 1));
    }
    s.noise_pct = s.mean > 0 ? 100.0 * s.stdev / s.mean : 0;
    return s;
}

struct TimingRule {
    size_t min_samples = 10;
    double min_seconds = 0.5;
    double noise_pct = 0.5;    /* stop once stdev/mean is below this */
    size_t max_samples = 1000;
    double max_seconds = 15.0;
    double batch_under_ms = 0.010; /* time kernels faster than this in batches */
    double batch_ms = 0.2;         /* aiming at batches about this long */
};

/* True when sampling should stop: the caps are reached, or the minimum
 * count and duration are met and the noise is low enough. */
inline bool timing_done(const Stats& s, double elapsed_s,
                        const TimingRule& r = TimingRule())
{
    if (s.n >= r.max_samples || elapsed_s >= r.max_seconds)
        return true;
    return s.n >= r.min_samples && elapsed_s >= r.min_seconds &&
           s.noise_pct < r.noise_pct;
}

/* Calls per timed batch for a kernel whose single call takes est_ms. */
inline int batch_size(double est_ms, const TimingRule& r = TimingRule())
{
    if (!(est_ms < r.batch_under_ms))
        return 1;
    double k = std::ceil(r.batch_ms / std::max(est_ms, 1e-4));
    return (int)std::min(1000.0, std::max(2.0, k));
}

/* ---------------------------------------------------------- device peaks */

/* Dense datasheet peaks in TFLOP/s; 0 where not known.  fp64 and fp32 are
 * the non-tensor peaks; tf32, fp16, bf16 and fp8 are tensor-core peaks
 * without sparsity. */
struct Peaks {
    const char* match; /* a word (or words) of the device name */
    double fp64, fp32, tf32, fp16, bf16, fp8;
};

/* More specific names come first: the first entry whose match appears in
 * the device name as whole words wins.  Entries with only zeros name
 * variants whose figures differ from the family's and are not listed. */
inline const Peaks* peak_table(size_t* n)
{
    static const Peaks table[] = {
        /* H100 SXM5 and H200 (SXM): same GH100 compute. */
        {"H100 PCIe", 26.0, 51.2, 378.0, 756.0, 756.0, 1513.0},
        {"H100 NVL", 0, 0, 0, 0, 0, 0},
        {"H100", 34.0, 66.9, 494.7, 989.4, 989.4, 1978.9},
        {"H200 NVL", 0, 0, 0, 0, 0, 0},
        {"H200", 34.0, 66.9, 494.7, 989.4, 989.4, 1978.9},
        {"A100", 9.7, 19.5, 156.0, 312.0, 312.0, 0},
        {"L4", 0, 30.3, 60.0, 121.0, 121.0, 242.5},
        {"T4", 0, 8.1, 0, 65.0, 0, 0},
        {"RTX 4090 D", 0, 0, 0, 0, 0, 0},
        /* fp16 and bf16 with FP32 accumulation (GeForce halves it). */
        {"RTX 4090", 0, 82.6, 82.6, 165.2, 165.2, 0},
    };
    *n = sizeof table / sizeof table[0];
    return table;
}

inline bool name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
           (c >= '0' && c <= '9');
}

/* The datasheet entry for a device name, or nullptr when it is not known. */
inline const Peaks* find_peaks(const char* name)
{
    size_t n;
    const Peaks* t = peak_table(&n);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(t[i].match);
        for (const char* p = strstr(name, t[i].match); p;
             p = strstr(p + 1, t[i].match)) {
            bool left = p == name || !name_char(p[-1]);
            bool right = !name_char(p[len]);
            if (left && right)
                return &t[i];
        }
    }
    return nullptr;
}

/* The peak for a key of peak_tflops ("fp32", "bf16", ...), 0 when unknown. */
inline double peak_of(const Peaks* p, const char* key)
{
    if (!p || !key)
        return 0;
    const char* keys[] = {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8"};
    double vals[] = {p->fp64, p->fp32, p->tf32, p->fp16, p->bf16, p->fp8};
    for (size_t i = 0; i < 6; i++)
        if (strcmp(key, keys[i]) == 0)
            return vals[i];
    return 0;
}

/* Peak DRAM bandwidth in GB/s: double data rate x clock (kHz) x bus width
 * (bits) / 8.  0 when either figure is unknown. */
inline double peak_gbps(long long mem_clock_khz, long long bus_bits)
{
    if (mem_clock_khz <= 0 || bus_bits <= 0)
        return 0;
    return 2.0 * (double)mem_clock_khz * 1e3 * (double)bus_bits / 8.0 / 1e9;
}

/* ----------------------------------------------------------------- JSON */

/* A small JSON writer: commas and escaping are its business; numbers that
 * are not finite come out as null. */
class Json {
public:
    Json& begin_object() { return open('{'); }
    Json& end_object() { return close('}'); }
    Json& begin_array() { return open('['); }
    Json& end_array() { return close(']'); }

    Json& key(const char* k)
    {
        comma();
        quote(k);
        out_ += ':';
        after_key_ = true;
        return *this;
    }
    Json& str(const std::string& s)
    {
        comma();
        quote(s.c_str());
        return *this;
    }
    Json& num(double v, int digits = 0)
    {
        comma();
        out_ += std::isfinite(v) ? number_text(v, digits) : "null";
        return *this;
    }
    Json& integer(long long v)
    {
        comma();
        out_ += fmt("%lld", v);
        return *this;
    }
    Json& boolean(bool b)
    {
        comma();
        out_ += b ? "true" : "false";
        return *this;
    }
    Json& null()
    {
        comma();
        out_ += "null";
        return *this;
    }
    const std::string& text() const { return out_; }

private:
    std::string out_;
    std::vector<bool> first_; /* per open container: nothing written yet */
    bool after_key_ = false;

    void comma()
    {
        if (after_key_) {
            after_key_ = false;
            return;
        }
        if (!first_.empty()) {
            if (!first_.back())
                out_ += ',';
            first_.back() = false;
        }
    }
    Json& open(char c)
    {
        comma();
        out_ += c;
        first_.push_back(true);
        return *this;
    }
    Json& close(char c)
    {
        out_ += c;
        if (!first_.empty())
            first_.pop_back();
        return *this;
    }
    /* Length of the valid UTF-8 sequence at s, 0 when it is not valid. */
    static size_t utf8_len(const unsigned char* s)
    {
        size_t len;
        uint32_t cp;
        if (s[0] < 0x80)
            return 1;
        if ((s[0] & 0xe0) == 0xc0) {
            len = 2;
            cp = s[0] & 0x1f;
        } else if ((s[0] & 0xf0) == 0xe0) {
            len = 3;
            cp = s[0] & 0x0f;
        } else if ((s[0] & 0xf8) == 0xf0) {
            len = 4;
            cp = s[0] & 0x07;
        } else {
            return 0;
        }
        for (size_t i = 1; i < len; i++) {
            if ((s[i] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i] & 0x3f);
        }
        static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        return len;
    }
    /* Escapes quotes, backslashes and control characters; a byte that does
     * not start valid UTF-8 becomes U+FFFD so the output always parses. */
    void quote(const char* s)
    {
        out_ += '"';
        const unsigned char* p = (const unsigned char*)s;
        while (*p) {
            unsigned char c = *p;
            switch (c) {
            case '"': out_ += "\\\""; p++; continue;
            case '\\': out_ += "\\\\"; p++; continue;
            case '\b': out_ += "\\b"; p++; continue;
            case '\f': out_ += "\\f"; p++; continue;
            case '\n': out_ += "\\n"; p++; continue;
            case '\r': out_ += "\\r"; p++; continue;
            case '\t': out_ += "\\t"; p++; continue;
            default: break;
            }
            if (c < 0x20 || c == 0x7f) {
                out_ += fmt("\\u%04x", c);
                p++;
                continue;
            }
            size_t len = utf8_len(p);
            if (len == 0) {
                out_ += "\\ufffd";
                p++;
                continue;
            }
            out_.append((const char*)p, len);
            p += len;
        }
        out_ += '"';
    }
};

/* --------------------------------------------------------------- result */

enum class Status { pass, wrong, runtime_error };

inline const char* status_name(Status s)
{
    switch (s) {
    case Status::pass: return "pass";
    case Status::wrong: return "wrong";
    default: return "runtime_error";
    }
}

/* 0 pass, 1 wrong, 2 runtime error or bad usage. */
inline int exit_code(Status s)
{
    return s == Status::pass ? 0 : s == Status::wrong ? 1 : 2;
}

struct CaseResult {
    std::string name;
    bool pass = true;
    double max_abs = 0, max_rel = 0;
    size_t mismatches = 0, not_written = 0, overruns = 0;
};

struct Mismatch {
    std::string case_name;
    uint64_t seed = 0;
    size_t index = 0;
    double expected = 0, got = 0;
    int digits = 0;
    std::string expected_text, got_text, note;
};

struct DeviceInfo {
    bool known = false;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    int sm_count = 0;
    long long l2_bytes = 0;
    double peak_gbps = 0; /* 0: unknown */
    const Peaks* peaks = nullptr;
};

struct Timing {
    Stats stats;
    bool l2_flushed = false;
    int batched = 1;
    bool emulated = false;
};

/* The work one call of the timed function does, for derived rates; peak
 * names the peak_tflops key its FLOPs are measured against. */
struct Work {
    double bytes;
    double flops;
    const char* peak;
};

struct ErrorInfo {
    std::string name, message, where;
};

struct Result {
    std::string exercise;
    bool simt = false;
    DeviceInfo device;
    std::vector<CaseResult> cases;
    bool has_mismatch = false;
    Mismatch mismatch;
    bool has_error = false;
    ErrorInfo error;
    bool has_timing = false;
    Timing timing;
    Work work = {0, 0, nullptr};
    long long calls = 0; /* times solve ran in this program, checks included */
};

/* pass, wrong or runtime_error, from what the result holds; no case at all
 * is a runtime error (the harness checked nothing). */
inline Status result_status(const Result& r)
{
    if (r.has_error || r.cases.empty())
        return Status::runtime_error;
    for (const CaseResult& c : r.cases)
        if (!c.pass)
            return Status::wrong;
    return Status::pass;
}

/* Folds one comparison into the case of that name (made on first use);
 * the first failure of the whole run becomes the mismatch. */
template <class T>
inline void record_compare(Result& r, const std::string& name, uint64_t seed,
                           const Compare& c)
{
    CaseResult* cr = nullptr;
    for (CaseResult& e : r.cases)
        if (e.name == name)
            cr = &e;
    if (!cr) {
        r.cases.push_back(CaseResult());
        cr = &r.cases.back();
        cr->name = name;
    }
    cr->pass = cr->pass && c.pass();
    cr->max_abs = std::max(cr->max_abs, c.max_abs);
    cr->max_rel = std::max(cr->max_rel, c.max_rel);
    cr->mismatches += c.bad;
    cr->not_written += c.unwritten;
    cr->overruns += c.past_end ? 1 : 0;
    if (c.pass() || r.has_mismatch || !c.has_first)
        return;
    r.has_mismatch = true;
    Mismatch& m = r.mismatch;
    m.case_name = name;
    m.seed = seed;
    m.index = c.index;
    m.expected = c.expected;
    m.got = c.got;
    m.digits = Elem<T>::digits();
    m.expected_text = c.expected_text;
    m.got_text = c.got_text;
    m.note = c.note;
}

inline void json_device(Json& j, const DeviceInfo& d)
{
    j.key("device");
    if (!d.known) {
        j.null();
        return;
    }
    j.begin_object();
    j.key("name").str(d.name);
    j.key("cc").str(fmt("%d.%d", d.cc_major, d.cc_minor));
    j.key("sm_count").integer(d.sm_count);
    j.key("peak_gbps");
    if (d.peak_gbps > 0)
        j.num(std::round(d.peak_gbps * 10) / 10);
    else
        j.null();
    j.key("peak_tflops").begin_object();
    const char* keys[] = {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8"};
    for (const char* k : keys) {
        double v = peak_of(d.peaks, k);
        if (v > 0)
            j.key(k).num(v);
    }
    j.end_object();
    j.end_object();
}

inline void json_cases(Json& j, const Result& r)
{
    j.key("cases").begin_array();
    for (const CaseResult& c : r.cases) {
        j.begin_object();
        j.key("name").str(c.name);
        j.key("status").str(c.pass ? "pass" : "wrong");
        j.key("max_abs_err").num(c.max_abs);
        j.key("max_rel_err").num(c.max_rel);
        j.key("mismatches").integer((long long)c.mismatches);
        j.key("not_written").integer((long long)c.not_written);
        j.key("overruns").integer((long long)c.overruns);
        j.end_object();
    }
    j.end_array();
}

inline void json_mismatch(Json& j, const Mismatch& m)
{
    j.key("mismatch").begin_object();
    j.key("case").str(m.case_name);
    j.key("seed").integer((long long)m.seed);
    j.key("index").integer((long long)m.index);
    j.key("expected").num(m.expected, m.digits);
    j.key("got").num(m.got, m.digits);
    j.key("expected_text").str(m.expected_text);
    j.key("got_text").str(m.got_text);
    if (!m.note.empty())
        j.key("note").str(m.note);
    j.end_object();
}

inline void json_timing(Json& j, const Result& r)
{
    /* Events resolve about half a microsecond and hold a float: six
     * significant digits say all there is. */
    const int dig = 6;
    const Stats& s = r.timing.stats;
    j.key("timing").begin_object();
    j.key("samples").integer((long long)s.n);
    j.key("median_ms").num(s.median, dig);
    j.key("min_ms").num(s.min, dig);
    j.key("mean_ms").num(s.mean, dig);
    j.key("stdev_ms").num(s.stdev, dig);
    j.key("noise_pct").num(s.noise_pct, 3);
    j.key("l2_flushed").boolean(r.timing.l2_flushed);
    if (r.timing.emulated)
        j.key("emulated").boolean(true);
    else if (r.timing.batched > 1)
        j.key("batched").integer(r.timing.batched);
    j.end_object();

    j.key("work").begin_object();
    j.key("bytes").num(r.work.bytes);
    j.key("flops").num(r.work.flops);
    j.key("calls").integer(r.calls);
    j.key("peak").str(r.work.peak ? r.work.peak : "fp32");
    j.end_object();

    /* Rates only from GPU time: emulation time says nothing about them. */
    double sec = s.median * 1e-3;
    bool rated = !r.timing.emulated && sec > 0;
    double gbps = rated ? r.work.bytes / sec / 1e9 : NAN;
    double tflops = rated ? r.work.flops / sec / 1e12 : NAN;
    double peak_bw = r.device.peak_gbps;
    double peak_fl = peak_of(r.device.peaks, r.work.peak ? r.work.peak : "fp32");
    j.key("derived").begin_object();
    j.key("gbps").num(gbps, dig);
    j.key("pct_peak_bw").num(peak_bw > 0 ? 100.0 * gbps / peak_bw : NAN, dig);
    j.key("tflops").num(tflops, dig);
    j.key("pct_peak_flops").num(peak_fl > 0 ? 100.0 * tflops / peak_fl : NAN, dig);
    j.end_object();
}

/* The result's key (empty when the runner gave none).  The runner puts a
 * fresh random key in a pipe named by CUDALAB_RESULT_KEY_FD; the harness
 * takes it in a constructor that runs ahead of ordinary static
 * initialisation, closes the pipe and removes the variable, so that the
 * learner's code, which runs later in the same process, finds neither.  A
 * result written by anything but the harness then lacks the key, and the
 * runner does not take it. */
inline std::string& result_key()
{
    static std::string key;
    return key;
}

inline void read_result_key()
{
    static bool done = false;
    const char* env = getenv("CUDALAB_RESULT_KEY_FD");
    if (done || !env)
        return;
    done = true;
    char* end = nullptr;
    long fd = strtol(env, &end, 10);
    if (*end == '\0' && fd >= 0 && fd < 1 << 20) {
        char buf[80];
        size_t got = 0;
        for (;;) {
            ssize_t n = read((int)fd, buf + got, sizeof buf - 1 - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0 || (got += (size_t)n) >= sizeof buf - 1)
                break;
        }
        close((int)fd);
        buf[got] = '\0';
        result_key().assign(buf, strcspn(buf, "\n"));
    }
    unsetenv("CUDALAB_RESULT_KEY_FD");
}

__attribute__((constructor(101))) static void read_result_key_early()
{
    read_result_key();
}

/* The whole result object, in the key order documented at the top. */
inline std::string result_json(const Result& r)
{
    Json j;
    j.begin_object();
    j.key("schema").integer(1);
    if (!result_key().empty())
        j.key("key").str(result_key());
    j.key("exercise").str(r.exercise);
    j.key("status").str(status_name(result_status(r)));
    j.key("backend").str(r.simt ? "simt" : "gpu");
    json_device(j, r.device);
    json_cases(j, r);
    if (r.has_mismatch && result_status(r) == Status::wrong)
        json_mismatch(j, r.mismatch);
    if (result_status(r) == Status::runtime_error) {
        j.key("error").begin_object();
        j.key("name").str(r.has_error ? r.error.name : "no_cases");
        j.key("message").str(r.has_error ? r.error.message
                                         : "the harness checked no case");
        j.key("where").str(r.has_error ? r.error.where : "");
        j.end_object();
    }
    if (r.has_timing)
        json_timing(j, r);
    j.end_object();
    return j.text();
}

/* Writes json and a newline to the descriptor in CUDALAB_RESULT_FD, or to
 * stdout when it is unset or unusable (saying why on stderr).  The
 * descriptor itself stays open.  Returns 0 on success. */
inline int write_result(const std::string& json)
{
    const char* env = getenv("CUDALAB_RESULT_FD");
    FILE* f = nullptr;
    if (env && *env) {
        char* end = nullptr;
        long fd = strtol(env, &end, 10);
        int copy = (*end == '\0' && fd >= 0 && fd < 1 << 20) ? dup((int)fd) : -1;
        if (copy >= 0)
            f = fdopen(copy, "w");
        if (!f) {
            if (copy >= 0)
                close(copy);
            fprintf(stderr, "lab: CUDALAB_RESULT_FD=%s is not an open file "
                            "descriptor; writing the result to stdout\n", env);
        }
    }
    if (!f) {
        fflush(stdout);
        int ok = fputs(json.c_str(), stdout) >= 0 && fputc('\n', stdout) != EOF &&
                 fflush(stdout) == 0;
        return ok ? 0 : -1;
    }
    int ok = fputs(json.c_str(), f) >= 0 && fputc('\n', f) != EOF;
    ok = (fclose(f) == 0) && ok;
    return ok ? 0 : -1;
}

/* ------------------------------------------------------------ arguments */

enum class Mode { check, bench };

struct Options {
    Mode mode = Mode::check;
    uint64_t seed = 1;
};

/* Parses --mode check|bench and --seed N (also as --mode=... / --seed=...).
 * Returns false with *err set on anything else. */
inline bool parse_args(int argc, char** argv, Options* o, std::string* err)
{
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i], val;
        size_t eq = a.find('=');
        bool inline_val = a.compare(0, 2, "--") == 0 && eq != std::string::npos;
        if (inline_val) {
            val = a.substr(eq + 1);
            a = a.substr(0, eq);
        }
        if (a != "--mode" && a != "--seed") {
            *err = fmt("unknown argument \"%s\" (usage: --mode check|bench "
                       "[--seed N])", argv[i]);
            return false;
        }
        if (!inline_val) {
            if (i + 1 >= argc) {
                *err = a + " needs a value";
                return false;
            }
            val = argv[++i];
        }
        if (a == "--mode") {
            if (val == "check")
                o->mode = Mode::check;
            else if (val == "bench")
                o->mode = Mode::bench;
            else {
                *err = "--mode must be check or bench, not \"" + val + "\"";
                return false;
            }
            continue;
        }
        char* end = nullptr;
        errno = 0;
        unsigned long long s = strtoull(val.c_str(), &end, 10);
        if (val.empty() || val[0] == '-' || *end != '\0' || errno == ERANGE) {
            *err = "--seed must be a non-negative integer, not \"" + val + "\"";
            return false;
        }
        o->seed = (uint64_t)s;
    }
    return true;
}

/* --------------------------------------------------------- device arrays */

inline void check_cuda(cudaError_t e, const char* what);

/* A counter shared by device arrays and lab.call: which came first. */
inline uint64_t next_serial()
{
    static uint64_t n = 0;
    return ++n;
}

/* Makes `dev` the current device for the life of the scope and restores
 * the previous one after it; dev < 0 leaves the current device alone. */
class DeviceScope {
public:
    explicit DeviceScope(int dev)
    {
        if (dev < 0 || cudaGetDevice(&prev_) != cudaSuccess) {
            prev_ = -1;
            return;
        }
        if (dev != prev_)
            check_cuda(cudaSetDevice(dev), "making a device current");
    }
    ~DeviceScope()
    {
        if (prev_ >= 0)
            cudaSetDevice(prev_);
    }
    DeviceScope(const DeviceScope&) = delete;
    DeviceScope& operator=(const DeviceScope&) = delete;

private:
    int prev_ = -1;
};

/* A device allocation of n elements plus `guard` elements after them. */
template <class T> class DeviceArray {
public:
    DeviceArray() = default;
    /* dev >= 0: allocated on that device (the current one is restored). */
    DeviceArray(size_t n, size_t guard, const T* host, int dev = -1)
        : n_(n), guard_(guard), serial_(next_serial()), fresh_(!host), dev_(dev)
    {
        DeviceScope on(dev_);
        size_t total = (n + guard) * sizeof(T);
        check_cuda(cudaMalloc((void**)&p_, total ? total : 1), "cudaMalloc");
        if (host) {
            check_cuda(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice),
                       "copying an input to the device");
            if (guard)
                check_cuda(cudaMemset(p_ + n, Elem<T>::canary_byte(), guard * sizeof(T)),
                           "filling a guard with the canary");
        } else if (total) {
            check_cuda(cudaMemset(p_, Elem<T>::canary_byte(), total),
                       "filling an output with the canary");
        }
    }
    ~DeviceArray()
    {
        if (p_) {
            DeviceScope on(dev_);
            cudaFree(p_);
        }
    }
    DeviceArray(const DeviceArray&) = delete;
    DeviceArray& operator=(const DeviceArray&) = delete;
    DeviceArray(DeviceArray&& o) noexcept
        : p_(o.p_), n_(o.n_), guard_(o.guard_), serial_(o.serial_), fresh_(o.fresh_),
          dev_(o.dev_)
    {
        o.p_ = nullptr;
    }
    DeviceArray& operator=(DeviceArray&& o) noexcept
    {
        std::swap(p_, o.p_);
        std::swap(n_, o.n_);
        std::swap(guard_, o.guard_);
        std::swap(serial_, o.serial_);
        std::swap(fresh_, o.fresh_);
        std::swap(dev_, o.dev_);
        return *this;
    }

    T* get() const { return p_; }
    operator T*() const { return p_; }
    size_t size() const { return n_; }
    size_t guard() const { return guard_; }
    /* Order of creation among all arrays (and lab.call's, see Lab). */
    uint64_t serial() const { return serial_; }
    /* True for lab::output: the whole array started as canary. */
    bool fresh() const { return fresh_; }
    /* The device it lives on; -1: the one current when it was made. */
    int device() const { return dev_; }

    /* Fills the n elements (not the guard) with `byte`. */
    void refill(unsigned char byte) const
    {
        DeviceScope on(dev_);
        if (n_)
            check_cuda(cudaMemset(p_, byte, n_ * sizeof(T)),
                       "filling an output with the second canary");
    }

    /* The n elements followed by the guard. */
    std::vector<T> download() const
    {
        std::vector<T> h(n_ + guard_);
        if (!h.empty())
            check_cuda(cudaMemcpy(h.data(), p_, h.size() * sizeof(T),
                                  cudaMemcpyDeviceToHost),
                       "copying an output back to the host");
        return h;
    }

private:
    T* p_ = nullptr;
    size_t n_ = 0, guard_ = 0;
    uint64_t serial_ = 0;
    bool fresh_ = false;
    int dev_ = -1;
};

template <class T> inline DeviceArray<T> to_device(const std::vector<T>& h)
{
    return DeviceArray<T>(h.size(), 0, h.data());
}
template <class T> inline DeviceArray<T> output(size_t n)
{
    return DeviceArray<T>(n, kGuard, nullptr);
}
template <class T> inline DeviceArray<T> inout(const std::vector<T>& h)
{
    return DeviceArray<T>(h.size(), kGuard, h.data());
}
/* The same on device dev (lab.devices(n) must have asked for it). */
template <class T> inline DeviceArray<T> to_device_on(int dev, const std::vector<T>& h)
{
    return DeviceArray<T>(h.size(), 0, h.data(), dev);
}
template <class T> inline DeviceArray<T> output_on(int dev, size_t n)
{
    return DeviceArray<T>(n, kGuard, nullptr, dev);
}
template <class T> inline DeviceArray<T> inout_on(int dev, const std::vector<T>& h)
{
    return DeviceArray<T>(h.size(), kGuard, h.data(), dev);
}

/* ------------------------------------------------------------------ Lab */

class Lab;
inline Lab*& current_lab()
{
    static Lab* lab = nullptr;
    return lab;
}

class Lab {
public:
    Lab(const char* exercise, int argc, char** argv)
    {
        current_lab() = this;
        result_.exercise = exercise;
        std::string err;
        if (!parse_args(argc, argv, &opt_, &err)) {
            fprintf(stderr, "%s: %s\n", argc > 0 ? argv[0] : "harness", err.c_str());
            die("usage", err, "the command line");
        }
        query_device();
    }
    ~Lab()
    {
        if (flush_)
            cudaFree(flush_);
        if (ev_[0])
            cudaEventDestroy(ev_[0]);
        if (ev_[1])
            cudaEventDestroy(ev_[1]);
        if (current_lab() == this)
            current_lab() = nullptr;
    }
    Lab(const Lab&) = delete;
    Lab& operator=(const Lab&) = delete;

    bool checking() const { return opt_.mode == Mode::check; }
    bool benching() const { return opt_.mode == Mode::bench; }
    bool on_gpu() const { return !result_.simt; }
    uint64_t seed() const { return opt_.seed; }
    const DeviceInfo& device() const { return result_.device; }
    const Result& result() const { return result_; }

    std::vector<uint64_t> seeds() const
    {
        if (benching())
            return {opt_.seed};
        return {opt_.seed, opt_.seed + 1, opt_.seed + 2};
    }

    std::vector<long long> sizes(std::initializer_list<long long> check,
                                 long long gpu_bench) const
    {
        if (checking())
            return std::vector<long long>(check);
        if (on_gpu())
            return {gpu_bench};
        return {check.size() ? std::max(check) : gpu_bench};
    }

    void begin_case(const std::string& name, uint64_t seed)
    {
        last_solve_ = nullptr;
        case_ = name;
        case_seed_ = seed;
        progress(fmt("case %s, seed %llu", name.c_str(), (unsigned long long)seed));
    }

    /* The harness needs n devices (0 .. n-1): fewer ends the program with
     * a runtime_error naming both counts.  From then on lab.call and
     * lab.expect wait for every one of them, and lab.call makes the device
     * that was current before it current again (the learner's code may
     * leave another one current). */
    void devices(int n)
    {
        int count = 0;
        cuda(cudaGetDeviceCount(&count), "counting the devices");
        if (n < 1 || count < n)
            die("too_few_devices",
                fmt("this exercise needs %d devices and the machine has %d%s", n, count,
                    result_.simt ? " (simt: set CUDALAB_SIMT_GPUS)" : ""),
                "counting the devices");
        devices_ = n;
    }
    int device_count() const { return devices_; }

    /* Ends the program with status runtime_error when e is an error. */
    void cuda(cudaError_t e, const char* what)
    {
        if (e != cudaSuccess)
            die(cudaGetErrorName(e), cudaGetErrorString(e), where(what));
    }

    template <class F> void call(F&& fn, const char* label = "solve")
    {
        if (strcmp(label, "solve") == 0) {
            result_.calls++;
            last_solve_ = fn;
            last_solve_serial_ = next_serial();
        }
        (void)cudaGetLastError(); /* not the learner's: clear it */
        int current = 0;
        if (devices_ > 1)
            cuda(cudaGetDevice(&current), "reading the current device");
        fn();
        cuda(cudaGetLastError(), fmt("launching in %s()", label).c_str());
        sync_all(fmt("running %s()", label).c_str());
        if (devices_ > 1)
            cuda(cudaSetDevice(current), "making the harness's device current again");
    }

    /* cudaDeviceSynchronize on every device lab.devices asked for. */
    void sync_all(const char* what)
    {
        if (devices_ <= 1) {
            cuda(cudaDeviceSynchronize(), what);
            return;
        }
        DeviceScope keep(0);
        for (int d = 0; d < devices_; d++) {
            cuda(cudaSetDevice(d), "making a device current");
            cuda(cudaDeviceSynchronize(), fmt("%s on device %d", what, d).c_str());
        }
    }

    template <class T>
    bool expect(const DeviceArray<T>& got, const std::vector<T>& want, Tol tol)
    {
        sync_all("waiting for the output");
        std::vector<T> h = got.download();
        size_t n = std::min(got.size(), want.size());
        Compare c = compare_host(h.data(), want.data(), n, tol);
        if (got.size() != want.size()) {
            c.bad++;
            c.note = fmt("harness error: output of %zu elements, reference of %zu",
                         got.size(), want.size());
        }
        check_guard(h.data() + got.size(), got.guard(), got.size(), c);
        recheck_unwritten(got, h, want, n, c);
        record_compare<T>(result_, case_, case_seed_, c);
        return c.pass();
    }

    /* The same comparison for values that are already on the host (a host
     * function's results, or numbers the harness derived from an output):
     * no guard, no canary. */
    template <class T>
    bool expect_host(const std::vector<T>& got, const std::vector<T>& want, Tol tol,
                     const std::string& note = std::string())
    {
        size_t n = std::min(got.size(), want.size());
        Compare c = compare_host(got.data(), want.data(), n, tol);
        if (got.size() != want.size()) {
            c.bad++;
            c.note = fmt("harness error: %zu values, reference of %zu", got.size(),
                         want.size());
        }
        if (!c.pass() && c.note.empty())
            c.note = note;
        record_compare<T>(result_, case_, case_seed_, c);
        return c.pass();
    }

    template <class F> void time(F&& fn, Work w)
    {
        /* The time of a wrong answer means nothing: skip it. */
        if (!benching() || result_status(result_) == Status::wrong)
            return;
        result_.work = w;
        progress(fmt("timing %s", case_.c_str()));
        auto counted = [&] {
            result_.calls++;
            fn();
        };
        if (result_.simt)
            time_emulated(counted);
        else
            time_gpu(counted);
        result_.has_timing = true;
    }

    int finish()
    {
        emit();
        return exit_code(result_status(result_));
    }

    /* Writes a runtime_error result and exits 2. */
    [[noreturn]] void die(const std::string& name, const std::string& message,
                          const std::string& at)
    {
        result_.has_error = true;
        result_.error.name = name;
        result_.error.message = message;
        result_.error.where = at;
        emit();
        fflush(stdout);
        fflush(stderr);
        exit(2);
    }

private:
    /* Elements whose right answer is the canary itself pass whether or
     * not solve wrote them.  When there are any, and `got` is an output
     * that the case's last solve call wrote, solve runs once more over an
     * output refilled with the second canary: an element still holding it
     * was never written. */
    template <class T>
    void recheck_unwritten(const DeviceArray<T>& got, const std::vector<T>& h,
                           const std::vector<T>& want, size_t n, Compare& c)
    {
        std::vector<size_t> unsure;
        for (size_t i = 0; i < n; i++)
            if (is_canary(h[i]) && is_canary(want[i]))
                unsure.push_back(i);
        if (unsure.empty() || !last_solve_ || !got.fresh() ||
            got.serial() > last_solve_serial_)
            return;
        const unsigned char second = second_canary_byte<T>();
        got.refill(second);
        std::function<void()> again = last_solve_;
        call(again, "solve");
        std::vector<T> h2 = got.download();
        for (size_t i : unsure) {
            if (!is_fill(h2[i], second))
                continue;
            c.unwritten++;
            if (c.bad++ != 0)
                continue;
            note_first(c, i, h[i], want[i]);
            c.got_text = "(not written)";
            c.note = "never written: the right answer here equals the canary the "
                     "harness fills outputs with, so solve ran again over a "
                     "different canary, which this element still held";
        }
    }

    Options opt_;
    Result result_;
    std::string case_;
    std::function<void()> last_solve_;
    uint64_t last_solve_serial_ = 0;
    uint64_t case_seed_ = 0;
    void* flush_ = nullptr;
    size_t flush_bytes_ = 0;
    cudaEvent_t ev_[2] = {nullptr, nullptr};
    bool emitted_ = false;
    int devices_ = 1;

    /* Where the run is, for the runner's progress line: one line in the
     * file CUDALAB_PROGRESS names, replaced at each step.  Best effort. */
    static void progress(const std::string& what)
    {
        const char* path = getenv("CUDALAB_PROGRESS");
        FILE* f = path && *path ? fopen(path, "w") : nullptr;

        if (!f)
            return;
        fprintf(f, "%s\n", what.c_str());
        fclose(f);
    }

    void emit()
    {
        if (emitted_)
            return;
        emitted_ = true;
        write_result(result_json(result_));
    }

    std::string where(const char* what) const
    {
        if (case_.empty())
            return what;
        return fmt("%s (case %s, seed %llu)", what, case_.c_str(),
                   (unsigned long long)case_seed_);
    }

    int attr(cudaDeviceAttr a)
    {
        int v = 0;
        if (cudaDeviceGetAttribute(&v, a, 0) != cudaSuccess)
            v = 0;
        return v;
    }

    void query_device()
    {
        int count = 0;
        cuda(cudaGetDeviceCount(&count), "looking for a CUDA device");
        if (count < 1)
            die("cudaErrorNoDevice", "no CUDA-capable device is detected",
                "looking for a CUDA device");
        cudaDeviceProp p;
        memset(&p, 0, sizeof p);
        cuda(cudaGetDeviceProperties(&p, 0), "reading the device properties");
        DeviceInfo& d = result_.device;
        d.known = true;
        d.name = p.name;
        d.cc_major = attr(cudaDevAttrComputeCapabilityMajor);
        d.cc_minor = attr(cudaDevAttrComputeCapabilityMinor);
        d.sm_count = attr(cudaDevAttrMultiProcessorCount);
        d.l2_bytes = attr(cudaDevAttrL2CacheSize);
        d.peak_gbps = peak_gbps(attr(cudaDevAttrMemoryClockRate),
                                attr(cudaDevAttrGlobalMemoryBusWidth));
        d.peaks = find_peaks(p.name);
        result_.simt = d.name.compare(0, 4, "simt") == 0;
        (void)cudaGetLastError(); /* an attribute the device lacks is no error */
    }

    template <class F> void time_emulated(F& fn)
    {
        (void)cudaGetLastError();
        auto t0 = std::chrono::steady_clock::now();
        fn();
        cuda(cudaGetLastError(), "launching the timed run");
        sync_all("running the timed run");
        std::chrono::duration<double, std::milli> ms =
            std::chrono::steady_clock::now() - t0;
        result_.timing.stats = summarize({ms.count()});
        result_.timing.emulated = true;
        result_.timing.l2_flushed = false;
    }

    void timing_setup()
    {
        if (!flush_) {
            long long l2 = result_.device.l2_bytes > 0 ? result_.device.l2_bytes
                                                       : 64ll << 20;
            flush_bytes_ = (size_t)(2 * l2);
            cuda(cudaMalloc(&flush_, flush_bytes_), "allocating the L2 flush buffer");
        }
        for (cudaEvent_t& e : ev_)
            if (!e)
                cuda(cudaEventCreate(&e), "creating timing events");
    }

    /* One sample: flush the L2, then k calls between two events; returns
     * milliseconds per call. */
    template <class F> double sample(F& fn, int k)
    {
        static int flip;
        flip ^= 1;
        cuda(cudaMemsetAsync(flush_, flip, flush_bytes_, 0), "flushing the L2");
        cuda(cudaEventRecord(ev_[0], 0), "recording a timing event");
        for (int i = 0; i < k; i++)
            fn();
        cuda(cudaGetLastError(), "launching a timed run");
        cuda(cudaEventRecord(ev_[1], 0), "recording a timing event");
        cuda(cudaEventSynchronize(ev_[1]), "running a timed run");
        float ms = 0;
        cuda(cudaEventElapsedTime(&ms, ev_[0], ev_[1]), "reading a timing event");
        return (double)ms / k;
    }

    template <class F> void time_gpu(F& fn)
    {
        const TimingRule rule;
        timing_setup();
        (void)cudaGetLastError();
        for (int i = 0; i < 2; i++)
            fn();
        cuda(cudaGetLastError(), "launching a warm-up run");
        cuda(cudaDeviceSynchronize(), "running a warm-up run");
        std::vector<double> est;
        for (int i = 0; i < 3; i++)
            est.push_back(sample(fn, 1));
        int k = batch_size(summarize(est).median, rule);

        std::vector<double> ms;
        Stats s;
        auto t0 = std::chrono::steady_clock::now();
        for (;;) {
            ms.push_back(sample(fn, k));
            s = summarize(ms);
            std::chrono::duration<double> el = std::chrono::steady_clock::now() - t0;
            if (timing_done(s, el.count(), rule))
                break;
        }
        result_.timing.stats = s;
        result_.timing.l2_flushed = true;
        result_.timing.batched = k;
    }
};

/* -------------------------------------------------------- simt counters */

/* simt's profiler counters (docs/architecture.md, "simt's counters JSON"), summed over
 * every kernel of this process so far. */
struct SimtCounters {
    bool available = false; /* false on a GPU: every count is 0 */
    unsigned long long launches = 0, warp_instructions = 0;
    unsigned long long global_load_requests = 0, global_store_requests = 0;
    unsigned long long global_load_sectors = 0, global_store_sectors = 0;
    unsigned long long shared_load_requests = 0, shared_store_requests = 0;
    unsigned long long shared_bank_conflicts = 0;
};

/* The counters now; on simt the first call turns counting on (when
 * CUDALAB_SIMT_COUNTERS has not), so what ran before it is not counted. */
inline SimtCounters simt_counters()
{
    SimtCounters c;
    if (!cudalab_simt_counter)
        return c;
    struct {
        const char* name;
        unsigned long long* value;
    } fields[] = {
        {"launches", &c.launches},
        {"warp_instructions", &c.warp_instructions},
        {"global_load_requests", &c.global_load_requests},
        {"global_store_requests", &c.global_store_requests},
        {"global_load_sectors", &c.global_load_sectors},
        {"global_store_sectors", &c.global_store_sectors},
        {"shared_load_requests", &c.shared_load_requests},
        {"shared_store_requests", &c.shared_store_requests},
        {"shared_bank_conflicts", &c.shared_bank_conflicts},
    };
    c.available = true;
    for (auto& f : fields)
        if (cudalab_simt_counter(f.name, f.value) != 0)
            c.available = false;
    return c;
}

/* What happened between two readings. */
inline SimtCounters operator-(const SimtCounters& a, const SimtCounters& b)
{
    SimtCounters d;
    d.available = a.available && b.available;
    d.launches = a.launches - b.launches;
    d.warp_instructions = a.warp_instructions - b.warp_instructions;
    d.global_load_requests = a.global_load_requests - b.global_load_requests;
    d.global_store_requests = a.global_store_requests - b.global_store_requests;
    d.global_load_sectors = a.global_load_sectors - b.global_load_sectors;
    d.global_store_sectors = a.global_store_sectors - b.global_store_sectors;
    d.shared_load_requests = a.shared_load_requests - b.shared_load_requests;
    d.shared_store_requests = a.shared_store_requests - b.shared_store_requests;
    d.shared_bank_conflicts = a.shared_bank_conflicts - b.shared_bank_conflicts;
    return d;
}

/* Routes a failed CUDA call to the running Lab (runtime_error, exit 2). */
inline void check_cuda(cudaError_t e, const char* what)
{
    if (e == cudaSuccess)
        return;
    if (current_lab())
        current_lab()->cuda(e, what);
    fprintf(stderr, "lab: %s: %s (%s)\n", what, cudaGetErrorString(e),
            cudaGetErrorName(e));
    exit(2);
}

} /* namespace lab */

#undef LAB_PRINTF

#endif
