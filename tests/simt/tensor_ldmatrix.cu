// ldmatrix.m8n8 .x1/.x2/.x4, with and without .trans, and movmatrix.trans,
// checked register by register against the layout the PTX ISA gives: lanes
// 8j..8j+7 supply the row addresses of matrix j, and lane l receives row
// l/4, columns 2*(l%4) and 2*(l%4)+1 of each matrix (of its transpose with
// .trans), the lower column in the low half.  The rows sit in shared memory
// in a scrambled order, so a lane that read the wrong address would fail.
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"

typedef unsigned short u16;
typedef unsigned int u32;

// Element (row r, column c) of matrix j.
static __host__ __device__ u16 value(int j, int r, int c)
{
    return (u16)(0x100 * (j + 1) + 16 * r + c);
}

// Row r of matrix j lives in 16-byte slot slot_of(j, r) of 32.
static __device__ int slot_of(int j, int r)
{
    return ((j * 8 + r) * 5 + 3) % 32;
}

enum { VARIANTS = 6 };

// out[(v * 32 + lane) * 4 + j]: register j of `lane` after variant v
// (x1, x2, x4, then the same with .trans); unused registers stay 0.
__global__ void load(u32 *out, u32 *moved)
{
    __shared__ __align__(16) u16 rows[32][8];
    int lane = threadIdx.x;

    for (int i = lane; i < 32 * 8; i += 32) {
        int j = i / 64, r = (i / 8) % 8, c = i % 8;
        rows[slot_of(j, r)][c] = value(j, r, c);
    }
    __syncwarp();
    u32 addr = (u32)__cvta_generic_to_shared(&rows[slot_of(lane / 8, lane % 8)][0]);
    u32 r[VARIANTS][4] = {};
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 750
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                 : "=r"(r[0][0]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[1][0]), "=r"(r[1][1]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[2][0]), "=r"(r[2][1]), "=r"(r[2][2]), "=r"(r[2][3])
                 : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                 : "=r"(r[3][0]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[4][0]), "=r"(r[4][1]) : "r"(addr));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[5][0]), "=r"(r[5][1]), "=r"(r[5][2]), "=r"(r[5][3])
                 : "r"(addr));
    // movmatrix on the x4 result of matrix 2: the transpose of matrix 2.
    u32 m;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;"
                 : "=r"(m) : "r"(r[2][2]));
    moved[lane] = m;
#endif
    for (int v = 0; v < VARIANTS; v++)
        for (int j = 0; j < 4; j++)
            out[(v * 32 + lane) * 4 + j] = r[v][j];
}

static u32 pair(u16 lo, u16 hi)
{
    return (u32)lo | ((u32)hi << 16);
}

int main(void)
{
    static const char *const names[VARIANTS] = {"x1", "x2", "x4", "x1.trans",
                                                "x2.trans", "x4.trans"};
    static const int nums[VARIANTS] = {1, 2, 4, 1, 2, 4};
    u32 *d_out, *d_moved, out[VARIANTS * 32 * 4], moved[32];

    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMalloc(&d_moved, sizeof moved));
    CHECK(cudaMemset(d_out, 0xff, sizeof out));
    CHECK(cudaMemset(d_moved, 0xff, sizeof moved));
    load<<<1, 32>>>(d_out, d_moved);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(moved, d_moved, sizeof moved, cudaMemcpyDeviceToHost));
    for (int v = 0; v < VARIANTS; v++) {
        bool trans = v >= 3;
        for (int lane = 0; lane < 32; lane++)
            for (int j = 0; j < 4; j++) {
                int g = lane / 4, c0 = 2 * (lane % 4);
                u32 want = 0;
                if (j < nums[v])
                    want = trans ? pair(value(j, c0, g), value(j, c0 + 1, g))
                                 : pair(value(j, g, c0), value(j, g, c0 + 1));
                expect_eq(names[v], lane * 4 + j, want, out[(v * 32 + lane) * 4 + j]);
            }
    }
    for (int lane = 0; lane < 32; lane++) {
        int g = lane / 4, c0 = 2 * (lane % 4);
        expect_eq("movmatrix", lane, pair(value(2, c0, g), value(2, c0 + 1, g)), moved[lane]);
    }
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_moved));
    if (failures)
        return 1;
    printf("ok tensor_ldmatrix\n");
    return 0;
}
