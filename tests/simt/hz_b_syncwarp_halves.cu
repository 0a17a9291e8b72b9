// expect-hazard: race: shared write at hz_b_syncwarp_halves.cu:17 ... and shared read at hz_b_syncwarp_halves.cu:19 ... no synchronization orders them || race: shared read at hz_b_syncwarp_halves.cu:19 ... and shared write at hz_b_syncwarp_halves.cu:17 ... no synchronization orders them
//
//
// Two half-warps each run __syncwarp() with a mask that names only their
// own half, then every lane reads the slot of its partner in the other
// half.  A mask orders the lanes it names and no others: nothing orders
// the upper half's write before the lower half's read, or the other way
// round, so both halves race with each other.
#include "check.h"

__global__ void swap_halves(int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;

    s[lane] = lane;
    __syncwarp(half);
    out[lane] = s[lane ^ 16];
}

int main()
{
    int *out, got[32];
    CHECK(cudaMalloc(&out, sizeof got));
    swap_halves<<<1, 32>>>(out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    return 0;
}
