// __syncthreads_count, __syncthreads_and and __syncthreads_or in blocks of
// 200 threads (the last warp is partial), with predicates that differ per
// block, a non-boolean predicate, and repeated calls in a loop.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 200, BLOCKS = 6, ROUNDS = 5, REC = 5 };

__global__ void block_votes(int *out)
{
    int t = threadIdx.x, b = blockIdx.x;
    int count = __syncthreads_count(t % (b + 2) == 0);
    int all = __syncthreads_and(t != b * 50);
    int any = __syncthreads_or(t == b * 50);
    int bits = __syncthreads_count(t & 4);
    int acc = 0;
    for (int r = 0; r < ROUNDS; r++)
        acc += __syncthreads_count((t + r) % 3 == 0);
    int *rec = out + (b * blockDim.x + t) * REC;
    rec[0] = count;
    rec[1] = all != 0;
    rec[2] = any != 0;
    rec[3] = bits;
    rec[4] = acc;
}

int main(void)
{
    static int h[BLOCKS * THREADS * REC];
    int *d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemset(d, 0xff, sizeof h));
    block_votes<<<BLOCKS, THREADS>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int b = 0; b < BLOCKS; b++) {
        int want[REC] = {0, 1, 0, 0, 0};
        for (int t = 0; t < THREADS; t++) {
            want[0] += t % (b + 2) == 0;
            if (t == b * 50) {
                want[1] = 0;
                want[2] = 1;
            }
            want[3] += (t & 4) != 0;
            for (int r = 0; r < ROUNDS; r++)
                want[4] += (t + r) % 3 == 0;
        }
        for (int t = 0; t < THREADS; t++)
            for (int k = 0; k < REC; k++) {
                int i = (b * THREADS + t) * REC + k;
                expect_eq("syncthreads vote field", i, want[k], h[i]);
            }
    }
    CHECK(cudaFree(d));
    if (failures)
        return 1;
    printf("ok syncthreads_count\n");
    return 0;
}
