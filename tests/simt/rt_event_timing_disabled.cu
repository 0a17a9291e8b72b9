// cudaEventElapsedTime refuses, with cudaErrorInvalidResourceHandle, a
// pair of events of which either was made with cudaEventDisableTiming,
// even when both are recorded and complete; two timing events of the same
// stream give a time of 0 or more.  The runtime API reference gives this
// error for either event made without timing.
#include <cstdio>
#include <cuda_runtime.h>
#include "check.h"

__global__ void touch(int *p)
{
    p[threadIdx.x] = threadIdx.x;
}

int main(void)
{
    cudaEvent_t timed[2], plain[2];
    int *d;
    float ms = -1;
    CHECK(cudaMalloc(&d, 32 * sizeof *d));
    for (int i = 0; i < 2; i++) {
        CHECK(cudaEventCreate(&timed[i]));
        CHECK(cudaEventCreateWithFlags(&plain[i], cudaEventDisableTiming));
    }
    CHECK(cudaEventRecord(timed[0]));
    CHECK(cudaEventRecord(plain[0]));
    touch<<<1, 32>>>(d);
    CHECK(cudaEventRecord(timed[1]));
    CHECK(cudaEventRecord(plain[1]));
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaEventElapsedTime(&ms, timed[0], timed[1]));
    expect_eq("two timing events give a time of 0 or more", 0L, true, ms >= 0);
    const struct { cudaEvent_t a, b; const char *what; } pairs[] = {
        {plain[0], plain[1], "both without timing"},
        {timed[0], plain[1], "the end without timing"},
        {plain[0], timed[1], "the start without timing"},
    };
    for (int i = 0; i < 3; i++) {
        ms = -1;
        cudaError_t err = cudaEventElapsedTime(&ms, pairs[i].a, pairs[i].b);
        if (err != cudaErrorInvalidResourceHandle) {
            fprintf(stderr, "FAIL %s: cudaEventElapsedTime returned %s\n", pairs[i].what,
                    cudaGetErrorName(err));
            failures++;
        }
        cudaGetLastError();
    }
    for (int i = 0; i < 2; i++) {
        CHECK(cudaEventDestroy(timed[i]));
        CHECK(cudaEventDestroy(plain[i]));
    }
    CHECK(cudaFree(d));
    if (failures)
        return 1;
    printf("ok rt_event_timing_disabled\n");
    return 0;
}
