/* Part of cudalab/lab.h, the one header exercises include: the result and
 * its channel (the result pipe and its key), and the program's arguments. */
#ifndef CUDALAB_LAB_RESULT_H
#define CUDALAB_LAB_RESULT_H

#include "base.h"
#include "compare.h"
#include "json.h"
#include "timing.h"

namespace lab {

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
    bool checked = true; /* false: a predicted bench's case, not compared */
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
    /* work outlived the stop event on the legacy stream: timed to idle */
    bool outlived = false;
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
    /* the device id simt's time model predicted for: times are its model
     * estimates (empty: not a prediction) */
    std::string predicted;
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
        j.key("status").str(!c.checked ? "unchecked" : c.pass ? "pass" : "wrong");
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
    if (r.timing.outlived)
        j.key("outlived").boolean(true);
    if (!r.predicted.empty())
        j.key("predicted").str(r.predicted);
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
} /* namespace lab */

#endif
