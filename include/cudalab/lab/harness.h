/* Part of cudalab/lab.h, the one header exercises include: the Lab: cases,
 * calls, checks, benches and the result; simt's counters. */
#ifndef CUDALAB_LAB_HARNESS_H
#define CUDALAB_LAB_HARNESS_H

#include "base.h"
#include "device.h"
#include "judge.h"
#include "random.h"
#include "result.h"

namespace lab {
namespace {

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
        each_.resize(judge_.checking() ? judge_.workers() : 0);
        if (judge_.working())
            judge_.give_hello(result_.exercise, opt_.mode, opt_.seed);
        query_device();
        for (size_t k = 0; k < each_.size(); k++)
            judge_.take_hello(k, result_.exercise, opt_.mode, opt_.seed);
        if (judge_.checking() && !judge_.any_live())
            end_checker();
    }
    ~Lab()
    {
        if (flush_)
            cudaFree(flush_);
        for (cudaEvent_t e : ev_)
            if (e)
                cudaEventDestroy(e);
        if (current_lab() == this)
            current_lab() = nullptr;
    }
    Lab(const Lab&) = delete;
    Lab& operator=(const Lab&) = delete;

    bool checking() const { return opt_.mode == Mode::check; }
    bool benching() const { return opt_.mode == Mode::bench; }
    bool on_gpu() const { return !result_.simt; }
    /* True in a checker (see judge.h): the process that runs none of the
     * learner's code and compares the outputs the worker sends.  Harness
     * code that calls the learner's functions outside lab.call and
     * lab.time, or times anything itself, skips that work here; the values
     * it would then pass to lab.expect_host are the worker's anyway. */
    bool judging() const { return judge_.checking(); }
    /* False where no output is compared: in a worker (the checker
     * compares) and in a predicted bench.  Harness code may then skip
     * computing the reference results it passes to lab.expect (their
     * contents, and their sizes, are not read there). */
    bool reference() const { return !judge_.working() && !predicting_; }
    /* A bench on simt with its time model on (CUDALAB_SIMT_PREDICT): the
     * GPU bench size, timed on the modelled timeline, nothing checked. */
    bool predicting() const { return predicting_; }
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
        if (on_gpu() || predicting_)
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
        enable_peers();
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
        /* a predicted bench checks nothing: lab.time runs what it times */
        if (predicting_)
            return;
        bool learner = strcmp(label, "solve") == 0;
        if (learner) {
            result_.calls++;
            last_solve_ = fn;
            last_solve_serial_ = next_serial();
        }
        /* The checker runs none of the learner's code: the outputs the
         * worker sends stand in for what fn would have written. */
        if (learner && judge_.checking())
            return;
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
        if (predicting_)
            return record_unchecked();
        if (judge_.working())
            return expect_in_worker(got);
        if (judge_.checking())
            return expect_in_checker(got, want, tol);
        sync_all("waiting for the output");
        std::vector<T> h = got.download(), h2;
        Compare c = compare_output(got, want, tol, h);
        std::vector<size_t> unsure = canary_answers(h, want, std::min(got.size(), want.size()));
        if (recheck_due(got, unsure)) {
            h2 = rerun_over_second_canary(got);
            count_unwritten(unsure, h, h2, want, c);
        }
        record_compare<T>(result_, case_, case_seed_, c);
        return c.pass();
    }

    /* The same comparison for values that are already on the host (a host
     * function's results, or numbers the harness derived from an output):
     * no guard, no canary. */
    template <class T>
    bool expect_host(const std::vector<T>& values, const std::vector<T>& want, Tol tol,
                     const std::string& note = std::string())
    {
        if (predicting_)
            return record_unchecked();
        if (judge_.working()) {
            /* host values are never compared again: run ahead, no wait */
            bool waits = !judge_.ahead();
            judge_.give_output<T>(case_, case_seed_, false, values, values.size(), 0, waits);
            return record_verdict<T>(!waits || judge_.take_verdict() == Verdict::right);
        }
        if (!judge_.checking()) {
            Compare c = compare_values(values, want, tol, note);
            record_compare<T>(result_, case_, case_seed_, c);
            return c.pass();
        }
        Compare shown, before;
        bool all = true, any = false;
        std::vector<T> seen;
        for (size_t k = 0; k < each_.size(); k++) {
            std::vector<T> got;
            if (!judge_.take_output(k, case_, case_seed_, false,
                                    std::max(values.size(), want.size()), 0, &got))
                continue;
            Compare c = any && same_bytes(got, seen) ? before
                                                     : compare_values(got, want, tol, note);
            record_compare<T>(each_[k], case_, case_seed_, c);
            note_worst(c, &shown, &all, &any);
            before = c;
            seen.swap(got);
        }
        return give_verdicts<T>(shown, all);
    }

    template <class F> void time(F&& fn, Work w)
    {
        /* The time of a wrong answer means nothing: skip it. */
        if (!benching() || result_status(result_) == Status::wrong)
            return;
        result_.work = w;
        progress(fmt("timing %s", case_.c_str()));
        if (judge_.checking()) {
            for (size_t k = 0; k < each_.size(); k++)
                each_[k].has_timing = judge_.take_timing(k, &each_[k].timing, &each_[k].calls);
            if (!judge_.any_live())
                end_checker();
            result_.has_timing = true;
            return;
        }
        auto counted = [&] {
            result_.calls++;
            fn();
        };
        if (result_.simt && !predicting_)
            time_emulated(counted);
        else
            time_gpu(counted);
        result_.has_timing = true;
        if (judge_.working())
            judge_.give_timing(result_.timing, result_.calls);
    }

    /* Writes the result (a worker sends its end instead) and returns the
     * exit code for main to return. */
    int finish()
    {
        /* A worker's exit says only that its harness ran to its end: the
         * verdicts it was told are the checker's on every worker's
         * outputs together (one wrong makes all go on as wrong), and the
         * checker's result says what this worker's own were. */
        if (judge_.working()) {
            judge_.give_finish(result_.calls);
            return 0;
        }
        for (size_t k = 0; k < each_.size(); k++)
            judge_.take_finish(k, &each_[k].calls);
        emit();
        return exit_code(result_status(result_));
    }

    /* Writes a runtime_error result and exits 2; a worker sends the error
     * to the checker instead. */
    [[noreturn]] void die(const std::string& name, const std::string& message,
                          const std::string& at)
    {
        if (judge_.working()) {
            judge_.give_error(name, message, at);
            fflush(stdout);
            fflush(stderr);
            exit(2);
        }
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
     * not solve wrote them: their indices. */
    template <class T>
    static std::vector<size_t> canary_answers(const std::vector<T>& h,
                                              const std::vector<T>& want, size_t n)
    {
        std::vector<size_t> unsure;
        for (size_t i = 0; i < n; i++)
            if (is_canary(h[i]) && is_canary(want[i]))
                unsure.push_back(i);
        return unsure;
    }

    /* When there are such elements and `got` is an output that the case's
     * last solve call wrote, solve runs once more over an output refilled
     * with the second canary: an element still holding it was never
     * written. */
    template <class T>
    bool recheck_due(const DeviceArray<T>& got, const std::vector<size_t>& unsure) const
    {
        return !unsure.empty() && last_solve_ && got.fresh() &&
               got.serial() <= last_solve_serial_;
    }

    template <class T> std::vector<T> rerun_over_second_canary(const DeviceArray<T>& got)
    {
        got.refill(second_canary_byte<T>());
        std::function<void()> again = last_solve_;
        call(again, "solve");
        return got.download();
    }

    template <class T>
    static void count_unwritten(const std::vector<size_t>& unsure, const std::vector<T>& h,
                                const std::vector<T>& h2, const std::vector<T>& want,
                                Compare& c)
    {
        for (size_t i : unsure) {
            if (i >= h2.size() || !is_fill(h2[i], second_canary_byte<T>()))
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

    /* The comparison of a device array's download h (count + guard
     * elements) with want, its guard included. */
    template <class T>
    static Compare compare_output(const DeviceArray<T>& got, const std::vector<T>& want,
                                  Tol tol, const std::vector<T>& h)
    {
        size_t n = std::min(got.size(), want.size());
        Compare c = compare_host(h.data(), want.data(), n, tol);
        if (got.size() != want.size()) {
            c.bad++;
            c.note = fmt("harness error: output of %zu elements, reference of %zu",
                         got.size(), want.size());
        }
        check_guard(h.data() + got.size(), got.guard(), got.size(), c);
        return c;
    }

    template <class T>
    static Compare compare_values(const std::vector<T>& got, const std::vector<T>& want,
                                  Tol tol, const std::string& note)
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
        return c;
    }

    /* A worker's lab.expect: the output goes to the checker, whose verdict
     * it returns; solve runs again over the second canary when the checker
     * asks (the worker has no reference to see that it is due). */
    template <class T> bool expect_in_worker(const DeviceArray<T>& got)
    {
        sync_all("waiting for the output");
        std::vector<T> h = got.download();
        /* an output with an element that holds the canary may be asked
         * for again; any other goes ahead when the run does */
        bool waits = !judge_.ahead() ||
                     std::any_of(h.begin(), h.begin() + (std::ptrdiff_t)got.size(),
                                 [](const T& x) { return is_canary(x); });
        judge_.give_output(case_, case_seed_, true, h, got.size(), got.guard(), waits);
        if (!waits)
            return record_verdict<T>(true);
        Verdict v = judge_.take_verdict();
        if (v == Verdict::again) {
            h = rerun_over_second_canary(got);
            judge_.give_output(case_, case_seed_, true, h, got.size(), got.guard(), true);
            v = judge_.take_verdict();
        }
        return record_verdict<T>(v == Verdict::right);
    }

    /* A checker's lab.expect: each live worker's output compared with want
     * (and its second run over the other canary, when due), recorded as
     * that worker's; the harness goes on as if every output had been
     * right only when each was. */
    template <class T>
    bool expect_in_checker(const DeviceArray<T>& got, const std::vector<T>& want, Tol tol)
    {
        Compare shown, before;
        bool all = true, any = false;
        std::vector<T> seen;
        for (size_t k = 0; k < each_.size(); k++) {
            std::vector<T> h, h2;
            if (!judge_.take_output(k, case_, case_seed_, true, got.size(), got.guard(), &h))
                continue;
            Compare c = any && same_bytes(h, seen) ? before : compare_output(got, want, tol, h);
            const Compare compared = c;
            std::vector<size_t> unsure =
                canary_answers(h, want, std::min(got.size(), want.size()));
            bool again = recheck_due(got, unsure);
            if (again) {
                if (!judge_.waits(k))
                    Judge::void_run();
                judge_.give_verdict(k, Verdict::again);
                if (!judge_.take_output(k, case_, case_seed_, true, got.size(), got.guard(),
                                        &h2))
                    continue;
                count_unwritten(unsure, h, h2, want, c);
            }
            /* from here on the checker's array holds what the first
             * worker's did, for harness code that reads it again */
            if (!any)
                got.upload(again ? h2 : h);
            record_compare<T>(each_[k], case_, case_seed_, c);
            note_worst(c, &shown, &all, &any);
            before = compared;
            seen.swap(h);
        }
        return give_verdicts<T>(shown, all);
    }

    /* Whether a worker's output is byte for byte the one the worker before
     * it sent.  The checker then takes over that one's comparison: under
     * two schedules the outputs mostly agree, and a memcmp costs far less
     * than comparing element by element against the reference. */
    template <class T>
    static bool same_bytes(const std::vector<T>& a, const std::vector<T>& b)
    {
        return a.size() == b.size() && memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
    }

    /* Keeps in *shown the first failing comparison (else the first). */
    static void note_worst(const Compare& c, Compare* shown, bool* all, bool* any)
    {
        if (!*any || (*all && !c.pass()))
            *shown = c;
        *any = true;
        *all = *all && c.pass();
    }

    /* The checker's verdict on one step to every live worker, and in its
     * own result (what its harness goes on from). */
    template <class T> bool give_verdicts(const Compare& shown, bool all)
    {
        if (!judge_.any_live())
            end_checker();
        /* a worker that went ahead took the path of a right answer */
        for (size_t k = 0; k < each_.size() && !all; k++)
            if (judge_.live(k) && !judge_.waits(k))
                Judge::void_run();
        for (size_t k = 0; k < each_.size(); k++)
            if (judge_.waits(k))
                judge_.give_verdict(k, all ? Verdict::right : Verdict::wrong);
        record_compare<T>(result_, case_, case_seed_, shown);
        return all;
    }

    /* A worker's record of the checker's verdict (its harness reads its
     * own status: a wrong answer is not timed). */
    template <class T> bool record_verdict(bool right)
    {
        Compare c;
        c.bad = right ? 0 : 1;
        record_compare<T>(result_, case_, case_seed_, c);
        return right;
    }

    /* Ends a checker whose workers are all gone: each one's result says
     * why. */
    [[noreturn]] void end_checker()
    {
        emit();
        fflush(stdout);
        fflush(stderr);
        exit(2);
    }

    /* Worker k's result as the checker writes it: the run's own fields
     * (exercise, device, work) with that worker's cases, timing and calls,
     * and its problem when it was dropped. */
    Result worker_result(size_t k) const
    {
        Result r = result_;
        const Result& w = each_[k];
        r.cases = w.cases;
        r.has_mismatch = w.has_mismatch;
        r.mismatch = w.mismatch;
        r.has_timing = w.has_timing;
        r.timing = w.timing;
        r.calls = w.calls;
        if (!judge_.live(k)) {
            const Problem& p = judge_.problem(k);
            r.has_error = true;
            r.error = ErrorInfo{p.name, p.message, p.where};
        }
        return r;
    }

    Options opt_;
    Result result_;
    std::string case_;
    std::function<void()> last_solve_;
    uint64_t last_solve_serial_ = 0;
    uint64_t case_seed_ = 0;
    void* flush_ = nullptr;
    size_t flush_bytes_ = 0;
    /* per device: start, stop on the legacy stream, stop after the device
     * is idle */
    std::vector<cudaEvent_t> ev_;
    bool emitted_ = false;
    bool predicting_ = false;
    int devices_ = 1;
    Judge judge_;
    /* in a checker, per worker: its cases, mismatch, timing and calls */
    std::vector<Result> each_;

    /* A case of a predicted bench: recorded, not compared. */
    bool record_unchecked()
    {
        Compare c;
        record_compare<float>(result_, case_, case_seed_, c);
        for (CaseResult& e : result_.cases)
            if (e.name == case_)
                e.checked = false;
        return true;
    }

    /* Every device lab.devices asked for may access every other's memory
     * where the machine allows it (peer copies then go straight over
     * NVLink or PCIe rather than through the host). */
    void enable_peers()
    {
        DeviceScope keep(0);
        for (int d = 0; d < devices_; d++)
            for (int e = 0; e < devices_; e++) {
                int can = 0;
                if (d == e || cudaDeviceCanAccessPeer(&can, d, e) != cudaSuccess || !can)
                    continue;
                cuda(cudaSetDevice(d), "making a device current");
                cudaError_t err = cudaDeviceEnablePeerAccess(e, 0);
                if (err == cudaErrorPeerAccessAlreadyEnabled)
                    (void)cudaGetLastError();
                else
                    cuda(err, "enabling peer access between the devices");
            }
    }

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

    /* The result: a checker's one line per worker. */
    void emit()
    {
        if (emitted_ || judge_.working())
            return;
        emitted_ = true;
        if (!judge_.checking()) {
            write_result(result_json(result_));
            return;
        }
        for (size_t k = 0; k < each_.size(); k++)
            write_result(result_json(worker_result(k)));
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
        const char* predict = getenv("CUDALAB_SIMT_PREDICT");
        predicting_ = result_.simt && benching() && predict && *predict;
        if (predicting_)
            result_.predicted = predict;
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
        DeviceScope on0(0);
        if (!flush_) {
            long long l2 = result_.device.l2_bytes > 0 ? result_.device.l2_bytes
                                                       : 64ll << 20;
            flush_bytes_ = (size_t)(2 * l2);
            cuda(cudaMalloc(&flush_, flush_bytes_), "allocating the L2 flush buffer");
        }
        if (ev_.empty()) {
            ev_.assign(3 * (size_t)devices_, nullptr);
            for (int d = 0; d < devices_; d++) {
                cuda(cudaSetDevice(d), "making a device current");
                for (int i = 0; i < 3; i++)
                    cuda(cudaEventCreate(&ev_[3 * (size_t)d + i]), "creating timing events");
            }
        }
    }

    /* Records event i of each device on that device's legacy default
     * stream. */
    void record_all(int i)
    {
        DeviceScope keep(0);
        for (int d = 0; d < devices_; d++) {
            cuda(cudaSetDevice(d), "making a device current");
            cuda(cudaEventRecord(ev_[3 * (size_t)d + i], 0), "recording a timing event");
        }
    }

    /* The longest time on any device from event 0 to event i. */
    double span_ms(int i)
    {
        double most = 0;
        for (int d = 0; d < devices_; d++) {
            float ms = 0;
            cuda(cudaEventSynchronize(ev_[3 * (size_t)d + i]), "running a timed run");
            cuda(cudaEventElapsedTime(&ms, ev_[3 * (size_t)d], ev_[3 * (size_t)d + i]),
                 "reading a timing event");
            most = std::max(most, (double)ms);
        }
        return most;
    }

    /* One sample: flush the L2 (device 0's), then k calls between a start
     * event and a stop event on each device's legacy default stream; the
     * time is the longest from a start to a stop, which for several
     * devices is the span from the first device's start (all start idle
     * and together) to the last one's end.  Work on streams that do not
     * synchronise with the legacy stream (cudaStreamNonBlocking, other
     * threads') can outlive the stop event: a third event, recorded once
     * every device is idle, catches that, and when it is later than the
     * stop event by more than a synchronisation costs (30 us, or 5%), the
     * sample is the time to idle instead.  Returns milliseconds per
     * call. */
    template <class F> double sample(F& fn, int k)
    {
        static int flip;
        flip ^= 1;
        {
            DeviceScope on0(0);
            cuda(cudaMemsetAsync(flush_, flip, flush_bytes_, 0), "flushing the L2");
        }
        /* several devices start idle and together; one starts behind the
         * flush on its stream, as the calls do */
        if (devices_ > 1)
            sync_all("flushing the L2");
        record_all(0);
        for (int i = 0; i < k; i++)
            fn();
        cuda(cudaGetLastError(), "launching a timed run");
        record_all(1);
        sync_all("running a timed run");
        record_all(2);
        double stop = span_ms(1), idle = span_ms(2);
        if (idle - stop > std::max(0.03, 0.05 * stop)) {
            result_.timing.outlived = true;
            return idle / k;
        }
        return stop / k;
    }

    template <class F> void time_gpu(F& fn)
    {
        const TimingRule rule;
        timing_setup();
        (void)cudaGetLastError();
        if (predicting_) {
            /* the model has no warm-up and no noise: one call, one sample */
            std::vector<double> one = {sample(fn, 1)};
            result_.timing.stats = summarize(one);
            result_.timing.l2_flushed = true;
            result_.timing.batched = 1;
            return;
        }
        for (int i = 0; i < 2; i++)
            fn();
        cuda(cudaGetLastError(), "launching a warm-up run");
        sync_all("running a warm-up run");
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
} /* namespace */
} /* namespace lab */

#endif
