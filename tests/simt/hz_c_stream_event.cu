// Clean: a producer kernel on one stream, a consumer on another that waits
// for an event recorded after the producer.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
__global__ void produce(int *a) { a[threadIdx.x] = 2 * threadIdx.x; }
__global__ void consume(const int *a, int *b) { b[threadIdx.x] = a[63 - threadIdx.x] + 1; }
int main()
{
    cudaStream_t s1, s2;
    cudaEvent_t ev;
    int *a, *b, got[64];
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    CHECK(cudaEventCreate(&ev));
    CHECK(cudaMalloc(&a, sizeof got));
    CHECK(cudaMalloc(&b, sizeof got));
    produce<<<1, 64, 0, s1>>>(a);
    CHECK(cudaEventRecord(ev, s1));
    CHECK(cudaStreamWaitEvent(s2, ev, 0));
    consume<<<1, 64, 0, s2>>>(a, b);
    CHECK(cudaStreamSynchronize(s2));
    CHECK(cudaMemcpy(got, b, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        expect_eq("b", i, 2 * (63 - i) + 1, got[i]);
    DONE("hz_c_stream_event");
}
