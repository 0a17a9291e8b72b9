// Clean: a tiled matrix product with two barriers per tile (after the
// loads, and before the next tile overwrites the shared tiles).
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
enum { TS = 16 };
__global__ void matmul(const int *a, const int *b, int *c, int n)
{
    __shared__ int as[TS][TS], bs[TS][TS];
    int r = blockIdx.y * TS + threadIdx.y, col = blockIdx.x * TS + threadIdx.x, acc = 0;
    for (int k0 = 0; k0 < n; k0 += TS) {
        as[threadIdx.y][threadIdx.x] = a[r * n + k0 + threadIdx.x];
        bs[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TS; k++)
            acc += as[threadIdx.y][k] * bs[k][threadIdx.x];
        __syncthreads();
    }
    c[r * n + col] = acc;
}
int main()
{
    const int n = 32;
    static int a[n * n], b[n * n], got[n * n];
    int *da, *db, *dc;
    for (int i = 0; i < n * n; i++) { a[i] = i % 5 - 2; b[i] = i % 7 - 3; }
    CHECK(cudaMalloc(&da, sizeof a));
    CHECK(cudaMalloc(&db, sizeof b));
    CHECK(cudaMalloc(&dc, sizeof got));
    CHECK(cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice));
    matmul<<<dim3(n / TS, n / TS), dim3(TS, TS)>>>(da, db, dc, n);
    CHECK(cudaMemcpy(got, dc, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int want = 0;
            for (int k = 0; k < n; k++) want += a[i * n + k] * b[k * n + j];
            expect_eq("c", i * n + j, want, got[i * n + j]);
        }
    DONE("hz_c_matmul_tiled");
}
