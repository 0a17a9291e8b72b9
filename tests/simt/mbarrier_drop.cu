// cuda::barrier::arrive_and_drop: thread t takes part in phases 0 to
// t % 4 of a barrier made for the whole block, then arrives once more and
// drops out, which lowers the count every later phase expects.  Each
// phase counts its participants; a thread that waited on a phase must see
// the full count, and the last group still completes a final phase with
// the lowered count.  The counts are recomputed on the host.
#include <cstdio>
#include <cuda/barrier>
#include <cuda_runtime.h>

#include "check.h"

#pragma nv_diag_suppress 20054

enum { THREADS = 96, PHASES = 4 };

__global__ void drop(int *seen, int *final_seen)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int count[PHASES + 1];
    int t = threadIdx.x, last = t % PHASES;
    if (t == 0)
        init(&bar, THREADS);
    if (t <= PHASES)
        count[t] = 0;
    __syncthreads();
    for (int p = 0; p <= last; p++) {
        atomicAdd(&count[p], 1);
        bar.arrive_and_wait();
        seen[p * THREADS + t] = count[p];
    }
    if (last < PHASES - 1) {
        bar.arrive_and_drop();
        return;
    }
    // the threads of the last group meet once more: the phase expects
    // only them now
    atomicAdd(&count[PHASES], 1);
    bar.arrive_and_wait();
    final_seen[t] = count[PHASES];
}

int main()
{
    int r[PHASES * THREADS], f[THREADS], *dseen, *dfinal;
    CHECK(cudaMalloc(&dseen, sizeof r));
    CHECK(cudaMalloc(&dfinal, sizeof f));
    CHECK(cudaMemset(dseen, 0xff, sizeof r));
    CHECK(cudaMemset(dfinal, 0xff, sizeof f));
    drop<<<1, THREADS>>>(dseen, dfinal);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, dseen, sizeof r, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(f, dfinal, sizeof f, cudaMemcpyDeviceToHost));
    int in_phase[PHASES] = {0};
    for (int t = 0; t < THREADS; t++)
        for (int p = 0; p <= t % PHASES; p++)
            in_phase[p]++;
    for (int t = 0; t < THREADS; t++) {
        for (int p = 0; p < PHASES; p++)
            expect_eq("seen", p * THREADS + t,
                      p <= t % PHASES ? in_phase[p] : -1, r[p * THREADS + t]);
        if (t % PHASES == PHASES - 1)
            expect_eq("final", t, THREADS / PHASES, f[t]);
        else
            expect_eq("final", t, -1, f[t]);
    }
    if (failures)
        return 1;
    printf("ok mbarrier_drop\n");
    return 0;
}
