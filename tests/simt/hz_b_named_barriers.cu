// expect-hazard: race: shared write at hz_b_named_barriers.cu:21 ... and shared read at hz_b_named_barriers.cu:26 ... no synchronization orders them || race: shared read at hz_b_named_barriers.cu:26 ... and shared write at hz_b_named_barriers.cu:21 ... no synchronization orders them
//
//
// The block clears its slots and meets at barrier 0.  Then two halves of
// it, two warps each, write their slots and meet at named barriers of their
// own (1 and 2, each of 64 threads), then every thread reads the slot of
// its partner in the other half.  A named barrier orders only the threads
// that arrive at it: nothing orders one half's write before the other
// half's read, so the halves race.  A checker that joined the arrivals of
// every barrier as if they met at barrier 0 would take the reads as
// ordered.
#include "check.h"

__global__ void swap_halves(int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;

    s[t] = 0;
    __syncthreads();
    s[t] = t;
    if (t < 64)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[t] = s[t ^ 64];
}

int main()
{
    int *out, got[128];
    CHECK(cudaMalloc(&out, sizeof got));
    swap_halves<<<1, 128>>>(out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    return 0;
}
