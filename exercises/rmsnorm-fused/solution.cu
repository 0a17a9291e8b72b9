// rmsnorm-fused, reference answer: one block per row, the row held in
// registers between the reduction and the output.
//
// A block reads its row once (float4 loads when cols % 4 == 0, which keeps
// every row 16-byte aligned), accumulating the sum of squares as it goes,
// and keeps the loaded values in registers.  The block then adds up its
// threads' partial sums (warp shuffles, then one value per warp through
// shared memory), and every thread scales the values it already holds:
// x is read from DRAM once and y written once, 8 bytes per element.  w is
// the same for every row, so after the first rows it comes from the L2.
//
// The block size follows the row: about four packs per thread, between one
// warp and 1024 threads.  Rows longer than the registers hold (8 packs per
// thread) are still correct; the part past the cache is read twice.
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kCache = 8;         // packs per thread kept in registers
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

template <int V> __device__ __forceinline__ void store(float* p, int i, const Pack<V>& r)
{
    if constexpr (V == 4)
        reinterpret_cast<float4*>(p)[i] = make_float4(r.v[0], r.v[1], r.v[2], r.v[3]);
    else
        p[i] = r.v[0];
}

template <int V> __device__ __forceinline__ float sum_squares(const Pack<V>& p)
{
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < V; k++)
        s = fmaf(p.v[k], p.v[k], s);
    return s;
}

// y = x * scale * w, element by element.
template <int V>
__device__ __forceinline__ Pack<V> scaled(const Pack<V>& x, const Pack<V>& w, float scale)
{
    Pack<V> y;
#pragma unroll
    for (int k = 0; k < V; k++)
        y.v[k] = x.v[k] * scale * w.v[k];
    return y;
}

// The sum of v over the block, returned to every thread.  blockDim.x is a
// multiple of 32.
__device__ float block_sum(float v)
{
    __shared__ float partial[32];
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    int warps = blockDim.x / 32;
    v = lane < warps ? partial[lane] : 0.0f;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    return v; // every warp reduced the same partials
}

// One block per row.  The row is nv packs of V floats; thread t owns packs
// t, t + blockDim.x, ...; the first kCache of them stay in registers.
template <int V>
__global__ void __launch_bounds__(kMaxThreads)
rmsnorm_rows(const float* __restrict__ x, const float* __restrict__ w,
             float* __restrict__ y, int cols, float eps)
{
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    int nv = cols / V, step = blockDim.x;

    Pack<V> cache[kCache];
    float ss = 0.0f;
#pragma unroll
    for (int k = 0; k < kCache; k++) {
        int i = k * step + threadIdx.x;
        if (i < nv) {
            cache[k] = load<V>(xr, i);
            ss += sum_squares(cache[k]);
        }
    }
    for (int i = kCache * step + threadIdx.x; i < nv; i += step)
        ss += sum_squares(load<V>(xr, i));

    float scale = rsqrtf(block_sum(ss) / (float)cols + eps);

#pragma unroll
    for (int k = 0; k < kCache; k++) {
        int i = k * step + threadIdx.x;
        if (i < nv)
            store<V>(yr, i, scaled(cache[k], load<V>(w, i), scale));
    }
    for (int i = kCache * step + threadIdx.x; i < nv; i += step)
        store<V>(yr, i, scaled(load<V>(xr, i), load<V>(w, i), scale));
}

int threads_for(int packs)
{
    int t = (packs + kPacksPerThread - 1) / kPacksPerThread;
    t = (t + 31) / 32 * 32;
    return t < 32 ? 32 : (t > kMaxThreads ? kMaxThreads : t);
}

} // namespace

void solve(const float* x, const float* w, float* y, int rows, int cols, float eps)
{
    if (cols % 4 == 0)
        rmsnorm_rows<4><<<rows, threads_for(cols / 4)>>>(x, w, y, cols, eps);
    else
        rmsnorm_rows<1><<<rows, threads_for(cols)>>>(x, w, y, cols, eps);
}
