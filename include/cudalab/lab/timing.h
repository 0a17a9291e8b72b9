/* Part of cudalab/lab.h, the one header exercises include: timing: samples,
 * medians and batches, and the device peaks. */
#ifndef CUDALAB_LAB_TIMING_H
#define CUDALAB_LAB_TIMING_H

#include "base.h"
#include "text.h"

namespace lab {
namespace {

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
} /* namespace */
} /* namespace lab */

#endif
