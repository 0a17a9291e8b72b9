// Harness for prefix-scan: out[i] = in[0] + ... + in[i] (inclusive).
//
// check: n = 1, 31 (part of one warp), 1024 and 1025 (one tile exactly and
// one past it for tiles of 1024), 4099 (three past 4096: a second tile of
// 4096 holds only part of one int4), 100003 (about a hundred tiles of
// 1024, 25 of 4096, ending mid-warp), 1100003 (more than 1024 tiles of
// 1024: more tile sums than one block of 1024 threads scans, so a scan of
// the tile sums without a further level fails), each with three seeds;
// values uniform in [-8, 15].
// bench: n = 2^26 on a GPU (256 MiB in, 256 MiB out), the largest check
// size on simt.
// The reference is a running sum in 64-bit integers; with values in
// [-8, 15] every prefix of up to 2^26 elements fits in an int.  Integer
// addition is associative, so any order gives the same answer: exact
// comparison.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers to n ints each.
void solve(const int* in, int* out, int n);

static void run_case(lab::Lab& lab, int n, uint64_t seed)
{
    lab.begin_case(lab::fmt("n=%d", n), seed);
    lab::Rng rng(seed);
    std::vector<int> in = rng.uniform<int>((size_t)n, -8, 15);
    std::vector<int> want((size_t)n);
    long long run = 0;
    for (int i = 0; i < n; i++) {
        run += in[i];
        want[i] = (int)run;
    }

    lab::DeviceArray<int> din = lab::to_device(in);
    lab::DeviceArray<int> dout = lab::output<int>((size_t)n);

    lab.call([&] { solve(din, dout, n); });
    lab.expect(dout, want, lab::Tol{0, 0});
    // The least a scan can move: every element read once and written once.
    lab.time([&] { solve(din, dout, n); },
             lab::Work{8.0 * n, 0.0, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("prefix-scan", argc, argv);
    for (long long n : lab.sizes({1, 31, 1024, 1025, 4099, 100003, 1100003}, 1ll << 26))
        for (uint64_t seed : lab.seeds())
            run_case(lab, (int)n, seed);
    return lab.finish();
}
