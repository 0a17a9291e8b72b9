// quantize-int8, reference answer: one block per row, the row held in
// registers between the absmax reduction and the quantization.
//
// A block reads its row once (float4 loads when cols % 4 == 0), keeping the
// values in registers and a running max of |x| per thread.  The block
// reduces the maxima (warp shuffles, then one value per warp through shared
// memory), and every thread quantizes what it holds: 4 bytes read and 1
// byte written per element, the int8 results stored four at a time as one
// 32-bit char4.  Rows longer than the register cache (8 packs per thread)
// are still correct; their tail is read twice.
//
// q = round(x * (127 / absmax)) rather than x / scale: one multiply instead
// of a division per element.  The two agree except within a rounding error
// of a half-way point, where the statement allows either.  roundf rounds
// half away from zero (rintf and __float2int_rn would round half to even).
#include <cuda_runtime.h>
#include <stdint.h>
#include <math.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kCache = 8;          // packs per thread kept in registers
constexpr int kPacksPerThread = 4; // what the block size aims for
constexpr int kMaxThreads = 1024;

template <int V> struct Pack {
    float v[V];
};

template <int V> __device__ __forceinline__ Pack<V> load(const float* p, int i)
{
    Pack<V> r;
    if constexpr (V == 4) {
        float4 f = reinterpret_cast<const float4*>(p)[i];
        r.v[0] = f.x, r.v[1] = f.y, r.v[2] = f.z, r.v[3] = f.w;
    } else {
        r.v[0] = p[i];
    }
    return r;
}

template <int V> __device__ __forceinline__ float pack_absmax(const Pack<V>& p, float m)
{
#pragma unroll
    for (int k = 0; k < V; k++)
        m = fmaxf(m, fabsf(p.v[k]));
    return m;
}

__device__ __forceinline__ signed char quantize(float x, float inv)
{
    float r = fminf(fmaxf(roundf(x * inv), -127.0f), 127.0f);
    return (signed char)__float2int_rn(r);
}

// Quantizes pack i of the row into q (four int8 in one 32-bit store).
template <int V>
__device__ __forceinline__ void store_q(int8_t* q, int i, const Pack<V>& p, float inv)
{
    if constexpr (V == 4)
        reinterpret_cast<char4*>(q)[i] = make_char4(quantize(p.v[0], inv), quantize(p.v[1], inv),
                                                    quantize(p.v[2], inv), quantize(p.v[3], inv));
    else
        q[i] = quantize(p.v[0], inv);
}

// The maximum of v over the block, returned to every thread.  blockDim.x
// is a multiple of 32.
__device__ float block_max(float v)
{
    __shared__ float partial[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(kFull, v, off));
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    v = lane < (int)blockDim.x / 32 ? partial[lane] : 0.0f;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(kFull, v, off));
    return v;
}

// One block per row: thread t owns packs t, t + blockDim.x, ...
template <int V>
__global__ void __launch_bounds__(kMaxThreads)
quantize_rows(const float* __restrict__ x, int8_t* __restrict__ q,
              float* __restrict__ scale, int cols)
{
    const float* xr = x + (size_t)blockIdx.x * cols;
    int8_t* qr = q + (size_t)blockIdx.x * cols;
    int nv = cols / V, step = blockDim.x;

    Pack<V> cache[kCache];
    float m = 0.0f;
#pragma unroll
    for (int k = 0; k < kCache; k++) {
        int i = k * step + threadIdx.x;
        if (i < nv) {
            cache[k] = load<V>(xr, i);
            m = pack_absmax(cache[k], m);
        }
    }
    for (int i = kCache * step + threadIdx.x; i < nv; i += step)
        m = pack_absmax(load<V>(xr, i), m);

    m = block_max(m);
    if (threadIdx.x == 0)
        scale[blockIdx.x] = m / 127.0f;
    float inv = m > 0.0f ? 127.0f / m : 0.0f; // a zero row quantizes to 0

#pragma unroll
    for (int k = 0; k < kCache; k++) {
        int i = k * step + threadIdx.x;
        if (i < nv)
            store_q(qr, i, cache[k], inv);
    }
    for (int i = kCache * step + threadIdx.x; i < nv; i += step)
        store_q(qr, i, load<V>(xr, i), inv);
}

int threads_for(int packs)
{
    int t = (packs + kPacksPerThread - 1) / kPacksPerThread;
    t = (t + 31) / 32 * 32;
    return t < 32 ? 32 : (t > kMaxThreads ? kMaxThreads : t);
}

} // namespace

void solve(const float* x, int8_t* q, float* scale, int rows, int cols)
{
    if (cols % 4 == 0)
        quantize_rows<4><<<rows, threads_for(cols / 4)>>>(x, q, scale, cols);
    else
        quantize_rows<1><<<rows, threads_for(cols)>>>(x, q, scale, cols);
}
