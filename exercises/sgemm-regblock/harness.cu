// Harness for sgemm-regblock: C = A * B in FP32, all row-major; A is M x K,
// B is K x N, C is M x N.
//
// check: (M, N, K) = (1, 1, 1), (17, 33, 9), (65, 130, 31), (128, 128, 32)
// and (96, 80, 72), each with three seeds: shapes below one tile, partial
// tiles on every edge, and one shape that is an exact multiple of a
// 128 x 128 x 8 tiling (kernels with an unchecked fast path for such shapes
// must get it right too).  A and B are uniform in [-1, 1).
// bench: 4096 x 4096 x 4096 on a GPU (2 * 4096^3 FLOPs per call), the
// largest check shape on simt.  On a GPU the bench also times cuBLAS's
// SGEMM on the same operands, when the library can be loaded, and prints it
// to stdout as a reference line.
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
    {1, 1, 1}, {17, 33, 9}, {65, 130, 31}, {128, 128, 32}, {96, 80, 72}, {4096, 4096, 4096},
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

// cuBLAS as a reference line, on a GPU only (simt's own cuBLAS runs on the
// host, so its time says nothing about a GPU's).  It is loaded at run time
// with dlopen and never linked, so that builds need nothing more; a GPU
// machine without the library just gets no line.  dlopen is part
// of the C library from glibc 2.34 on; with an older one a simt build would
// need -ldl, so there the line is compiled out.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define SGEMM_CUBLAS_LINE 1
#include <dlfcn.h>
#else
#define SGEMM_CUBLAS_LINE 0
#endif

#if SGEMM_CUBLAS_LINE
// The few cuBLAS entry points used, declared by hand so that no cuBLAS
// header is needed either.  Status 0 is CUBLAS_STATUS_SUCCESS, operation 0
// is CUBLAS_OP_N.
typedef int (*CublasCreate)(void** handle);
typedef int (*CublasDestroy)(void* handle);
typedef int (*CublasSgemm)(void* handle, int transa, int transb, int m, int n, int k,
                           const float* alpha, const float* A, int lda, const float* B,
                           int ldb, const float* beta, float* C, int ldc);

struct Cublas {
    void* lib = nullptr;
    CublasCreate create = nullptr;
    CublasDestroy destroy = nullptr;
    CublasSgemm sgemm = nullptr;
};

// Loads libcublas and its three entry points; false, with why in *why,
// when any of it is missing.
static bool cublas_load(Cublas* cb, std::string* why)
{
    std::vector<std::string> names = {"libcublas.so", "libcublas.so.13", "libcublas.so.12"};
    const char* home = getenv("CUDA_HOME");
    if (home && *home)
        names.push_back(std::string(home) + "/lib64/libcublas.so");
    names.push_back("/usr/local/cuda/lib64/libcublas.so");
    for (const std::string& n : names)
        if (!cb->lib)
            cb->lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!cb->lib) {
        const char* e = dlerror();
        *why = e ? e : "libcublas.so not found";
        return false;
    }
    cb->create = (CublasCreate)dlsym(cb->lib, "cublasCreate_v2");
    cb->destroy = (CublasDestroy)dlsym(cb->lib, "cublasDestroy_v2");
    cb->sgemm = (CublasSgemm)dlsym(cb->lib, "cublasSgemm_v2");
    if (!cb->create || !cb->destroy || !cb->sgemm) {
        *why = "libcublas lacks cublasCreate_v2, cublasDestroy_v2 or cublasSgemm_v2";
        return false;
    }
    return true;
}

// Times cuBLAS's SGEMM (FP32, default math mode: no TF32) on dA and dB:
// two warm-up calls, then 20 calls each between two events on the default
// stream; prints the median as one line on stdout.  The line is an extra:
// whatever fails here is reported in the line and never changes the result.
// The library stays loaded: unloading it while its context is live gains
// nothing.
static void cublas_reference_line(const float* dA, const float* dB, Shape s)
{
    Cublas cb;
    std::string why;
    void* handle = nullptr;
    if (!cublas_load(&cb, &why) || cb.create(&handle) != 0) {
        printf("reference: cuBLAS not available (%s)\n",
               why.empty() ? "cublasCreate failed" : why.c_str());
        return;
    }
    float* dC = nullptr;
    cudaEvent_t ev[2] = {nullptr, nullptr};
    std::vector<double> ms;
    const float one = 1.0f, zero = 0.0f;
    // cuBLAS is column-major: row-major C = A B is column-major
    // C^T = B^T A^T, so B and A go in swapped, each with its row length as
    // leading dimension.
    auto run = [&] {
        return cb.sgemm(handle, 0, 0, s.N, s.M, s.K, &one, dB, s.N, dA, s.K, &zero, dC, s.N);
    };
    int status = 0;
    cudaError_t err = cudaMalloc(&dC, (size_t)s.M * s.N * sizeof(float));
    if (err == cudaSuccess)
        err = cudaEventCreate(&ev[0]);
    if (err == cudaSuccess)
        err = cudaEventCreate(&ev[1]);
    if (err == cudaSuccess) {
        status = run() | run();
        err = cudaDeviceSynchronize();
    }
    for (int i = 0; i < 20 && status == 0 && err == cudaSuccess; i++) {
        float t = 0;
        cudaEventRecord(ev[0], 0);
        status |= run();
        cudaEventRecord(ev[1], 0);
        err = cudaEventSynchronize(ev[1]);
        if (err == cudaSuccess)
            err = cudaEventElapsedTime(&t, ev[0], ev[1]);
        ms.push_back(t);
    }
    for (cudaEvent_t e : ev)
        if (e)
            cudaEventDestroy(e);
    cudaFree(dC);
    cb.destroy(handle);
    (void)cudaGetLastError(); // a failure here is not the kernel's
    if (err != cudaSuccess || status != 0 || ms.empty()) {
        printf("reference: cuBLAS sgemm failed (cuBLAS status %d, %s)\n", status,
               cudaGetErrorName(err));
        return;
    }
    const lab::Stats st = lab::summarize(ms);
    const double tflops = 2.0 * s.M * s.N * (double)s.K / (st.median * 1e-3) / 1e12;
    printf("reference: cuBLAS sgemm %dx%dx%d: median %.4f ms, %.2f TFLOP/s (%zu samples)\n",
           s.M, s.N, s.K, st.median, tflops, st.n);
}
#endif

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
#if SGEMM_CUBLAS_LINE
    if (lab.benching() && lab.on_gpu() && !lab.judging() &&
        lab::result_status(lab.result()) == lab::Status::pass)
        cublas_reference_line(dA, dB, s);
#endif
}

int main(int argc, char** argv)
{
    lab::Lab lab("sgemm-regblock", argc, argv);
    for (long long k : lab.sizes({0, 1, 2, 3, 4}, 5))
        for (uint64_t seed : lab.seeds())
            run_case(lab, kShapes[k], seed);
    return lab.finish();
}
