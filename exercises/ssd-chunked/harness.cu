// Harness for ssd-chunked: Mamba-2's state space dual layer for one head
// with a scalar decay per step, computed by the learner with the chunked
// algorithm and checked against the plain recurrence
//     h_t = a_t h_(t-1) + B_t x_t^T     (h: N x P, h_(-1) = 0)
//     y_t = h_t^T C_t                   (y_t[p] = sum_n C_t[n] h_t[n][p])
// run sequentially in double.  H independent problems (heads times batch)
// are laid out one after the other.
//
// check: six shapes (H, T, P, N): one step of one channel; 5 steps; 100
// steps (not a multiple of any chunk); 300 steps with P = 32, N = 16;
// 16 heads of 192 steps (many blocks); 2 heads of 200 steps with
// P = N = 64, the sizes of a real head.  Three seeds each.  Heads come in
// three kinds of decay (h % 3): a in [0.5, 1); a in [0.95, 1) (long memory:
// the state passed between chunks carries most of the output); a in
// [0.05, 0.2) (the product of 64 decays is below 1e-45, so it underflows a
// float: decays must be formed from differences of summed logarithms, not
// as ratios of cumulative products).  x, B and C are uniform in [-1, 1).
// bench: 64 heads of 4096 steps with P = N = 64 on a GPU, the largest check
// shape on simt.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  x and y hold
// H * T * P floats, [head][t][p]; a holds H * T floats, [head][t]; B and C
// hold H * T * N floats, [head][t][n].
void solve(const float* x, const float* a, const float* B, const float* C, float* y, int H,
           int T, int P, int N);

struct Shape {
    int H, T, P, N;
};

// Indexed by the sizes the Lab hands out: 0..5 are checked, 6 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1, 1, 1},     {1, 5, 4, 3},    {2, 100, 16, 8}, {3, 300, 32, 16},
    {16, 192, 16, 16}, {2, 200, 64, 64}, {64, 4096, 64, 64},
};

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("H=%d T=%d P=%d N=%d", s.H, s.T, s.P, s.N), seed);
    lab::Rng rng(seed);
    const size_t H = s.H, T = s.T, P = s.P, N = s.N;
    std::vector<float> a(H * T);
    for (size_t h = 0; h < H; h++) {
        double lo[] = {0.5, 0.95, 0.05}, hi[] = {1.0, 1.0, 0.2};
        rng.fill(&a[h * T], T, lo[h % 3], hi[h % 3]);
    }
    std::vector<float> x = rng.uniform<float>(H * T * P, -1.0, 1.0);
    std::vector<float> Bm = rng.uniform<float>(H * T * N, -1.0, 1.0);
    std::vector<float> Cm = rng.uniform<float>(H * T * N, -1.0, 1.0);

    // The sequential recurrence in double, where it is compared (not in a
    // judge's worker).
    std::vector<float> want(H * T * P);
    std::vector<double> st(N * P);
    for (size_t h = 0; lab.reference() && h < H; h++) {
        std::fill(st.begin(), st.end(), 0.0);
        for (size_t t = 0; t < T; t++) {
            size_t ht = h * T + t;
            double at = a[ht];
            for (size_t n = 0; n < N; n++)
                for (size_t p = 0; p < P; p++)
                    st[n * P + p] = at * st[n * P + p] +
                                    (double)Bm[ht * N + n] * (double)x[ht * P + p];
            for (size_t p = 0; p < P; p++) {
                double acc = 0.0;
                for (size_t n = 0; n < N; n++)
                    acc += (double)Cm[ht * N + n] * st[n * P + p];
                want[ht * P + p] = (float)acc;
            }
        }
    }

    lab::DeviceArray<float> dx = lab::to_device(x), da = lab::to_device(a);
    lab::DeviceArray<float> dB = lab::to_device(Bm), dC = lab::to_device(Cm);
    lab::DeviceArray<float> dy = lab::output<float>(H * T * P);
    auto run = [&] { solve(dx, da, dB, dC, dy, s.H, s.T, s.P, s.N); };
    lab.call(run);
    // Outputs reach about 20 in the long-memory heads (C.B is a sum of N
    // products, and about 1 / (1 - a) steps contribute).  An fp32 chunked
    // computation differs from the sequential double one by rounding in
    // dot products of N and Q terms and in the decays exp(l_t - l_s), whose
    // log sums reach about -200 in the fast-decay heads (one float ulp there
    // is 1.5e-5, a relative error of the decay).  2e-4 absolute and
    // relative cover that; a decay off by one step (a_s included) is off by
    // 1 - a, at least 2 %, and a state not passed between chunks by whole
    // units in the long-memory heads.
    lab.expect(dy, want, lab::Tol{2e-4, 2e-4});
    // The least traffic: x, a, B and C read once, y written once.  FLOPs of
    // the chunked form with chunks of 64 (the lesson's count, per token):
    // C B^T over the chunk (2 * 64 * N), its product with X (2 * 64 * P),
    // the chunk state (2 N P) and the state's contribution (2 N P).
    double tokens = (double)H * (double)T;
    lab.time(run, lab::Work{4.0 * tokens * (double)(2 * P + 2 * N + 1),
                            tokens * (128.0 * (double)(N + P) + 4.0 * (double)(N * P)),
                            "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("ssd-chunked", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5}, 6))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
