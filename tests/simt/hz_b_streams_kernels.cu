// expect-hazard: race: global write at hz_b_streams_kernels.cu:17 ... of produce(int*) on stream 1 and global read at hz_b_streams_kernels.cu:18 ... of consume(int const*, int*) on stream 2, in different streams with no event or synchronization between them
//
//
// A producer on one stream and a consumer on another, with nothing
// between them: streams created with cudaStreamCreate wait for the
// legacy default stream, not for each other, so on a GPU the consumer
// may run first, or beside the producer.  simt runs them one after the
// other, so the values come out right; the stream order says they are
// not ordered.  (Also on two streams here: a second pair ordered by an
// event recorded after the producer and waited for by the consumer,
// which is clean.)
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 256

__global__ void produce(int *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[i] = 3 * i; }
__global__ void consume(const int *a, int *b) { int i = blockIdx.x * blockDim.x + threadIdx.x; b[i] = a[N - 1 - i] + 1; }

int main()
{
    cudaStream_t s1, s2;
    cudaEvent_t done;
    int *a, *b, got[N];
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    CHECK(cudaEventCreate(&done));
    CHECK(cudaMalloc(&a, N * sizeof(int)));
    CHECK(cudaMalloc(&b, N * sizeof(int)));

    produce<<<N / 64, 64, 0, s1>>>(a);
    consume<<<N / 64, 64, 0, s2>>>(a, b);       // the race
    CHECK(cudaDeviceSynchronize());

    produce<<<N / 64, 64, 0, s1>>>(a);
    CHECK(cudaEventRecord(done, s1));
    CHECK(cudaStreamWaitEvent(s2, done, 0));
    consume<<<N / 64, 64, 0, s2>>>(a, b);       // ordered by the event
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaMemcpy(got, b, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("b", i, 3 * (N - 1 - i) + 1, got[i]);
    DONE("hz_b_streams_kernels");
}
