// Clean: a transpose through a padded 32x33 shared tile, one barrier
// between the tile's writes and its reads.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void transpose(const float *in, float *out, int n)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
int main()
{
    const int n = 64;
    static float h[n * n], got[n * n];
    float *in, *out;
    for (int i = 0; i < n * n; i++) h[i] = (float)i;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    transpose<<<dim3(2, 2), dim3(32, 8)>>>(in, out, n);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            expect_eq("out", r * n + c, h[c * n + r], got[r * n + c]);
    DONE("hz_c_transpose");
}
