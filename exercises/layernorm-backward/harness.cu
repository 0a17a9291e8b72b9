// Harness for layernorm-backward: the gradients of y = (x - mean) * rstd *
// weight + bias with respect to x, weight and bias, given the upstream
// gradient dout and the mean and rstd the forward pass saved.
//
// check: five shapes (rows x cols): one element (xhat is 0 and dx is 0);
// 33 columns, one more than a warp; 768 and 3001 columns (the second odd);
// 512 rows of 256, so that dweight and dbias sum over many blocks.  Three
// seeds each.  Each row is an offset in [-2, 2) plus a spread in
// [0.1, 3) times uniform noise; every row with r % 7 == 3 is constant, so
// its variance is 0 and its rstd is 1 / sqrt(eps), about 316.  weight is
// uniform in [0.5, 1.5), dout in [-1, 1).  mean and rstd are computed in
// double (eps = 1e-5) and rounded to float, as a forward kernel would store
// them.
// bench: 16384 x 4096 on a GPU (x, dout and dx: 768 MiB per call), the
// largest check shape on simt.  The reference is computed in double from
// the float inputs.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  x, dout and dx
// hold rows * cols floats, row-major; weight, dweight and dbias cols
// floats; mean and rstd rows floats.
void solve(const float* x, const float* weight, const float* mean, const float* rstd,
           const float* dout, float* dx, float* dweight, float* dbias, int rows,
           int cols);

struct Shape {
    int rows, cols;
};

// Indexed by the sizes the Lab hands out: 0..4 are checked, 5 is the GPU
// benchmark.
static const Shape kShapes[] = {
    {1, 1}, {3, 33}, {64, 768}, {17, 3001}, {512, 256}, {16384, 4096},
};

static const double kEps = 1e-5;

static void run_case(lab::Lab& lab, const Shape& s, uint64_t seed)
{
    lab.begin_case(lab::fmt("rows=%d cols=%d", s.rows, s.cols), seed);
    lab::Rng rng(seed);
    size_t R = (size_t)s.rows, C = (size_t)s.cols, n = R * C;
    std::vector<float> x(n), mean(R), rstd(R);
    for (size_t r = 0; r < R; r++) {
        double offset = -2.0 + 4.0 * rng.unit();
        double spread = r % 7 == 3 ? 0.0 : 0.1 + 2.9 * rng.unit();
        for (size_t c = 0; c < C; c++)
            x[r * C + c] = (float)(offset + spread * (2.0 * rng.unit() - 1.0));
        double mu = 0.0, var = 0.0;
        for (size_t c = 0; c < C; c++)
            mu += x[r * C + c];
        mu /= (double)C;
        for (size_t c = 0; c < C; c++)
            var += ((double)x[r * C + c] - mu) * ((double)x[r * C + c] - mu);
        var /= (double)C;
        mean[r] = (float)mu;
        rstd[r] = (float)(1.0 / std::sqrt(var + kEps));
    }
    std::vector<float> w = rng.uniform<float>(C, 0.5, 1.5);
    std::vector<float> dy = rng.uniform<float>(n, -1.0, 1.0);

    std::vector<float> want_dx(n), want_dw(C), want_db(C);
    std::vector<double> dw(C, 0.0), db(C, 0.0), xh(C), g(C);
    for (size_t r = 0; r < R; r++) {
        double sg = 0.0, sgx = 0.0;
        for (size_t c = 0; c < C; c++) {
            size_t i = r * C + c;
            xh[c] = ((double)x[i] - (double)mean[r]) * (double)rstd[r];
            g[c] = (double)dy[i] * (double)w[c];
            sg += g[c];
            sgx += g[c] * xh[c];
            dw[c] += (double)dy[i] * xh[c];
            db[c] += (double)dy[i];
        }
        for (size_t c = 0; c < C; c++)
            want_dx[r * C + c] = (float)((double)rstd[r] *
                                         (g[c] - sg / (double)C - xh[c] * sgx / (double)C));
    }
    for (size_t c = 0; c < C; c++) {
        want_dw[c] = (float)dw[c];
        want_db[c] = (float)db[c];
    }

    lab::DeviceArray<float> d_x = lab::to_device(x), d_w = lab::to_device(w);
    lab::DeviceArray<float> d_mean = lab::to_device(mean), d_rstd = lab::to_device(rstd);
    lab::DeviceArray<float> d_dy = lab::to_device(dy);
    lab::DeviceArray<float> d_dx = lab::output<float>(n);
    lab::DeviceArray<float> d_dw = lab::output<float>(C), d_db = lab::output<float>(C);
    auto run = [&] {
        solve(d_x, d_w, d_mean, d_rstd, d_dy, d_dx, d_dw, d_db, s.rows, s.cols);
    };
    lab.call(run);
    // dx = rstd * (g - mean(g) - xhat * mean(g xhat)): the two row means are
    // fp32 sums of up to 3001 terms of magnitude about 1, good to about 1e-6
    // in any reasonable order, then multiplied by rstd, which is 316 in the
    // constant rows (dx reaches about 600 there).  1e-4 absolute and
    // relative cover that; dropping the xhat term is off by tenths.
    lab.expect(d_dx, want_dx, lab::Tol{1e-4, 1e-4});
    // dweight and dbias are sums over up to 512 rows of terms below 2 in
    // magnitude (results up to about 40): a blocked or sequential fp32 sum
    // is within a few 1e-6 of the exact one on such data, so 1e-4 leaves a
    // wide margin; a row counted twice or left out is off by tenths.
    lab.expect(d_dw, want_dw, lab::Tol{1e-4, 1e-4});
    lab.expect(d_db, want_db, lab::Tol{1e-4, 1e-4});
    // The least traffic: x and dout read once, dx written once (the
    // per-row and per-column vectors are small).  About ten FLOPs per
    // element: xhat (2), g (1), the two row sums (3), dx (3 or 4), dweight
    // and dbias (3).
    lab.time(run, lab::Work{12.0 * (double)n + 8.0 * (double)R + 12.0 * (double)C,
                            12.0 * (double)n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("layernorm-backward", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[i], seed);
    return lab.finish();
}
