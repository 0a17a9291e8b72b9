// simt's counters of atomics and of the bytes lanes ask for, read back
// through cudalab_simt_counter (counter.h; on a GPU the program checks its
// results and skips the counters): global_atomics and shared_atomics
// count lane operations by the space an atomic resolves to (a generic
// pointer included), *_atomic_conflicts count, per warp atomic, its lanes
// less its distinct addresses, and global_load_bytes / global_store_bytes
// the bytes the lanes of loads and stores ask for (vector loads and a
// partial last warp included).  Every figure below is worked out from the
// launch shapes by hand.
#include "check.h"
#include "counter.h"

#define THREADS 256
#define WARPS (THREADS / 32)

// every lane adds 1 to one of four global counters (4 addresses a warp)
__global__ void four_counters(int *g) { atomicAdd(&g[threadIdx.x % 4], 1); }

// a histogram of 8 bins in shared memory (8 addresses a warp), then the
// first 8 lanes add the bins to global memory (8 addresses, no conflict)
__global__ void histogram(int *g)
{
    __shared__ int bins[8];
    if (threadIdx.x < 8)
        bins[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&bins[threadIdx.x % 8], 1);
    __syncthreads();
    if (threadIdx.x < 8)
        atomicAdd(&g[threadIdx.x], bins[threadIdx.x]);
}

// through a generic pointer: even warps' lanes all update one shared
// word, odd warps' lanes each their own global word
__device__ __noinline__ void bump(int *p) { atomicAdd(p, 1); }

__global__ void generic(int *g)
{
    __shared__ int one;
    if (threadIdx.x == 0)
        one = 0;
    __syncthreads();
    bump(threadIdx.x / 32 % 2 == 0 ? &one : &g[threadIdx.x]);
    __syncthreads();
    if (threadIdx.x == 0)
        g[THREADS] = one;
}

__global__ void copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copy4(const float4 *in, float *out, int n4)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n4)
        out[i] = in[i].x + in[i].y + in[i].z + in[i].w;
}

static const char *const names[] = {
    "global_atomics", "shared_atomics", "global_atomic_conflicts",
    "shared_atomic_conflicts", "global_load_bytes", "global_store_bytes",
};
enum { GA, SA, GC, SC, LB, SB, NCOUNT };

static unsigned long long base[NCOUNT];

static void mark(void)
{
    for (int c = 0; c < NCOUNT; c++)
        base[c] = counter(names[c]);
}

// the counters' growth since mark() against the figures of one step
static void expect_step(const char *step, const unsigned long long want[NCOUNT])
{
    char what[96];
    for (int c = 0; c < NCOUNT; c++) {
        snprintf(what, sizeof what, "%s: %s", step, names[c]);
        expect_eq(what, 0, want[c], counter(names[c]) - base[c]);
    }
    mark();
}

int main()
{
    bool counting = cudalab_simt_counter != nullptr;
    int *g, got[THREADS + 1];
    float *in, *out;
    const int n = 1000, n4 = 250;
    CHECK(cudaMalloc(&g, (THREADS + 1) * sizeof(int)));
    CHECK(cudaMalloc(&in, n * sizeof(float)));
    CHECK(cudaMalloc(&out, n * sizeof(float)));
    CHECK(cudaMemset(in, 0, n * sizeof(float)));
    if (counting)
        mark();

    CHECK(cudaMemset(g, 0, (THREADS + 1) * sizeof(int)));
    four_counters<<<1, THREADS>>>(g);
    CHECK(cudaMemcpy(got, g, 4 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++)
        expect_eq("four_counters", i, THREADS / 4, got[i]);
    const unsigned long long w1[NCOUNT] = {THREADS, 0, WARPS * 28, 0, 0, 0};
    if (counting)
        expect_step("four_counters", w1);

    CHECK(cudaMemset(g, 0, (THREADS + 1) * sizeof(int)));
    histogram<<<1, THREADS>>>(g);
    CHECK(cudaMemcpy(got, g, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; i++)
        expect_eq("histogram", i, THREADS / 8, got[i]);
    const unsigned long long w2[NCOUNT] = {8, THREADS, 0, WARPS * 24, 0, 0};
    if (counting)
        expect_step("histogram", w2);

    CHECK(cudaMemset(g, 0, (THREADS + 1) * sizeof(int)));
    generic<<<1, THREADS>>>(g);
    CHECK(cudaMemcpy(got, g, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < THREADS; i++)
        expect_eq("generic global", i, i / 32 % 2 == 1 ? 1 : 0, got[i]);
    expect_eq("generic shared", THREADS, THREADS / 2, got[THREADS]);
    // the plain store of `one` to g[THREADS] is a 4-byte global store
    const unsigned long long w3[NCOUNT] = {THREADS / 2, THREADS / 2, 0,
                                           WARPS / 2 * 31, 0, 4};
    if (counting)
        expect_step("generic", w3);

    copy<<<(n + 255) / 256, 256>>>(in, out, n);
    copy4<<<1, 256>>>((const float4 *)in, out, n4);
    CHECK(cudaDeviceSynchronize());
    const unsigned long long w4[NCOUNT] = {0, 0, 0, 0, n * 4 + n4 * 16,
                                           n * 4 + n4 * 4};
    if (counting)
        expect_step("copies", w4);
    else
        printf("skip the counters: no simt counters here\n");
    if (failures)
        return 1;
    printf("ok rt_counter_atomics\n");
    return 0;
}
