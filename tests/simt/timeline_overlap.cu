// expect: exit=0 env=CUDALAB_SIMT_PREDICT=timeline env=CUDALAB_SIMT_DEVICES=tests/simt/devices env=CUDALAB_SIMT_PREDICT_QUIET=1
// gpus: 2
// The timeline's overlap counters: per device, how long a kernel and a
// copy issued to one of its streams ran at the same time on the modelled
// timeline ("timeline.overlap_ns.D"), and how long each kind ran
// ("timeline.compute_busy_ns.D", "timeline.copy_busy_ns.D").
//
// With the fixture (tests/simt/devices/timeline.gpu) a peer copy with peer
// access takes 5 us + bytes / 20 GB/s and each enqueued operation costs
// the host 2 us.  A kernel's time comes from the model: the program
// measures it alone with events first, then takes each operation's end
// from an event after it and its start as that end less its length, and
// expects the counters to hold the intervals' lengths and their
// intersection, worked out here.
//   1. copy on a second stream of device 1, kernel on the first: they
//      overlap by the intersection of the two intervals;
//   2. the same two on one stream: 0;
//   3. two kernels on two streams of device 1 (small grids, which run
//      side by side) and a copy on a third: each figure counts the time
//      once however many operations of a kind run in it;
//   4. the kernel on device 0 while device 1's stream copies out of
//      device 0's memory: 0 on both devices (a copy counts on the device
//      of its stream);
// then the JSON's "timeline" object agrees with the counters, and with
// the model off "timeline.on" reads 0 and the figures are refused.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <cmath>
#include <string>
#include <cuda_runtime.h>

#include "check.h"
#include "counter.h"
#include "rerun.h"

// A dependent chain: one warp, latency-bound, tens of microseconds.
__global__ void chain(float *out, int n)
{
    float x = out[threadIdx.x];

    for (int i = 0; i < n; i++)
        x = x * 0.999f + 0.5f;
    out[threadIdx.x] = x;
}

static const size_t kBytes = 1000000;      // 5 + 50 us over the fixture's NVLink
static const double kCopyNs = 5000 + 50000;
static const int kSteps = 20000;

// The three figures of device d ("" and d < 0: every device's sum).
struct Figures {
    double overlap, copy, compute;
};

static Figures figures(int d)
{
    std::string sfx = d < 0 ? std::string() : "." + std::to_string(d);
    Figures f;
    f.overlap = (double)counter(("timeline.overlap_ns" + sfx).c_str());
    f.copy = (double)counter(("timeline.copy_busy_ns" + sfx).c_str());
    f.compute = (double)counter(("timeline.compute_busy_ns" + sfx).c_str());
    return f;
}

// Each counter is rounded to whole nanoseconds.
static void near(const char *what, double got, double want)
{
    if (fabs(got - want) > 2.0 + 1e-9 * want) {
        fprintf(stderr, "FAIL %s: %.1f ns, expected %.1f ns\n", what, got, want);
        failures++;
    } else {
        printf("ok   %s: %.1f ns\n", what, got);
    }
}

static double elapsed_ns(cudaEvent_t a, cudaEvent_t b)
{
    float ms = -1;

    if (cudaEventSynchronize(b) != cudaSuccess || cudaEventElapsedTime(&ms, a, b) != cudaSuccess)
        failures++;
    return ms * 1e6;
}

// The length of [a0, a1) n [b0, b1).
static double meet(double a0, double a1, double b0, double b1)
{
    return std::max(0.0, std::min(a1, b1) - std::max(a0, b0));
}

// What changed on device d (and in all) since `before`, against the
// lengths and overlap expected.
static void expect_delta(const char *what, int d, const Figures &before, double overlap,
                         double copy, double compute)
{
    Figures now = figures(d);
    std::string w(what);

    near((w + ": overlap").c_str(), now.overlap - before.overlap, overlap);
    near((w + ": copy busy").c_str(), now.copy - before.copy, copy);
    near((w + ": compute busy").c_str(), now.compute - before.compute, compute);
}

// The child runs: "json" overlaps a copy and a kernel once (its counters
// go to the file the parent names); "off" runs with the model off.
static int child(const char *what)
{
    unsigned long long v = 7;
    float *f;
    char *src, *dst;
    cudaStream_t a, b;

    if (std::string(what) == "off") {
        if (cudalab_simt_counter("timeline.on", &v) != 0 || v != 0) {
            fprintf(stderr, "FAIL with the model off, timeline.on is %llu\n", v);
            return 1;
        }
        if (cudalab_simt_counter("timeline.overlap_ns.0", &v) == 0 ||
            cudalab_simt_counter("timeline.copy_busy_ns", &v) == 0) {
            fprintf(stderr, "FAIL with the model off, an overlap figure is given\n");
            return 1;
        }
        return 0;
    }
    CHECK(cudaMalloc(&src, kBytes));
    CHECK(cudaSetDevice(1));
    CHECK(cudaDeviceEnablePeerAccess(0, 0));
    CHECK(cudaMalloc(&dst, kBytes));
    CHECK(cudaMalloc(&f, 32 * sizeof(float)));
    CHECK(cudaMemset(f, 0, 32 * sizeof(float)));
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaStreamCreate(&b));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, kBytes, a));
    chain<<<1, 32, 0, b>>>(f, kSteps);
    CHECK(cudaDeviceSynchronize());
    return 0;
}

// The value after `"key":` at or after `from` in text, -1 when absent.
static double json_number(const std::string &text, size_t from, const char *key)
{
    size_t at = text.find(std::string("\"") + key + "\":", from);

    return at == std::string::npos ? -1 : atof(text.c_str() + at + strlen(key) + 3);
}

// The counters JSON of a "json" child: a "timeline" object whose total
// is the sum of its two devices', device 0 without a copy or overlap.
static void check_json(const char *argv0)
{
    std::string text;
    char path[] = "/tmp/timeline_overlap.XXXXXX";
    int fd = mkstemp(path);

    if (fd < 0) {
        fprintf(stderr, "FAIL no temporary file\n");
        failures++;
        return;
    }
    close(fd);
    std::string cmd = std::string(argv0) + " json";
    if (!rerun_child(cmd.c_str(), "CUDALAB_SIMT_COUNTERS", path, true, &text)) {
        failures++;
        return;
    }
    size_t tl = text.find("\"timeline\":{"), devs = text.find("\"devices\":[", tl);
    size_t dev1 = text.find("},{", devs);
    if (tl == std::string::npos || devs == std::string::npos || dev1 == std::string::npos) {
        fprintf(stderr, "FAIL the counters JSON has no timeline with two devices: %s\n",
                text.c_str());
        failures++;
        return;
    }
    const char *keys[] = {"overlap_ns", "copy_busy_ns", "compute_busy_ns"};
    for (const char *k : keys) {
        double all = json_number(text, tl, k), d0 = json_number(text, devs, k),
               d1 = json_number(text, dev1, k);
        std::string w = std::string("JSON ") + k + ": all = device 0 + device 1";
        near(w.c_str(), all, d0 + d1);
    }
    near("JSON device 0's overlap", json_number(text, devs, "overlap_ns"), 0);
    near("JSON device 1's copy", json_number(text, dev1, "copy_busy_ns"), kCopyNs);
    if (json_number(text, dev1, "overlap_ns") <= 0) {
        fprintf(stderr, "FAIL JSON device 1's overlap is not above 0\n");
        failures++;
    }
}

int main(int argc, char **argv)
{
    if (argc > 1)
        return child(argv[1]);
    if (!cudalab_simt_counter) {
        printf("timeline_overlap: simt's counters only: skipped\n");
        return 0;
    }
    if (counter("timeline.on") != 1) {
        fprintf(stderr, "FAIL timeline.on is not 1 with the model on\n");
        return 1;
    }
    float *f0, *f1;
    char *src, *dst;
    cudaStream_t s0, s1, c1;
    cudaEvent_t e0, ek, ec;

    CHECK(cudaMalloc(&src, kBytes));
    CHECK(cudaMalloc(&f0, 32 * sizeof(float)));
    CHECK(cudaMemset(f0, 0, 32 * sizeof(float)));
    CHECK(cudaStreamCreate(&s0));
    CHECK(cudaSetDevice(1));
    CHECK(cudaDeviceEnablePeerAccess(0, 0));
    CHECK(cudaMalloc(&dst, kBytes));
    CHECK(cudaMalloc(&f1, 32 * sizeof(float)));
    CHECK(cudaMemset(f1, 0, 32 * sizeof(float)));
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&c1));
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&ek));
    CHECK(cudaEventCreate(&ec));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaSetDevice(0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaSetDevice(1));

    // The kernel alone: its modelled length, k ns after 2 us of host.
    CHECK(cudaEventRecord(e0, s1));
    chain<<<1, 32, 0, s1>>>(f1, kSteps);
    CHECK(cudaEventRecord(ek, s1));
    double k = elapsed_ns(e0, ek) - 2000;
    if (k < 10000) {
        fprintf(stderr, "FAIL the chain kernel is modelled at %.1f ns, too short\n", k);
        return 1;
    }
    // and the copy alone: 2 us of host, then the fixture's 55 us
    CHECK(cudaEventRecord(e0, c1));
    CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, kBytes, c1));
    CHECK(cudaEventRecord(ec, c1));
    near("the copy alone", elapsed_ns(e0, ec), 2000 + kCopyNs);

    // 1. two streams: [ce - copy, ce) and [ke - k, ke) intersect
    Figures before = figures(1), all = figures(-1);
    CHECK(cudaEventRecord(e0, s1));
    CHECK(cudaStreamWaitEvent(c1, e0, 0));
    CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, kBytes, c1));
    CHECK(cudaEventRecord(ec, c1));
    chain<<<1, 32, 0, s1>>>(f1, kSteps);
    CHECK(cudaEventRecord(ek, s1));
    double ce = elapsed_ns(e0, ec), ke = elapsed_ns(e0, ek);
    double both = std::min(ce, ke) - std::max(ce - kCopyNs, ke - k);
    if (both < 10000) {
        fprintf(stderr, "FAIL the intervals set up overlap by %.1f ns only\n", both);
        failures++;
    }
    expect_delta("two streams, device 1", 1, before, both, kCopyNs, k);
    expect_delta("two streams, in all", -1, all, both, kCopyNs, k);

    // 2. one stream: the kernel waits for the copy
    before = figures(1);
    CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, kBytes, s1));
    chain<<<1, 32, 0, s1>>>(f1, kSteps);
    CHECK(cudaDeviceSynchronize());
    expect_delta("one stream, device 1", 1, before, 0, kCopyNs, k);

    // 3. two kernels at once and a copy: A = [ae - k, ae), B = [be - k, be),
    // C = [ce - copy, ce); busy |A u B| and |C|, overlap |C n (A u B)|
    cudaStream_t s1b;
    cudaEvent_t eb;
    float *g1;
    CHECK(cudaStreamCreate(&s1b));
    CHECK(cudaEventCreate(&eb));
    CHECK(cudaMalloc(&g1, 32 * sizeof(float)));
    CHECK(cudaMemset(g1, 0, 32 * sizeof(float)));
    CHECK(cudaDeviceSynchronize());
    before = figures(1);
    CHECK(cudaEventRecord(e0, s1));
    CHECK(cudaStreamWaitEvent(c1, e0, 0));
    CHECK(cudaStreamWaitEvent(s1b, e0, 0));
    chain<<<1, 32, 0, s1>>>(f1, kSteps);
    CHECK(cudaEventRecord(ek, s1));
    chain<<<1, 32, 0, s1b>>>(g1, kSteps);
    CHECK(cudaEventRecord(eb, s1b));
    CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, kBytes, c1));
    CHECK(cudaEventRecord(ec, c1));
    double ae = elapsed_ns(e0, ek), be = elapsed_ns(e0, eb);
    ce = elapsed_ns(e0, ec);
    double ab = meet(ae - k, ae, be - k, be);
    if (ab < 1000) {
        fprintf(stderr, "FAIL the two kernels overlap by %.1f ns only\n", ab);
        failures++;
    }
    double cab = std::max(0.0, std::min({ae, be, ce}) -
                                   std::max({ae - k, be - k, ce - kCopyNs}));
    expect_delta("two kernels and a copy, device 1", 1, before,
                 meet(ce - kCopyNs, ce, ae - k, ae) + meet(ce - kCopyNs, ce, be - k, be) - cab,
                 kCopyNs, 2 * k - ab);

    // 4. device 0 computes while device 1's stream copies out of its memory
    Figures before0 = figures(0);
    before = figures(1);
    CHECK(cudaEventRecord(e0, c1));
    CHECK(cudaMemcpyPeerAsync(dst, 1, src, 0, kBytes, c1));
    CHECK(cudaSetDevice(0));
    chain<<<1, 32, 0, s0>>>(f0, kSteps);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaSetDevice(1));
    CHECK(cudaDeviceSynchronize());
    expect_delta("the sender's kernel, device 0", 0, before0, 0, 0, k);
    expect_delta("the sender's kernel, device 1", 1, before, 0, kCopyNs, 0);

    check_json(argv[0]);
    std::string off = std::string("CUDALAB_SIMT_PREDICT= ") + argv[0] + " off";
    if (system(off.c_str()) != 0) {
        fprintf(stderr, "FAIL the run with the model off\n");
        failures++;
    }
    if (failures) {
        printf("%d overlap check(s) failed\n", failures);
        return 1;
    }
    printf("timeline_overlap: all checks passed\n");
    return 0;
}
