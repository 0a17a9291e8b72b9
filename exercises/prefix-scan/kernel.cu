// prefix-scan: out[i] = in[0] + in[1] + ... + in[i] (inclusive scan) for
// every i in [0, n).
//
// The kernel bodies and the plan in solve() are yours.  As it stands
// nothing is written, so the check reports the output as never written.
//
// One way to build it, from the pieces below:
//   1. scan_tiles: each block scans its own tile of consecutive elements
//      and records the tile's total in tile_sums[blockIdx.x];
//   2. scan the tile sums (with the same kernel: they are just another,
//      shorter array to scan);
//   3. add_tile_offsets: every tile but the first adds the scanned sum of
//      the tiles before it.
// Get a single tile right first (n <= your tile size), then add steps 2
// and 3.
#include <cuda_runtime.h>

// Scans one tile per block; when tile_sums is not null, stores the tile's
// total in tile_sums[blockIdx.x].
__global__ void scan_tiles(const int* in, int* out, int* tile_sums, int n)
{
    // TODO: a block-level inclusive scan, e.g. with __shfl_up_sync inside
    // each warp and shared memory to combine the warps.  Elements at index
    // n or beyond do not exist: do not read or write them.
}

// Adds sums[t - 1] to every element of tile t, for t = blockIdx.x + 1.
__global__ void add_tile_offsets(int* out, const int* sums, int n)
{
    // TODO (step 3).
}

// Called by the harness with device pointers to n ints each.
void solve(const int* in, int* out, int n)
{
    int threads = 256;
    int tile = threads; // elements per block: one per thread to start with
    int tiles = (n + tile - 1) / tile;
    // TODO: steps 2 and 3 need a device array of `tiles` ints for the tile
    // sums (cudaMalloc it once and keep it, e.g. in a static pointer).
    scan_tiles<<<tiles, threads>>>(in, out, nullptr, n);
}
