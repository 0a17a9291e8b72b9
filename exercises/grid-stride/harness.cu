// Harness for grid-stride: y[i] = x[i] * x[i] + 1 with at most max_blocks
// blocks.
//
// check: (n, max_blocks) = (1, 1), (17, 64), (1000, 1), (4099, 3) and
// (100003, 7), each with three seeds; x uniform in [-2, 2).  The grids are
// so small that a kernel handling one element per thread leaves most of the
// output unwritten.  A 32-bit index is not caught: it wraps only past
// n = 2^31 (8 GiB per array, and too many steps for simt to interpret in
// reasonable time), beyond every size here, the GPU bench's 2^28 included;
// the statement says so.
// bench: n = 2^28 with 8 blocks per SM on a GPU (2 GiB per call), the
// largest check case on simt.
// The reference is x*x + 1 in double (where the square is exact), rounded
// to float: what a fused multiply-add gives, but for a rare tie in the
// double rounding; the tolerance forgives that and an unfused multiply and
// add (values below 5).
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers to n floats each.
void solve(const float* x, float* y, long long n, int max_blocks);

struct Case {
    long long n;
    int max_blocks; // 0: 8 per SM of the device
};

// Check cases in order of size, so the last is the one simt benches; the
// final entry is the GPU bench case.
static const Case kCases[] = {
    {1, 1}, {17, 64}, {1000, 1}, {4099, 3}, {100003, 7}, {1ll << 28, 0},
};

static void run_case(lab::Lab& lab, const Case& c, uint64_t seed)
{
    const long long n = c.n;
    int max_blocks = c.max_blocks;
    if (max_blocks == 0)
        max_blocks = 8 * std::max(1, lab.device().sm_count);
    lab.begin_case(lab::fmt("n=%lld max_blocks=%d", n, max_blocks), seed);
    lab::Rng rng(seed);
    std::vector<float> x = rng.uniform<float>((size_t)n, -2.0, 2.0);
    std::vector<float> want((size_t)n);
    for (long long i = 0; i < n; i++)
        want[i] = (float)((double)x[i] * (double)x[i] + 1.0);

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dy = lab::output<float>((size_t)n);

    lab.call([&] { solve(dx, dy, n, max_blocks); });
    lab.expect(dy, want, lab::Tol{1e-6, 1e-6});
    // One load and one store of 4 bytes, a multiply and an add per element.
    lab.time([&] { solve(dx, dy, n, max_blocks); },
             lab::Work{8.0 * n, 2.0 * n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("grid-stride", argc, argv);
    for (long long k : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kCases[k], seed);
    return lab.finish();
}
