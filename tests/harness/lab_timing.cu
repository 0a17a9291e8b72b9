// lab.h's GPU timing code, run on simt's modelled timeline: lab.time in a
// predicted bench (CUDALAB_SIMT_PREDICT=timeline, the fixture device file
// tests/simt/devices/timeline.gpu) takes the same path as on a GPU:
// sample(), the L2 flush, the events on every device's legacy stream.
//
// The fixture's figures make every time below a sum worked out by hand:
// each operation the host enqueues costs it 2 us; a pinned copy takes
// 5 us + bytes / 10 GB/s; a memset bytes / 1000 GB/s; the L2 is 50 MiB, so
// the flush before each sample sets 100 MiB.  Run as
//     lab_timing MODE --mode bench
// with MODE one of legacy, nonblocking, devices (two simulated GPUs);
// prints "lab_timing: N checks passed, M failed".
#include <cudalab/lab.h>

#include <cmath>
#include <cstdio>
#include <cstring>

static int passed, failed;

static void near(const char* what, double got, double want)
{
    if (std::fabs(got - want) <= 1e-4 + 1e-4 * want) {
        passed++;
        printf("ok   %s: %.6f ms\n", what, got);
    } else {
        failed++;
        printf("FAIL %s: %.6f ms, expected %.6f ms\n", what, got, want);
    }
}

static void is(const char* what, bool ok)
{
    if (ok)
        passed++;
    else
        failed++;
    printf("%s %s\n", ok ? "ok  " : "FAIL", what);
}

static const size_t kBytes = 10000000; // a pinned copy of 1005 us
static const double kCopyMs = 1.005;
static const double kFlushMs = 100.0 * 1024 * 1024 / 1000e9 * 1e3;

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "";
    lab::Lab lab("lab-timing", argc - 1, argv + 1);
    char *h = nullptr, *d = nullptr, *d1 = nullptr;
    cudaStream_t nb = nullptr;

    is("a predicted bench", lab.predicting());
    lab.cuda(cudaMallocHost(&h, kBytes), "cudaMallocHost");
    lab.cuda(cudaMalloc(&d, kBytes), "cudaMalloc");
    lab.begin_case("timing", 1);
    lab.expect_host(std::vector<int>{1}, std::vector<int>{2}, lab::Tol{0, 0});
    is("a predicted bench compares nothing",
       lab::result_status(lab.result()) == lab::Status::pass &&
           !lab.result().cases.at(0).checked);

    if (strcmp(mode, "legacy") == 0) {
        // the copy queues behind the flush on the legacy stream: the
        // sample is the copy alone
        lab.time([&] { cudaMemcpyAsync(d, h, kBytes, cudaMemcpyHostToDevice, 0); },
                 lab::Work{(double)kBytes, 0, "fp32"});
        near("a copy on the legacy stream", lab.result().timing.stats.median, kCopyMs);
        is("one sample", lab.result().timing.stats.n == 1);
        is("not outlived", !lab.result().timing.outlived);
    } else if (strcmp(mode, "nonblocking") == 0) {
        // a non-blocking stream waits for nothing on the legacy one: the
        // copy starts 2 us after the flush was enqueued (both 2 us of
        // host time), alongside it, and ends long after the stop event,
        // which follows only the flush; timed to idle, the sample runs
        // from the flush's end to the copy's
        lab.cuda(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking), "stream");
        lab.time([&] { cudaMemcpyAsync(d, h, kBytes, cudaMemcpyHostToDevice, nb); },
                 lab::Work{(double)kBytes, 0, "fp32"});
        near("a copy on a non-blocking stream, timed to idle",
             lab.result().timing.stats.median, 0.002 + kCopyMs - kFlushMs);
        is("outlived", lab.result().timing.outlived);
    } else if (strcmp(mode, "devices") == 0) {
        // the work runs on device 1 and leaves it current (as a rank loop
        // does); events of device 0 recorded there would be an error
        lab.devices(2);
        lab.cuda(cudaSetDevice(1), "cudaSetDevice");
        lab.cuda(cudaMalloc(&d1, kBytes), "cudaMalloc");
        lab.cuda(cudaSetDevice(0), "cudaSetDevice");
        lab.time(
            [&] {
                cudaSetDevice(1);
                cudaMemcpyAsync(d1, h, kBytes, cudaMemcpyHostToDevice, 0);
            },
            lab::Work{(double)kBytes, 0, "fp32"});
        // both devices start idle and together; device 1's copy is
        // enqueued 2 us later and is the last to end
        near("the span over two devices", lab.result().timing.stats.median, 0.002 + kCopyMs);
        is("device 1's own stop event saw its copy end (not outlived)",
           !lab.result().timing.outlived);
        int can = 0;
        lab.cuda(cudaDeviceCanAccessPeer(&can, 0, 1), "cudaDeviceCanAccessPeer");
        cudaError_t again = cudaSuccess;
        if (can) {
            lab.cuda(cudaSetDevice(0), "cudaSetDevice");
            again = cudaDeviceEnablePeerAccess(1, 0);
            (void)cudaGetLastError();
        }
        is("lab.devices enabled peer access", !can || again == cudaErrorPeerAccessAlreadyEnabled);
    } else {
        printf("lab_timing: unknown mode '%s'\n", mode);
        failed++;
    }
    printf("lab_timing: %d checks passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
