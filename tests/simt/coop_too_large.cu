// The limits of cooperative launches: a grid one block larger than the
// occupancy API says can be resident (blocks per multiprocessor times the
// number of multiprocessors) fails with cudaErrorCooperativeLaunchTooLarge,
// from cudaLaunchCooperativeKernel and from cudaLaunchKernelEx with
// cudaLaunchAttributeCooperative, with and without dynamic shared memory.
// The error is reported once by cudaGetLastError and is not sticky: a
// cooperative launch of a fitting grid through cudaLaunchKernelEx then
// runs, and its grid.sync() works (each block reads what its neighbour
// wrote before the sync).
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "check.h"

namespace cg = cooperative_groups;

static const int THREADS = 64;

__global__ void ring(int *mine, int *seen)
{
    extern __shared__ int pad[];
    cg::grid_group grid = cg::this_grid();
    unsigned b = blockIdx.x, n = gridDim.x;

    if (threadIdx.x == 0) {
        pad[0] = (int)(b * b + 1);
        mine[b] = pad[0];
    }
    grid.sync();
    if (threadIdx.x == 0)
        seen[b] = mine[(b + 1) % n];
}

// Expects `got` to be cudaErrorCooperativeLaunchTooLarge, and
// cudaGetLastError to report it once.
static void expect_too_large(const char *what, cudaError_t got)
{
    cudaError_t last = cudaGetLastError(), again = cudaGetLastError();
    if (got != cudaErrorCooperativeLaunchTooLarge && failures++ < 8)
        fprintf(stderr, "FAIL %s: launch returned %s\n", what, cudaGetErrorName(got));
    if (last != cudaErrorCooperativeLaunchTooLarge && failures++ < 8)
        fprintf(stderr, "FAIL %s: cudaGetLastError returned %s\n", what,
                cudaGetErrorName(last));
    if (again != cudaSuccess && failures++ < 8)
        fprintf(stderr, "FAIL %s: second cudaGetLastError returned %s\n", what,
                cudaGetErrorName(again));
}

static cudaError_t launch_ex(int blocks, size_t smem, bool coop, int *mine, int *seen)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = 0;
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = coop ? 1 : 0;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, ring, mine, seen);
}

int main(void)
{
    int dev = 0, sms = 0;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));

    int *mine, *seen;
    CHECK(cudaMalloc(&mine, 16 * sizeof(int)));
    CHECK(cudaMalloc(&seen, 16 * sizeof(int)));
    void *args[] = {&mine, &seen};

    const size_t smems[2] = {sizeof(int), 40 * 1024};
    for (size_t smem : smems) {
        int per_sm = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ring, THREADS, smem));
        if (per_sm < 1) {
            fprintf(stderr, "FAIL no block of %d threads fits\n", THREADS);
            return 1;
        }
        int over = per_sm * sms + 1;
        expect_too_large("cudaLaunchCooperativeKernel",
                         cudaLaunchCooperativeKernel((void *)ring, dim3(over), dim3(THREADS),
                                                     args, smem, 0));
        expect_too_large("cudaLaunchKernelEx", launch_ex(over, smem, true, mine, seen));
    }

    // Nothing above ran or stuck: a fitting cooperative launch works.
    const int blocks = 7;
    int want[blocks], got[blocks];
    CHECK(cudaMemset(seen, 0, 16 * sizeof(int)));
    CHECK(launch_ex(blocks, sizeof(int), true, mine, seen));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, seen, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int next = (b + 1) % blocks;
        want[b] = next * next + 1;
        expect_eq("value seen after grid.sync()", b, want[b], got[b]);
    }
    CHECK(cudaFree(mine));
    CHECK(cudaFree(seen));
    if (failures)
        return 1;
    printf("ok coop_too_large\n");
    return 0;
}
