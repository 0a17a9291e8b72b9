// simt-nvcc-flags: --no-compress -lineinfo -cudart none -arch=sm_90
// match.sync (any and all, 32- and 64-bit) and elect.sync where the lanes
// running the instruction together pass different member masks: each warp
// is split into interleaved groups by a lane-dependent label, the group
// masks are built explicitly (not with match), and every lane matches and
// elects over its own group only.  Covers a full warp, a partial last warp
// (blocks of 56 threads), groups inside a divergent branch, and groups that
// reach the instructions on different paths.  elect.sync needs sm_90.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                         \
    do {                                                                    \
        cudaError_t err_ = (call);                                          \
        if (err_ != cudaSuccess) {                                          \
            fprintf(stderr, "FAIL %s:%d %s returned %s\n", __FILE__,       \
                    __LINE__, #call, cudaGetErrorName(err_));               \
            return 1;                                                       \
        }                                                                   \
    } while (0)

enum { BLOCKS = 3, THREADS = 56, NREC = 16, SUB_LANES = 20 };
#define FULL 0xffffffffu

// The label that splits a warp into groups; interleaved, uneven groups.
__host__ __device__ static int label_of(int block, int lane)
{
    return (lane * 5 + block + lane / 7) % 4;
}

// Odd labels hold one value across the group (so match.all succeeds
// there); even labels hold a few repeating values.
__host__ __device__ static unsigned value_of(int block, int t)
{
    int label = label_of(block, t % 32);
    unsigned h = (unsigned)(block * 1000 + t) * 2654435761u;

    if (label % 2)
        return 100u + (unsigned)label;
    return (h >> 20) % 3;
}

// A 64-bit value whose upper half alone tells some lanes apart.
__host__ __device__ static unsigned long long wide_of(int block, int t)
{
    unsigned long long hi = (unsigned long long)((t * 3 + block) % 2) << 40;

    return hi | (value_of(block, t) & 1u);
}

// The lanes of thread t's warp that share its label and lie below `limit`.
__host__ __device__ static unsigned group_of(int b, int t, int limit)
{
    int w0 = t - t % 32;
    unsigned m = 0;

    for (int k = w0; k < w0 + 32 && k < THREADS; k++) {
        int lane = k % 32;
        if (lane < limit && label_of(b, lane) == label_of(b, t % 32))
            m |= 1u << lane;
    }
    return m;
}

// elect.sync over `mask`: the leader's lane number and whether this lane
// is the leader.
__device__ static unsigned elect(unsigned mask, unsigned *is_leader)
{
    unsigned leader, flag;

    asm volatile("{\n\t.reg .pred p;\n\t"
                 "elect.sync %0|p, %2;\n\t"
                 "selp.u32 %1, 1, 0, p;\n\t}"
                 : "=r"(leader), "=r"(flag)
                 : "r"(mask));
    *is_leader = flag;
    return leader;
}

__global__ void matches(unsigned *out)
{
    int t = threadIdx.x, lane = t % 32, b = blockIdx.x;
    int label = label_of(b, lane);
    unsigned v = value_of(b, t), *rec = out + ((size_t)b * THREADS + t) * NREC;
    unsigned long long w = wide_of(b, t);
    unsigned group = group_of(b, t, 32);
    int pred = -1;

    rec[0] = __match_any_sync(group, v);
    rec[1] = __match_all_sync(group, v, &pred);
    rec[2] = (unsigned)pred;
    rec[3] = __match_any_sync(group, w);
    rec[4] = __match_all_sync(group, w, &pred);
    rec[5] = (unsigned)pred;
    rec[6] = elect(group, &rec[7]);

    // Groups within the lanes of a divergent branch.
    if (lane < SUB_LANES) {
        unsigned sub = group_of(b, t, SUB_LANES);
        rec[8] = __match_any_sync(sub, v);
        rec[9] = __match_all_sync(sub, v, &pred);
        rec[10] = (unsigned)pred;
        rec[11] = elect(sub, &rec[12]);
    } else {
        rec[8] = rec[9] = rec[10] = rec[11] = rec[12] = 0xabcu;
    }

    // Groups reaching the instructions on different paths.
    if (label % 2) {
        rec[13] = __match_any_sync(group, v + 7u);
        rec[14] = elect(group, &rec[15]);
    } else {
        rec[13] = __match_all_sync(group, v * 2u, &pred);
        rec[14] = elect(group, &rec[15]) + 64u;
    }
}

static int failures;

static void expect(int b, int t, int field, unsigned want, unsigned got)
{
    if (want == got)
        return;
    if (failures++ < 10)
        fprintf(stderr,
                "FAIL block %d thread %d field %d: expected 0x%x got 0x%x\n",
                b, t, field, want, got);
}

// The lanes of `mask` (in thread t's warp) whose value equals lane's.
template <typename F>
static unsigned equal_lanes(int b, int t, unsigned mask, F value)
{
    int w0 = t - t % 32;
    unsigned m = 0;

    for (int k = 0; k < 32; k++)
        if ((mask >> k & 1) && value(b, w0 + k) == value(b, t))
            m |= 1u << k;
    return m;
}

static unsigned lowest(unsigned mask)
{
    for (int k = 0; k < 32; k++)
        if (mask >> k & 1)
            return (unsigned)k;
    return 0;
}

// Thread t's expected records, computed lane by lane from the definitions.
static void expected(int b, int t, unsigned *want)
{
    int lane = t % 32, label = label_of(b, lane);
    unsigned g = group_of(b, t, 32), sub = group_of(b, t, SUB_LANES);
    unsigned any = equal_lanes(b, t, g, value_of);
    unsigned wany = equal_lanes(b, t, g, wide_of);
    unsigned sany = equal_lanes(b, t, sub, value_of);
    unsigned plus7 = equal_lanes(b, t, g, [](int bb, int tt) {
        return value_of(bb, tt) + 7u;
    });
    unsigned twice = equal_lanes(b, t, g, [](int bb, int tt) {
        return value_of(bb, tt) * 2u;
    });

    want[0] = any;
    want[1] = any == g ? g : 0;
    want[2] = any == g;
    want[3] = wany;
    want[4] = wany == g ? g : 0;
    want[5] = wany == g;
    want[6] = lowest(g);
    want[7] = lowest(g) == (unsigned)lane;
    if (lane < SUB_LANES) {
        want[8] = sany;
        want[9] = sany == sub ? sub : 0;
        want[10] = sany == sub;
        want[11] = lowest(sub);
        want[12] = lowest(sub) == (unsigned)lane;
    } else {
        want[8] = want[9] = want[10] = want[11] = want[12] = 0xabcu;
    }
    want[13] = label % 2 ? plus7 : (twice == g ? g : 0);
    want[14] = lowest(g) + (label % 2 ? 0u : 64u);
    want[15] = lowest(g) == (unsigned)lane;
}

// Guards against a test that checks nothing: some groups must match as a
// whole and some must not, and groups must differ within a warp.
static bool varied(void)
{
    bool whole = false, split = false, several = false;

    for (int b = 0; b < BLOCKS; b++)
        for (int t = 0; t < THREADS; t++) {
            unsigned g = group_of(b, t, 32);
            unsigned any = equal_lanes(b, t, g, value_of);
            whole = whole || any == g;
            split = split || any != g;
            several = several || g != group_of(b, t - t % 32, 32);
        }
    return whole && split && several;
}

int main(void)
{
    size_t n = (size_t)BLOCKS * THREADS * NREC;
    static unsigned host[BLOCKS * THREADS * NREC];
    unsigned *dev = nullptr;

    if (!varied()) {
        fprintf(stderr, "FAIL the labels and values do not vary enough\n");
        return 1;
    }
    CHECK(cudaMalloc(&dev, n * sizeof(unsigned)));
    CHECK(cudaMemset(dev, 0xee, n * sizeof(unsigned)));
    matches<<<BLOCKS, THREADS>>>(dev);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(host, dev, n * sizeof(unsigned),
                     cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dev));

    for (int b = 0; b < BLOCKS; b++) {
        for (int t = 0; t < THREADS; t++) {
            unsigned want[NREC];
            const unsigned *got = host + ((size_t)b * THREADS + t) * NREC;

            expected(b, t, want);
            for (int f = 0; f < NREC; f++)
                expect(b, t, f, want[f], got[f]);
        }
    }
    if (failures) {
        fprintf(stderr, "FAIL %d mismatches\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
