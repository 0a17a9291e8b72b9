// simt-nvcc-flags: --no-compress -lineinfo -cudart none -arch=sm_80 --default-stream per-thread
// Clean, built with --default-stream per-thread: what does order a host
// thread's per-thread default stream (stream 0 here).  Its own work is in
// order, a synchronous copy included; it waits for the legacy stream
// (cudaStreamLegacy), which waits for blocking streams; it and a blocking
// stream wait for each other's events; cudaStreamPerThread is stream 0;
// and a host thread that synchronizes its default stream before it ends
// has its work done for whoever joins it.
#include <thread>
#include "check.h"

#define N 256

__global__ void fill(int *x, int v) { x[threadIdx.x] = v + (int)threadIdx.x; }
__global__ void add(int *x, int v) { x[threadIdx.x] += v; }

int main()
{
    cudaStream_t a;
    cudaEvent_t e;
    int *x, got[N];
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaEventCreate(&e));
    CHECK(cudaMalloc(&x, N * sizeof(int)));

    fill<<<1, N>>>(x, 0);                          // this thread's stream
    add<<<1, N, 0, cudaStreamPerThread>>>(x, 1);   // the same stream
    CHECK(cudaMemcpy(got, x, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("in order", i, i + 1, got[i]);

    add<<<1, N, 0, a>>>(x, 10);                     // after the copy
    add<<<1, N, 0, cudaStreamLegacy>>>(x, 100);     // waits for a
    add<<<1, N>>>(x, 1000);                         // waits for legacy

    // stream a does not wait for stream 0, nor 0 for a: events
    CHECK(cudaEventRecord(e, 0));
    CHECK(cudaStreamWaitEvent(a, e, 0));
    add<<<1, N, 0, a>>>(x, 10000);
    CHECK(cudaEventRecord(e, a));
    CHECK(cudaStreamWaitEvent(0, e, 0));
    add<<<1, N>>>(x, 100000);

    CHECK(cudaStreamSynchronize(0));        // before the thread starts
    std::thread t([&] {
        add<<<1, N>>>(x, 1000000);          // that thread's own stream
        cudaStreamSynchronize(0);           // done before it ends
    });
    t.join();
    add<<<1, N>>>(x, 10000000);

    CHECK(cudaMemcpy(got, x, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("x", i, i + 11111111, got[i]);
    if (failures)
        return 1;
    printf("ok hz_c_streams_per_thread\n");
    return 0;
}
