// Harness for cross-entropy-fused: for B rows of V logits and a label per
// row, the loss per row and the gradient with respect to the logits, as a
// fused forward + backward kernel computes them:
//   z        = scale * logits                     (scale: muP's 1/m output multiplier)
//   loss[b]  = logsumexp(z[b]) - z[b][label[b]]
//   dlogits  = scale * (softmax(z[b]) - onehot(label[b])) / n_valid
// where n_valid counts the rows whose label is not -100 (the mean over the
// rows that count, as the usual "mean" reduction with an ignored label).
// A row with label -100 has loss 0 and a zero gradient; with no valid row
// at all every gradient is 0.
//
// check: six shapes (B, V, scale, all ignored): 1 x 1 (softmax is 1, the
// loss 0); 3 x 7; 8 x 32000 (a LLaMA-size vocabulary); 5 x 32003 (odd);
// 64 x 4099 (many blocks) with scale 0.25; 4 x 1000 with every label
// ignored.  Three seeds each.  Rows come in four kinds by b % 4: logits in
// [-4, 4); in [80, 100) (exp overflows a float without the maximum taken
// out); in [-30, 30) (a few logits dominate); [-4, 4) plus one logit at
// +40 (a confident row: p is about 1 at the peak).  Every row with
// b % 5 == 3 has label -100; the other labels are uniform in [0, V).
// bench: 4096 x 32000 on a GPU (500 MiB of logits), the largest check shape
// on simt.  The reference is computed in double from the float inputs.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  logits and
// dlogits hold B * V floats, row-major; labels and loss hold B values.
void solve(const float* logits, const int* labels, float* loss, float* dlogits, int B,
           int V, float scale);

struct Shape {
    int B, V;
    float scale;
    bool all_ignored;
};

// Indexed by the sizes the Lab hands out: 0..5 are checked, 6 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1, 1.0f, false},     {3, 7, 1.0f, false},     {8, 32000, 1.0f, false},
    {5, 32003, 1.0f, false}, {64, 4099, 0.25f, false}, {4, 1000, 1.0f, true},
    {4096, 32000, 1.0f, false},
};

static const int kIgnore = -100;

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("B=%d V=%d scale=%g%s", s.B, s.V, (double)s.scale,
                            s.all_ignored ? " all ignored" : ""),
                   seed);
    lab::Rng rng(seed);
    size_t B = (size_t)s.B, V = (size_t)s.V, n = B * V;
    std::vector<float> logits(n);
    std::vector<int> labels(B);
    for (size_t b = 0; b < B; b++) {
        float* row = &logits[b * V];
        switch (b % 4) {
        case 0: rng.fill(row, V, -4.0, 4.0); break;
        case 1: rng.fill(row, V, 80.0, 100.0); break;
        case 2: rng.fill(row, V, -30.0, 30.0); break;
        default:
            rng.fill(row, V, -4.0, 4.0);
            row[(size_t)(rng.unit() * (double)V)] = 40.0f;
            break;
        }
        labels[b] = (int)(rng.unit() * (double)V);
        if (s.all_ignored || b % 5 == 3)
            labels[b] = kIgnore;
    }
    // Confident rows put the label on the peak half of the time.
    for (size_t b = 3; b < B; b += 4)
        if (labels[b] != kIgnore && rng.unit() < 0.5)
            for (size_t v = 0; v < V; v++)
                if (logits[b * V + v] == 40.0f)
                    labels[b] = (int)v;

    int n_valid = 0;
    for (int y : labels)
        n_valid += y != kIgnore;
    std::vector<float> want_loss(B, 0.0f), want_grad(n, 0.0f);
    const double sc = (double)s.scale;
    for (size_t b = 0; b < B; b++) {
        if (labels[b] == kIgnore)
            continue;
        const float* row = &logits[b * V];
        double m = -INFINITY, sum = 0.0;
        for (size_t v = 0; v < V; v++)
            m = std::max(m, sc * row[v]);
        for (size_t v = 0; v < V; v++)
            sum += std::exp(sc * row[v] - m);
        double lse = m + std::log(sum);
        want_loss[b] = (float)(lse - sc * row[labels[b]]);
        for (size_t v = 0; v < V; v++) {
            double p = std::exp(sc * row[v] - lse);
            double onehot = (int)v == labels[b] ? 1.0 : 0.0;
            want_grad[b * V + v] = (float)(sc * (p - onehot) / (double)n_valid);
        }
    }

    lab::DeviceArray<float> d_logits = lab::to_device(logits);
    lab::DeviceArray<int> d_labels = lab::to_device(labels);
    lab::DeviceArray<float> d_loss = lab::output<float>(B);
    lab::DeviceArray<float> d_grad = lab::output<float>(n);
    auto run = [&] { solve(d_logits, d_labels, d_loss, d_grad, s.B, s.V, s.scale); };
    lab.call(run);
    // loss = lse - z[label]: in rows of logits near 100 both terms are near
    // 100, where one float ulp is 7.6e-6, and the sum inside the log has
    // up to 32003 fp32 terms (relative error a few 1e-7 whatever the
    // order); 1e-4 absolute plus 1e-5 relative covers that.  Dropping the
    // maximum overflows to inf; forgetting the log or the label term is off
    // by units.
    lab.expect(d_loss, want_loss, lab::Tol{1e-4, 1e-5});
    // Each gradient is p / n_valid (or (p - 1) / n_valid at the label),
    // times scale.  p = exp(z - lse) inherits lse's absolute error as a
    // relative one (about 1e-5 at most, see above), hence rtol 1e-4; at a
    // confident label p - 1 is a difference near 1, good to about one ulp
    // of 1 (1.2e-7) before the division, hence atol 2e-7.  Dividing by B
    // instead of n_valid is off by 14 % or more wherever a row is ignored.
    lab.expect(d_grad, want_grad, lab::Tol{2e-7, 1e-4});
    // The least traffic: the logits read once, the gradient written once
    // (the labels and losses are B values).  About five FLOPs per logit in
    // all: the scale, the running maximum and sum (an exp), the gradient
    // (another exp, a subtraction and a multiply).
    lab.time(run, lab::Work{8.0 * (double)n + 8.0 * (double)B, 5.0 * (double)n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("cross-entropy-fused", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5}, 6))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
