// sparsify-2-4, reference answer: one float4 per group, four groups in
// flight per thread.
//
// Because cols is a multiple of 4, the groups of all rows tile the matrix
// without gaps: group g is floats 4g .. 4g + 3 and mask byte g, whatever
// its row.  So the kernel treats the input as one array of float4.  A warp
// reads 32 consecutive float4 (512 bytes) per load and writes 32
// consecutive mask bytes (one 32-byte sector) per store, both fully
// coalesced; each thread issues its four loads before using any of them,
// so enough bytes are in flight to keep DRAM busy.
//
// The selection is branch-free: one comparison per pair of positions
// decides which of the two outranks the other, and a position is kept when
// at most one other position outranks it.  Exactly two positions qualify.
#include <cuda_runtime.h>
#include <stdint.h>
#include <math.h>

namespace {

constexpr int kThreads = 256;
constexpr int kPerThread = 4; // groups per thread, kThreads apart

// Bit i set when position i is among the two largest magnitudes; of equal
// magnitudes the lower index ranks higher.
__device__ __forceinline__ unsigned keep_bits(float4 v)
{
    float a0 = fabsf(v.x), a1 = fabsf(v.y), a2 = fabsf(v.z), a3 = fabsf(v.w);
    // hij: position j outranks position i (i < j needs strictly larger).
    int h01 = a1 > a0, h02 = a2 > a0, h03 = a3 > a0;
    int h12 = a2 > a1, h13 = a3 > a1, h23 = a3 > a2;
    int above0 = h01 + h02 + h03;
    int above1 = (1 - h01) + h12 + h13;
    int above2 = (1 - h02) + (1 - h12) + h23;
    int above3 = (1 - h03) + (1 - h13) + (1 - h23);
    return (unsigned)(above0 < 2) | (unsigned)(above1 < 2) << 1 |
           (unsigned)(above2 < 2) << 2 | (unsigned)(above3 < 2) << 3;
}

__device__ __forceinline__ float4 apply(float4 v, unsigned bits)
{
    return make_float4(bits & 1 ? v.x : 0.0f, bits & 2 ? v.y : 0.0f,
                       bits & 4 ? v.z : 0.0f, bits & 8 ? v.w : 0.0f);
}

__global__ void __launch_bounds__(kThreads)
sparsify(const float4* __restrict__ x, float4* __restrict__ y,
         uint8_t* __restrict__ mask, long long groups)
{
    long long base = (long long)blockIdx.x * kThreads * kPerThread + threadIdx.x;
    float4 v[kPerThread];
#pragma unroll
    for (int k = 0; k < kPerThread; k++) {
        long long g = base + (long long)k * kThreads;
        if (g < groups)
            v[k] = x[g];
    }
#pragma unroll
    for (int k = 0; k < kPerThread; k++) {
        long long g = base + (long long)k * kThreads;
        if (g < groups) {
            unsigned bits = keep_bits(v[k]);
            y[g] = apply(v[k], bits);
            mask[g] = (uint8_t)bits;
        }
    }
}

} // namespace

void solve(const float* x, float* y, uint8_t* mask, int rows, int cols)
{
    long long groups = (long long)rows * cols / 4;
    long long per_block = (long long)kThreads * kPerThread;
    long long blocks = (groups + per_block - 1) / per_block;
    sparsify<<<(unsigned)blocks, kThreads>>>(reinterpret_cast<const float4*>(x),
                                            reinterpret_cast<float4*>(y), mask,
                                            groups);
}
