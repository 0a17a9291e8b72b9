// Host memory the device can use: cudaMallocHost buffers for async copies;
// cudaHostAlloc(cudaHostAllocMapped) with cudaHostGetDevicePointer, read and
// written by a kernel directly (zero copy); cudaMallocManaged memory written
// on the host, updated by two kernels, and read back on the host after
// cudaDeviceSynchronize, including a struct with a pointer into managed
// memory.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 1000 };

struct Node {
    int value;
    int *payload;
};

__global__ void add_index(int *v, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] += k * i;
}

__global__ void follow(Node *nodes, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        nodes[i].value = nodes[i].payload[i] * 3;
}

int main(void)
{
    // Pinned memory with an async round trip.
    int *pinned, *d_buf;
    CHECK(cudaMallocHost(&pinned, N * sizeof(int)));
    CHECK(cudaMalloc(&d_buf, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        pinned[i] = 5 * i - 7;
    CHECK(cudaMemcpyAsync(d_buf, pinned, N * sizeof(int), cudaMemcpyHostToDevice, 0));
    add_index<<<(N + 127) / 128, 128>>>(d_buf, N, 2);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(pinned, d_buf, N * sizeof(int), cudaMemcpyDeviceToHost, 0));
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        expect_eq("pinned round trip", i, 7 * i - 7, pinned[i]);

    // Mapped (zero-copy) host memory.
    int *mapped, *mapped_dev = nullptr;
    CHECK(cudaHostAlloc(&mapped, N * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < N; i++)
        mapped[i] = i * i % 977;
    CHECK(cudaHostGetDevicePointer((void **)&mapped_dev, mapped, 0));
    add_index<<<(N + 127) / 128, 128>>>(mapped_dev, N, -1);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        expect_eq("mapped host memory written by a kernel", i, i * i % 977 - i, mapped[i]);

    // Managed memory: host writes, two kernels, host reads.
    int *managed;
    CHECK(cudaMallocManaged(&managed, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        managed[i] = 1000 - i;
    add_index<<<(N + 127) / 128, 128>>>(managed, N, 3);
    CHECK(cudaGetLastError());
    add_index<<<(N + 255) / 256, 256>>>(managed, N, 1);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        expect_eq("managed memory after two kernels", i, 1000 + 3 * i, managed[i]);

    Node *nodes;
    CHECK(cudaMallocManaged(&nodes, 64 * sizeof(Node)));
    for (int i = 0; i < 64; i++) {
        nodes[i].value = -1;
        nodes[i].payload = managed;
    }
    follow<<<1, 64>>>(nodes, 64);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < 64; i++)
        expect_eq("managed struct with managed pointer", i, (1000 + 3 * i) * 3, nodes[i].value);

    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFreeHost(mapped));
    CHECK(cudaFree(d_buf));
    CHECK(cudaFree(managed));
    CHECK(cudaFree(nodes));
    if (failures)
        return 1;
    printf("ok pinned_managed\n");
    return 0;
}
