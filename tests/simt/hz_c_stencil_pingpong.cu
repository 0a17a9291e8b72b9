// Clean: a 1-D stencil over global memory, two buffers swapped between
// launches: each launch reads one buffer's neighbours and writes the
// other, so no launch reads what it writes.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void step(const int *src, int *dst, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[(i + n - 1) % n] + src[i] + src[(i + 1) % n];
}
int main()
{
    const int n = 200, steps = 4;
    int h[n], ref[n], tmp[n], *a, *b;
    for (int i = 0; i < n; i++) h[i] = ref[i] = i % 3;
    CHECK(cudaMalloc(&a, sizeof h));
    CHECK(cudaMalloc(&b, sizeof h));
    CHECK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    for (int s = 0; s < steps; s++) {
        step<<<(n + 63) / 64, 64>>>(s % 2 ? b : a, s % 2 ? a : b, n);
        for (int i = 0; i < n; i++) tmp[i] = ref[(i + n - 1) % n] + ref[i] + ref[(i + 1) % n];
        for (int i = 0; i < n; i++) ref[i] = tmp[i];
    }
    CHECK(cudaMemcpy(h, steps % 2 ? b : a, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("x", i, ref[i], h[i]);
    DONE("hz_c_stencil_pingpong");
}
