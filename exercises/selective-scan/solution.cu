// selective-scan, reference answer: one warp per channel, a warp-shuffle
// scan of affine maps within each chunk of the sequence, and a carry from
// chunk to chunk.
//
// Step t is the map h -> a_t h + u_t with u_t = b_t x_t.  Doing step 1 and
// then step 2 is again such a map, (a1, u1) then (a2, u2) =
// (a2 a1, a2 u1 + u2), and that composition is associative, so the steps
// can be grouped any way a parallel scan likes.  Each lane owns E = 4
// consecutive steps of a chunk of 128 (one float4 per input array, so a
// warp's loads are 512 contiguous bytes): it composes its four steps
// sequentially, the warp scans the 32 composed maps with five shuffle
// rounds, and lane j applies the map of lanes 0 .. j-1 to the carry that
// enters the chunk, then replays its own four steps to produce every h_t.
// The chunk's total map updates the carry for the next chunk.
//
// The warp keeps G = 2 chunks in flight: their loads, compositions and
// scans are independent, and only the cheap carry update is sequential,
// so the warp waits for memory half as often.
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kE = 4;                // steps per lane per chunk
constexpr int kChunk = 32 * kE;      // steps per chunk
constexpr int kG = 2;                // chunks per iteration
constexpr int kWarpsPerBlock = 4;

// The affine map h -> a h + u.
struct Map {
    float a, u;
};

// first, then second.
__device__ __forceinline__ Map then(Map first, Map second)
{
    return {second.a * first.a, fmaf(second.a, first.u, second.u)};
}

// Loads this lane's kE steps of one chunk starting at t0; steps at or past
// T become the identity map (a = 1, u = 0), so they do not disturb the
// scan.  VEC: T % 4 == 0, so a row is 16-byte aligned and t0 too.
template <bool VEC>
__device__ __forceinline__ void load_steps(Map (&m)[kE], const float* a,
                                           const float* b, const float* x,
                                           int t0, int T)
{
    if (VEC && t0 < T) {
        float4 av = *reinterpret_cast<const float4*>(a + t0);
        float4 bv = *reinterpret_cast<const float4*>(b + t0);
        float4 xv = *reinterpret_cast<const float4*>(x + t0);
        m[0] = {av.x, bv.x * xv.x};
        m[1] = {av.y, bv.y * xv.y};
        m[2] = {av.z, bv.z * xv.z};
        m[3] = {av.w, bv.w * xv.w};
        return;
    }
#pragma unroll
    for (int e = 0; e < kE; e++) {
        int t = t0 + e;
        m[e] = t < T ? Map{a[t], b[t] * x[t]} : Map{1.0f, 0.0f};
    }
}

// Inclusive scan of the lanes' maps: lane j ends with lanes 0..j composed.
__device__ __forceinline__ Map warp_scan(Map m, int lane)
{
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        Map prev = {__shfl_up_sync(kFull, m.a, off), __shfl_up_sync(kFull, m.u, off)};
        if (lane >= off)
            m = then(prev, m);
    }
    return m;
}

template <bool VEC>
__device__ __forceinline__ void store_h(float* h, const float (&out)[kE], int t0, int T)
{
    if (VEC && t0 < T) {
        *reinterpret_cast<float4*>(h + t0) = make_float4(out[0], out[1], out[2], out[3]);
        return;
    }
#pragma unroll
    for (int e = 0; e < kE; e++)
        if (t0 + e < T)
            h[t0 + e] = out[e];
}

// One warp per channel; rows of length T.
template <bool VEC>
__global__ void __launch_bounds__(32 * kWarpsPerBlock)
selective_scan(const float* __restrict__ a, const float* __restrict__ b,
               const float* __restrict__ x, float* __restrict__ h, int channels, int T)
{
    int ch = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
    int lane = threadIdx.x % 32;
    if (ch >= channels) // the whole warp leaves together
        return;
    size_t row = (size_t)ch * T;
    a += row, b += row, x += row, h += row;

    float carry = 0.0f; // h just before the current chunk
    for (int base = 0; base < T; base += kG * kChunk) {
        Map steps[kG][kE], incl[kG];
#pragma unroll
        for (int g = 0; g < kG; g++)
            load_steps<VEC>(steps[g], a, b, x, base + g * kChunk + lane * kE, T);
#pragma unroll
        for (int g = 0; g < kG; g++) {
            Map own = steps[g][0];
#pragma unroll
            for (int e = 1; e < kE; e++)
                own = then(own, steps[g][e]);
            incl[g] = warp_scan(own, lane);
        }
#pragma unroll
        for (int g = 0; g < kG; g++) {
            // Lanes before this one, as one map (lane 0: the identity).
            Map before = {__shfl_up_sync(kFull, incl[g].a, 1),
                          __shfl_up_sync(kFull, incl[g].u, 1)};
            if (lane == 0)
                before = {1.0f, 0.0f};
            float hv = fmaf(before.a, carry, before.u);
            float out[kE];
#pragma unroll
            for (int e = 0; e < kE; e++) {
                hv = fmaf(steps[g][e].a, hv, steps[g][e].u);
                out[e] = hv;
            }
            store_h<VEC>(h, out, base + g * kChunk + lane * kE, T);
            Map total = {__shfl_sync(kFull, incl[g].a, 31), __shfl_sync(kFull, incl[g].u, 31)};
            carry = fmaf(total.a, carry, total.u);
        }
    }
}

} // namespace

void solve(const float* a, const float* b, const float* x, float* h, int channels, int T)
{
    int blocks = (channels + kWarpsPerBlock - 1) / kWarpsPerBlock;
    int threads = 32 * kWarpsPerBlock;
    if (T % 4 == 0)
        selective_scan<true><<<blocks, threads>>>(a, b, x, h, channels, T);
    else
        selective_scan<false><<<blocks, threads>>>(a, b, x, h, channels, T);
}
