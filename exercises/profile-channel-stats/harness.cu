// Harness for profile-channel-stats: per-channel mean and (biased)
// variance of a rows x C matrix, where the kernel handed out is already
// correct and the check holds it to its access patterns as well.
//
// check: six shapes (rows x C): 1 x 1, 3 x 5, 33 x 77, 1000 x 96,
// 4096 x 512 and 2048 x 1000, three seeds each.  Channel c has an offset
// in [-1, 1) and a spread in [0.5, 2); x = offset + spread * u, u uniform in
// [-1, 1).  The reference is computed in double.
//
// Then the access patterns, on the three larger shapes (at least 65536
// elements, where the data, not the scratch, is the traffic):
// - on simt, from its counters read around one call of solve: the global
//   traffic (sectors x 32 bytes) must stay within 1.5 times the least
//   traffic (x read once, mean and var written once), and shared memory
//   may have at most one bank conflict per ten requests;
// - on a GPU, which has no such counters here, from time: solve on
//   65536 x 1024 (256 MiB) must take at most twice as long as a
//   kernel of the harness that only reads x once, coalesced, and sums it.
// bench: 4096 x 512 on simt, 65536 x 1024 on a GPU.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  x holds
// rows * C floats, row-major; mean and var C floats each.
void solve(const float* x, float* mean, float* var, int rows, int C);

struct Shape {
    int rows, C;
};

// Indexed by the sizes the Lab hands out: 0..5 are checked, 6 is the GPU
// benchmark (and the GPU timing rule).
static const Shape kShapes[] = {
    {1, 1}, {3, 5}, {33, 77}, {1000, 96}, {4096, 512}, {2048, 1000}, {65536, 1024},
};

// The bars.  A coalesced kernel moves x once plus its small scratch (the
// reference solution: 1.13 times the least traffic at most); the starter,
// whose warps read down columns, moves about 8 times.
static const double kTrafficBar = 1.5;
static const double kConflictBar = 0.1; // bank conflicts per shared request
static const double kTimeBar = 2.0;     // on a GPU: times the harness's read

static void make_input(lab::Rng& rng, int rows, int C, std::vector<float>& x)
{
    std::vector<double> off(C), spread(C);
    for (int c = 0; c < C; c++) {
        off[c] = -1.0 + 2.0 * rng.unit();
        spread[c] = 0.5 + 1.5 * rng.unit();
    }
    x.resize((size_t)rows * C);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < C; c++)
            x[(size_t)r * C + c] = (float)(off[c] + spread[c] * (2.0 * rng.unit() - 1.0));
}

static void reference(const std::vector<float>& x, int rows, int C, std::vector<float>& mean,
                      std::vector<float>& var)
{
    std::vector<double> s(C, 0.0), q(C, 0.0);
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < C; c++) {
            double v = x[(size_t)r * C + c];
            s[c] += v;
            q[c] += v * v;
        }
    mean.resize(C);
    var.resize(C);
    for (int c = 0; c < C; c++) {
        double m = s[c] / rows;
        mean[c] = (float)m;
        var[c] = (float)std::max(0.0, q[c] / rows - m * m);
    }
}

// Records "measured must not exceed bar" as a comparison: the value shown
// is the bar when it holds and the measurement when it does not.
static void at_most(lab::Lab& lab, double measured, double bar)
{
    std::vector<double> got{std::max(measured, bar)}, want{bar};
    lab.expect_host(got, want, lab::Tol{0.0, 0.0});
}

// The harness's own yardstick on a GPU: x read once, coalesced, in float4s,
// summed per block.  Nothing can compute the statistics with less traffic.
__global__ void read_once(const float4* __restrict__ x, size_t n4, float* __restrict__ out)
{
    __shared__ float warp_sums[8];
    float s = 0.0f;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4;
         i += (size_t)gridDim.x * blockDim.x) {
        float4 v = __ldg(x + i);
        s += (v.x + v.y) + (v.z + v.w);
    }
    for (int off = 16; off > 0; off >>= 1)
        s += __shfl_xor_sync(0xffffffffu, s, off);
    if (threadIdx.x % 32 == 0)
        warp_sums[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0.0f;
        for (int w = 0; w < 8; w++)
            t += warp_sums[w];
        out[blockIdx.x] = t;
    }
}

template <class F> static double median_ms(lab::Lab& lab, F&& fn, int reps)
{
    cudaEvent_t e0, e1;
    lab.cuda(cudaEventCreate(&e0), "creating timing events");
    lab.cuda(cudaEventCreate(&e1), "creating timing events");
    std::vector<double> ms;
    for (int i = 0; i < reps; i++) {
        lab.cuda(cudaEventRecord(e0), "recording a timing event");
        fn();
        lab.cuda(cudaEventRecord(e1), "recording a timing event");
        lab.cuda(cudaEventSynchronize(e1), "running a timed call");
        float t = 0;
        lab.cuda(cudaEventElapsedTime(&t, e0, e1), "reading a timing event");
        ms.push_back(t);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return lab::summarize(ms).median;
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed, bool judge_speed)
{
    const std::string name = lab::fmt("rows=%d C=%d", s.rows, s.C);
    lab.begin_case(name, seed);
    lab::Rng rng(seed);
    std::vector<float> x, want_mean, want_var;
    make_input(rng, s.rows, s.C, x);
    reference(x, s.rows, s.C, want_mean, want_var);

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dmean = lab::output<float>(s.C), dvar = lab::output<float>(s.C);
    auto run = [&] { solve(dx, dmean, dvar, s.rows, s.C); };
    lab::SimtCounters before = lab::simt_counters();
    lab.call(run);
    lab::SimtCounters used = lab::simt_counters() - before;
    // Means are below 1 in magnitude and E[x^2] below 5; fp32 sums of up
    // to 65536 such values in any blocked order are good to a few 1e-6
    // relative, and var = E[x^2] - mean^2 keeps that as an absolute error.
    // 1e-4 absolute and relative leave a wide margin; a row or a channel
    // missed is off by far more.
    bool ok = lab.expect(dmean, want_mean, lab::Tol{1e-4, 1e-4});
    ok = lab.expect(dvar, want_var, lab::Tol{1e-4, 1e-4}) && ok;
    if (!judge_speed || !ok)
        return;

    if (used.available) {
        double least = 4.0 * (double)s.rows * s.C + 8.0 * s.C;
        double moved = 32.0 * (double)(used.global_load_sectors + used.global_store_sectors);
        double ratio = moved / least;
        double sreq = (double)(used.shared_load_requests + used.shared_store_requests);
        double per_req = sreq > 0 ? (double)used.shared_bank_conflicts / sreq : 0.0;
        double ld = used.global_load_requests
                        ? (double)used.global_load_sectors / (double)used.global_load_requests
                        : 0.0;
        lab.begin_case("global traffic / least, " + name, seed);
        at_most(lab, ratio, kTrafficBar);
        lab.begin_case("bank conflicts / shared request, " + name, seed);
        at_most(lab, per_req, kConflictBar);
        if ((ratio > kTrafficBar || per_req > kConflictBar) && seed == lab.seed())
            fprintf(stderr,
                    "profile-channel-stats: %s: global traffic %.2f times the least "
                    "(bar %.1f; %.1f sectors per load request), %.2f bank conflicts "
                    "per shared request (bar %.1f)\n",
                    name.c_str(), ratio, kTrafficBar, ld, per_req,
                    kConflictBar);
    }
    lab.time(run, lab::Work{4.0 * (double)s.rows * s.C + 8.0 * s.C,
                            3.0 * (double)s.rows * s.C, "fp32"});
}

// On a GPU: solve against the harness's own single read of the same data.
static void gpu_speed_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    const std::string name = lab::fmt("time vs one read, rows=%d C=%d", s.rows, s.C);
    lab.begin_case(name, seed);
    lab::Rng rng(seed);
    std::vector<float> x;
    make_input(rng, s.rows, s.C, x);
    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dmean = lab::output<float>(s.C), dvar = lab::output<float>(s.C);
    lab::DeviceArray<float> sums = lab::output<float>(4096);
    size_t n4 = x.size() / 4;
    auto run = [&] { solve(dx, dmean, dvar, s.rows, s.C); };
    auto yard = [&] {
        read_once<<<4096, 256>>>(reinterpret_cast<const float4*>(dx.get()), n4, sums);
    };
    lab.call(run);
    // The checker times nothing (the ratio it compares is the worker's).
    if (lab.judging()) {
        at_most(lab, 0.0, kTimeBar);
        return;
    }
    lab.call(yard, "the harness's read");
    for (int i = 0; i < 3; i++) { // warm-up
        run();
        yard();
    }
    lab.cuda(cudaDeviceSynchronize(), "warming up");
    double t_solve = median_ms(lab, run, 15);
    double t_read = median_ms(lab, yard, 15);
    double ratio = t_solve / t_read;
    fprintf(stderr,
            "profile-channel-stats: %s: solve %.3f ms, one coalesced read %.3f ms: "
            "%.2f times (bar %.1f)\n",
            name.c_str(), t_solve, t_read, ratio, kTimeBar);
    at_most(lab, ratio, kTimeBar);
}

int main(int argc, char** argv)
{
    lab::Lab lab("profile-channel-stats", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5}, 6)) {
        const Shape& s = kShapes[i];
        for (uint64_t seed : lab.seeds())
            run_case(lab, s, seed, (double)s.rows * s.C >= 65536.0);
    }
    if (lab.checking() && lab.on_gpu())
        gpu_speed_case(lab, kShapes[6], lab.seed());
    return lab.finish();
}
