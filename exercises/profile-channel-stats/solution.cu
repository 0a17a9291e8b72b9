// profile-channel-stats, reference answer: the same two kernels as the
// starter, with the access patterns fixed.
//
// The starter staged a 32 x 32 tile with threadIdx.x walking down the rows:
// a warp's 32 loads hit 32 different rows, 32 sectors for 128 useful
// bytes, and its 32 stores into tile[tx][ty] all landed in one bank.  Here
// threadIdx.x walks the channels, so a warp reads 32 consecutive floats of
// one row (4 sectors), and no tile is needed at all: each thread keeps
// running sums for its channel over the rows its warp visits.  The eight
// warps of a block then add their sums through shared memory laid out
// [warp][channel]: lane l of every warp touches column l, bank l, so
// neither the stores nor the reads conflict.  The sums are added in a fixed
// order everywhere, so the result is the same bit for bit on every run.
#include <cuda_runtime.h>

namespace {

constexpr int kLanes = 32;   // channels per block
constexpr int kWarps = 8;    // row strands per block
constexpr int kGroups = 64;  // blocks along the rows

__global__ void __launch_bounds__(kLanes * kWarps)
channel_partials(const float* __restrict__ x, float* __restrict__ part, int rows, int C)
{
    __shared__ float red[2][kWarps][kLanes];
    const int lane = threadIdx.x, w = threadIdx.y;
    const int c = blockIdx.x * kLanes + lane;
    float sum = 0.0f, sq = 0.0f;
    if (c < C) {
        const int step = gridDim.y * kWarps;
        int r = blockIdx.y * kWarps + w;
        // Four independent loads per round keep more bytes in flight per
        // warp than a loop whose every load waits for the one before.
        for (; r + 3 * step < rows; r += 4 * step) {
            float v0 = __ldg(x + (size_t)r * C + c);
            float v1 = __ldg(x + (size_t)(r + step) * C + c);
            float v2 = __ldg(x + (size_t)(r + 2 * step) * C + c);
            float v3 = __ldg(x + (size_t)(r + 3 * step) * C + c);
            sum += (v0 + v1) + (v2 + v3);
            sq += fmaf(v0, v0, v1 * v1) + fmaf(v2, v2, v3 * v3);
        }
        for (; r < rows; r += step) {
            float v = __ldg(x + (size_t)r * C + c);
            sum += v;
            sq = fmaf(v, v, sq);
        }
    }
    red[0][w][lane] = sum;
    red[1][w][lane] = sq;
    __syncthreads();
    if (w == 0 && c < C) {
        for (int k = 1; k < kWarps; k++) {
            sum += red[0][k][lane];
            sq += red[1][k][lane];
        }
        part[(size_t)(2 * blockIdx.y) * C + c] = sum;
        part[(size_t)(2 * blockIdx.y + 1) * C + c] = sq;
    }
}

// One thread per channel: consecutive threads read consecutive floats of
// each partial row.
__global__ void channel_finish(const float* __restrict__ part, float* __restrict__ mean,
                               float* __restrict__ var, int groups, int rows, int C)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= C)
        return;
    float sum = 0.0f, sq = 0.0f;
    for (int g = 0; g < groups; g++) {
        sum += part[(size_t)(2 * g) * C + c];
        sq += part[(size_t)(2 * g + 1) * C + c];
    }
    float m = sum / (float)rows;
    mean[c] = m;
    var[c] = fmaxf(sq / (float)rows - m * m, 0.0f);
}

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

} // namespace

void solve(const float* x, float* mean, float* var, int rows, int C)
{
    if (rows <= 0 || C <= 0)
        return;
    // Enough row groups to fill a GPU for narrow matrices, few enough that
    // the partial sums stay a small share of the traffic.
    int groups = (rows + 4 * kWarps - 1) / (4 * kWarps);
    groups = groups < kGroups ? groups : kGroups;
    float* part = workspace((size_t)2 * groups * C);
    if (!part)
        return; // the failed cudaMalloc is the error the caller sees
    dim3 grid((C + kLanes - 1) / kLanes, groups);
    channel_partials<<<grid, dim3(kLanes, kWarps)>>>(x, part, rows, C);
    channel_finish<<<(C + 255) / 256, 256>>>(part, mean, var, groups, rows, C);
}
