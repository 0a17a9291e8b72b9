// Host memory that kernels may use, and host code may too, next to device
// memory that only kernels and copies reach: a malloc'd buffer registered
// with cudaHostRegister (read and written by a kernel, then by the host);
// cudaMallocHost memory a kernel reads directly through its pointer;
// managed memory holding a pointer to device memory that a kernel follows;
// device memory filled by cudaMemset and copied back.  Every value is
// worked out on the host.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 300 };

__global__ void triple(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = 3 * v[i] + 1;
}

__global__ void gather(const int *from, int *to, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        to[i] = from[n - 1 - i];
}

struct Table {
    int n;
    int *rows;          // device memory
};

__global__ void through(const Table *t, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < t->n)
        out[i] = t->rows[i] + 7;
}

int main(void)
{
    // Registered host memory: a kernel writes it, the host reads it.
    int *reg = (int *)malloc(N * sizeof(int));
    for (int i = 0; i < N; i++)
        reg[i] = i - 100;
    CHECK(cudaHostRegister(reg, N * sizeof(int), cudaHostRegisterDefault));
    triple<<<(N + 127) / 128, 128>>>(reg, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        expect_eq("registered memory tripled by a kernel", i, 3 * (i - 100) + 1, reg[i]);
    CHECK(cudaHostUnregister(reg));
    free(reg);

    // Pinned memory read by a kernel through its own pointer.
    int *pinned, *dev;
    CHECK(cudaMallocHost(&pinned, N * sizeof(int)));
    CHECK(cudaMalloc(&dev, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        pinned[i] = i * 5;
    gather<<<(N + 127) / 128, 128>>>(pinned, dev, N);
    CHECK(cudaGetLastError());
    int back[N];
    CHECK(cudaMemcpy(back, dev, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("pinned memory read by a kernel", i, (N - 1 - i) * 5, back[i]);

    // Managed memory holding a device pointer, followed by a kernel.
    Table *t;
    int *rows, *out;
    CHECK(cudaMallocManaged(&t, sizeof *t));
    CHECK(cudaMalloc(&rows, N * sizeof(int)));
    CHECK(cudaMallocManaged(&out, N * sizeof(int)));
    CHECK(cudaMemset(rows, 0, N * sizeof(int)));
    CHECK(cudaMemset(rows, 1, 10 * sizeof(int)));
    t->n = N;
    t->rows = rows;
    through<<<(N + 127) / 128, 128>>>(t, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        expect_eq("device memory through a managed table", i, (i < 10 ? 0x01010101 : 0) + 7,
                  out[i]);

    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(dev));
    CHECK(cudaFree(t));
    CHECK(cudaFree(rows));
    CHECK(cudaFree(out));
    if (failures)
        return 1;
    printf("ok host_memory_kernels\n");
    return 0;
}
