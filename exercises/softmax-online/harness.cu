// Harness for softmax-online: y = softmax(x) along each row of a
// rows x cols matrix (row-major, fp32).
//
// check: five shapes (a single element; 33 columns, one more than a warp;
// 1000 columns, a multiple of 4; 2500 and 3001 columns, longer than a warp
// comfortably holds in registers, one of them odd), three seeds each.
// Rows come in four kinds so that a kernel without the max subtraction
// fails: values in [-10, 10), the same shifted up by 90 (exp overflows
// float), shifted down by 90 (every exp underflows to 0, so the naive sum
// is 0), and a wide row in [-100, 100) where most outputs underflow.
// bench: 131072 x 1024 on a GPU (512 MiB in, 512 MiB out), the largest
// check shape on simt.  The reference is computed in double.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers to rows * cols
// floats each, row-major.
void solve(const float* x, float* y, int rows, int cols);

struct Shape {
    int rows, cols;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1}, {7, 33}, {64, 1000}, {5, 2500}, {9, 3001}, {131072, 1024},
};

// Row r's values: the kind of row cycles with r (see the top comment).
static void make_row(lab::Rng& rng, int r, float* row, int cols)
{
    switch (r % 4) {
    case 0: rng.fill(row, (size_t)cols, -10.0, 10.0); break;
    case 1: rng.fill(row, (size_t)cols, 80.0, 100.0); break;
    case 2: rng.fill(row, (size_t)cols, -100.0, -80.0); break;
    default: rng.fill(row, (size_t)cols, -100.0, 100.0); break;
    }
}

// Softmax of one row in double, max-subtracted so that it cannot overflow.
// Results below 1e-30 are written as 0: fp32 exponentials keep few correct
// digits that close to underflow (or flush to 0), those values lie far
// below the absolute tolerance either way, and a zero expected value keeps
// them out of the reported relative error.
static void reference_row(const float* x, float* y, int cols)
{
    double m = x[0];
    for (int c = 1; c < cols; c++)
        m = std::max(m, (double)x[c]);
    double sum = 0.0;
    for (int c = 0; c < cols; c++)
        sum += std::exp((double)x[c] - m);
    for (int c = 0; c < cols; c++) {
        double p = std::exp((double)x[c] - m) / sum;
        y[c] = p < 1e-30 ? 0.0f : (float)p;
    }
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("rows=%d cols=%d", s.rows, s.cols), seed);
    lab::Rng rng(seed);
    size_t n = (size_t)s.rows * (size_t)s.cols;
    std::vector<float> x(n), want(n);
    for (int r = 0; r < s.rows; r++) {
        size_t off = (size_t)r * (size_t)s.cols;
        make_row(rng, r, &x[off], s.cols);
        reference_row(&x[off], &want[off], s.cols);
    }

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dy = lab::output<float>(n);
    lab.call([&] { solve(dx, dy, s.rows, s.cols); });
    // fp32 exponentials are good to a few ulp and the row sum loses a few
    // more; 2e-5 relative leaves room for a sequential sum over 3000
    // values, while the absolute 1e-8 lets outputs that underflow come
    // back as 0.
    lab.expect(dy, want, lab::Tol{1e-8, 2e-5});
    // The least traffic possible: read x once, write y once.  FLOPs: max,
    // subtract, exp, add and scale, five per element.
    lab.time([&] { solve(dx, dy, s.rows, s.cols); },
             lab::Work{8.0 * (double)n, 5.0 * (double)n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("softmax-online", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
