// Harness for hgemm-wmma: C = A * B with A (M x K) and B (K x N) in FP16
// and C (M x N) in FP32, all row-major; M, N and K are multiples of 16.
//
// check: (M, N, K) = (16, 16, 16), (32, 48, 16), (48, 32, 80),
// (144, 16, 32) and (128, 160, 64), each with three seeds: one fragment,
// shapes below one block tile, a K that is not a multiple of 32, a single
// column of tiles, and a shape with partial 128 x 128 tiles on both edges.
// A and B are uniform in [-1, 1) rounded to FP16.
// bench: 4096 x 4096 x 4096 on a GPU (2 * 4096^3 FLOPs per call, against
// the FP16 tensor-core peak), the largest check shape on simt.
// The reference accumulates in double over the FP16 values: on the host for
// the check shapes, and with a naive double-precision kernel of the
// harness's own for the GPU bench shape.  Products of FP16 values are
// exact in FP32; the tensor cores add them in FP32 in an order of their
// own, and the tolerance is K * 2^-19 absolute, far above that rounding
// and far below the 0.25 that a lost or doubled term costs on average.
#include <cudalab/lab.h>

// The learner's entry point (kernel.cu): device pointers, row-major.
void solve(const __half* A, const __half* B, float* C, int M, int N, int K);

struct Shape {
    int M, N, K;
};

// Check shapes in order of work, so the last is the one simt benches; the
// final entry is the GPU bench shape.
static const Shape kShapes[] = {
    {16, 16, 16}, {32, 48, 16}, {48, 32, 80}, {144, 16, 32}, {128, 160, 64}, {4096, 4096, 4096},
};

// Past this many multiply-adds the reference is computed on the device.
static const double kHostReferenceMax = 1 << 24;

// One thread per element of C, summing in double; only ever launched for
// the GPU bench shape.
__global__ void reference_hgemm(const __half* A, const __half* B, float* C, int M, int N,
                                int K)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y;
    if (col >= N || row >= M)
        return;
    double acc = 0.0;
    for (int k = 0; k < K; k++)
        acc += (double)__half2float(A[(size_t)row * K + k]) *
               (double)__half2float(B[(size_t)k * N + col]);
    C[(size_t)row * N + col] = (float)acc;
}

static std::vector<float> host_reference(const std::vector<__half>& A,
                                         const std::vector<__half>& B, Shape s)
{
    std::vector<double> a(A.size()), b(B.size());
    for (size_t i = 0; i < A.size(); i++)
        a[i] = lab::Elem<__half>::to_double(A[i]);
    for (size_t i = 0; i < B.size(); i++)
        b[i] = lab::Elem<__half>::to_double(B[i]);
    std::vector<float> C((size_t)s.M * s.N);
    std::vector<double> row((size_t)s.N);
    for (int i = 0; i < s.M; i++) {
        std::fill(row.begin(), row.end(), 0.0);
        for (int k = 0; k < s.K; k++) {
            const double x = a[(size_t)i * s.K + k];
            const double* y = &b[(size_t)k * s.N];
            for (int j = 0; j < s.N; j++)
                row[j] += x * y[j];
        }
        for (int j = 0; j < s.N; j++)
            C[(size_t)i * s.N + j] = (float)row[j];
    }
    return C;
}

static std::vector<float> device_reference(lab::Lab& lab, const __half* dA,
                                           const __half* dB, Shape s)
{
    lab::DeviceArray<float> dref((size_t)s.M * s.N, 0, nullptr);
    dim3 threads(256);
    dim3 blocks((s.N + 255) / 256, s.M);
    lab.call([&] { reference_hgemm<<<blocks, threads>>>(dA, dB, dref, s.M, s.N, s.K); },
             "reference_hgemm");
    std::vector<float> C = dref.download();
    C.resize((size_t)s.M * s.N);
    return C;
}

static void run_case(lab::Lab& lab, Shape s, uint64_t seed)
{
    lab.begin_case(lab::fmt("%dx%dx%d", s.M, s.N, s.K), seed);
    lab::Rng rng(seed);
    std::vector<__half> A = rng.uniform<__half>((size_t)s.M * s.K, -1.0, 1.0);
    std::vector<__half> B = rng.uniform<__half>((size_t)s.K * s.N, -1.0, 1.0);

    lab::DeviceArray<__half> dA = lab::to_device(A);
    lab::DeviceArray<__half> dB = lab::to_device(B);
    lab::DeviceArray<float> dC = lab::output<float>((size_t)s.M * s.N);
    const double macs = (double)s.M * s.N * s.K;
    // only where outputs are compared (not in the judge's worker)
    std::vector<float> want = !lab.reference()            ? std::vector<float>()
                              : macs > kHostReferenceMax ? device_reference(lab, dA, dB, s)
                                                         : host_reference(A, B, s);

    lab.call([&] { solve(dA, dB, dC, s.M, s.N, s.K); });
    lab.expect(dC, want, lab::Tol{s.K * std::ldexp(1.0, -19), 0.0});
    // A and B cross DRAM once in FP16, C once in FP32; one multiply and one
    // add per term of every dot product.
    const double bytes = 2.0 * ((double)s.M * s.K + (double)s.K * s.N) + 4.0 * s.M * s.N;
    lab.time([&] { solve(dA, dB, dC, s.M, s.N, s.K); },
             lab::Work{bytes, 2.0 * macs, "fp16"});
}

int main(int argc, char** argv)
{
    lab::Lab lab("hgemm-wmma", argc, argv);
    for (long long k : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[k], seed);
    return lab.finish();
}
