// fp8-e4m3-cast, reference answer: a grid-wide maximum, then a cast that
// packs four bytes per store.
//
// Pass 1 finds amax, the largest |x| among the finite values.  For floats
// that are >= 0 the order of the values is the order of their bit patterns
// read as unsigned integers, so the maximum can use integer tools: a warp
// agrees on its maximum with one __reduce_max_sync (a single redux.sync
// instruction on sm_80 and later), a block combines its warps through
// shared memory, and each block makes one atomicMax on a scratch word that
// was set to 0 (the bits of +0.0f) before the launch.
//
// Pass 2 reads amax, forms scale = 448 / amax (every thread computes the
// same IEEE quotient; block 0 stores it), and converts.  Each thread loads
// a float4 and stores the four codes as one 32-bit word, so a warp writes
// 128 contiguous bytes per instruction.
//
// The conversion works on the float's bits.  E4M3 keeps 3 of float's 23
// mantissa bits and has an exponent bias of 7 against float's 127:
//   |y| >= 448 (inf too)      saturate to 0x7E, the largest finite code;
//   |y| <  2^-6               subnormal: the code is |y| / 2^-9 rounded to
//                             an integer, half to even (8 is the smallest
//                             normal, whose code is also 8);
//   otherwise                 exponent (e - 127 + 7) << 3, plus the top 3
//                             mantissa bits, plus one when the 20 dropped
//                             bits are more than half, or exactly half and
//                             the kept ones are odd.  A carry out of the
//                             mantissa moves into the exponent by itself.
// The sign bit is copied over; NaN becomes 0x7F.
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 256;

__device__ __forceinline__ uint32_t to_e4m3(float y)
{
    uint32_t u = __float_as_uint(y);
    uint32_t sign = (u >> 24) & 0x80u;
    uint32_t a = u & 0x7fffffffu;
    if (a > 0x7f800000u) // NaN
        return 0x7fu;
    if (a >= 0x43e00000u) // 448.0f and above, infinity included
        return sign | 0x7eu;
    if (a < 0x3c800000u) // below 2^-6: subnormal or zero
        return sign | __float2uint_rn(__uint_as_float(a) * 512.0f);
    uint32_t code = (((a >> 23) - 120u) << 3) | ((a >> 20) & 7u);
    uint32_t rest = a & 0xfffffu;
    if (rest > 0x80000u || (rest == 0x80000u && (code & 1u)))
        code++;
    return sign | code;
}

// |v| as ordered bits, or 0 for NaN and infinity.
__device__ __forceinline__ uint32_t finite_abs_bits(float v)
{
    uint32_t a = __float_as_uint(v) & 0x7fffffffu;
    return a < 0x7f800000u ? a : 0u;
}

__global__ void __launch_bounds__(kThreads)
amax_kernel(const float* __restrict__ x, int n, unsigned* __restrict__ amax_bits)
{
    __shared__ uint32_t warp_max[kThreads / 32];
    const int n4 = n / 4;
    const int stride = gridDim.x * blockDim.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    uint32_t m = 0;
    for (int j = i; j < n4; j += stride) {
        float4 v = __ldg(reinterpret_cast<const float4*>(x) + j);
        m = max(m, max(max(finite_abs_bits(v.x), finite_abs_bits(v.y)),
                       max(finite_abs_bits(v.z), finite_abs_bits(v.w))));
    }
    if (i < n - 4 * n4) // the last n % 4 elements
        m = max(m, finite_abs_bits(__ldg(x + 4 * n4 + i)));
    m = __reduce_max_sync(kFull, m);
    if (threadIdx.x % 32 == 0)
        warp_max[threadIdx.x / 32] = m;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < kThreads / 32; w++)
            m = max(m, warp_max[w]);
        if (m != 0)
            atomicMax(amax_bits, m);
    }
}

__global__ void __launch_bounds__(kThreads)
cast_kernel(const float* __restrict__ x, uint8_t* __restrict__ q,
            float* __restrict__ scale_out, int n, const unsigned* __restrict__ amax_bits)
{
    float amax = __uint_as_float(*amax_bits);
    float scale = amax > 0.0f ? 448.0f / amax : 1.0f;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0)
        *scale_out = scale;
    const int n4 = n / 4;
    const int stride = gridDim.x * blockDim.x;
    for (int j = i; j < n4; j += stride) {
        float4 v = __ldg(reinterpret_cast<const float4*>(x) + j);
        uint32_t word = to_e4m3(v.x * scale) | to_e4m3(v.y * scale) << 8 |
                        to_e4m3(v.z * scale) << 16 | to_e4m3(v.w * scale) << 24;
        reinterpret_cast<uint32_t*>(q)[j] = word; // little-endian: x first
    }
    if (i < n - 4 * n4) {
        int k = 4 * n4 + i;
        q[k] = (uint8_t)to_e4m3(__ldg(x + k) * scale);
    }
}

int sm_count()
{
    static int n = 0;
    if (n == 0) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            n <= 0)
            n = 1;
    }
    return n;
}

// One word of scratch for amax, allocated once and kept.
unsigned* scratch()
{
    static unsigned* p = nullptr;
    if (!p && cudaMalloc(&p, sizeof *p) != cudaSuccess)
        p = nullptr;
    return p;
}

} // namespace

void solve(const float* x, uint8_t* q, float* scale, int n)
{
    unsigned* amax = scratch();
    if (!amax)
        return; // the failed cudaMalloc is the error the caller sees
    cudaMemsetAsync(amax, 0, sizeof *amax); // +0.0f: no finite value seen
    // Enough blocks to cover the float4s once, at most 4 per SM (the loops
    // stride over the rest); at least one, for the tail of tiny inputs.
    int want = (n / 4 + kThreads - 1) / kThreads;
    int blocks = want < 4 * sm_count() ? want : 4 * sm_count();
    if (blocks < 1)
        blocks = 1;
    amax_kernel<<<blocks, kThreads>>>(x, n, amax);
    cast_kernel<<<blocks, kThreads>>>(x, q, scale, n, amax);
}
