// cuda::barrier phases completed by a few threads while the rest wait by
// phase parity (wait_parity, mbarrier.test_wait.parity): thread 0 arrives
// for two with arrive(2) (mbarrier.arrive.noComplete then arrive) and
// thread 40 once, on a barrier that expects three arrivals per phase.
// What the two stored before arriving must be visible to every waiter.
#include <cstdio>
#include <cuda/barrier>
#include <cuda_runtime.h>

#include "check.h"

#pragma nv_diag_suppress 20054

enum { THREADS = 64, PHASES = 4 };

__global__ void parity(int *out)
{
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int v[2];
    int t = threadIdx.x;
    if (t == 0)
        init(&bar, 3);
    __syncthreads();
    for (int p = 0; p < PHASES; p++) {
        if (t == 0) {
            v[0] = 10 * p + 1;
            (void)bar.arrive(2);
        } else if (t == 40) {
            v[1] = 100 * p + 7;
            (void)bar.arrive();
        }
        bar.wait_parity(p & 1);
        out[p * THREADS + t] = v[0] + v[1];
        __syncthreads();
    }
}

int main()
{
    int r[PHASES * THREADS], *d;
    CHECK(cudaMalloc(&d, sizeof r));
    parity<<<1, THREADS>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(r, d, sizeof r, cudaMemcpyDeviceToHost));
    for (int p = 0; p < PHASES; p++)
        for (int t = 0; t < THREADS; t++)
            expect_eq("parity", p * THREADS + t, 10 * p + 1 + 100 * p + 7,
                      r[p * THREADS + t]);
    if (failures)
        return 1;
    printf("ok mbarrier_parity\n");
    return 0;
}
