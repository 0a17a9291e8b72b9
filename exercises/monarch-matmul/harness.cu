// Harness for monarch-matmul: y = M x for a batch of vectors, with M the
// Monarch matrix P L P^T R of the structured-layers lesson.  d = b * s;
// R and L are block-diagonal, each with b blocks of s x s stored
// [block][row][col]; P^T reads a vector as a b x s matrix and writes it
// out by columns: (P^T u)[k * b + j] = u[j * s + k], and P undoes that:
// (P w)[j * s + k] = w[k * b + j].
//
// The reference builds the dense d x d matrix M from the same blocks on
// the host, in double, and multiplies every vector by it, so a mistake in
// the permutation or in the order of the factors cannot cancel out.
//
// check: six shapes (batch, d, b): 1 x 4 with 2 blocks of 2; 3 x 36 with
// 6 of 6; 5 x 96 with 4 blocks of 24 (b differs from s); 17 x 768 with 16
// of 48; 64 x 1024 with 32 of 32 (many blocks of threads); 2 x 4096 with
// 64 of 64 (the lesson's example).  Three seeds each.  x is uniform in
// [-1, 1), the block entries in [-1, 1) / sqrt(s), so every stage keeps
// values of order 1.
// bench: 1024 vectors x 4096 with 64 blocks of 64 on a GPU (its reference
// applies the factors one by one in double: a dense product would take
// minutes on the host), the largest check shape on simt.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  x and y hold
// batch * d floats (row-major, one vector per row); R and L hold
// b * s * s floats each, [block][row][col], with s = d / b.
void solve(const float* x, const float* R, const float* L, float* y, int batch, int d,
           int b);

struct Shape {
    int batch, d, b;
};

// Indexed by the sizes the Lab hands out: 0..5 are checked, 6 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 4, 2},     {3, 36, 6},     {5, 96, 4},      {17, 768, 16},
    {64, 1024, 32}, {2, 4096, 64}, {1024, 4096, 64},
};

// y = M x for every vector of the batch, in double: want gets n = batch * d
// floats.
static void reference(const Shape& sh, const std::vector<float>& x,
                      const std::vector<float>& R, const std::vector<float>& L,
                      std::vector<float>& want)
{
    const int d = sh.d, b = sh.b, s = d / b;
    if ((double)sh.batch * d * d <= 1e8) {
        // Dense M = P L P^T R.  Row i = j * s + k of M is row q = k * b + j
        // of L P^T R; with q = g * s + r, that row is the sum over r' of
        // L[g][r][r'] times row (g * s + r') of P^T R, which is row
        // j' * s + k' of R for g * s + r' = k' * b + j', nonzero only in
        // the columns of block j'.
        std::vector<double> M((size_t)d * d, 0.0);
        for (int i = 0; i < d; i++) {
            int j = i / s, k = i % s, q = k * b + j, g = q / s, r = q % s;
            double* row = &M[(size_t)i * d];
            for (int rp = 0; rp < s; rp++) {
                double l = L[((size_t)g * s + r) * s + rp];
                int v = g * s + rp, kp = v / b, jp = v % b;
                const float* rrow = &R[((size_t)jp * s + kp) * s];
                for (int c = 0; c < s; c++)
                    row[jp * s + c] += l * (double)rrow[c];
            }
        }
        for (int t = 0; t < sh.batch; t++)
            for (int i = 0; i < d; i++) {
                double acc = 0.0;
                const double* row = &M[(size_t)i * d];
                const float* xt = &x[(size_t)t * d];
                for (int c = 0; c < d; c++)
                    acc += row[c] * (double)xt[c];
                want[(size_t)t * d + i] = (float)acc;
            }
    } else {
        // The GPU benchmark's batch is too large for a dense product on
        // the host: the same factors applied one after the other, in
        // double.
        std::vector<double> u(d), v(d);
        for (int t = 0; t < sh.batch; t++) {
            const float* xt = &x[(size_t)t * d];
            for (int j = 0; j < b; j++)
                for (int k = 0; k < s; k++) {
                    double acc = 0.0;
                    for (int c = 0; c < s; c++)
                        acc += (double)R[((size_t)j * s + k) * s + c] * xt[j * s + c];
                    v[k * b + j] = acc; // P^T applied on the way
                }
            for (int g = 0; g < b; g++)
                for (int r = 0; r < s; r++) {
                    double acc = 0.0;
                    for (int c = 0; c < s; c++)
                        acc += (double)L[((size_t)g * s + r) * s + c] * v[g * s + c];
                    u[g * s + r] = acc;
                }
            for (int q = 0; q < d; q++) // P
                want[(size_t)t * d + (q % b) * s + q / b] = (float)u[q];
        }
    }
}

static void run_case(lab::Lab& lab, const Shape& sh, uint64_t seed)
{
    const int d = sh.d, b = sh.b, s = d / b;
    lab.begin_case(lab::fmt("batch=%d d=%d blocks=%dx%d", sh.batch, d, b, s), seed);
    lab::Rng rng(seed);
    size_t n = (size_t)sh.batch * d, nw = (size_t)b * s * s;
    std::vector<float> x = rng.uniform<float>(n, -1.0, 1.0);
    double amp = 1.0 / std::sqrt((double)s);
    std::vector<float> R = rng.uniform<float>(nw, -amp, amp);
    std::vector<float> L = rng.uniform<float>(nw, -amp, amp);

    // The reference, where it is compared (not in a judge's worker).
    std::vector<float> want(n);
    if (lab.reference())
        reference(sh, x, R, L, want);

    lab::DeviceArray<float> dx = lab::to_device(x), dR = lab::to_device(R),
                            dL = lab::to_device(L);
    lab::DeviceArray<float> dy = lab::output<float>(n);
    auto run = [&] { solve(dx, dR, dL, dy, sh.batch, d, b); };
    lab.call(run);
    // Two fp32 dot products of s <= 64 terms of order 1 / sqrt(s) each:
    // outputs of order 1 good to a few 1e-7 in any order of summation;
    // 1e-5 absolute and relative leave a wide margin, while a missing or
    // wrong permutation gives errors of order 1.
    lab.expect(dy, want, lab::Tol{1e-5, 1e-5});
    // The least traffic: x read and y written once, each weight once
    // (2 b s^2 = 2 d s floats).  2 FLOPs per multiply-add, s of them per
    // output per factor: 4 d s per vector.
    lab.time(run, lab::Work{8.0 * (double)n + 8.0 * (double)nw,
                            4.0 * (double)n * (double)s, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("monarch-matmul", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5}, 6))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
