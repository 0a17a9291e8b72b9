// ring-allreduce, reference answer: one launch per step of the ring.
//
// The buffer of every rank is cut into R chunks of cs = ceil(n / R) floats
// (the last ones shorter or empty).  In reduce-scatter step s, rank r sends
// chunk (r - s) mod R to its right neighbour, which adds it into its own
// copy; after R - 1 steps rank r holds the complete sum of chunk r + 1.  In
// all-gather step g the completed chunks move on around the ring, rank r
// sending chunk (r + 1 - g) mod R, and the receiver overwrites its copy.
//
// On one GPU a "send" is the receiver reading its left neighbour's chunk.
// In one step every rank writes the chunk it receives and the chunk it
// sends is a different one (c and c + 1), so all R transfers of a step run
// in one launch without a race: blockIdx.y is the sending rank, and the
// blocks along x cover its chunk, four floats per thread when every chunk
// starts on a 16-byte boundary.
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ int wrap(int a, int m) { return ((a % m) + m) % m; }

template <bool VEC>
__global__ void __launch_bounds__(kThreads)
ring_transfer(float* __restrict__ bufs, int ranks, int n, int cs, int step)
{
    const int src = blockIdx.y, dst = (src + 1) % ranks;
    const bool reduce = step < ranks - 1;
    const int c = reduce ? wrap(src - step, ranks) : wrap(src + 1 - (step - (ranks - 1)), ranks);
    const int begin = min(n, c * cs), end = min(n, (c + 1) * cs);
    // Different ranks' buffers are different memory; __restrict__ on one
    // pointer would be a lie, so read through plain pointers.
    const float* from = bufs + (size_t)src * n;
    float* to = bufs + (size_t)dst * n;
    if (VEC) { // begin and end are multiples of 4 (n and cs are)
        const int packs = (end - begin) / 4;
        const float4* f = reinterpret_cast<const float4*>(from + begin);
        float4* t = reinterpret_cast<float4*>(to + begin);
        for (int i = blockIdx.x * kThreads + threadIdx.x; i < packs;
             i += gridDim.x * kThreads) {
            float4 v = f[i];
            if (reduce) {
                float4 w = t[i];
                v = make_float4(w.x + v.x, w.y + v.y, w.z + v.z, w.w + v.w);
            }
            t[i] = v;
        }
    } else {
        for (int i = begin + blockIdx.x * kThreads + threadIdx.x; i < end;
             i += gridDim.x * kThreads)
            to[i] = reduce ? to[i] + from[i] : from[i];
    }
}

} // namespace

void ring_step(float* bufs, int ranks, int n, int step)
{
    if (ranks < 2 || n <= 0 || step < 0 || step >= 2 * (ranks - 1))
        return;
    const int cs = (n + ranks - 1) / ranks;
    // float4 needs every chunk start 16-byte aligned: n (the rank stride)
    // and cs (the chunk stride) multiples of 4.
    const bool vec = n % 4 == 0 && cs % 4 == 0;
    int per_block = kThreads * (vec ? 4 : 1);
    int bx = (cs + per_block - 1) / per_block;
    bx = bx < 1 ? 1 : (bx > 1024 ? 1024 : bx);
    dim3 grid(bx, ranks);
    if (vec)
        ring_transfer<true><<<grid, kThreads>>>(bufs, ranks, n, cs, step);
    else
        ring_transfer<false><<<grid, kThreads>>>(bufs, ranks, n, cs, step);
}
