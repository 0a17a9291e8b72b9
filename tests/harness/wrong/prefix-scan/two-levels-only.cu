// prefix-scan, wrong: scan-then-propagate with tiles of 1024 elements whose
// sums are scanned by one block, with no further level.  One block scans
// at most 1024 tile sums, so past 1024 * 1024 = 1048576 elements the tiles
// beyond the first 1024 never get the sums of the tiles before them.
// Every size up to 100003 passes.
// expect: wrong
// case: n=1100003
#include <cuda_runtime.h>

enum { THREADS = 1024 };

// Inclusive scan of one tile of THREADS elements per block; the tile's
// total goes to sums[blockIdx.x] when sums is not null.
__global__ void scan_tiles(const int* in, int* out, int* sums, int n)
{
    __shared__ int warp_totals[THREADS / 32];
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d)
            v += up;
    }
    if (lane == 31)
        warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int t = warp_totals[lane];
        for (int d = 1; d < 32; d <<= 1) {
            int up = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d)
                t += up;
        }
        warp_totals[lane] = t;
    }
    __syncthreads();
    if (warp > 0)
        v += warp_totals[warp - 1];
    if (i < n)
        out[i] = v;
    if (sums && threadIdx.x == THREADS - 1)
        sums[blockIdx.x] = v;
}

// Adds sums[t - 1] to every element of tile t, for t = blockIdx.x + 1.
__global__ void add_tile_offsets(int* out, const int* sums, int n)
{
    const int t = blockIdx.x + 1, i = t * THREADS + threadIdx.x;
    if (i < n)
        out[i] += sums[t - 1];
}

void solve(const int* in, int* out, int n)
{
    static int* sums = nullptr;
    static int capacity = 0;
    const int tiles = (n + THREADS - 1) / THREADS;
    if (tiles > capacity) {
        cudaFree(sums);
        cudaMalloc(&sums, (size_t)tiles * sizeof(int));
        capacity = tiles;
    }
    scan_tiles<<<tiles, THREADS>>>(in, out, sums, n);
    if (tiles > 1) {
        // One block for the tile sums: right for up to THREADS tiles only.
        scan_tiles<<<1, THREADS>>>(sums, sums, nullptr, tiles);
        add_tile_offsets<<<tiles - 1, THREADS>>>(out, sums, n);
    }
}
