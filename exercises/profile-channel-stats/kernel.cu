// profile-channel-stats: per-channel mean and variance of a rows x C matrix
// (row-major, as an NHWC activation flattened to (N * H * W) x C):
//     mean[c] = sum_r x[r][c] / rows
//     var[c]  = sum_r x[r][c]^2 / rows - mean[c]^2
//
// This code is CORRECT, and the check still fails it: it is slow, and the
// check reads simt's counters.  Run `cudalab check profile-channel-stats`
// and read "what the counters say": sectors per request of the global
// loads, and bank conflicts in shared memory.  Then fix the access
// patterns without changing what is computed.
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kGroups = 64; // row groups: blocks along y

// Block (32 x 32 threads) (bx, by): channels c0 .. c0 + 31, rows
// by * 32, + 32 * gridDim.y, ...  Thread (tx, 0) ends up owning channel
// c0 + tx and writes its partial sums for the block's rows.
__global__ void channel_partials(const float* x, float* part, int rows, int C)
{
    __shared__ float tile[kTile][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int c0 = blockIdx.x * kTile;
    float sum = 0.0f, sq = 0.0f;
    for (int r0 = blockIdx.y * kTile; r0 < rows; r0 += gridDim.y * kTile) {
        // Stage a 32 x 32 tile: tile[i][j] = x[r0 + i][c0 + j].
        int r = r0 + tx, c = c0 + ty;
        tile[tx][ty] = r < rows && c < C ? x[(size_t)r * C + c] : 0.0f;
        __syncthreads();
        if (ty == 0)
            for (int i = 0; i < kTile; i++) {
                float v = tile[i][tx];
                sum += v;
                sq += v * v;
            }
        __syncthreads();
    }
    int c = c0 + tx;
    if (ty == 0 && c < C) {
        part[(size_t)(2 * blockIdx.y) * C + c] = sum;
        part[(size_t)(2 * blockIdx.y + 1) * C + c] = sq;
    }
}

// One thread per channel adds the groups' partial sums in a fixed order.
__global__ void channel_finish(const float* part, float* mean, float* var, int groups,
                               int rows, int C)
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

// Called by the harness with device pointers: x holds rows * C floats,
// mean and var C floats each.
void solve(const float* x, float* mean, float* var, int rows, int C)
{
    static float* part = nullptr; // 2 * kGroups * C floats, kept between calls
    static size_t cap = 0;
    int groups = (rows + kTile - 1) / kTile;
    groups = groups < kGroups ? groups : kGroups;
    size_t need = (size_t)2 * groups * C;
    if (need > cap) {
        cudaFree(part);
        if (cudaMalloc(&part, need * sizeof(float)) != cudaSuccess) {
            part = nullptr;
            cap = 0;
            return;
        }
        cap = need;
    }
    dim3 grid((C + kTile - 1) / kTile, groups);
    channel_partials<<<grid, dim3(kTile, kTile)>>>(x, part, rows, C);
    channel_finish<<<(C + 255) / 256, 256>>>(part, mean, var, groups, rows, C);
}
