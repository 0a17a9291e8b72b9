// Harness for fp8-e4m3-cast: a per-tensor scaled, saturating cast of
// float to FP8 E4M3 (the "fn" variant: no infinities, 0x7F and 0xFF are
// NaN, largest finite 448), written as bytes, with the scale.
//
// check: six cases, three seeds each.
//   edges       every midpoint between neighbouring E4M3 values, the
//               floats just below and above it, both signs, plus zeros,
//               -0, 448, +-inf, NaN of both signs, float subnormals; the
//               largest finite magnitude is exactly 448, so the scale is
//               exactly 1 and every value meets the rounding as written.
//   edges/2^20  the same values times 2^-20: the scale is exactly 2^20.
//   n=1         one random value (it becomes +-448).
//   zeros       1000 zeros, a third of them -0: amax is 0, so the scale is 1.
//   n=4099      magnitudes spread log-uniformly over eight decades, so many
//               land among the subnormals or round to 0; a few NaN and inf.
//   n=200003    uniform values with one outlier: many blocks.
// bench: n = 2^26 on a GPU, the largest check size on simt.
//
// Both outputs must match exactly: the scale is one IEEE division, and
// the product x * scale and its rounding to E4M3 are fully specified.  The
// reference below does not use bit tricks: it finds the two E4M3 values
// around |y| in the table of all 127 and compares |y| with their midpoint,
// which is exact in float.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers.  x holds n
// floats, q n bytes, scale one float.
void solve(const float* x, uint8_t* q, float* scale, int n);

// The value of the E4M3 code c, 0 <= c <= 0x7E (positive, finite).
static double e4m3_value(int c)
{
    int e = c >> 3, m = c & 7;
    if (e == 0)
        return std::ldexp((double)m, -9);
    return std::ldexp((double)(8 + m), e - 10);
}

// The saturating E4M3 code of y, rounding to nearest, ties to even.  The
// codes 0x00 .. 0x7E increase with their value, so the nearest two are
// neighbours in the table.
static uint8_t reference_e4m3(float y)
{
    if (std::isnan(y))
        return 0x7F;
    uint8_t sign = std::signbit(y) ? 0x80 : 0x00;
    double a = std::fabs((double)y);
    if (a >= 448.0) // 448 and beyond, infinity included: saturate
        return (uint8_t)(sign | 0x7E);
    int lo = 0;
    while (lo < 0x7E && e4m3_value(lo + 1) <= a)
        lo++;
    int code = lo;
    double mid = (e4m3_value(lo) + e4m3_value(lo + 1)) / 2.0;
    if (a > mid || (a == mid && (lo & 1)))
        code = lo + 1;
    return (uint8_t)(sign | code);
}

// The scale the statement defines: 448 / amax over the finite values, or
// 1 when there is no finite non-zero value.
static float reference_scale(const std::vector<float>& x)
{
    float amax = 0.0f;
    for (float v : x)
        if (std::isfinite(v))
            amax = std::max(amax, std::fabs(v));
    return amax > 0.0f ? 448.0f / amax : 1.0f;
}

static std::vector<float> edge_values()
{
    const float inf = std::numeric_limits<float>::infinity();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> v = {0.0f, -0.0f, 448.0f, -448.0f, inf, -inf, nan, -nan,
                            1.0f, -1.0f, 1e-30f, -1e-30f, 1e-45f, -1e-45f,
                            std::ldexp(1.0f, -10), std::ldexp(1.0f, -6),
                            447.99997f, 416.0f, 0.3f, -2.7f};
    for (int c = 0; c < 0x7E; c++) {
        float mid = (float)((e4m3_value(c) + e4m3_value(c + 1)) / 2.0);
        for (float s : {1.0f, -1.0f}) {
            v.push_back(s * mid);
            v.push_back(s * std::nextafter(mid, 0.0f));
            v.push_back(s * std::nextafter(mid, inf));
        }
    }
    return v;
}

static void make_input(lab::Rng& rng, int which, std::vector<float>& x)
{
    const float inf = std::numeric_limits<float>::infinity();
    switch (which) {
    case 0: x = edge_values(); break;
    case 1:
        x = edge_values();
        for (float& f : x)
            f = std::ldexp(f, -20); // exact, but for float subnormals (to 0)
        break;
    case 2: x = rng.uniform<float>(1, -5.0, 5.0); break;
    case 3:
        x.assign(1000, 0.0f);
        for (size_t i = 0; i < x.size(); i += 3)
            x[i] = -0.0f;
        break;
    case 4:
        x.resize(4099);
        for (size_t i = 0; i < x.size(); i++) {
            double mag = std::pow(10.0, -6.0 + 8.0 * rng.unit());
            x[i] = (float)(rng.unit() < 0.5 ? -mag : mag);
        }
        for (size_t i = 17; i < x.size(); i += 401)
            x[i] = i % 2 ? std::numeric_limits<float>::quiet_NaN()
                         : (i % 3 ? inf : -inf);
        break;
    default:
        x = rng.uniform<float>(which == 5 ? 200003 : (size_t)1 << 26, -3.0, 3.0);
        x[x.size() / 3] = -37.5f; // an outlier sets the scale
        break;
    }
}

static const char* kNames[] = {"edges", "edges/2^20", "n=1", "zeros",
                               "n=4099", "n=200003", "n=67108864"};

static void run_case(lab::Lab& lab, int which, uint64_t seed)
{
    lab.begin_case(kNames[which], seed);
    lab::Rng rng(seed);
    std::vector<float> x;
    make_input(rng, which, x);
    size_t n = x.size();
    float s = reference_scale(x);
    std::vector<float> want_scale = {s};
    std::vector<uint8_t> want(n);
    // only where outputs are compared (not in the judge's worker)
    for (size_t i = 0; lab.reference() && i < n; i++)
        want[i] = reference_e4m3(x[i] * s);

    lab::DeviceArray<float> dx = lab::to_device(x);
    lab::DeviceArray<uint8_t> dq = lab::output<uint8_t>(n);
    lab::DeviceArray<float> dscale = lab::output<float>(1);
    lab.call([&] { solve(dx, dq, dscale, (int)n); });
    // Exact: every step is fully specified (see the top comment).
    lab.expect(dq, want, lab::Tol{0, 0});
    lab.expect(dscale, want_scale, lab::Tol{0, 0});
    // A cast with a global scale reads x twice (once for amax, once to
    // convert: the scale is not known until every value has been seen) and
    // writes one byte per element: 9 bytes.  FLOPs: |x| and its maximum,
    // then the multiply by the scale.
    lab.time([&] { solve(dx, dq, dscale, (int)n); },
             lab::Work{9.0 * (double)n, 3.0 * (double)n, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("fp8-e4m3-cast", argc, argv);
    for (long long i : lab.sizes({0, 1, 2, 3, 4, 5}, 6))
        for (uint64_t seed : lab.seeds())
            run_case(lab, (int)i, seed);
    return lab.finish();
}
