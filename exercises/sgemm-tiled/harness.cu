// Harness for sgemm-tiled: C = A * B in FP32, all row-major; A is M x K,
// B is K x N, C is M x N.
//
// check: (M, N, K) = (1, 1, 1), (17, 33, 9), (65, 31, 47), (64, 64, 64) and
// (96, 80, 72), each with three seeds: shapes below one tile, one past a
// tile edge, exact multiples of 32 and 64, and partial tiles on every edge.
// A and B are uniform in [-1, 1).
// bench: 4096 x 4096 x 4096 on a GPU (2 * 4096^3 FLOPs per call), the
// largest check shape on simt.
// The reference accumulates in double: on the host for the check shapes,
// and for the GPU bench shape (where a host loop would take minutes) with a
// naive double-precision kernel of the harness's own.  A float dot product
// of length K carries rounding that grows with K, whatever the order of the
// sum; the tolerance is K * 2^-20 absolute (about 8 float epsilons per
// term), far above the rounding of an FP32 kernel and far below the effect
// of a lost or doubled term (|a * b| is 0.25 on average).  TF32 tensor-core
// arithmetic (10-bit mantissas) does not fit in it.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers, row-major.
void solve(const float* A, const float* B, float* C, int M, int N, int K);

struct Shape {
    int M, N, K;
};

// Check shapes in order of work, so the last is the one simt benches; the
// final entry is the GPU bench shape.
static const Shape kShapes[] = {
    {1, 1, 1}, {17, 33, 9}, {65, 31, 47}, {64, 64, 64}, {96, 80, 72}, {4096, 4096, 4096},
};

// Past this many multiply-adds the reference is computed on the device.
static const double kHostReferenceMax = 1 << 24;

// One thread per element of C, summing in double; only ever launched for
// the GPU bench shape.
__global__ void reference_gemm(const float* A, const float* B, float* C, int M, int N, int K)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y;
    if (col >= N || row >= M)
        return;
    double acc = 0.0;
    for (int k = 0; k < K; k++)
        acc += (double)A[(size_t)row * K + k] * (double)B[(size_t)k * N + col];
    C[(size_t)row * N + col] = (float)acc;
}

static std::vector<float> host_reference(const std::vector<float>& A,
                                         const std::vector<float>& B, Shape s)
{
    std::vector<float> C((size_t)s.M * s.N);
    std::vector<double> row((size_t)s.N);
    for (int i = 0; i < s.M; i++) {
        std::fill(row.begin(), row.end(), 0.0);
        for (int k = 0; k < s.K; k++) {
            const double a = A[(size_t)i * s.K + k];
            const float* b = &B[(size_t)k * s.N];
            for (int j = 0; j < s.N; j++)
                row[j] += a * (double)b[j];
        }
        for (int j = 0; j < s.N; j++)
            C[(size_t)i * s.N + j] = (float)row[j];
    }
    return C;
}

static std::vector<float> device_reference(lab::Lab& lab, const float* dA,
                                           const float* dB, Shape s)
{
    lab::DeviceArray<float> dref((size_t)s.M * s.N, 0, nullptr);
    dim3 threads(256);
    dim3 blocks((s.N + 255) / 256, s.M);
    lab.call([&] { reference_gemm<<<blocks, threads>>>(dA, dB, dref, s.M, s.N, s.K); },
             "reference_gemm");
    std::vector<float> C = dref.download();
    C.resize((size_t)s.M * s.N);
    return C;
}

static void run_case(lab::Lab& lab, Shape s, uint64_t seed)
{
    lab.begin_case(lab::fmt("%dx%dx%d", s.M, s.N, s.K), seed);
    lab::Rng rng(seed);
    std::vector<float> A = rng.uniform<float>((size_t)s.M * s.K, -1.0, 1.0);
    std::vector<float> B = rng.uniform<float>((size_t)s.K * s.N, -1.0, 1.0);

    lab::DeviceArray<float> dA = lab::to_device(A);
    lab::DeviceArray<float> dB = lab::to_device(B);
    lab::DeviceArray<float> dC = lab::output<float>((size_t)s.M * s.N);
    const double macs = (double)s.M * s.N * s.K;
    // only where outputs are compared (not in the judge's worker)
    std::vector<float> want = !lab.reference()            ? std::vector<float>()
                              : macs > kHostReferenceMax ? device_reference(lab, dA, dB, s)
                                                         : host_reference(A, B, s);

    lab.call([&] { solve(dA, dB, dC, s.M, s.N, s.K); });
    lab.expect(dC, want, lab::Tol{s.K * std::ldexp(1.0, -20), 0.0});
    // Each matrix crosses DRAM at least once; one multiply and one add per
    // term of every dot product.
    const double bytes = 4.0 * ((double)s.M * s.K + (double)s.K * s.N + (double)s.M * s.N);
    lab.time([&] { solve(dA, dB, dC, s.M, s.N, s.K); },
             lab::Work{bytes, 2.0 * macs, "fp32"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("sgemm-tiled", argc, argv);
    for (long long k : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[k], seed);
    return lab.finish();
}
