/* Part of cudalab/lab.h, the one header exercises include: the judge: the
 * role this process has in a check, and the channel through which the
 * outputs of the learner's code reach the process that compares them.
 *
 * A harness program runs in one of three roles:
 *   alone    (CUDALAB_JUDGE unset) it compares in this process and writes
 *            the result itself: a harness run by hand, or by the tests;
 *   worker   (CUDALAB_JUDGE="worker FD") it runs the learner's code, and
 *            sends the raw bytes of every output it compares, its timing
 *            and how it ended over FD; it writes no result and computes
 *            no reference (Lab::reference() is false): the checker's
 *            verdict on each output, sent back, is what lab.expect returns;
 *   checker  (CUDALAB_JUDGE="checker FD ...") it is the same harness
 *            linked without the learner's code: it makes the same inputs
 *            and expected outputs, never calls the learner's functions,
 *            takes each worker's outputs (one descriptor per worker) in
 *            place of its own, compares them, and alone writes the result:
 *            one JSON line per worker, in the order of the descriptors.
 * cudalab starts a checker and its workers for each run (on simt, one
 * worker per schedule) and connects them, so the verdict is computed in a
 * process the learner's code never runs in.
 *
 * Run ahead ("worker-ahead FD", "checker-ahead FD ..."), a worker does not
 * wait for the verdict on an output that cannot need a second run (one
 * that holds no canary element): it goes on as if it were right, which
 * the outputs of a solution mostly are, and the workers need not move in
 * lockstep.  The output says whether its worker waits.  Should the
 * checker find such an output wrong (or the workers' outputs at one step
 * disagree), the worker has gone on down the path of a right answer, which
 * the harness did not take: the checker then ends with kVoidRun and no
 * result, and cudalab runs the check again in lockstep, whose result is
 * the one every check gets.
 *
 * The channel carries frames: magic, kind, sequence number and length,
 * then the payload, each field in the machine's own byte order (both ends
 * run on one machine).  The checker knows what it must receive next (its
 * own harness runs the same steps) and refuses anything else: a frame of
 * another kind, case, type or size, one too many, or none.  Message
 * payloads:
 *   hello    protocol, exercise, mode, seed
 *   output   case, seed, where (1 a device array, 0 host values), element
 *            code and size, count, guard, waits (1: the worker waits for
 *            the verdict), the count + guard elements
 *   verdict  (checker to worker, after each output) wrong, right, or
 *            again: solve runs once more over the second canary (the
 *            recheck of Lab::expect) and its output follows
 *   timing   samples, median, min, mean, stdev, noise, L2 flushed,
 *            batched, emulated, outlived, calls
 *   error    name, message, where (the worker ended with a runtime error)
 *   finish   calls of solve (the harness ran to its end) */
#ifndef CUDALAB_LAB_JUDGE_H
#define CUDALAB_LAB_JUDGE_H

#include "base.h"
#include "elem.h"
#include "result.h"

#include <sys/socket.h>
#include <fcntl.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace lab {
namespace {

/* ---------------------------------------------------------------- judge */

enum class Role { alone, worker, checker };

enum class Msg : uint32_t { hello = 1, output = 2, timing = 3, error = 4, finish = 5, verdict = 6 };

const uint32_t kFrameMagic = 0x4a42414c; /* "LABJ" */
const uint32_t kJudgeProtocol = 3;
const size_t kTextMax = 64 * 1024; /* any string a message carries */

/* A payload built field by field. */
class Pack {
public:
    Pack& u32(uint32_t v) { return raw(&v, sizeof v); }
    Pack& u64(uint64_t v) { return raw(&v, sizeof v); }
    Pack& f64(double v) { return raw(&v, sizeof v); }
    Pack& str(const std::string& s)
    {
        size_t n = std::min(s.size(), kTextMax);
        u32((uint32_t)n);
        return raw(s.data(), n);
    }
    Pack& raw(const void* p, size_t n)
    {
        if (n)
            bytes_.append((const char*)p, n);
        return *this;
    }
    const std::string& bytes() const { return bytes_; }

private:
    std::string bytes_;
};

/* A payload read back field by field; reading past its end marks it bad
 * and gives zeros. */
class Unpack {
public:
    explicit Unpack(const std::string& b) : b_(b) {}
    uint32_t u32()
    {
        uint32_t v = 0;
        raw(&v, sizeof v);
        return v;
    }
    uint64_t u64()
    {
        uint64_t v = 0;
        raw(&v, sizeof v);
        return v;
    }
    double f64()
    {
        double v = 0;
        raw(&v, sizeof v);
        return v;
    }
    std::string str()
    {
        uint32_t n = u32();
        if (n > kTextMax || n > b_.size() - pos_) {
            bad_ = true;
            return std::string();
        }
        std::string s = b_.substr(pos_, n);
        pos_ += n;
        return s;
    }
    bool raw(void* p, size_t n)
    {
        if (n == 0)
            return !bad_;
        if (bad_ || n > b_.size() - pos_) {
            bad_ = true;
            memset(p, 0, n);
            return false;
        }
        memcpy(p, b_.data() + pos_, n);
        pos_ += n;
        return true;
    }
    bool bad() const { return bad_; }
    /* Everything read, nothing left over. */
    bool done() const { return !bad_ && pos_ == b_.size(); }

private:
    const std::string& b_;
    size_t pos_ = 0;
    bool bad_ = false;
};

/* A checker's exit status when a run ahead went past an output that was
 * not right: nothing it saw is a result, the run is made again in lockstep. */
const int kVoidRun = 3;

/* The code of an element type in an output message: kind, size and sign
 * (integers) or digits (floating types), so a half and a bfloat16 differ. */
template <class T> inline uint32_t elem_code()
{
    uint32_t detail = Elem<T>::is_int() ? (std::numeric_limits<T>::is_signed ? 1u : 0u)
                                        : (uint32_t)Elem<T>::digits();
    return (Elem<T>::is_int() ? 1u : 2u) << 16 | (uint32_t)sizeof(T) << 8 | detail;
}

/* One end of the channel: a stream socket, so that a write to a checker
 * that is gone fails instead of raising SIGPIPE. */
class Channel {
public:
    void attach(int fd) { fd_ = fd; }
    bool attached() const { return fd_ >= 0; }
    const std::string& why() const { return why_; }

    /* Sends one frame; false (with why()) when the other end is gone. */
    bool send(Msg kind, const std::string& payload)
    {
        uint32_t head32[2] = {kFrameMagic, (uint32_t)kind};
        uint64_t head64[2] = {seq_++, (uint64_t)payload.size()};
        return put(head32, sizeof head32) && put(head64, sizeof head64) &&
               put(payload.data(), payload.size());
    }

    /* Takes the next frame into *kind and *payload.  False, with why(), at
     * the end of the stream (*ended set) or on a frame that is malformed,
     * out of sequence or longer than max (read no further). */
    bool receive(Msg* kind, std::string* payload, size_t max, bool* ended)
    {
        uint32_t head32[2];
        uint64_t head64[2];
        *ended = false;
        if (!get(head32, sizeof head32, ended))
            return false;
        if (!get(head64, sizeof head64, ended)) {
            *ended = false;
            return fail("a message that breaks off");
        }
        if (head32[0] != kFrameMagic || head64[0] != seq_)
            return fail("bytes that are not the harness's messages");
        seq_++;
        if (head64[1] > max)
            return fail(fmt("a message of %llu bytes where at most %zu were due",
                            (unsigned long long)head64[1], max));
        payload->resize((size_t)head64[1]);
        if (!get(&(*payload)[0], payload->size(), ended)) {
            *ended = false;
            return fail("a message that breaks off");
        }
        *kind = (Msg)head32[1];
        return true;
    }

    /* True when the stream ends here; false (with why()) when more comes. */
    bool at_end()
    {
        char c;
        bool ended = false;
        if (get(&c, 1, &ended))
            return fail("more than its harness sends");
        return ended;
    }

private:
    int fd_ = -1;
    uint64_t seq_ = 0;
    std::string why_;

    bool fail(const std::string& why)
    {
        why_ = why;
        return false;
    }
    bool put(const void* p, size_t n)
    {
        const char* b = (const char*)p;
        while (n > 0) {
            ssize_t k = ::send(fd_, b, n, MSG_NOSIGNAL);
            if (k < 0 && errno == EINTR)
                continue;
            if (k <= 0)
                return fail(fmt("the checker stopped reading (%s)", strerror(errno)));
            b += k;
            n -= (size_t)k;
        }
        return true;
    }
    /* Reads exactly n bytes; at end of stream before the first one, sets
     * *ended (and why()). */
    bool get(void* p, size_t n, bool* ended)
    {
        char* b = (char*)p;
        size_t got = 0;
        while (got < n) {
            ssize_t k = read(fd_, b + got, n - got);
            if (k < 0 && errno == EINTR)
                continue;
            if (k < 0)
                return fail(fmt("reading the program's outputs: %s", strerror(errno)));
            if (k == 0) {
                *ended = got == 0;
                return fail("the program ended before its harness finished");
            }
            got += (size_t)k;
        }
        return true;
    }
};

/* This process's role, from CUDALAB_JUDGE ("worker FD", or "checker FD
 * ..." with one descriptor per worker, at most kMaxWorkers), read once;
 * *fds gets the channels.  The variable is removed, and the channels are
 * closed on exec, so programs the learner's code starts inherit neither.
 * A checker makes itself undumpable: a process of the same user then
 * cannot read or write its memory or descriptors. */
const size_t kMaxWorkers = 4;

inline Role parse_role(const char* env, std::vector<int>* fds, bool* ahead)
{
    char word[16] = "";
    int at = 0;
    *ahead = false;
    if (!env || sscanf(env, "%15s%n", word, &at) != 1)
        return Role::alone;
    *ahead = strcmp(word, "worker-ahead") == 0 || strcmp(word, "checker-ahead") == 0;
    Role role = strcmp(word, "worker") == 0 || strcmp(word, "worker-ahead") == 0 ? Role::worker
                : strcmp(word, "checker") == 0 || strcmp(word, "checker-ahead") == 0
                    ? Role::checker
                    : Role::alone;
    const char* p = env + at;
    while (role != Role::alone && *p) {
        char* end = nullptr;
        long fd = strtol(p, &end, 10);
        if (end == p || fd < 0 || fd > INT32_MAX || fcntl((int)fd, F_GETFD) < 0)
            return Role::alone;
        fds->push_back((int)fd);
        p = end;
        while (*p == ' ')
            p++;
    }
    size_t most = role == Role::worker ? 1 : kMaxWorkers;
    return fds->empty() || fds->size() > most ? Role::alone : role;
}

inline Role judge_role(std::vector<int>* fds, bool* ahead)
{
    static Role role = Role::alone;
    static std::vector<int> chans;
    static bool done = false, runs_ahead = false;
    if (!done) {
        done = true;
        role = parse_role(getenv("CUDALAB_JUDGE"), &chans, &runs_ahead);
        if (role == Role::alone) {
            chans.clear();
            runs_ahead = false;
        }
        for (int fd : chans)
            fcntl(fd, F_SETFD, FD_CLOEXEC);
#if defined(__linux__)
        if (role == Role::checker)
            prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
#endif
        unsetenv("CUDALAB_JUDGE");
    }
    *fds = chans;
    *ahead = runs_ahead;
    return role;
}

/* What went wrong with a worker's stream, or the worker's own runtime
 * error as it sent it: that worker's result is the runtime error. */
struct Problem {
    std::string name, message, where;
};

/* The checker's word on one output, sent back to the worker so that the
 * harness takes the same path in both (a harness may stop a case at the
 * first wrong output): wrong, right, or "run solve again over the second
 * canary and send that output too". */
enum class Verdict : uint32_t { wrong = 0, right = 1, again = 2 };

/* The judge's side of a harness run: in a worker, what goes to the
 * checker and the checker's verdicts; in a checker, each worker's outputs
 * taken in place of its own.  A checker serves every worker of a run (on
 * simt, one per schedule) in the same steps; a worker whose stream goes
 * wrong is dropped, with its problem, and the others go on.  A take_*
 * that returns false has dropped worker k. */
class Judge {
public:
    Judge()
    {
        std::vector<int> fds;
        role_ = judge_role(&fds, &ahead_);
        chans_.resize(fds.size());
        waits_.assign(fds.size(), true);
        for (size_t k = 0; k < fds.size(); k++)
            chans_[k].attach(fds[k]);
        problems_.resize(fds.size());
        live_.assign(fds.size(), true);
    }
    bool working() const { return role_ == Role::worker; }
    /* Run ahead: a worker waits only for verdicts it may need. */
    bool ahead() const { return ahead_; }
    /* Whether worker k waits for the verdict on the output it sent last. */
    bool waits(size_t k) const { return waits_[k]; }
    bool checking() const { return role_ == Role::checker; }
    /* A checker's workers, live or not. */
    size_t workers() const { return chans_.size(); }
    bool live(size_t k) const { return live_[k]; }
    bool any_live() const { return std::find(live_.begin(), live_.end(), true) != live_.end(); }
    const Problem& problem(size_t k) const { return problems_[k]; }

    void give_hello(const std::string& exercise, Mode mode, uint64_t seed)
    {
        Pack p;
        p.u32(kJudgeProtocol).str(exercise).u32((uint32_t)mode).u64(seed);
        give(Msg::hello, p);
    }
    bool take_hello(size_t k, const std::string& exercise, Mode mode, uint64_t seed)
    {
        std::string b;
        if (!take(k, Msg::hello, &b, 256 + kTextMax))
            return false;
        Unpack u(b);
        uint32_t proto = u.u32();
        std::string ex = u.str();
        uint32_t m = u.u32();
        uint64_t s = u.u64();
        if (!u.done() || proto != kJudgeProtocol || ex != exercise || m != (uint32_t)mode ||
            s != seed)
            return diverged(k, "a start that is not this harness's (another exercise, mode "
                               "or seed)");
        return true;
    }

    /* got: the count + guard elements as the worker read them. */
    template <class T>
    void give_output(const std::string& case_name, uint64_t seed, bool device,
                     const std::vector<T>& got, size_t count, size_t guard, bool waits)
    {
        Pack p;
        p.str(case_name).u64(seed).u32(device ? 1 : 0).u32(elem_code<T>());
        p.u32((uint32_t)sizeof(T)).u64(count).u64(guard).u32(waits ? 1 : 0);
        p.raw(got.data(), (count + guard) * sizeof(T));
        give(Msg::output, p);
    }

    /* Worker k's output in place of the checker's own: a device array of
     * exactly count + guard elements, or (guard 0, device false) at most
     * `count` host values, whose number *got's size then says. */
    template <class T>
    bool take_output(size_t k, const std::string& case_name, uint64_t seed, bool device,
                     size_t count, size_t guard, std::vector<T>* got)
    {
        std::string b;
        size_t most = (count + guard) * sizeof(T) + 128 + case_name.size();
        if (!take(k, Msg::output, &b, most))
            return false;
        Unpack u(b);
        std::string name = u.str();
        uint64_t s = u.u64();
        uint32_t dev = u.u32(), code = u.u32(), size = u.u32();
        uint64_t n = u.u64(), g = u.u64();
        uint32_t w = u.u32();
        if (u.bad() || w > 1 || (!w && !ahead_))
            return diverged(k, "an output that does not say whether it waits for its verdict");
        waits_[k] = w == 1;
        if (name != case_name || s != seed || dev != (device ? 1u : 0u))
            return diverged(k, fmt("an output of another step than the harness's next "
                                   "(case %s, seed %llu)", case_name.c_str(),
                                   (unsigned long long)seed));
        if (code != elem_code<T>() || size != sizeof(T) || g != guard ||
            (device ? n != count : n > count))
            return diverged(k, fmt("an output of another type or size than the harness "
                                   "compares in case %s", case_name.c_str()));
        got->resize((size_t)(n + g));
        u.raw(got->data(), got->size() * sizeof(T));
        if (!u.done())
            return diverged(k, "an output message of the wrong length");
        return true;
    }

    /* The checker's verdict on an output, to worker k. */
    void give_verdict(size_t k, Verdict v)
    {
        Pack p;
        p.u32((uint32_t)v);
        if (live_[k] && !chans_[k].send(Msg::verdict, p.bytes()))
            drop(k, "ended_early", "the program ended before its harness finished");
    }
    /* The worker's side: the checker's verdict on the output just sent.  A
     * checker that is gone, or says something else, ends the worker. */
    Verdict take_verdict()
    {
        std::string b;
        Msg kind;
        bool ended = false;
        if (!chans_[0].receive(&kind, &b, 4, &ended) || kind != Msg::verdict)
            gone(ended ? "the checker ended" : "the checker sent something else than a verdict");
        Unpack u(b);
        uint32_t v = u.u32();
        if (!u.done() || v > (uint32_t)Verdict::again)
            gone("the checker sent something else than a verdict");
        return (Verdict)v;
    }

    void give_timing(const Timing& t, long long calls)
    {
        Pack p;
        p.u64(t.stats.n).f64(t.stats.median).f64(t.stats.min).f64(t.stats.mean);
        p.f64(t.stats.stdev).f64(t.stats.noise_pct);
        p.u32(t.l2_flushed).u32((uint32_t)t.batched).u32(t.emulated).u32(t.outlived);
        p.u64((uint64_t)calls);
        give(Msg::timing, p);
    }
    /* Worker k's timing, as measured in the worker: numbers in range,
     * nothing more is checked (times are the learner's process's word). */
    bool take_timing(size_t k, Timing* t, long long* calls)
    {
        std::string b;
        if (!take(k, Msg::timing, &b, 128))
            return false;
        Unpack u(b);
        Stats& s = t->stats;
        s.n = (size_t)u.u64();
        double* v[] = {&s.median, &s.min, &s.mean, &s.stdev, &s.noise_pct};
        bool ok = s.n >= 1 && s.n <= 1000000;
        for (double* x : v) {
            *x = u.f64();
            ok = ok && std::isfinite(*x) && *x >= 0;
        }
        t->l2_flushed = u.u32() != 0;
        t->batched = (int)u.u32();
        t->emulated = u.u32() != 0;
        t->outlived = u.u32() != 0;
        *calls = (long long)u.u64();
        if (!u.done() || !ok || t->batched < 1 || t->batched > 1000000 || *calls < 0)
            return diverged(k, "a timing that is out of range");
        return true;
    }

    void give_error(const std::string& name, const std::string& message,
                    const std::string& where)
    {
        Pack p;
        p.str(name).str(message).str(where);
        give(Msg::error, p);
    }

    void give_finish(long long calls)
    {
        Pack p;
        p.u64((uint64_t)calls);
        give(Msg::finish, p);
    }
    /* The end of worker k's harness, then the end of its stream. */
    bool take_finish(size_t k, long long* calls)
    {
        std::string b;
        if (!take(k, Msg::finish, &b, 8))
            return false;
        Unpack u(b);
        *calls = (long long)u.u64();
        if (!u.done())
            return diverged(k, "a finish message of the wrong length");
        if (!chans_[k].at_end())
            return diverged(k, chans_[k].why());
        return true;
    }

    /* A run ahead that went past an output that was not right: the
     * checker ends with no result (see kVoidRun). */
    [[noreturn]] static void void_run()
    {
        fflush(stdout);
        fflush(stderr);
        _exit(kVoidRun);
    }

private:
    Role role_ = Role::alone;
    bool ahead_ = false;
    std::vector<bool> waits_;
    std::vector<Channel> chans_;
    std::vector<Problem> problems_;
    std::vector<bool> live_;

    void give(Msg kind, const Pack& p)
    {
        if (!chans_[0].send(kind, p.bytes()))
            gone(chans_[0].why());
    }

    /* No one is listening: there is no one to report to either. */
    [[noreturn]] static void gone(const std::string& why)
    {
        fprintf(stderr, "lab: %s\n", why.c_str());
        fflush(stderr);
        _exit(2);
    }

    bool drop(size_t k, const std::string& name, const std::string& message)
    {
        live_[k] = false;
        problems_[k].name = name;
        problems_[k].message = message;
        problems_[k].where = "the checker";
        return false;
    }

    bool diverged(size_t k, const std::string& what)
    {
        return drop(k, "judge", "the program sent " + what + ", not what its harness sends");
    }

    /* Worker k's next frame, which must be of kind want (an error frame is
     * the worker's runtime error, taken as its problem). */
    bool take(size_t k, Msg want, std::string* b, size_t max)
    {
        Msg kind;
        bool ended = false;
        if (!live_[k])
            return false;
        if (!chans_[k].receive(&kind, b, std::max(max, (size_t)(3 * (kTextMax + 4))), &ended))
            return drop(k, ended ? "ended_early" : "judge",
                        ended ? chans_[k].why() : "the program sent " + chans_[k].why());
        if (kind == Msg::error) {
            Unpack u(*b);
            std::string name = u.str(), message = u.str(), where = u.str();
            if (!u.done())
                return diverged(k, "an error message of the wrong length");
            drop(k, name, message);
            problems_[k].where = where;
            return false;
        }
        if (kind != want || b->size() > max)
            return diverged(k, kind == Msg::finish ? "the end of its harness too early"
                                                   : "a message out of turn");
        return true;
    }
};
} /* namespace */
} /* namespace lab */

#endif
