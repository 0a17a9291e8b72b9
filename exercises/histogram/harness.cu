// Harness for histogram: bins[v] = count of bytes equal to v in data[0..n).
//
// check: n = 1, 1000, 4099 and 100003 random bytes, and 65536 bytes all of
// one value (every update on one counter: lost updates from non-atomic
// increments show up at once), each with three seeds.
// bench: n = 2^28 random bytes on a GPU (256 MiB read per call), the
// largest check size on simt.
// Counts are exact integers, compared exactly.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): data holds n bytes, bins 256
// counters.
void solve(const unsigned char* data, unsigned int* bins, int n);

static const int kBins = 256;

static void run_case(lab::Lab& lab, int n, bool one_value, uint64_t seed)
{
    lab.begin_case(lab::fmt("n=%d%s", n, one_value ? " one value" : ""), seed);
    lab::Rng rng(seed);
    std::vector<unsigned char> data;
    if (one_value)
        data.assign((size_t)n, rng.uniform<unsigned char>(1, 0, 255)[0]);
    else
        data = rng.uniform<unsigned char>((size_t)n, 0, 255);
    std::vector<unsigned int> want(kBins, 0);
    for (unsigned char v : data)
        want[v]++;

    lab::DeviceArray<unsigned char> ddata = lab::to_device(data);
    lab::DeviceArray<unsigned int> dbins = lab::output<unsigned int>(kBins);

    lab.call([&] { solve(ddata, dbins, n); });
    lab.expect(dbins, want, lab::Tol{0, 0});
    // One byte read per element; the 256 counters are negligible.
    lab.time([&] { solve(ddata, dbins, n); },
             lab::Work{1.0 * n + 4.0 * kBins, 0.0, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("histogram", argc, argv);
    for (long long n : lab.sizes({1, 1000, 4099, 100003}, 1ll << 28))
        for (uint64_t seed : lab.seeds())
            run_case(lab, (int)n, false, seed);
    if (lab.checking())
        for (uint64_t seed : lab.seeds())
            run_case(lab, 65536, true, seed);
    return lab.finish();
}
