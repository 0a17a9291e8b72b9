// Harness for selective-scan: h_t = a_t * h_(t-1) + b_t * x_t with
// h_(-1) = 0, for many independent channels, every h_t written.
//
// check: five shapes (one step; 33 steps, one more than a warp; 1000 and
// 512 steps; 4099, odd and longer than any chunk), three seeds each.
// Channels come in three kinds of decay: a in [0.5, 1), a in [0.99, 1)
// (long memory: h adds up hundreds of terms) and a in [-1, 1) (signs
// alternate).  b and x are uniform in [-1, 1).
// bench: 8192 channels x 8192 steps on a GPU (768 MiB in, 256 MiB out),
// the largest check shape on simt.  The reference runs the recurrence
// sequentially in double.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): a, b, x and h are device pointers
// to channels * T floats, laid out [channel][t].
void solve(const float* a, const float* b, const float* x, float* h, int channels, int T);

struct Shape {
    int channels, T;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1}, {3, 33}, {8, 1000}, {5, 4099}, {64, 512}, {8192, 8192},
};

static void make_decay(lab::Rng& rng, int ch, float* a, int T)
{
    switch (ch % 3) {
    case 0: rng.fill(a, (size_t)T, 0.5, 1.0); break;
    case 1: rng.fill(a, (size_t)T, 0.99, 1.0); break;
    default: rng.fill(a, (size_t)T, -1.0, 1.0); break;
    }
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("channels=%d T=%d", s.channels, s.T), seed);
    lab::Rng rng(seed);
    size_t n = (size_t)s.channels * (size_t)s.T;
    std::vector<float> a(n), want(n);
    for (int c = 0; c < s.channels; c++)
        make_decay(rng, c, &a[(size_t)c * s.T], s.T);
    std::vector<float> b = rng.uniform<float>(n, -1.0, 1.0);
    std::vector<float> x = rng.uniform<float>(n, -1.0, 1.0);
    for (int c = 0; c < s.channels; c++) {
        double hv = 0.0;
        for (int t = 0; t < s.T; t++) {
            size_t i = (size_t)c * s.T + t;
            hv = (double)a[i] * hv + (double)b[i] * (double)x[i];
            want[i] = (float)hv;
        }
    }

    lab::DeviceArray<float> da = lab::to_device(a);
    lab::DeviceArray<float> db = lab::to_device(b);
    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dh = lab::output<float>(n);
    lab.call([&] { solve(da, db, dx, dh, s.channels, s.T); });
    // |h| reaches about 10 in the long-memory channels, where an fp32 ulp
    // is about 1e-6 and rounding accumulates over hundreds of steps in any
    // order of evaluation (a sequential fp32 loop is off by up to 6e-6);
    // 5e-5 absolute leaves room for any grouping a scan picks, while a
    // lost carry is off by whole units.
    lab.expect(dh, want, lab::Tol{5e-5, 1e-4});
    // Three arrays read and one written; a multiply for b x and a
    // multiply-add for the recurrence, three FLOPs per step.
    lab.time([&] { solve(da, db, dx, dh, s.channels, s.T); },
             lab::Work{16.0 * (double)n, 3.0 * (double)n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("selective-scan", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
