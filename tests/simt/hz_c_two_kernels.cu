// Clean: one kernel writes a buffer that the next kernel on the same
// stream reads at other indices; the kernel boundary orders them.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void fill(int *a) { a[blockIdx.x * 64 + threadIdx.x] = blockIdx.x * 64 + threadIdx.x; }
__global__ void rotate(const int *a, int *b, int n)
{
    int i = blockIdx.x * 64 + threadIdx.x;
    b[i] = a[(i + 100) % n];
}
int main()
{
    const int n = 256;
    int *a, *b, got[n];
    CHECK(cudaMalloc(&a, sizeof got));
    CHECK(cudaMalloc(&b, sizeof got));
    fill<<<4, 64>>>(a);
    rotate<<<4, 64>>>(a, b, n);
    CHECK(cudaMemcpy(got, b, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq("b", i, (i + 100) % n, got[i]);
    DONE("hz_c_two_kernels");
}
