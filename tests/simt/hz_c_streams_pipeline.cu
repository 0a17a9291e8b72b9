// Clean: the overlap pattern of copies and kernels.  One array is cut
// into chunks of 1000 ints (4000 bytes, so chunks share 128-byte lines),
// each chunk on its own stream: copy in, compute in place, copy out, all
// asynchronous with pinned host memory.  Nothing orders the streams with
// each other, and nothing needs to: each touches only its chunk.  Then a
// last kernel on stream 0 waits for the other streams' events and reads
// every chunk, and the legacy default stream (which waits for blocking
// streams) reads the result.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define NS 4
#define CH 1000
#define N (NS * CH)

__global__ void poly(int *x, int off)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < CH) {
        int v = x[off + i];
        x[off + i] = v * v + 1;
    }
}

__global__ void total(const int *x, int *sum)
{
    // one block: a shared tree over every chunk
    __shared__ int part[256];
    int s = 0;
    for (int i = threadIdx.x; i < N; i += blockDim.x)
        s += x[i] % 7;
    part[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k /= 2) {
        if (threadIdx.x < k)
            part[threadIdx.x] += part[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        *sum = part[0];
}

int main()
{
    cudaStream_t st[NS];
    cudaEvent_t ev[NS];
    int *host, *dev, *sum, got;
    CHECK(cudaMallocHost(&host, N * sizeof(int)));
    CHECK(cudaMalloc(&dev, N * sizeof(int)));
    CHECK(cudaMalloc(&sum, sizeof(int)));
    for (int i = 0; i < N; i++)
        host[i] = i % 97 - 40;
    for (int s = 0; s < NS; s++) {
        CHECK(cudaStreamCreate(&st[s]));
        CHECK(cudaEventCreateWithFlags(&ev[s], cudaEventDisableTiming));
    }
    for (int s = 0; s < NS; s++) {
        int off = s * CH;
        CHECK(cudaMemcpyAsync(dev + off, host + off, CH * sizeof(int),
                              cudaMemcpyHostToDevice, st[s]));
        poly<<<(CH + 255) / 256, 256, 0, st[s]>>>(dev, off);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev[s], st[s]));
    }
    for (int s = 1; s < NS; s++)
        CHECK(cudaStreamWaitEvent(st[0], ev[s], 0));
    total<<<1, 256, 0, st[0]>>>(dev, sum);
    CHECK(cudaGetLastError());
    for (int s = 0; s < NS; s++) {
        int off = s * CH;
        CHECK(cudaMemcpyAsync(host + off, dev + off, CH * sizeof(int),
                              cudaMemcpyDeviceToHost, st[s]));
    }
    CHECK(cudaMemcpy(&got, sum, sizeof got, cudaMemcpyDeviceToHost));
    for (int s = 0; s < NS; s++)
        CHECK(cudaStreamSynchronize(st[s]));
    int want = 0;
    for (int i = 0; i < N; i++) {
        int v = i % 97 - 40;
        expect_eq("x", i, v * v + 1, host[i]);
        want += (v * v + 1) % 7;
    }
    expect_eq("sum", 0, want, got);
    CHECK(cudaFreeHost(host));
    DONE("hz_c_streams_pipeline");
}
