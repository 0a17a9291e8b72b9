// Harness for merge-attention-partials: P partial attention results per
// query row, each (o_p, m_p, l_p), merged into the exact softmax output and
// its log-sum-exp.
//
// check: six shapes (rows, P, head_dim): a single partial; 33 and 80
// dimensions (not multiples of 32); 16 and 40 partials (more than a warp
// has lanes); 1000 rows, enough for many blocks.  Three seeds each.
// Row r's maxima come in four kinds (r % 4): around 0, in [80, 100) (exp of
// a maximum overflows a float), in [-100, -80) (exp underflows to 0) and
// spread over [-60, 60) (most weights are negligible).  Each partial is
// masked (m = -inf, l = 0) with probability 1/4, and every row with
// r % 5 == 2 is masked in all its partials.  A masked partial's o holds NaN,
// as a kernel that divided 0 by 0 would have left it.
// bench: 32768 rows x 8 partials x 128 dims on a GPU (128 MiB of partials
// read per call), the largest check shape on simt.  The reference is
// computed in double.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  o_part holds
// P * rows * head_dim floats laid out [p][row][dim]; m_part and l_part hold
// P * rows floats, [p][row]; out holds rows * head_dim floats and lse rows.
void solve(const float* o_part, const float* m_part, const float* l_part,
           float* out, float* lse, int P, int rows, int head_dim);

struct Shape {
    int rows, P, d;
};

// Indexed by the sizes the Lab hands out: 0..5 are checked, 6 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {3, 1, 32},   {7, 2, 33},    {64, 4, 80},       {37, 16, 128},
    {1000, 3, 64}, {45, 40, 64}, {32768, 8, 128},
};

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("rows=%d P=%d head_dim=%d", s.rows, s.P, s.d), seed);
    lab::Rng rng(seed);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    size_t rows = (size_t)s.rows, d = (size_t)s.d;
    std::vector<float> o((size_t)s.P * rows * d), m((size_t)s.P * rows),
        l((size_t)s.P * rows);
    for (size_t r = 0; r < rows; r++) {
        double lo[] = {-5.0, 80.0, -100.0, -60.0}, hi[] = {5.0, 100.0, -80.0, 60.0};
        for (int p = 0; p < s.P; p++) {
            size_t i = (size_t)p * rows + r;
            float* op = &o[i * d];
            bool masked = r % 5 == 2 || rng.unit() < 0.25;
            if (masked) {
                m[i] = -inf;
                l[i] = 0.0f;
                std::fill(op, op + d, nan);
            } else {
                m[i] = (float)(lo[r % 4] + (hi[r % 4] - lo[r % 4]) * rng.unit());
                // The chunk's own maximum contributes exp(0) = 1, so l >= 1.
                l[i] = (float)(1.0 + 299.0 * rng.unit());
                rng.fill(op, d, -1.0, 1.0);
            }
        }
    }

    std::vector<float> want(rows * d), want_lse(rows);
    for (size_t r = 0; r < rows; r++) {
        double top = -INFINITY;
        for (int p = 0; p < s.P; p++)
            top = std::max(top, (double)m[(size_t)p * rows + r]);
        if (top == -INFINITY) { // nothing to attend to: 0, and lse = -inf
            std::fill(&want[r * d], &want[r * d] + d, 0.0f);
            want_lse[r] = -inf;
            continue;
        }
        double L = 0.0;
        std::vector<double> acc(d, 0.0);
        for (int p = 0; p < s.P; p++) {
            size_t i = (size_t)p * rows + r;
            if (m[i] == -inf)
                continue;
            double w = (double)l[i] * std::exp((double)m[i] - top);
            L += w;
            for (size_t c = 0; c < d; c++)
                acc[c] += w * (double)o[i * d + c];
        }
        for (size_t c = 0; c < d; c++)
            want[r * d + c] = (float)(acc[c] / L);
        want_lse[r] = (float)(top + std::log(L));
    }

    lab::DeviceArray<float> dO = lab::to_device(o);
    lab::DeviceArray<float> dm = lab::to_device(m);
    lab::DeviceArray<float> dl = lab::to_device(l);
    lab::DeviceArray<float> dout = lab::output<float>(rows * d);
    lab::DeviceArray<float> dlse = lab::output<float>(rows);
    lab.call([&] { solve(dO, dm, dl, dout, dlse, s.P, s.rows, s.d); });
    // Each output is a convex combination of values in [-1, 1).  fp32
    // exponentials of arguments down to about -20 (smaller weights do not
    // matter) are good to about 1e-6 relative, so an fp32 merge is within
    // a few 1e-6 of the double reference; a dropped l_p or a missing
    // rescale is off by tenths.
    lab.expect(dout, want, lab::Tol{1e-5, 1e-5});
    // lse reaches about 106, where one fp32 ulp is 7.6e-6: 1e-6 relative
    // allows about 14 ulp there, 1e-5 absolute covers values near 0.
    lab.expect(dlse, want_lse, lab::Tol{1e-5, 1e-6});
    // The least traffic: every partial read once, the outputs written once.
    // Two FLOPs (a multiply-add) per element of every partial.
    double n_part = (double)s.P * (double)rows * (double)d;
    lab.time([&] { solve(dO, dm, dl, dout, dlse, s.P, s.rows, s.d); },
             lab::Work{4.0 * (n_part + 2.0 * s.P * (double)rows + (double)(rows * d) +
                              (double)rows),
                       2.0 * n_part, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("merge-attention-partials", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5}, 6))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
