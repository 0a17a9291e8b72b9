// Harness for reduce-sum: *out = sum of x[0..n).
//
// check: n = 1, 17, 4099 and 100003, each with three seeds; x uniform in
// [-1, 1).
// bench: n = 2^26 on a GPU (256 MiB read per call), the largest check size
// on simt.
// The reference is summed in double.  A float sum in any order differs
// from it by rounding, so the tolerance is 1e-6 * sum(|x|) (about 8 float
// epsilons of the sum of magnitudes): with mean-zero inputs the rounding of
// any reasonable order stays orders of magnitude below it, while at the
// check sizes a lost or doubled element (|x| up to 1) is almost always above
// it.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): x holds n floats, out one float.
void solve(const float* x, float* out, int n);

static void run_case(lab::Lab& lab, int n, uint64_t seed)
{
    lab.begin_case(lab::fmt("n=%d", n), seed);
    lab::Rng rng(seed);
    std::vector<float> x = rng.uniform<float>(n, -1.0, 1.0);
    double sum = 0.0, magnitude = 0.0;
    for (int i = 0; i < n; i++) {
        sum += x[i];
        magnitude += std::fabs((double)x[i]);
    }
    std::vector<float> want(1, (float)sum);

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dout = lab::output<float>(1);

    lab.call([&] { solve(dx, dout, n); });
    lab.expect(dout, want, lab::Tol{1e-6 * magnitude, 0.0});
    // 4 bytes read and one addition per element.
    lab.time([&] { solve(dx, dout, n); },
             lab::Work{4.0 * n, 1.0 * n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("reduce-sum", argc, argv);
    for (long long n : lab.sizes({1, 17, 4099, 100003}, 1ll << 26))
        for (uint64_t seed : lab.seeds())
            run_case(lab, (int)n, seed);
    return lab.finish();
}
