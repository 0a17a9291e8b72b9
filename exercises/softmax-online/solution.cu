// softmax-online, reference answer: one warp per row, online statistics.
//
// Each lane walks its share of the row once, keeping a running maximum m
// and a running sum l of exp(x - m); when a larger value arrives, l is
// rescaled by exp(m_old - m_new) instead of starting over.  The 32 partial
// (m, l) pairs are then merged with butterfly shuffles, which is the same
// rescaling applied to two partial sums.  The merge is associative and
// commutative, so every lane ends with the row's statistics.
//
// Memory traffic is what sets the speed.  Loads are float4 when the row
// length allows it (cols % 4 == 0 keeps every row 16-byte aligned), and
// the values a lane loads are kept in registers, so for rows of up to 2048
// floats x is read from DRAM exactly once and y written once: 8 bytes per
// element, the minimum.  Longer rows keep their first 2048 values in
// registers and read the rest a second time.
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarpsPerBlock = 4;

// Running softmax statistics: m the maximum seen, l the sum of
// exp(x - m) over the values seen.  {-inf, 0} is the empty state.
struct Stat {
    float m, l;
};

// Merges two partial states; either may be empty.
__device__ __forceinline__ Stat merge(Stat a, Stat b)
{
    float m = fmaxf(a.m, b.m);
    if (m == -INFINITY) // both empty: -inf - -inf would be NaN
        return a;
    return {m, a.l * __expf(a.m - m) + b.l * __expf(b.m - m)};
}

// V consecutive floats of a row; V is 4 (one float4 load) or 1.
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

template <int V> __device__ __forceinline__ void store(float* p, int i, Pack<V> r)
{
    if constexpr (V == 4)
        reinterpret_cast<float4*>(p)[i] = make_float4(r.v[0], r.v[1], r.v[2], r.v[3]);
    else
        p[i] = r.v[0];
}

// Folds one pack into the running state: one rescale at most per pack.
template <int V> __device__ __forceinline__ void absorb(Stat& s, const Pack<V>& p)
{
    float top = p.v[0];
#pragma unroll
    for (int k = 1; k < V; k++)
        top = fmaxf(top, p.v[k]);
    if (top > s.m) {
        s.l *= __expf(s.m - top); // exp(-inf) = 0 when s was empty
        s.m = top;
    }
#pragma unroll
    for (int k = 0; k < V; k++)
        s.l += __expf(p.v[k] - s.m);
}

template <int V>
__device__ __forceinline__ Pack<V> normalize(Pack<V> p, float m, float inv_l)
{
#pragma unroll
    for (int k = 0; k < V; k++)
        p.v[k] = __expf(p.v[k] - m) * inv_l;
    return p;
}

__device__ __forceinline__ Stat warp_merge(Stat s)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        Stat o = {__shfl_xor_sync(kFull, s.m, off), __shfl_xor_sync(kFull, s.l, off)};
        s = merge(s, o);
    }
    return s;
}

// One warp per row.  The row is nv packs of V floats; lane j owns packs
// j, j + 32, j + 64, ...  The first 32 * C packs stay in registers
// (cache[] is indexed only by unrolled constants); packs past them are
// loaded again for the output.
template <int V, int C>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
softmax_rows(const float* __restrict__ x, float* __restrict__ y, int rows, int cols)
{
    int row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) // the whole warp leaves together
        return;
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;
    int nv = cols / V;

    Pack<V> cache[C];
    Stat s = {-INFINITY, 0.0f};
#pragma unroll
    for (int k = 0; k < C; k++) {
        int i = k * 32 + lane;
        if (i < nv) {
            cache[k] = load<V>(xr, i);
            absorb(s, cache[k]);
        }
    }
    for (int i = C * 32 + lane; i < nv; i += 32)
        absorb(s, load<V>(xr, i));

    s = warp_merge(s);
    float inv_l = 1.0f / s.l;

#pragma unroll
    for (int k = 0; k < C; k++) {
        int i = k * 32 + lane;
        if (i < nv)
            store<V>(yr, i, normalize(cache[k], s.m, inv_l));
    }
    for (int i = C * 32 + lane; i < nv; i += 32)
        store<V>(yr, i, normalize(load<V>(xr, i), s.m, inv_l));
}

// Picks how many packs per lane to keep in registers: just enough for the
// row when it fits, so short rows do not pay for idle registers.
template <int V> void launch(const float* x, float* y, int rows, int cols)
{
    int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    int threads = 32 * kWarpsPerBlock;
    int nv = cols / V;
    if (nv <= 32 * 2)
        softmax_rows<V, 2><<<blocks, threads>>>(x, y, rows, cols);
    else if (nv <= 32 * 8)
        softmax_rows<V, 8><<<blocks, threads>>>(x, y, rows, cols);
    else
        softmax_rows<V, 16><<<blocks, threads>>>(x, y, rows, cols);
}

} // namespace

void solve(const float* x, float* y, int rows, int cols)
{
    if (cols % 4 == 0)
        launch<4>(x, y, rows, cols);
    else
        launch<1>(x, y, rows, cols);
}
