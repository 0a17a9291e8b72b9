// Tiled matrix multiply C = A * B with 16x16 shared-memory tiles, for sizes
// that are not multiples of the tile (M=40, K=36, N=24 and M=17, K=5, N=33),
// with small integer-valued floats so every product and sum is exact and the
// result must equal the host's triple loop bit for bit.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { TILE = 16 };

__global__ void matmul(const float *a, const float *b, float *c, int m, int k, int n)
{
    __shared__ float ta[TILE][TILE], tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t0 = 0; t0 < k; t0 += TILE) {
        int ac = t0 + threadIdx.x, br = t0 + threadIdx.y;
        ta[threadIdx.y][threadIdx.x] = row < m && ac < k ? a[row * k + ac] : 0.0f;
        tb[threadIdx.y][threadIdx.x] = br < k && col < n ? b[br * n + col] : 0.0f;
        __syncthreads();
        for (int j = 0; j < TILE; j++)
            acc += ta[threadIdx.y][j] * tb[j][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n)
        c[row * n + col] = acc;
}

static int run(int m, int k, int n)
{
    float *a = new float[m * k], *b = new float[k * n], *c = new float[m * n];
    for (int i = 0; i < m * k; i++)
        a[i] = (float)((i * 7) % 9 - 4);
    for (int i = 0; i < k * n; i++)
        b[i] = (float)((i * 5) % 7 - 3);
    float *d_a, *d_b, *d_c;
    CHECK(cudaMalloc(&d_a, m * k * sizeof(float)));
    CHECK(cudaMalloc(&d_b, k * n * sizeof(float)));
    CHECK(cudaMalloc(&d_c, m * n * sizeof(float)));
    CHECK(cudaMemcpy(d_a, a, m * k * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, k * n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_c, 0xff, m * n * sizeof(float)));
    dim3 grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul<<<grid, dim3(TILE, TILE)>>>(d_a, d_b, d_c, m, k, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c, d_c, m * n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int r = 0; r < m; r++)
        for (int col = 0; col < n; col++) {
            float want = 0.0f;
            for (int j = 0; j < k; j++)
                want += a[r * k + j] * b[j * n + col];
            expect_eq(m == 40 ? "C[40x24]" : "C[17x33]", r * n + col, want, c[r * n + col]);
        }
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_b));
    CHECK(cudaFree(d_c));
    delete[] a;
    delete[] b;
    delete[] c;
    return 0;
}

int main(void)
{
    if (run(40, 36, 24) || run(17, 5, 33))
        return 1;
    if (failures)
        return 1;
    printf("ok matmul_tiled\n");
    return 0;
}
