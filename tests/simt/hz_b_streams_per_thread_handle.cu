// expect-hazard: race: global write at hz_b_streams_per_thread_handle.cu:14 ... on the per-thread default stream of host thread 1 and global read at hz_b_streams_per_thread_handle.cu:15 ... on stream 1, in different streams
//
// A program built without --default-stream per-thread can still name its
// thread's per-thread default stream: cudaStreamPerThread.  That stream
// waits for the legacy one and the legacy one for it, but a stream made
// by cudaStreamCreate waits for neither, so a kernel there races with one
// on cudaStreamPerThread (the first half); the same kernel on stream 0,
// the legacy stream, is ordered (the second half, clean).
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 256

__global__ void fill(int *x, int v) { x[threadIdx.x] = v + (int)threadIdx.x; }
__global__ void twice(const int *x, int *y) { y[threadIdx.x] = 2 * x[threadIdx.x]; }

int main()
{
    cudaStream_t b;
    int *x, *y, got[N];
    CHECK(cudaStreamCreate(&b));
    CHECK(cudaMalloc(&x, N * sizeof(int)));
    CHECK(cudaMalloc(&y, N * sizeof(int)));

    fill<<<1, N, 0, cudaStreamPerThread>>>(x, 1);
    twice<<<1, N, 0, b>>>(x, y);                   // the race
    CHECK(cudaDeviceSynchronize());

    fill<<<1, N, 0, cudaStreamPerThread>>>(x, 2);
    twice<<<1, N>>>(x, y);                         // legacy: ordered
    CHECK(cudaMemcpy(got, y, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("y", i, 2 * (2 + i), got[i]);
    DONE("hz_b_streams_per_thread_handle");
}
