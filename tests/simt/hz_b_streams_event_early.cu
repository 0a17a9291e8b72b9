// expect-hazard: race: global write at hz_b_streams_event_early.cu:13 ... of stage1(int*) on stream 1 and global read at hz_b_streams_event_early.cu:14 ... of stage2(int const*, int*) on stream 2, in different streams with no event or synchronization between them
//
//
// The event is recorded before the producer is launched, so waiting for
// it orders the consumer after nothing that matters: a misplaced
// cudaEventRecord.  The second launch of stage2 waits for an event
// recorded after stage1, which is right.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 128

__global__ void stage1(int *a) { a[threadIdx.x] = threadIdx.x * threadIdx.x; }
__global__ void stage2(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x] - 1; }

int main()
{
    cudaStream_t s1, s2;
    cudaEvent_t e;
    int *a, *b, got[N];
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CHECK(cudaMalloc(&a, N * sizeof(int)));
    CHECK(cudaMalloc(&b, N * sizeof(int)));

    CHECK(cudaEventRecord(e, s1));      // too early
    stage1<<<1, N, 0, s1>>>(a);
    CHECK(cudaStreamWaitEvent(s2, e, 0));
    stage2<<<1, N, 0, s2>>>(a, b);
    CHECK(cudaDeviceSynchronize());

    stage1<<<1, N, 0, s1>>>(a);
    CHECK(cudaEventRecord(e, s1));      // after the producer
    CHECK(cudaStreamWaitEvent(s2, e, 0));
    stage2<<<1, N, 0, s2>>>(a, b);
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaMemcpy(got, b, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("b", i, i * i - 1, got[i]);
    DONE("hz_b_streams_event_early");
}
