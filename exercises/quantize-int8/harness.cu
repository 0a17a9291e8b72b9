// Harness for quantize-int8: per-row absmax quantization,
// scale[r] = max_c |x[r][c]| / 127 and q[r][c] = round(x[r][c] / scale[r])
// rounded half away from zero; a row of zeros gets scale 0 and q 0.
//
// check: five shapes (a single element; 37 and 4099 columns, not multiples
// of 4; 1024 and 2048 columns), three seeds each.  Rows come in five kinds:
//   - uniform in [-3, 3);
//   - "ties at scale 1": one element is +-127, the others are k + 0.5, so
//     x / scale is exactly half-way and only half-away-from-zero passes;
//   - "ties at scale 2": one element is +-254, the others odd integers;
//   - zeros;
//   - uniform in [-5e-4, 5e-4), tiny values with the same relative spread.
// In the uniform rows, a value whose x / scale falls within 1e-3 of a
// half-way point is moved to a quarter (see keep_off_ties), so that
// x / scale and x * (127 / absmax) round the same way; the tie rows are
// exact both ways.
// q is compared exactly, scale within 1e-6 relative, and then the
// learner's own q and scale are checked to dequantize back to x within
// half a step: |x - q * scale| <= scale / 2 (the "dequant" cases, check
// mode only).
// bench: 16384 x 8192 on a GPU (512 MiB in, 128 MiB out), the largest check
// shape on simt.  The reference is computed in double.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): x holds rows * cols floats and q
// rows * cols int8 values, both row-major; scale holds rows floats.
void solve(const float* x, int8_t* q, float* scale, int rows, int cols);

struct Shape {
    int rows, cols;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1}, {5, 37}, {16, 1024}, {9, 4099}, {32, 2048}, {16384, 8192},
};

static float absmax(const float* row, int cols)
{
    float m = 0.0f;
    for (int c = 0; c < cols; c++)
        m = std::max(m, std::fabs(row[c]));
    return m;
}

// Moves values whose x / scale lies within 1e-3 of a half-way point to the
// quarter below it (same sign); such a value is never the row's absmax, so
// the scale does not change.
static void keep_off_ties(float* row, int cols)
{
    float s = absmax(row, cols) / 127.0f;
    if (s == 0.0f)
        return;
    for (int c = 0; c < cols; c++) {
        double t = std::fabs((double)row[c] / (double)s);
        if (std::fabs(t - std::floor(t) - 0.5) < 1e-3)
            row[c] = std::copysign((float)((std::floor(t) + 0.25) * s), row[c]);
    }
}

// A row of half-way values at scale `unit`: one element +-127 * unit, the
// others (k + 0.5) * unit for integers k in [-127, 126].
static void make_tie_row(lab::Rng& rng, float* row, int cols, float unit)
{
    std::vector<int> k = rng.uniform<int>((size_t)cols, -127, 126);
    for (int c = 0; c < cols; c++)
        row[c] = ((float)k[c] + 0.5f) * unit;
    int at = (int)(rng.next() % (uint64_t)cols);
    row[at] = (rng.next() & 1 ? 127.0f : -127.0f) * unit;
}

static void make_row(lab::Rng& rng, int r, float* row, int cols)
{
    switch (r % 5) {
    case 1: make_tie_row(rng, row, cols, 1.0f); return;
    case 2: make_tie_row(rng, row, cols, 2.0f); return;
    case 3: std::fill(row, row + cols, 0.0f); return;
    case 4: rng.fill(row, (size_t)cols, -5e-4, 5e-4); break;
    default: rng.fill(row, (size_t)cols, -3.0, 3.0); break;
    }
    keep_off_ties(row, cols);
}

// Reference in double: round() rounds half away from zero.
static void reference_row(const float* x, int8_t* q, float* scale, int cols)
{
    double m = 0.0;
    for (int c = 0; c < cols; c++)
        m = std::max(m, std::fabs((double)x[c]));
    double s = m / 127.0;
    *scale = (float)s;
    for (int c = 0; c < cols; c++)
        q[c] = s == 0.0 ? 0 : (int8_t)std::round((double)x[c] / s);
}

// Dequantization error of the learner's output in units of its own scale:
// (x - q * scale) / scale, or x - q * scale for a zero scale.  The check
// wants every value within 0.5 of 0.
static std::vector<double> dequant_error(const std::vector<float>& x,
                                         const std::vector<int8_t>& q,
                                         const std::vector<float>& scale,
                                         const Shape& s)
{
    std::vector<double> e(x.size());
    for (int r = 0; r < s.rows; r++) {
        double sc = scale[r];
        for (int c = 0; c < s.cols; c++) {
            size_t i = (size_t)r * s.cols + c;
            double d = (double)x[i] - (double)q[i] * sc;
            e[i] = sc != 0.0 ? d / sc : d;
        }
    }
    return e;
}

// The "dequant" case: the learner's own q and scale must reproduce x
// within half a quantization step.  Check mode only: at the benchmark size
// it would cost a GiB of doubles and says nothing the exact checks do not.
static void expect_dequant(lab::Lab& lab, const std::string& name, uint64_t seed,
                           const std::vector<float>& x,
                           const lab::DeviceArray<int8_t>& dq,
                           const lab::DeviceArray<float>& dscale, const Shape& s)
{
    lab.begin_case(name + " dequant", seed);
    std::vector<int8_t> got_q = dq.download();
    std::vector<float> got_scale = dscale.download();
    got_q.resize(x.size());
    got_scale.resize((size_t)s.rows);
    lab.expect_host(dequant_error(x, got_q, got_scale, s), std::vector<double>(x.size(), 0.0),
                    lab::Tol{0.5 + 1e-6, 0});
    lab.begin_case(name, seed);
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    std::string name = lab::fmt("rows=%d cols=%d", s.rows, s.cols);
    lab.begin_case(name, seed);
    lab::Rng rng(seed);
    size_t n = (size_t)s.rows * (size_t)s.cols;
    std::vector<float> x(n), want_scale((size_t)s.rows);
    std::vector<int8_t> want_q(n);
    for (int r = 0; r < s.rows; r++) {
        size_t off = (size_t)r * s.cols;
        make_row(rng, r, &x[off], s.cols);
        reference_row(&x[off], &want_q[off], &want_scale[r], s.cols);
    }

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<int8_t> dq = lab::output<int8_t>(n);
    lab::DeviceArray<float> dscale = lab::output<float>((size_t)s.rows);
    lab.call([&] { solve(dx, dq, dscale, s.rows, s.cols); });
    lab.expect(dq, want_q, lab::Tol{0, 0});
    // absmax / 127 in fp32 is one correctly rounded division; 1e-6 allows
    // computing it as absmax * (1 / 127.0f).
    lab.expect(dscale, want_scale, lab::Tol{0, 1e-6});

    if (lab.checking())
        expect_dequant(lab, name, seed, x, dq, dscale, s);

    // Read 4 bytes and write 1 per element, plus the scales; the absmax,
    // divide and round are three operations per element.
    lab.time([&] { solve(dx, dq, dscale, s.rows, s.cols); },
             lab::Work{5.0 * (double)n + 4.0 * s.rows, 3.0 * (double)n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("quantize-int8", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
