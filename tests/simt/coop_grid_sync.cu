// Grid-wide synchronisation in a cooperative launch: a stencil over a ring
// of integers runs several phases in one kernel, with grid.sync() between
// them; each phase reads, for every element, its left neighbour and an
// element three blocks away, both written by other blocks in the previous
// phase. Launched with the largest grid the occupancy API says can be
// resident (dynamic shared memory keeps it a few hundred blocks), and with
// a small grid of 5 blocks (more blocks than host threads). Checked
// against the same phases run on the host.
#include <cstdio>
#include <vector>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "check.h"

namespace cg = cooperative_groups;

static const int PHASES = 4;
static const int THREADS = 32;
static const size_t SMEM = 40 * 1024;

// One phase for element i of a ring of n: a mix of itself, its left
// neighbour and the element `far` places to the right (far < n).
__host__ __device__ static unsigned step(const unsigned *a, int i, int n, int far)
{
    int l = i > 0 ? i - 1 : n - 1, r = i + far < n ? i + far : i + far - n;
    return (a[l] + 2 * a[i] + 3 * a[r] + (unsigned)i) & 0xfffff;
}

// Runs PHASES phases between buf0 and buf1; the result ends in buf0
// (PHASES is even). The shared buffer stages each thread's value, so the
// dynamic shared memory is used, not only reserved.
__global__ void stencil(unsigned *buf0, unsigned *buf1, int n, int far)
{
    extern __shared__ unsigned stage[];
    cg::grid_group grid = cg::this_grid();
    unsigned *src = buf0, *dst = buf1;

    for (int p = 0; p < PHASES; p++) {
        for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
             i += grid.size()) {
            stage[threadIdx.x] = step(src, (int)i, n, far);
            dst[i] = stage[threadIdx.x];
        }
        grid.sync();
        unsigned *t = src;
        src = dst;
        dst = t;
    }
}

static std::vector<unsigned> host_phases(std::vector<unsigned> a, int far)
{
    int n = (int)a.size();
    std::vector<unsigned> b(n);
    for (int p = 0; p < PHASES; p++) {
        for (int i = 0; i < n; i++)
            b[i] = step(a.data(), i, n, far);
        a.swap(b);
    }
    return a;
}

// Runs the stencil on `blocks` blocks over n elements and checks it.
static int run(int blocks, int n, const char *what)
{
    std::vector<unsigned> init(n);
    for (int i = 0; i < n; i++)
        init[i] = (unsigned)(i * 7919u + 13u) & 0xfffff;
    int far = 3 * THREADS + 5;
    std::vector<unsigned> want = host_phases(init, far);

    unsigned *d0, *d1;
    CHECK(cudaMalloc(&d0, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&d1, n * sizeof(unsigned)));
    CHECK(cudaMemcpy(d0, init.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d1, 0xff, n * sizeof(unsigned)));
    void *args[] = {&d0, &d1, &n, &far};
    CHECK(cudaLaunchCooperativeKernel((void *)stencil, dim3(blocks), dim3(THREADS), args,
                                      SMEM, 0));
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned> got(n);
    CHECK(cudaMemcpy(got.data(), d0, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq(what, i, want[i], got[i]);
    CHECK(cudaFree(d0));
    CHECK(cudaFree(d1));
    return 0;
}

int main(void)
{
    int dev = 0, coop = 0, sms = 0, per_sm = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    if (!coop) {
        fprintf(stderr, "FAIL device does not support cooperative launches\n");
        return 1;
    }
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stencil, THREADS, SMEM));
    int most = per_sm * sms;
    if (most < 5) {
        fprintf(stderr, "FAIL only %d resident blocks\n", most);
        return 1;
    }
    // One element per thread of the largest grid, and a ragged tail.
    if (run(most, most * THREADS + 17, "largest grid") != 0)
        return 1;
    if (run(5, 5 * THREADS * 3 + 1, "5 blocks") != 0)
        return 1;
    if (failures)
        return 1;
    printf("ok coop_grid_sync\n");
    return 0;
}
