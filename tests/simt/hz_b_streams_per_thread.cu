// simt-nvcc-flags: --no-compress -lineinfo -cudart none -arch=sm_80 --default-stream per-thread
// expect-hazard: race: global write at hz_b_streams_per_thread.cu:18 ... of fill(int*, int) on stream 1 and global read at hz_b_streams_per_thread.cu:19 ... of twice(int const*, int*) on the per-thread default stream of host thread 1, in different streams
// expect-hazard: race: global write at hz_b_streams_per_thread.cu:18 ... on stream 1 and global read by cudaMemcpy on the per-thread default stream of host thread 1, in different streams
// expect-hazard: race: global write at hz_b_streams_per_thread.cu:20 ... of mark(int*) on the per-thread default stream of host thread 2 and global read at hz_b_streams_per_thread.cu:19 ... on the per-thread default stream of host thread 1, in different streams
//
// Built with --default-stream per-thread, stream 0 is each host thread's
// own per-thread default stream.  It synchronises with the legacy stream
// only, so unlike the legacy default stream it does not wait for a
// stream made by cudaStreamCreate: a kernel there and a kernel on stream
// 0, and a stream's kernel and a plain cudaMemcpy, race; and two host
// threads' default streams race with each other.  Built without the flag
// the same program is clean.
#include <thread>
#include "check.h"

#define N 256

__global__ void fill(int *x, int v) { x[threadIdx.x] = v + (int)threadIdx.x; }
__global__ void twice(const int *x, int *y) { y[threadIdx.x] = 2 * x[threadIdx.x]; }
__global__ void mark(int *x) { x[threadIdx.x] = 3 + (int)threadIdx.x; }

int main()
{
    cudaStream_t a;
    int *x, *y, *z, got[N];
    CHECK(cudaStreamCreate(&a));
    CHECK(cudaMalloc(&x, N * sizeof(int)));
    CHECK(cudaMalloc(&y, N * sizeof(int)));
    CHECK(cudaMalloc(&z, N * sizeof(int)));

    // a blocking stream, then the per-thread default stream
    fill<<<1, N, 0, a>>>(x, 1);
    twice<<<1, N>>>(x, y);                                      // the race
    CHECK(cudaDeviceSynchronize());

    // a blocking stream, then a synchronous copy
    fill<<<1, N, 0, a>>>(x, 2);
    CHECK(cudaMemcpy(got, x, sizeof got, cudaMemcpyDeviceToHost)); // the race
    CHECK(cudaDeviceSynchronize());

    // another host thread's default stream, then this one's
    std::thread t([&] { mark<<<1, N>>>(z); });
    t.join();
    twice<<<1, N>>>(z, y);                                      // the race
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(got, y, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("y", i, 2 * (3 + i), got[i]);
    if (failures)
        return 1;
    printf("ok hz_b_streams_per_thread\n");
    return 0;
}
