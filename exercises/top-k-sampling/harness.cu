// Harness for top-k-sampling: one token per row of logits, drawn from the
// k most likely tokens at temperature T, with the row's uniform number u
// standing in for the random draw, so that the answer is exact.
//
// The rule (also in the statement): order the tokens by logit, larger
// first, equal logits by smaller index first; keep the first k; weight
// each kept token by exp((z - z_max) / T); walking the kept tokens in that
// order, the answer is the first whose running sum of weights exceeds
// u * S, S the sum of all k weights.  prob is its weight over S.
//
// check: five shapes (rows, vocab, k, T): a vocabulary of one; k equal to
// the vocabulary; k = 1 (greedy); a 32000-token vocabulary with k = 50;
// 64 rows of 4099 with k = 256, the largest k allowed.  Three seeds each.
// Rows come in four kinds (r % 4): logits uniform in [-5, 5); logits on a
// grid of quarters in [-4, 4], so that thousands of them tie and which of
// the tied tokens are kept, and in which order, is decided by the index
// rule; all -inf but three (fewer than k: masked tokens have weight 0 and
// are never drawn); one logit of 20 above noise in [-5, 5).
// u is uniform in [0, 1), drawn again while it lies within 1e-4 of a
// boundary u = (running sum) / S of the reference, so that no rounding
// of the sums in fp32 can change the answer.
// bench: 128 rows x 128256 tokens, k = 50, on a GPU, the largest check
// shape on simt.  The reference sorts in C++ and sums in double.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  logits holds
// rows * vocab floats, row-major; u, token and prob one value per row.
void solve(const float* logits, const float* u, int* token, float* prob, int rows,
           int vocab, int k, float temperature);

struct Shape {
    int rows, vocab, k;
    float temperature;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1, 1, 1.0f},     {4, 5, 5, 0.7f},       {8, 1000, 1, 1.0f},
    {16, 32000, 50, 0.8f}, {64, 4099, 256, 1.5f}, {128, 128256, 50, 1.0f},
};

static const double kMargin = 1e-4;

static void make_row(lab::Rng& rng, int r, float* z, int vocab)
{
    const float inf = std::numeric_limits<float>::infinity();
    switch (r % 4) {
    case 0: rng.fill(z, (size_t)vocab, -5.0, 5.0); break;
    case 1:
        for (int i = 0; i < vocab; i++)
            z[i] = (float)std::floor(rng.unit() * 33.0) * 0.25f - 4.0f;
        break;
    case 2:
        std::fill(z, z + vocab, -inf);
        for (int j = 0; j < 3; j++)
            z[rng.next() % (uint64_t)vocab] = (float)(-2.0 + 4.0 * rng.unit());
        break;
    default:
        rng.fill(z, (size_t)vocab, -5.0, 5.0);
        z[rng.next() % (uint64_t)vocab] = 20.0f;
        break;
    }
}

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("rows=%d vocab=%d k=%d T=%g", s.rows, s.vocab, s.k,
                            (double)s.temperature),
                   seed);
    lab::Rng rng(seed);
    size_t V = (size_t)s.vocab;
    std::vector<float> z((size_t)s.rows * V), u((size_t)s.rows), want_p((size_t)s.rows);
    std::vector<int> want_tok((size_t)s.rows), order(V);
    for (int r = 0; r < s.rows; r++) {
        const float* zr = &z[(size_t)r * V];
        make_row(rng, r, &z[(size_t)r * V], s.vocab);
        for (size_t i = 0; i < V; i++)
            order[i] = (int)i;
        std::partial_sort(order.begin(), order.begin() + s.k, order.end(),
                          [&](int a, int b) {
                              return zr[a] > zr[b] || (zr[a] == zr[b] && a < b);
                          });
        std::vector<double> w((size_t)s.k), cum((size_t)s.k);
        double S = 0.0;
        for (int j = 0; j < s.k; j++) {
            w[j] = std::exp(((double)zr[order[j]] - (double)zr[order[0]]) /
                            (double)s.temperature);
            S += w[j];
            cum[j] = S;
        }
        double ur;
        for (;;) {
            ur = rng.unit();
            bool clear = ur < 1.0 - kMargin;
            for (int j = 0; j + 1 < s.k && clear; j++)
                clear = std::fabs(ur - cum[j] / S) >= kMargin;
            if (clear)
                break;
        }
        u[r] = (float)ur;
        int pick = 0;
        while (pick + 1 < s.k && !(cum[pick] > (double)u[r] * S))
            pick++;
        want_tok[r] = order[pick];
        want_p[r] = (float)(w[pick] / S);
    }

    lab::DeviceArray<float> dz = lab::to_device(z), du = lab::to_device(u);
    lab::DeviceArray<int> dtok = lab::output<int>((size_t)s.rows);
    lab::DeviceArray<float> dp = lab::output<float>((size_t)s.rows);
    auto run = [&] { solve(dz, du, dtok, dp, s.rows, s.vocab, s.k, s.temperature); };
    lab.call(run);
    // The token must be exactly the reference's (u keeps clear of every
    // boundary by 1e-4, far more than fp32 sums of 256 weights can move).
    lab.expect(dtok, want_tok, lab::Tol{0, 0});
    // prob is one weight over a sum of at most 256 weights in (0, 1]: fp32
    // is good to a few 1e-7 relative; 1e-5 relative still catches a weight
    // computed without the temperature or a sum over the wrong set.
    lab.expect(dp, want_p, lab::Tol{1e-7, 1e-5});
    // The least traffic: every logit read once.  About four operations per
    // logit (a key, a comparison, a count) in the selection.
    lab.time(run, lab::Work{4.0 * (double)s.rows * (double)V + 12.0 * s.rows,
                            4.0 * (double)s.rows * (double)V, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("top-k-sampling", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
