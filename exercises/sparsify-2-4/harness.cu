// Harness for sparsify-2-4: in every group of four consecutive values of a
// row keep the two of largest magnitude (ties to the lower index), zero
// the other two, and emit one mask byte per group.
//
// check: five shapes (a single group; 15 groups; 17 x 100; 5 x 4004, whose
// 5005 groups are not a multiple of any block; 64 x 1024), three seeds each.
// Rows come in three kinds: uniform in [-1, 1) (ties are rare), multiples
// of 1/4 in [-0.75, 0.75] (ties in most groups, +v against -v included),
// and values in {-1, 0, 1} (groups of four equal magnitudes).  Both outputs
// are compared exactly.
// bench: 8192 x 8192 on a GPU (256 MiB in, 256 MiB + 16 MiB out), the
// largest check shape on simt.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): x and y hold rows * cols floats,
// row-major, cols a multiple of 4; mask holds rows * cols / 4 bytes.
void solve(const float* x, float* y, uint8_t* mask, int rows, int cols);

struct Shape {
    int rows, cols;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 4}, {3, 20}, {17, 100}, {5, 4004}, {64, 1024}, {8192, 8192},
};

static void make_row(lab::Rng& rng, int r, float* row, int cols)
{
    if (r % 3 == 0) {
        rng.fill(row, (size_t)cols, -1.0, 1.0);
        return;
    }
    std::vector<int> k = rng.uniform<int>((size_t)cols, r % 3 == 1 ? -3 : -1,
                                          r % 3 == 1 ? 3 : 1);
    for (int c = 0; c < cols; c++)
        row[c] = r % 3 == 1 ? 0.25f * (float)k[c] : (float)k[c];
}

// Ranks the four positions by magnitude, largest first, equal magnitudes
// in index order (a stable sort), and keeps the first two.
static void reference_group(const float* x, float* y, uint8_t* mask)
{
    int order[4] = {0, 1, 2, 3};
    std::stable_sort(order, order + 4, [&](int a, int b) {
        return std::fabs(x[a]) > std::fabs(x[b]);
    });
    *mask = (uint8_t)(1u << order[0] | 1u << order[1]);
    for (int i = 0; i < 4; i++)
        y[i] = (*mask >> i & 1) ? x[i] : 0.0f;
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("rows=%d cols=%d", s.rows, s.cols), seed);
    lab::Rng rng(seed);
    size_t n = (size_t)s.rows * (size_t)s.cols, groups = n / 4;
    std::vector<float> x(n), want(n);
    std::vector<uint8_t> want_mask(groups);
    for (int r = 0; r < s.rows; r++)
        make_row(rng, r, &x[(size_t)r * s.cols], s.cols);
    for (size_t g = 0; lab.reference() && g < groups; g++)
        reference_group(&x[4 * g], &want[4 * g], &want_mask[g]);

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<float> dy = lab::output<float>(n);
    lab::DeviceArray<uint8_t> dmask = lab::output<uint8_t>(groups);
    lab.call([&] { solve(dx, dy, dmask, s.rows, s.cols); });
    // Selection moves values without arithmetic: both outputs are exact.
    lab.expect(dy, want, lab::Tol{0, 0});
    lab.expect(dmask, want_mask, lab::Tol{0, 0});
    // Read x, write y and one byte per group; no floating-point arithmetic.
    lab.time([&] { solve(dx, dy, dmask, s.rows, s.cols); },
             lab::Work{8.0 * (double)n + (double)groups, 0.0, nullptr});
}

int main(int argc, char** argv)
{
    lab::Lab lab("sparsify-2-4", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
