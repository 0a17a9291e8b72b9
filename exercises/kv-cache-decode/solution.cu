// kv-cache-decode, reference answer: split-K decoding ("flash decoding")
// over a paged cache.
//
// One query token against seq_len cached tokens is a matrix-vector product
// per head: every K and V byte is used for one multiply-add, so the kernel
// is bound by how fast it streams the cache.  A block per head would leave
// most of the GPU idle (32 heads, 132 SMs), so the sequence is also split:
// block (s, h) handles one contiguous range of tokens of head h and leaves
// a partial result, the running (m, l) of the online softmax and the
// unnormalised sum acc of exp(s - m) * v.  A second, tiny kernel merges
// the partials of each head, rescaling each by exp(m_s - M).  When one
// split covers the whole sequence the first kernel writes the output
// itself.
//
// Inside a block, each warp takes four tokens at a time.  A token's K row
// for one head is head_dim contiguous floats, so a warp reads it in one
// instruction (lane j holds dims [j * D/32, (j + 1) * D/32), a float4 for
// D = 128); the four tokens' K and V loads are all issued before any is
// used.  The dot products finish with xor-shuffles, four reductions
// interleaved.  The page of token t is block_table[t / page_size]; slots
// past seq_len and pages not in the table are never read.
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kWarps = 4;     // warps per block
constexpr int kTok = 4;       // tokens per warp per step
constexpr int kMinChunk = 64; // fewest tokens worth a split of their own

// N consecutive floats of a row, N = head_dim / 32 (1, 2 or 4).
template <int N> struct Frag {
    float v[N];
};

template <int N> __device__ __forceinline__ Frag<N> load_frag(const float* row, int lane)
{
    Frag<N> f;
    if constexpr (N == 4) {
        float4 t = reinterpret_cast<const float4*>(row)[lane];
        f.v[0] = t.x, f.v[1] = t.y, f.v[2] = t.z, f.v[3] = t.w;
    } else if constexpr (N == 2) {
        float2 t = reinterpret_cast<const float2*>(row)[lane];
        f.v[0] = t.x, f.v[1] = t.y;
    } else {
        f.v[0] = row[lane];
    }
    return f;
}

template <int N> __device__ __forceinline__ Frag<N> zero_frag()
{
    Frag<N> f;
#pragma unroll
    for (int j = 0; j < N; j++)
        f.v[j] = 0.0f;
    return f;
}

// Offset of token t of head h in a cache laid out
// [page][slot][head][dim].
__device__ __forceinline__ size_t token_offset(const int* table, int t, int page_size,
                                               int heads, int h, int D)
{
    size_t slot = (size_t)table[t / page_size] * page_size + t % page_size;
    return (slot * heads + h) * D;
}

// What a warp or block knows about its tokens: max score m (unscaled),
// l = sum of exp2((s - m) * c2), acc = the same weights times V.
template <int N> struct State {
    float m, l;
    float acc[N];
};

// One step of a warp: up to kTok tokens from t0 (those at or past t_end
// are masked).
template <int D>
__device__ __forceinline__ void attend_step(State<D / 32>& st, const Frag<D / 32>& qf,
                                            const float* kc, const float* vc,
                                            const int* table, int t0, int t_end,
                                            int page_size, int heads, int h, float c2)
{
    constexpr int N = D / 32;
    int lane = threadIdx.x % 32;
    Frag<N> kf[kTok], vf[kTok];
#pragma unroll
    for (int i = 0; i < kTok; i++) {
        if (t0 + i < t_end) {
            size_t off = token_offset(table, t0 + i, page_size, heads, h, D);
            kf[i] = load_frag<N>(kc + off, lane);
            vf[i] = load_frag<N>(vc + off, lane);
        } else {
            kf[i] = zero_frag<N>(), vf[i] = zero_frag<N>();
        }
    }
    float s[kTok];
#pragma unroll
    for (int i = 0; i < kTok; i++) {
        s[i] = 0.0f;
#pragma unroll
        for (int j = 0; j < N; j++)
            s[i] = fmaf(qf.v[j], kf[i].v[j], s[i]);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
#pragma unroll
        for (int i = 0; i < kTok; i++)
            s[i] += __shfl_xor_sync(kFull, s[i], off);

    float m_new = st.m;
#pragma unroll
    for (int i = 0; i < kTok; i++) {
        s[i] = t0 + i < t_end ? s[i] : -INFINITY;
        m_new = fmaxf(m_new, s[i]);
    }
    float corr = exp2f((st.m - m_new) * c2); // token t0 is valid: m_new is finite
    st.l *= corr;
#pragma unroll
    for (int j = 0; j < N; j++)
        st.acc[j] *= corr;
#pragma unroll
    for (int i = 0; i < kTok; i++) {
        float p = exp2f((s[i] - m_new) * c2);
        st.l += p;
#pragma unroll
        for (int j = 0; j < N; j++)
            st.acc[j] = fmaf(p, vf[i].v[j], st.acc[j]);
    }
    st.m = m_new;
}

// Grid (splits, heads).  Each block covers tokens [split * chunk, +chunk)
// of one head and writes either the final output (one split) or its
// partial state to part[(h * splits + split) * (D + 2) + ...]: m, l, acc.
template <int D>
__global__ void __launch_bounds__(32 * kWarps)
decode_split(const float* __restrict__ q, const float* __restrict__ kc,
             const float* __restrict__ vc, const int* __restrict__ table,
             float* __restrict__ out, float* __restrict__ part, int heads,
             int seq, int page_size, int chunk, float c2)
{
    constexpr int N = D / 32;
    __shared__ float sh_m[kWarps], sh_l[kWarps];
    __shared__ float sh_acc[kWarps][D];
    int h = blockIdx.y, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int t_begin = blockIdx.x * chunk, t_end = min(seq, t_begin + chunk);

    Frag<N> qf = load_frag<N>(q + (size_t)h * D, lane);
    State<N> st;
    st.m = -INFINITY, st.l = 0.0f;
#pragma unroll
    for (int j = 0; j < N; j++)
        st.acc[j] = 0.0f;
    for (int t0 = t_begin + warp * kTok; t0 < t_end; t0 += kWarps * kTok)
        attend_step<D>(st, qf, kc, vc, table, t0, t_end, page_size, heads, h, c2);

    if (lane == 0)
        sh_m[warp] = st.m, sh_l[warp] = st.l;
#pragma unroll
    for (int j = 0; j < N; j++)
        sh_acc[warp][lane * N + j] = st.acc[j];
    __syncthreads();

    // Thread c merges dimension c across the warps (warp 0 always has a
    // token, so M is finite; a warp without one has m = -inf, weight 0).
    int c = threadIdx.x;
    if (c >= D)
        return;
    float M = sh_m[0];
    for (int w = 1; w < kWarps; w++)
        M = fmaxf(M, sh_m[w]);
    float L = 0.0f, A = 0.0f;
    for (int w = 0; w < kWarps; w++) {
        float wgt = exp2f((sh_m[w] - M) * c2);
        L = fmaf(sh_l[w], wgt, L);
        A = fmaf(sh_acc[w][c], wgt, A);
    }
    if (gridDim.x == 1) {
        out[(size_t)h * D + c] = A / L;
        return;
    }
    float* p = part + ((size_t)h * gridDim.x + blockIdx.x) * (D + 2);
    if (c == 0)
        p[0] = M, p[1] = L;
    p[2 + c] = A;
}

// One block of D threads per head: merges the head's split partials.
template <int D>
__global__ void decode_combine(const float* __restrict__ part, float* __restrict__ out,
                               int splits, float c2)
{
    int h = blockIdx.x, c = threadIdx.x;
    const float* p = part + (size_t)h * splits * (D + 2);
    float M = -INFINITY;
    for (int s = 0; s < splits; s++)
        M = fmaxf(M, p[(size_t)s * (D + 2)]);
    float L = 0.0f, A = 0.0f;
    for (int s = 0; s < splits; s++) {
        const float* ps = p + (size_t)s * (D + 2);
        float wgt = exp2f((ps[0] - M) * c2);
        L = fmaf(ps[1], wgt, L);
        A = fmaf(ps[2 + c], wgt, A);
    }
    out[(size_t)h * D + c] = A / L;
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

// Scratch for the partial states, kept between calls and grown on demand,
// so that a timed call allocates nothing.
float* workspace(size_t floats)
{
    static float* buf = nullptr;
    static size_t cap = 0;
    if (floats > cap) {
        cudaFree(buf);
        buf = nullptr;
        cap = 0;
        if (cudaMalloc(&buf, floats * sizeof(float)) != cudaSuccess)
            return nullptr;
        cap = floats;
    }
    return buf;
}

template <int D>
void decode(const float* q, const float* kc, const float* vc, const int* table,
            float* out, int heads, int seq, int page_size)
{
    const float c2 = 1.4426950408889634f / sqrtf((float)D);
    // About four blocks per SM in all, but no split under kMinChunk tokens.
    int splits = (4 * sm_count() + heads - 1) / heads;
    splits = min(splits, (seq + kMinChunk - 1) / kMinChunk);
    splits = max(splits, 1);
    int chunk = (seq + splits - 1) / splits;
    splits = (seq + chunk - 1) / chunk; // no split left empty
    float* part = nullptr;
    if (splits > 1) {
        part = workspace((size_t)heads * splits * (D + 2));
        if (!part)
            return; // the failed cudaMalloc is the error the caller sees
    }
    decode_split<D><<<dim3(splits, heads), 32 * kWarps>>>(q, kc, vc, table, out, part,
                                                          heads, seq, page_size, chunk, c2);
    if (splits > 1)
        decode_combine<D><<<heads, D>>>(part, out, splits, c2);
}

} // namespace

void solve(const float* q, const float* k_cache, const float* v_cache,
           const int* block_table, float* out, int heads, int head_dim,
           int seq_len, int page_size)
{
    if (head_dim == 32)
        decode<32>(q, k_cache, v_cache, block_table, out, heads, seq_len, page_size);
    else if (head_dim == 64)
        decode<64>(q, k_cache, v_cache, block_table, out, heads, seq_len, page_size);
    else if (head_dim == 128)
        decode<128>(q, k_cache, v_cache, block_table, out, heads, seq_len, page_size);
}
