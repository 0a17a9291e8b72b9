// Two halves of a block, two warps each, write their slots, meet at named
// barriers of their own (1 and 2, each of 64 threads), and then every
// thread reads the slot of its partner in the other warp of its half.
// Each named barrier orders the writes of the threads that arrive at it
// before their reads: no hazard.  A checker that joined the arrivals at
// some other barrier than the one they reached would report races.
#include "check.h"

__global__ void swap_warps(int *out)
{
    __shared__ int s[128];
    int t = threadIdx.x;

    s[t] = t;
    if (t < 64)
        asm volatile("bar.sync 1, 64;" ::: "memory");
    else
        asm volatile("bar.sync 2, 64;" ::: "memory");
    out[t] = s[t ^ 32];
}

int main()
{
    int *out, got[128];
    CHECK(cudaMalloc(&out, sizeof got));
    swap_warps<<<1, 128>>>(out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 128; t++)
        expect_eq("partner's slot", t, t ^ 32, got[t]);
    CHECK(cudaFree(out));
    return failures != 0;
}
