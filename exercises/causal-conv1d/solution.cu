// causal-conv1d, reference answer: each output needs the three inputs
// before it, and in a warp those are mostly already in a neighbour lane's
// registers.
//
// out[t] = bias + w0 x[t-3] + w1 x[t-2] + w2 x[t-1] + w3 x[t] along each
// (batch, channel) row, with x = 0 before the start, then SiLU if asked.
// The rows are independent and contiguous, so a block takes a tile of one
// row and consecutive lanes take consecutive positions: every load and
// store is coalesced.
//
// Wide path (length % 4 == 0): each lane loads a float4 (positions
// t0 .. t0 + 3) and needs x[t0 - 3 .. t0 - 1], which is the y, z and w of
// the previous lane's float4: three __shfl_up_sync calls deliver them.
// Only lane 0 of each warp reads its left neighbour's float4 from memory
// (a line its neighbour warp reads anyway, so it comes from cache).  x is
// read from DRAM once and out written once: 8 bytes per output, the least
// there is.
//
// Narrow path (any length): one position per lane, x[t - 1 .. t - 3] from
// the lanes 1, 2 and 3 places down, and lanes 0, 1 and 2 load the ones
// that fall before their warp.
#include <cuda_runtime.h>
#include <math.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 256;

__device__ __forceinline__ float finish(float v, int silu)
{
    // v * sigmoid(v); the fast exponential is accurate to a few ulp here.
    return silu ? v / (1.0f + __expf(-v)) : v;
}

// Tiles of kThreads * 4 positions; block = (row, tile), flattened.
__global__ void __launch_bounds__(kThreads)
conv_wide(const float* __restrict__ x, const float* __restrict__ weight,
          const float* __restrict__ bias, float* __restrict__ out, int channels,
          int length, int tiles, int silu)
{
    int row = blockIdx.x / tiles;
    int tile = blockIdx.x % tiles;
    int lane = threadIdx.x % 32;
    int c = row % channels;
    const float* xr = x + (size_t)row * length;
    int t0 = (tile * kThreads + threadIdx.x) * 4;

    float4 cur = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (t0 < length)
        cur = __ldg(reinterpret_cast<const float4*>(xr + t0));
    // The three positions before t0: the previous lane's last three.  Every
    // lane takes part in the shuffles, also those past the end.
    float p3 = __shfl_up_sync(kFull, cur.y, 1);
    float p2 = __shfl_up_sync(kFull, cur.z, 1);
    float p1 = __shfl_up_sync(kFull, cur.w, 1);
    if (t0 >= length)
        return;
    if (lane == 0) {
        p3 = p2 = p1 = 0.0f; // left of the row: zero padding
        if (t0 >= 4) {
            float4 prev = __ldg(reinterpret_cast<const float4*>(xr + t0 - 4));
            p3 = prev.y, p2 = prev.z, p1 = prev.w;
        }
    }

    float4 wv = __ldg(reinterpret_cast<const float4*>(weight) + c);
    float b = __ldg(bias + c);
    float4 r;
    r.x = fmaf(wv.x, p3, fmaf(wv.y, p2, fmaf(wv.z, p1, fmaf(wv.w, cur.x, b))));
    r.y = fmaf(wv.x, p2, fmaf(wv.y, p1, fmaf(wv.z, cur.x, fmaf(wv.w, cur.y, b))));
    r.z = fmaf(wv.x, p1, fmaf(wv.y, cur.x, fmaf(wv.z, cur.y, fmaf(wv.w, cur.z, b))));
    r.w = fmaf(wv.x, cur.x, fmaf(wv.y, cur.y, fmaf(wv.z, cur.z, fmaf(wv.w, cur.w, b))));
    r.x = finish(r.x, silu), r.y = finish(r.y, silu);
    r.z = finish(r.z, silu), r.w = finish(r.w, silu);
    reinterpret_cast<float4*>(out + (size_t)row * length)[t0 / 4] = r;
}

// Tiles of kThreads positions, one per lane.
__global__ void __launch_bounds__(kThreads)
conv_narrow(const float* __restrict__ x, const float* __restrict__ weight,
            const float* __restrict__ bias, float* __restrict__ out, int channels,
            int length, int tiles, int silu)
{
    int row = blockIdx.x / tiles;
    int tile = blockIdx.x % tiles;
    int lane = threadIdx.x % 32;
    int c = row % channels;
    const float* xr = x + (size_t)row * length;
    int t = tile * kThreads + threadIdx.x;

    float v = t < length ? __ldg(xr + t) : 0.0f;
    float p1 = __shfl_up_sync(kFull, v, 1);
    float p2 = __shfl_up_sync(kFull, v, 2);
    float p3 = __shfl_up_sync(kFull, v, 3);
    if (t >= length)
        return;
    // Lanes near the start of the warp reach back before it.
    if (lane < 1)
        p1 = t >= 1 ? __ldg(xr + t - 1) : 0.0f;
    if (lane < 2)
        p2 = t >= 2 ? __ldg(xr + t - 2) : 0.0f;
    if (lane < 3)
        p3 = t >= 3 ? __ldg(xr + t - 3) : 0.0f;

    const float* w = weight + (size_t)c * 4;
    float r = fmaf(__ldg(w), p3, fmaf(__ldg(w + 1), p2,
                   fmaf(__ldg(w + 2), p1, fmaf(__ldg(w + 3), v, __ldg(bias + c)))));
    out[(size_t)row * length + t] = finish(r, silu);
}

} // namespace

void solve(const float* x, const float* weight, const float* bias, float* out,
           int batch, int channels, int length, int silu)
{
    int rows = batch * channels;
    if (rows <= 0 || length <= 0)
        return;
    // float4 rows need length % 4 == 0 (cudaMalloc aligns the base to 256
    // bytes, and weight rows of 4 floats are 16 bytes).
    if (length % 4 == 0) {
        int tiles = (length / 4 + kThreads - 1) / kThreads;
        conv_wide<<<rows * tiles, kThreads>>>(x, weight, bias, out, channels, length,
                                              tiles, silu);
    } else {
        int tiles = (length + kThreads - 1) / kThreads;
        conv_narrow<<<rows * tiles, kThreads>>>(x, weight, bias, out, channels, length,
                                                tiles, silu);
    }
}
