// expect: exit=0 env=CUDALAB_SIMT_HMM=1 stdout=ok kernel_host_memory_hmm [simt-only]
// With CUDALAB_SIMT_HMM=1 simt runs as a system with HMM or ATS does, where
// kernels reach the program's own host memory, and says so
// (cudaDevAttrPageableMemoryAccess is 1): a kernel reads a malloc'd array
// and one on the host's stack, and writes another malloc'd array, which
// the host then reads.  (On a GPU without HMM these accesses fault.)
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 200 };

__global__ void combine(const int *heap, const int *stack, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = heap[i] * 10 + stack[i % 8];
}

int main(void)
{
    int pageable = -1;
    CHECK(cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0));
    expect_eq("cudaDevAttrPageableMemoryAccess", 0, 1, pageable);
    int *heap = (int *)malloc(N * sizeof(int));
    int *out = (int *)malloc(N * sizeof(int));
    int stack[8];
    for (int i = 0; i < N; i++) {
        heap[i] = i - 50;
        out[i] = -1;
    }
    for (int i = 0; i < 8; i++)
        stack[i] = 3 * i;
    combine<<<(N + 63) / 64, 64>>>(heap, stack, out, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        expect_eq("host memory combined by a kernel", i, (i - 50) * 10 + 3 * (i % 8), out[i]);
    free(heap);
    free(out);
    if (failures)
        return 1;
    printf("ok kernel_host_memory_hmm\n");
    return 0;
}
