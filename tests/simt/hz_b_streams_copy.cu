// expect-hazard: race: global write at hz_b_streams_copy.cu:15 ... of fill(int*, int) on stream 1 and global read by cudaMemcpyAsync on stream 2, in different streams with no event or synchronization between them
// expect-hazard: race: global write by cudaMemsetAsync on stream 1 and global read at hz_b_streams_copy.cu:16 ... of twice(int const*, int*) on stream 2, in different streams with no event or synchronization between them
//
// Copies and memsets are operations of their stream too: a kernel fills
// a buffer on stream 1 and an asynchronous copy to pinned memory reads it
// on stream 2; a memset on stream 1 clears a buffer that a kernel on
// stream 2 reads.  Neither pair is ordered.  A copy into pageable host
// memory is different: the call returns only once it is done, so work
// issued after it (the last kernel here, on stream 1) follows it.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 1000

__global__ void fill(int *a, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < N) a[i] = v + i; }
__global__ void twice(const int *a, int *b) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < N) b[i] = 2 * a[i]; }

int main()
{
    cudaStream_t s1, s2;
    int *a, *b, *pinned, pageable[N];
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    CHECK(cudaMalloc(&a, N * sizeof(int)));
    CHECK(cudaMalloc(&b, N * sizeof(int)));
    CHECK(cudaMallocHost(&pinned, N * sizeof(int)));

    fill<<<(N + 127) / 128, 128, 0, s1>>>(a, 5);
    CHECK(cudaMemcpyAsync(pinned, a, N * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemsetAsync(a, 0, N * sizeof(int), s1));
    twice<<<(N + 127) / 128, 128, 0, s2>>>(a, b);
    CHECK(cudaDeviceSynchronize());

    // clean: the pageable copy has completed when the call returns
    CHECK(cudaMemcpyAsync(pageable, b, N * sizeof(int), cudaMemcpyDeviceToHost, s2));
    fill<<<(N + 127) / 128, 128, 0, s1>>>(b, 7);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < N; i++)
        expect_eq("pageable", i, 0, pageable[i]);
    CHECK(cudaMemcpy(pageable, b, sizeof pageable, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("b", i, 7 + i, pageable[i]);
    CHECK(cudaFreeHost(pinned));
    DONE("hz_b_streams_copy");
}
