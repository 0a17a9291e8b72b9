// Thread and block indexing: a 1D grid whose last block is partly idle, a 2D
// grid over a matrix that is not a multiple of the block, and a 3D grid of
// 3D blocks in which every thread records all of its built-in coordinates.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { REC = 13 };

__global__ void index_1d(int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 3 * i + 1;
}

__global__ void index_2d(int *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height)
        out[y * width + x] = y * 1000 + x;
}

// Each thread writes REC ints at its linear position (x fastest, then y, z;
// threads of a block before the next block).
__global__ void index_3d(int *out)
{
    int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int per_block = blockDim.x * blockDim.y * blockDim.z;
    int *rec = out + (block * per_block + thread) * REC;
    rec[0] = threadIdx.x;
    rec[1] = threadIdx.y;
    rec[2] = threadIdx.z;
    rec[3] = blockIdx.x;
    rec[4] = blockIdx.y;
    rec[5] = blockIdx.z;
    rec[6] = blockDim.x;
    rec[7] = blockDim.y;
    rec[8] = blockDim.z;
    rec[9] = gridDim.x;
    rec[10] = gridDim.y;
    rec[11] = gridDim.z;
    rec[12] = warpSize;
}

static int check_1d(void)
{
    const int n = 230, threads = 48, blocks = 5, cap = threads * blocks;
    int *d, h[cap];
    CHECK(cudaMalloc(&d, cap * sizeof(int)));
    CHECK(cudaMemset(d, 0xff, cap * sizeof(int)));
    index_1d<<<blocks, threads>>>(d, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < cap; i++)
        expect_eq("index_1d", i, i < n ? 3 * i + 1 : -1, h[i]);
    CHECK(cudaFree(d));
    return 0;
}

static int check_2d(void)
{
    const int w = 37, hgt = 21;
    static int h[w * hgt];
    int *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemset(d, 0xff, sizeof h));
    dim3 block(16, 8);
    dim3 grid((w + block.x - 1) / block.x, (hgt + block.y - 1) / block.y);
    index_2d<<<grid, block>>>(d, w, hgt);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < hgt; y++)
        for (int x = 0; x < w; x++)
            expect_eq("index_2d", y * w + x, y * 1000 + x, h[y * w + x]);
    CHECK(cudaFree(d));
    return 0;
}

static int check_3d(void)
{
    const int gx = 3, gy = 2, gz = 2, bx = 8, by = 4, bz = 2;
    const int per_block = bx * by * bz, total = gx * gy * gz * per_block;
    static int h[total * REC];
    int *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemset(d, 0xff, sizeof h));
    index_3d<<<dim3(gx, gy, gz), dim3(bx, by, bz)>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int id = 0; id < total; id++) {
        int blk = id / per_block, t = id % per_block;
        int want[REC] = {
            t % bx, (t / bx) % by, t / (bx * by),
            blk % gx, (blk / gx) % gy, blk / (gx * gy),
            bx, by, bz, gx, gy, gz, 32,
        };
        for (int k = 0; k < REC; k++)
            expect_eq("index_3d field", id * REC + k, want[k], h[id * REC + k]);
    }
    CHECK(cudaFree(d));
    return 0;
}

int main(void)
{
    if (check_1d() || check_2d() || check_3d())
        return 1;
    if (failures)
        return 1;
    printf("ok index_2d3d\n");
    return 0;
}
