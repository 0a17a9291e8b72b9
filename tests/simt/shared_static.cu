// Static __shared__ memory: a per-block reversal through a 1D array and a
// scalar written by one thread, a padded 2D tile transposing a matrix whose
// sides are not multiples of the tile, and several arrays of different
// element types (double, unsigned char, short) living side by side.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { RB = 256, TILE = 16, MIX = 64 };

__global__ void reverse_block(const int *in, int *out)
{
    __shared__ int buf[RB];
    __shared__ int block_tag;
    int t = threadIdx.x, base = blockIdx.x * RB;
    buf[t] = in[base + t];
    if (t == 0)
        block_tag = 11 * blockIdx.x;
    __syncthreads();
    out[base + t] = buf[RB - 1 - t] + block_tag;
}

__global__ void transpose(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    int ox = blockIdx.y * TILE + threadIdx.x;
    int oy = blockIdx.x * TILE + threadIdx.y;
    if (ox < rows && oy < cols)
        out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}

__global__ void mixed_types(double *dout, int *iout)
{
    __shared__ double d[MIX];
    __shared__ unsigned char c[MIX + 3];
    __shared__ short s[MIX];
    int t = threadIdx.x;
    d[t] = t * 0.25;
    c[t] = (unsigned char)(t * 7);
    s[t] = (short)(-t * 300);
    if (t < 3)
        c[MIX + t] = (unsigned char)(200 + t);
    __syncthreads();
    int o = MIX - 1 - t;
    dout[t] = d[o] + d[(t + 1) % MIX];
    iout[t] = c[o] + c[t + 3] + s[(t + 5) % MIX];
}

static int check_reverse(void)
{
    const int blocks = 3, n = blocks * RB;
    static int h_in[n], h_out[n];
    for (int i = 0; i < n; i++)
        h_in[i] = i * 17 - 5000;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    reverse_block<<<blocks, RB>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < RB; t++) {
            int want = (b * RB + RB - 1 - t) * 17 - 5000 + 11 * b;
            expect_eq("reverse_block", b * RB + t, want, h_out[b * RB + t]);
        }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

static int check_transpose(void)
{
    const int rows = 40, cols = 24;
    static float h_in[rows * cols], h_out[rows * cols];
    for (int i = 0; i < rows * cols; i++)
        h_in[i] = (float)(i * 3 + 1);
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, sizeof h_out));
    dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    transpose<<<grid, dim3(TILE, TILE)>>>(d_in, d_out, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            expect_eq("transpose", c * rows + r, (float)((r * cols + c) * 3 + 1),
                      h_out[c * rows + r]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

static int check_mixed(void)
{
    double h_d[MIX];
    int h_i[MIX];
    double *d_d;
    int *d_i;
    CHECK(cudaMalloc(&d_d, sizeof h_d));
    CHECK(cudaMalloc(&d_i, sizeof h_i));
    mixed_types<<<1, MIX>>>(d_d, d_i);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_d, d_d, sizeof h_d, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_i, d_i, sizeof h_i, cudaMemcpyDeviceToHost));
    for (int t = 0; t < MIX; t++) {
        int o = MIX - 1 - t;
        expect_eq("mixed double", t, o * 0.25 + ((t + 1) % MIX) * 0.25, h_d[t]);
        int c_o = (unsigned char)(o * 7);
        int c_t3 = t + 3 < MIX ? (unsigned char)((t + 3) * 7) : 200 + (t + 3 - MIX);
        int s_t5 = -((t + 5) % MIX) * 300;
        expect_eq("mixed int", t, c_o + c_t3 + s_t5, h_i[t]);
    }
    CHECK(cudaFree(d_d));
    CHECK(cudaFree(d_i));
    return 0;
}

int main(void)
{
    if (check_reverse() || check_transpose() || check_mixed())
        return 1;
    if (failures)
        return 1;
    printf("ok shared_static\n");
    return 0;
}
