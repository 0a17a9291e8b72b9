// Harness for causal-conv1d: a depthwise causal convolution of width 4
// over (batch, channels, length), with a bias per channel and an optional
// SiLU, as in the Mamba block.
//
// check: five shapes (batch, channels, length): one element; 5 steps, less
// than the width plus one, so every output but two sees the zero padding;
// 1000 steps (a multiple of 4 but of no block); 4099 steps (odd); 256 rows
// of 512, enough for many blocks.  Two of them without the SiLU, three
// with it; three seeds each.  x is uniform in [-2, 2), the weights and the
// bias in [-0.5, 0.5).
// bench: 8 x 2048 channels x 4096 steps on a GPU (256 MiB in, 256 MiB
// out), the largest check shape on simt.  The reference is computed in
// double.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  x and out hold
// batch * channels * length floats, [batch][channel][t]; weight holds
// channels * 4 floats, [channel][tap]; bias holds channels floats.  silu
// is 0 or 1.
void solve(const float* x, const float* weight, const float* bias, float* out,
           int batch, int channels, int length, int silu);

struct Shape {
    int batch, channels, length, silu;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1, 1, 0},    {1, 3, 5, 1},   {2, 16, 1000, 0},
    {2, 8, 4099, 1}, {4, 64, 512, 1}, {8, 2048, 4096, 1},
};

static const int kWidth = 4;

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("batch=%d channels=%d length=%d silu=%d", s.batch,
                            s.channels, s.length, s.silu),
                   seed);
    lab::Rng rng(seed);
    size_t rows = (size_t)s.batch * s.channels, L = (size_t)s.length;
    size_t n = rows * L;
    std::vector<float> x = rng.uniform<float>(n, -2.0, 2.0);
    std::vector<float> w = rng.uniform<float>((size_t)s.channels * kWidth, -0.5, 0.5);
    std::vector<float> b = rng.uniform<float>((size_t)s.channels, -0.5, 0.5);

    std::vector<float> want(n);
    for (size_t r = 0; r < rows; r++) {
        int c = (int)(r % (size_t)s.channels);
        const float* xr = &x[r * L];
        for (size_t t = 0; t < L; t++) {
            double v = b[c];
            // Tap k multiplies x[t - 3 + k]; positions before 0 are zero.
            for (int k = 0; k < kWidth; k++) {
                long long src = (long long)t - (kWidth - 1) + k;
                if (src >= 0)
                    v += (double)w[(size_t)c * kWidth + k] * (double)xr[src];
            }
            if (s.silu)
                v = v / (1.0 + std::exp(-v));
            want[r * L + t] = (float)v;
        }
    }

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dw = lab::to_device(w);
    lab::DeviceArray<float> db = lab::to_device(b);
    lab::DeviceArray<float> dout = lab::output<float>(n);
    lab.call([&] { solve(dx, dw, db, dout, s.batch, s.channels, s.length, s.silu); });
    // Five terms of magnitude at most 1 sum in fp32 to within about 3e-7,
    // and an fp32 SiLU (a fast exponential, a division) adds a few ulp: 1e-5
    // covers any order of evaluation, while a reversed filter or a shifted
    // window is off by tenths.
    lab.expect(dout, want, lab::Tol{1e-5, 1e-5});
    // The least traffic: x read once, out written once.  Four multiply-adds
    // per output, and about four more FLOPs for the SiLU when it is on.
    lab.time([&] { solve(dx, dw, db, dout, s.batch, s.channels, s.length, s.silu); },
             lab::Work{8.0 * (double)n, (s.silu ? 12.0 : 8.0) * (double)n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("causal-conv1d", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
