// Harness for transpose: out (cols x rows) = transpose of in (rows x cols).
//
// check: shapes 1x1, 1x37, 37x1, 33x65, 70x129 and 96x96 (rows x cols),
// each with three seeds; values uniform in [-1, 1).  Single rows and
// columns, one past a tile edge, and partial tiles on both edges.
// bench: 8192 x 8192 on a GPU (512 MiB moved per call), the largest check
// shape on simt.
// A transpose copies values, so the comparison is exact.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers; in holds
// rows * cols floats, out has room for cols * rows.
void solve(const float* in, float* out, int rows, int cols);

struct Shape {
    int rows, cols;
};

// Check shapes in order of size, so the last is the one simt benches; the
// final entry is the GPU bench shape.
static const Shape kShapes[] = {
    {1, 1}, {1, 37}, {37, 1}, {33, 65}, {70, 129}, {96, 96}, {8192, 8192},
};

static void run_case(lab::Lab& lab, Shape s, uint64_t seed)
{
    lab.begin_case(lab::fmt("%dx%d", s.rows, s.cols), seed);
    const size_t n = (size_t)s.rows * s.cols;
    lab::Rng rng(seed);
    std::vector<float> in = rng.uniform<float>(n, -1.0, 1.0);
    std::vector<float> want(n);
    for (int r = 0; r < s.rows; r++)
        for (int c = 0; c < s.cols; c++)
            want[(size_t)c * s.rows + r] = in[(size_t)r * s.cols + c];

    lab::DeviceArray<float> din = lab::to_device(in);
    lab::DeviceArray<float> dout = lab::output<float>(n);

    lab.call([&] { solve(din, dout, s.rows, s.cols); });
    lab.expect(dout, want, lab::Tol{0, 0});
    // Every element is read once and written once; no arithmetic.
    lab.time([&] { solve(din, dout, s.rows, s.cols); },
             lab::Work{8.0 * (double)n, 0.0, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("transpose", argc, argv);
    for (long long k : lab.sizes({0, 1, 2, 3, 4, 5}, 6))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[k], seed);
    return lab.finish();
}
