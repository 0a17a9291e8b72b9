// Harness for rmsnorm-fused: y = x / sqrt(mean(x^2) + eps) * w, row by row.
//
// check: five shapes (a single element; 37 columns, not a multiple of 4;
// 1024 and 2048 columns; 4099, odd and longer than 1024), three seeds
// each, eps = 1e-5.  Rows come in five kinds: values in [-2, 2) (twice),
// tiny values in [-2e-3, 2e-3) whose mean square is below eps (so eps
// must sit inside the square root), large values in [-1000, 1000), and a
// row of zeros (the output must be 0, not NaN).  w is uniform in
// [0.5, 1.5).
// bench: 16384 x 8192 on a GPU (512 MiB in, 512 MiB out), the largest check
// shape on simt.  The reference is computed in double.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): x and y hold rows * cols floats,
// row-major; w holds cols floats shared by every row.
void solve(const float* x, const float* w, float* y, int rows, int cols, float eps);

struct Shape {
    int rows, cols;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1}, {3, 37}, {16, 1024}, {7, 4099}, {32, 2048}, {16384, 8192},
};

static const float kEps = 1e-5f;

static void make_row(lab::Rng& rng, int r, float* row, int cols)
{
    switch (r % 5) {
    case 1: rng.fill(row, (size_t)cols, -2e-3, 2e-3); break;
    case 2: rng.fill(row, (size_t)cols, -1000.0, 1000.0); break;
    case 4: std::fill(row, row + cols, 0.0f); break;
    default: rng.fill(row, (size_t)cols, -2.0, 2.0); break;
    }
}

static void reference_row(const float* x, const float* w, float* y, int cols)
{
    double ss = 0.0;
    for (int c = 0; c < cols; c++)
        ss += (double)x[c] * (double)x[c];
    double scale = 1.0 / std::sqrt(ss / cols + (double)kEps);
    for (int c = 0; c < cols; c++)
        y[c] = (float)((double)x[c] * scale * (double)w[c]);
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("rows=%d cols=%d", s.rows, s.cols), seed);
    lab::Rng rng(seed);
    size_t n = (size_t)s.rows * (size_t)s.cols;
    std::vector<float> w = rng.uniform<float>((size_t)s.cols, 0.5, 1.5);
    std::vector<float> x(n), want(n);
    for (int r = 0; r < s.rows; r++) {
        size_t off = (size_t)r * (size_t)s.cols;
        make_row(rng, r, &x[off], s.cols);
        reference_row(&x[off], w.data(), &want[off], s.cols);
    }

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dw = lab::to_device(w);
    lab::DeviceArray<float> dy = lab::output<float>(n);
    lab.call([&] { solve(dx, dw, dy, s.rows, s.cols, kEps); });
    // rsqrtf is good to 2 ulp and the fp32 sum of squares to a few more;
    // 1e-5 relative is well clear of that and far below what a misplaced
    // eps or a wrong mean costs.
    lab.expect(dy, want, lab::Tol{1e-6, 1e-5});
    // Read x and write y once; w is read once per row but stays in the L2,
    // so it counts once.  FLOPs: square and add, then two multiplies.
    lab.time([&] { solve(dx, dw, dy, s.rows, s.cols, kEps); },
             lab::Work{8.0 * (double)n + 4.0 * s.cols, 4.0 * (double)n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("rmsnorm-fused", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
