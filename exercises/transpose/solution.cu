// transpose, reference answer: 32 x 32 tiles staged in shared memory.
//
// A block owns one 32 x 32 tile of the input.  It reads the tile row by row,
// so each warp reads 32 consecutive floats (coalesced), and writes it out as
// rows of the output, again 32 consecutive floats per warp.  The reordering
// happens in shared memory: the write phase reads the tile down a column.
// With 32 floats per row a column would sit in a single bank (a 32-way
// conflict); one padding float per row shifts each row by one bank, so the
// 32 elements of a column fall in 32 different banks.
//
// Blocks are 32 x 8 threads and each thread moves four rows of the tile:
// four independent loads in flight per thread, with the index arithmetic
// shared by the four.
#include <cuda_runtime.h>

enum { TILE = 32, BLOCK_ROWS = 8 };

__global__ void transpose_kernel(const float* __restrict__ in,
                                 float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];

    // Read: this block's tile starts at input row blockIdx.y * TILE and
    // input column blockIdx.x * TILE.
    const int c = blockIdx.x * TILE + threadIdx.x;
    const int r0 = blockIdx.y * TILE + threadIdx.y;
    if (c < cols) {
#pragma unroll
        for (int k = 0; k < TILE; k += BLOCK_ROWS) {
            const int r = r0 + k;
            if (r < rows)
                tile[threadIdx.y + k][threadIdx.x] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();

    // Write: the same tile lands at output row blockIdx.x * TILE (input
    // columns) and output column blockIdx.y * TILE (input rows).
    const int oc = blockIdx.y * TILE + threadIdx.x; // an input row
    const int or0 = blockIdx.x * TILE + threadIdx.y; // an input column
    if (oc < rows) {
#pragma unroll
        for (int k = 0; k < TILE; k += BLOCK_ROWS) {
            const int orow = or0 + k;
            if (orow < cols)
                out[(size_t)orow * rows + oc] = tile[threadIdx.x][threadIdx.y + k];
        }
    }
}

void solve(const float* in, float* out, int rows, int cols)
{
    dim3 threads(TILE, BLOCK_ROWS);
    dim3 blocks((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose_kernel<<<blocks, threads>>>(in, out, rows, cols);
}
