// expect-hazard: race: global write at hz_b_streams_legacy_nonblocking.cu:19 ... of fill(int*, int) on the default stream and global read at hz_b_streams_legacy_nonblocking.cu:20 ... of twice(int const*, int*) on stream 1, in different streams with no event or synchronization between them
//
//
// The other direction of the legacy default stream's rule: work on a
// stream waits for earlier work on the legacy stream only when the stream
// is blocking.  A kernel on stream 0 fills x, then a kernel on a
// cudaStreamNonBlocking stream reads it: on a GPU the second may start
// first, a race.  The same two kernels with a stream made by
// cudaStreamCreate (the second half) are ordered by the legacy stream's
// implicit synchronization, and so are a kernel on the blocking stream
// and a kernel on stream 0 after it.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 256

// the two kernels' accesses each on a line of its own, which the
// expect-hazard line names
__global__ void fill(int *x, int v) { x[threadIdx.x] = v + (int)threadIdx.x; }
__global__ void twice(const int *x, int *y) { y[threadIdx.x] = 2 * x[threadIdx.x]; }

int main()
{
    cudaStream_t nb, bl;
    int *x, *y, got[N];
    CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    CHECK(cudaStreamCreate(&bl));
    CHECK(cudaMalloc(&x, N * sizeof(int)));
    CHECK(cudaMalloc(&y, N * sizeof(int)));

    fill<<<1, N>>>(x, 1);
    twice<<<1, N, 0, nb>>>(x, y);                 // the race
    CHECK(cudaDeviceSynchronize());

    fill<<<1, N>>>(x, 10);
    twice<<<1, N, 0, bl>>>(x, y);                 // ordered after fill
    fill<<<1, N>>>(x, 100);                       // ordered after twice
    CHECK(cudaMemcpy(got, y, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("y", i, 2 * (10 + i), got[i]);
    CHECK(cudaMemcpy(got, x, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("x", i, 100 + i, got[i]);
    DONE("hz_b_streams_legacy_nonblocking");
}
