// merge-attention-partials, reference answer: one warp per query row.
//
// The merge is a weighted average: partial p gets the weight
// w_p = l_p * exp(m_p - M), with M the largest m_p, and
// out = sum_p w_p o_p / sum_p w_p, lse = M + log(sum_p w_p).  Subtracting
// M keeps every exponent at or below 0, so nothing overflows whatever the
// scale of the scores.
//
// A warp owns a row.  First its lanes read the (m_p, l_p) pairs, one
// partial per lane, and agree on M and on L = sum w_p with butterfly
// shuffles.  Then the lanes split the row's head_dim columns (a float4 per
// lane when head_dim % 4 == 0, consecutive lanes on consecutive addresses)
// and walk the partials, fetching each weight from the lane that computed
// it with __shfl_sync.  The weight is the same for the whole warp, so
// skipping a partial whose weight is 0 is a uniform branch: masked
// partials (m = -inf, l = 0) are never read, which matters because their
// o may hold NaN, and 0 * NaN is NaN.
//
// Every partial is read once and every output written once, the least
// traffic there is; the arithmetic is one multiply-add per element read.
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarpsPerBlock = 4;

__device__ __forceinline__ float warp_max(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v = fmaxf(v, __shfl_xor_sync(kFull, v, off));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_xor_sync(kFull, v, off);
    return v;
}

// V consecutive floats: one float4 or one float.
template <int V> struct Vec {
    float v[V];
};

template <int V> __device__ __forceinline__ Vec<V> load(const float* p, int i)
{
    Vec<V> r;
    if constexpr (V == 4) {
        float4 f = __ldg(reinterpret_cast<const float4*>(p) + i);
        r.v[0] = f.x, r.v[1] = f.y, r.v[2] = f.z, r.v[3] = f.w;
    } else {
        r.v[0] = __ldg(p + i);
    }
    return r;
}

template <int V> __device__ __forceinline__ void store(float* p, int i, const Vec<V>& r)
{
    if constexpr (V == 4)
        reinterpret_cast<float4*>(p)[i] = make_float4(r.v[0], r.v[1], r.v[2], r.v[3]);
    else
        p[i] = r.v[0];
}

// One warp per row.  The row's head_dim floats are nv packs of V; lane j
// owns packs j, j + 32, ... (at most K of them).
template <int V, int K>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
merge_rows(const float* __restrict__ o, const float* __restrict__ m,
           const float* __restrict__ l, float* __restrict__ out,
           float* __restrict__ lse, int P, int rows, int d)
{
    int row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (row >= rows) // the whole warp leaves together
        return;
    const int nv = d / V;
    const size_t part_stride = (size_t)rows * d; // from o_p to o_(p+1)
    float* orow = out + (size_t)row * d;

    // The largest maximum over the partials.
    float top = -INFINITY;
    for (int p = lane; p < P; p += 32)
        top = fmaxf(top, m[(size_t)p * rows + row]);
    top = warp_max(top);

    if (top == -INFINITY) { // every partial masked: nothing was attended to
        Vec<V> zero;
#pragma unroll
        for (int k = 0; k < V; k++)
            zero.v[k] = 0.0f;
        for (int i = lane; i < nv; i += 32)
            store<V>(orow, i, zero);
        if (lane == 0)
            lse[row] = -INFINITY;
        return;
    }

    float acc[K][V];
#pragma unroll
    for (int k = 0; k < K; k++)
#pragma unroll
        for (int e = 0; e < V; e++)
            acc[k][e] = 0.0f;
    float total = 0.0f; // this lane's share of L

    // Partials in groups of 32: lane j computes the weight of partial
    // base + j, then the warp walks the group.
    for (int base = 0; base < P; base += 32) {
        int p = base + lane;
        float w = 0.0f;
        if (p < P) {
            float mp = m[(size_t)p * rows + row];
            // Masked: exp(-inf) = 0 and l = 0, so w = 0 (no -inf - -inf:
            // top is finite here).
            w = l[(size_t)p * rows + row] * __expf(mp - top);
        }
        total += w;
        int n = min(32, P - base);
        for (int j = 0; j < n; j++) {
            float wj = __shfl_sync(kFull, w, j);
            if (wj == 0.0f) // uniform: masked, or too small to matter
                continue;
            const float* op = o + (size_t)(base + j) * part_stride + (size_t)row * d;
#pragma unroll
            for (int k = 0; k < K; k++) {
                int i = k * 32 + lane;
                if (i < nv) {
                    Vec<V> x = load<V>(op, i);
#pragma unroll
                    for (int e = 0; e < V; e++)
                        acc[k][e] = fmaf(wj, x.v[e], acc[k][e]);
                }
            }
        }
    }

    float L = warp_sum(total);
    float inv = 1.0f / L;
#pragma unroll
    for (int k = 0; k < K; k++) {
        int i = k * 32 + lane;
        if (i < nv) {
            Vec<V> r;
#pragma unroll
            for (int e = 0; e < V; e++)
                r.v[e] = acc[k][e] * inv;
            store<V>(orow, i, r);
        }
    }
    if (lane == 0)
        lse[row] = top + __logf(L);
}

template <int V>
void launch(const float* o, const float* m, const float* l, float* out, float* lse,
            int P, int rows, int d)
{
    int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    int threads = 32 * kWarpsPerBlock;
    int per_lane = (d / V + 31) / 32; // packs each lane owns
    if (per_lane <= 1)
        merge_rows<V, 1><<<blocks, threads>>>(o, m, l, out, lse, P, rows, d);
    else if (per_lane <= 2)
        merge_rows<V, 2><<<blocks, threads>>>(o, m, l, out, lse, P, rows, d);
    else if (per_lane <= 4)
        merge_rows<V, 4><<<blocks, threads>>>(o, m, l, out, lse, P, rows, d);
    else
        merge_rows<V, 8><<<blocks, threads>>>(o, m, l, out, lse, P, rows, d);
}

} // namespace

void solve(const float* o_part, const float* m_part, const float* l_part,
           float* out, float* lse, int P, int rows, int head_dim)
{
    // float4 needs every row of every partial 16-byte aligned: head_dim % 4
    // == 0 (cudaMalloc aligns the base to 256 bytes).
    if (head_dim % 4 == 0)
        launch<4>(o_part, m_part, l_part, out, lse, P, rows, head_dim);
    else
        launch<1>(o_part, m_part, l_part, out, lse, P, rows, head_dim);
}
