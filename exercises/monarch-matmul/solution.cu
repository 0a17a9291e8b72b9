// monarch-matmul, reference answer: both block-diagonal factors in one
// kernel, with the permutations done as index arithmetic in shared memory.
//
// y = P L P^T R x with d = b * s.  A block of threads owns TB vectors of
// the batch.  Stage 1 computes u = R x, one output per thread (row k of
// block j of R against the slice j of x), and stores it straight into its
// place in v = P^T u: u[j * s + k] goes to v[k * b + j].  Stage 2 reads v
// from shared memory and computes y directly in output order: y[j * s + k]
// is w[q] with q = k * b + j, and w[q] is row r = q % s of block g = q / s
// of L against v's slice g.  So P^T and P cost nothing: no pass over memory
// of their own, only a different index on the way in and out.
//
// In shared memory each slice of v (s floats) is followed by one float of
// padding.  Stage 2's lanes (consecutive k) read slices g = k, k + 1, ...
// when b == s, which without the padding would all start in the same bank
// whenever s is a multiple of 32; with a stride of s + 1 they fall in 32
// different banks.  Stage 1's stores spread the same way.
//
// Weights are read through the read-only cache: every block of threads
// uses all of them, so they stay in L1 and L2 (2 d s floats, 2 MiB for the
// lesson's d = 4096 with 64 blocks).
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;
constexpr int kSharedFloats = 12288; // 48 KiB, what any block may have

__global__ void __launch_bounds__(kThreads)
monarch_fused(const float* __restrict__ x, const float* __restrict__ R,
              const float* __restrict__ L, float* __restrict__ y, int batch, int d,
              int b, int s, int tb)
{
    extern __shared__ float vs[]; // tb vectors of b slices of s + 1 floats
    const int stride = s + 1, vrow = b * stride;
    const int row0 = blockIdx.x * tb;
    const int rows = min(tb, batch - row0);

    // Stage 1: u = R x, written where P^T puts it.
    for (int idx = threadIdx.x; idx < rows * d; idx += kThreads) {
        int t = idx / d, p = idx % d, j = p / s, k = p % s;
        const float* xr = x + (size_t)(row0 + t) * d + (size_t)j * s;
        const float* rr = R + ((size_t)j * s + k) * s;
        float acc = 0.0f;
        for (int c = 0; c < s; c++)
            acc = fmaf(__ldg(rr + c), __ldg(xr + c), acc);
        int q = k * b + j;
        vs[t * vrow + (q / s) * stride + q % s] = acc;
    }
    __syncthreads();

    // Stage 2: y = P (L v), one output per thread in output order.
    for (int idx = threadIdx.x; idx < rows * d; idx += kThreads) {
        int t = idx / d, i = idx % d, j = i / s, k = i % s;
        int q = k * b + j, g = q / s, r = q % s;
        const float* lr = L + ((size_t)g * s + r) * s;
        const float* vv = vs + t * vrow + g * stride;
        float acc = 0.0f;
        for (int c = 0; c < s; c++)
            acc = fmaf(__ldg(lr + c), vv[c], acc);
        y[(size_t)(row0 + t) * d + i] = acc;
    }
}

} // namespace

void solve(const float* x, const float* R, const float* L, float* y, int batch, int d,
           int b)
{
    if (batch <= 0 || d <= 0 || b <= 0 || d % b != 0)
        return;
    const int s = d / b;
    const int per_vector = b * (s + 1); // shared floats per vector
    if (per_vector > kSharedFloats)
        return; // d of more than about 12000 would need another plan
    int tb = kSharedFloats / per_vector;
    tb = tb > 8 ? 8 : tb;
    const int blocks = (batch + tb - 1) / tb;
    monarch_fused<<<blocks, kThreads, (size_t)tb * per_vector * sizeof(float)>>>(
        x, R, L, y, batch, d, b, s, tb);
}
