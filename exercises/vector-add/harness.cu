// Harness for vector-add: c[i] = a[i] + b[i].
//
// check: n = 1, 17 (less than one block), 4099 (not a multiple of any block
// size) and 100003, each with three seeds; inputs uniform in [-1, 1).
// bench: n = 2^26 on a GPU (768 MiB moved per call), the largest check size
// on simt.  The reference is computed here on the CPU in float, so a correct
// kernel matches it exactly; the tolerance only forgives a different but
// legitimate rounding (fused or wider arithmetic).
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers to n floats each.
void solve(const float* a, const float* b, float* c, int n);

static void run_case(lab::Lab& lab, int n, uint64_t seed)
{
    lab.begin_case(lab::fmt("n=%d", n), seed);
    lab::Rng rng(seed);
    std::vector<float> a = rng.uniform<float>(n, -1.0, 1.0);
    std::vector<float> b = rng.uniform<float>(n, -1.0, 1.0);
    std::vector<float> want(n);
    for (int i = 0; i < n; i++)
        want[i] = a[i] + b[i];

    lab::DeviceArray<float> da = lab::to_device(a);
    lab::DeviceArray<float> db = lab::to_device(b);
    lab::DeviceArray<float> dc = lab::output<float>(n);

    lab.call([&] { solve(da, db, dc, n); });
    lab.expect(dc, want, lab::Tol{1e-6, 1e-6});
    // Two reads and one write of 4 bytes, one FLOP per element.
    lab.time([&] { solve(da, db, dc, n); },
             lab::Work{12.0 * n, 1.0 * n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("vector-add", argc, argv);
    for (long long n : lab.sizes({1, 17, 4099, 100003}, 1ll << 26))
        for (uint64_t seed : lab.seeds())
            run_case(lab, (int)n, seed);
    return lab.finish();
}
