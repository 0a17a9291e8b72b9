// Harness for saxpy-bandwidth: y[i] = a * x[i] + y[i], y updated in place.
//
// check: n = 1, 3 (less than one float4), 4099 (n % 4 == 3: a vectorized
// kernel has a tail) and 100003, each with three seeds; x and y uniform in
// [-1, 1), a uniform in [-2, 2).
// bench: n = 2^26 on a GPU (12 bytes per element: 768 MiB per call), the
// largest check size on simt.
// The reference is a*x + y in double (where the product is exact), rounded
// to float: what a fused multiply-add gives, but for a rare tie in the
// double rounding.  The tolerance forgives that and an unfused multiply and
// add, whose extra rounding is at most about one float ulp of values below 3.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers to n floats each;
// y is read and overwritten.
void solve(int n, float a, const float* x, float* y);

static void run_case(lab::Lab& lab, int n, uint64_t seed)
{
    lab.begin_case(lab::fmt("n=%d", n), seed);
    lab::Rng rng(seed);
    const float a = rng.uniform<float>(1, -2.0, 2.0)[0];
    std::vector<float> x = rng.uniform<float>(n, -1.0, 1.0);
    std::vector<float> y = rng.uniform<float>(n, -1.0, 1.0);
    std::vector<float> want(n);
    for (int i = 0; i < n; i++)
        want[i] = (float)((double)a * (double)x[i] + (double)y[i]);

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dy = lab::inout(y);

    lab.call([&] { solve(n, a, dx, dy); });
    lab.expect(dy, want, lab::Tol{1e-6, 1e-6});
    // Read x, read y, write y: 12 bytes; one multiply and one add.  Each
    // timed call updates y again, which changes its values but not the
    // bytes moved.
    lab.time([&] { solve(n, a, dx, dy); },
             lab::Work{12.0 * n, 2.0 * n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("saxpy-bandwidth", argc, argv);
    for (long long n : lab.sizes({1, 3, 4099, 100003}, 1ll << 26))
        for (uint64_t seed : lab.seeds())
            run_case(lab, (int)n, seed);
    return lab.finish();
}
