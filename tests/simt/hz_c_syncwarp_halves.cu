// Clean: two half-warps each run __syncwarp() with a mask that names only
// their own half, and each lane then reads the slot of a partner in its
// own half, which the mask orders before the read.  Then the whole warp
// syncs and each lane reads across the halves.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

__global__ void within_halves(int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;

    s[lane] = 3 * lane + 1;
    __syncwarp(half);
    int mine = s[lane ^ 8];
    __syncwarp();
    out[lane] = mine + 100 * s[lane ^ 16];
}

int main()
{
    int *out, got[32];
    CHECK(cudaMalloc(&out, sizeof got));
    within_halves<<<1, 32>>>(out);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int l = 0; l < 32; l++)
        expect_eq("lane", l, 3 * (l ^ 8) + 1 + 100 * (3 * (l ^ 16) + 1), got[l]);
    DONE("hz_c_syncwarp_halves");
}
