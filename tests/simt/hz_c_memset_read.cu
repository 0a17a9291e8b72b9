// Clean: memory set with cudaMemset, and a pitched allocation written by
// cudaMemcpy2D, both read by a kernel: nothing is read uninitialized.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void add(const int *z, const int *p, size_t pitch, int *out)
{
    int r = threadIdx.y, c = threadIdx.x;
    const int *row = (const int *)((const char *)p + r * pitch);
    out[r * 8 + c] = z[r * 8 + c] + row[c];
}
int main()
{
    int *z, *p, *out, h[4 * 8], got[4 * 8];
    size_t pitch;
    for (int i = 0; i < 32; i++) h[i] = i;
    CHECK(cudaMalloc(&z, sizeof h));
    CHECK(cudaMalloc(&out, sizeof h));
    CHECK(cudaMallocPitch((void **)&p, &pitch, 8 * sizeof(int), 4));
    CHECK(cudaMemset(z, 0, sizeof h));
    CHECK(cudaMemcpy2D(p, pitch, h, 8 * sizeof(int), 8 * sizeof(int), 4, cudaMemcpyHostToDevice));
    add<<<1, dim3(8, 4)>>>(z, p, pitch, out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        expect_eq("out", i, i, got[i]);
    DONE("hz_c_memset_read");
}
