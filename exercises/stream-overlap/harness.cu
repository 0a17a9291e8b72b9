// Harness for stream-overlap: a chunked copy-in, compute, copy-out pipeline
// over several streams, out[i] = (x * x - 2) * x + 1 for x = in[i].
//
// check: (n, chunks, streams) = (1, 1, 1), (1000, 4, 2), (4099, 7, 3)
// (chunks that end inside 128-byte lines), (100003, 8, 4); three seeds
// each.  in is uniform in [-2, 2); the output starts as NaN, so a chunk
// never copied back shows.  The streams are non-blocking: work put on the
// default stream by mistake is ordered with none of them, and simt reports
// it as a race between streams.
// bench: n = 2^26 floats on a GPU, 16 chunks over 4 streams (the bytes
// counted are the 8 n that cross PCIe); the largest check shape on simt.
// On a GPU the bench also times the same two copies back to back on one
// stream, nothing overlapped, and prints their rate as a reference line:
// what the pipeline has to beat by overlapping the two directions.
// The reference is the cubic in double, rounded to float; the tolerance
// covers float evaluation in either order, with or without fused
// multiply-adds.
#include <cmath>
#include <limits>

#include <cudalab/lab.h>

// The learner's entry point (kernel.cu).
void pipeline(float* out_h, const float* in_h, float* in_d, float* out_d, int n,
              int chunks, const cudaStream_t* streams, int nstreams);

struct Shape {
    int n, chunks, streams;
};

static const Shape kShapes[] = {
    {1, 1, 1}, {1000, 4, 2}, {4099, 7, 3}, {100003, 8, 4}, {1 << 26, 16, 4},
};

// Times in_h -> in_d then out_d -> out_h, n floats each, on one stream
// with nothing else running, and prints the rate over the 8 n bytes as
// "reference: back-to-back copies ...: median M ms, R GB/s (K samples)".
// A failure prints why instead; either way the run's result is untouched.
static void copies_reference_line(const float* in_h, float* out_h, float* in_d,
                                  const float* out_d, int n)
{
    const size_t bytes = (size_t)n * sizeof(float);
    cudaStream_t st = nullptr;
    cudaEvent_t ev[2] = {nullptr, nullptr};
    std::vector<double> ms;
    cudaError_t err = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    for (cudaEvent_t& e : ev)
        if (err == cudaSuccess)
            err = cudaEventCreate(&e);
    for (int i = 0; i < 11 && err == cudaSuccess; i++) {
        float t = 0;
        cudaEventRecord(ev[0], st);
        cudaMemcpyAsync(in_d, in_h, bytes, cudaMemcpyHostToDevice, st);
        cudaMemcpyAsync(out_h, out_d, bytes, cudaMemcpyDeviceToHost, st);
        cudaEventRecord(ev[1], st);
        err = cudaEventSynchronize(ev[1]);
        if (err == cudaSuccess)
            err = cudaEventElapsedTime(&t, ev[0], ev[1]);
        if (i > 0) // the first is a warm-up
            ms.push_back(t);
    }
    for (cudaEvent_t e : ev)
        if (e)
            cudaEventDestroy(e);
    if (st)
        cudaStreamDestroy(st);
    (void)cudaGetLastError(); // a failure here is not the pipeline's
    if (err != cudaSuccess || ms.empty()) {
        printf("reference: back-to-back copies failed (%s)\n", cudaGetErrorName(err));
        return;
    }
    const lab::Stats sum = lab::summarize(ms);
    printf("reference: back-to-back copies of %zu bytes each way: median %.4f ms, "
           "%.2f GB/s (%zu samples)\n",
           bytes, sum.median, 2.0 * (double)bytes / (sum.median * 1e-3) / 1e9, sum.n);
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    const int n = s.n;
    lab.begin_case(lab::fmt("n=%d chunks=%d streams=%d", n, s.chunks, s.streams), seed);
    lab::Rng rng(seed);
    std::vector<float> in = rng.uniform<float>(n, -2.0, 2.0);
    std::vector<float> want(n);
    for (int i = 0; i < n; i++) {
        double x = in[i];
        want[i] = (float)((x * x - 2.0) * x + 1.0);
    }

    float *in_h = nullptr, *out_h = nullptr, *in_d = nullptr, *out_d = nullptr;
    size_t bytes = (size_t)n * sizeof(float);
    lab.cuda(cudaMallocHost(&in_h, bytes), "allocating pinned input");
    lab.cuda(cudaMallocHost(&out_h, bytes), "allocating pinned output");
    lab.cuda(cudaMalloc(&in_d, bytes), "allocating the device input");
    lab.cuda(cudaMalloc(&out_d, bytes), "allocating the device output");
    for (int i = 0; i < n; i++) {
        in_h[i] = in[i];
        out_h[i] = std::numeric_limits<float>::quiet_NaN();
    }
    std::vector<cudaStream_t> streams(s.streams);
    for (auto& st : streams)
        lab.cuda(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking),
                 "creating a non-blocking stream");

    lab.call([&] { pipeline(out_h, in_h, in_d, out_d, n, s.chunks, streams.data(), s.streams); });
    std::vector<float> got(out_h, out_h + n);
    // |x| < 2: the terms are below 8 and the result below 5 in magnitude
    lab.expect_host(got, want, lab::Tol{4e-6, 2e-6});
    // 4 bytes in and 4 out per element over PCIe; 4 FLOPs (2 mul, 1 sub, 1 add)
    lab.time([&] { pipeline(out_h, in_h, in_d, out_d, n, s.chunks, streams.data(), s.streams); },
             lab::Work{8.0 * n, 4.0 * n, "fp32"});
    if (lab.benching() && lab.on_gpu() && !lab.judging() && lab.result().has_timing)
        copies_reference_line(in_h, out_h, in_d, out_d, n);

    for (auto& st : streams)
        cudaStreamDestroy(st);
    cudaFree(in_d);
    cudaFree(out_d);
    cudaFreeHost(in_h);
    cudaFreeHost(out_h);
}

int main(int argc, char** argv)
{
    lab::Lab lab("stream-overlap", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3}, 4))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
