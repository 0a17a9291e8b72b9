// Warp votes and reductions where the lanes running the instruction together
// pass different member masks: each warp is split into groups by a
// lane-dependent label (__match_any_sync), and every lane votes and reduces
// over its own group only.  Covers a full warp, a partial last warp (blocks
// of 56 threads), groups inside a divergent branch, and groups that reach
// the instructions on different paths.
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

enum { BLOCKS = 3, THREADS = 56, NREC = 16 };
#define FULL 0xffffffffu

// The label that splits a warp into groups; interleaved, uneven groups.
__host__ __device__ static int label_of(int block, int lane)
{
    return (lane * 7 + block * 3 + lane / 9) % 5;
}

__host__ __device__ static int value_of(int block, int t)
{
    unsigned h = (unsigned)(block * 1000 + t) * 2654435761u;
    return (int)(h >> 16) % 2001 - 1000;
}

__host__ __device__ static bool pred_any(int v) { return v % 11 == 0; }
__host__ __device__ static bool pred_all(int label, int v)
{
    return label % 2 == 0 || v > -700;
}
__host__ __device__ static bool pred_ballot(int v) { return (v & 3) == 1; }

__global__ void votes(unsigned *out)
{
    int t = threadIdx.x, lane = t % 32, b = blockIdx.x;
    int label = label_of(b, lane), v = value_of(b, t);
    unsigned *rec = out + ((size_t)b * THREADS + t) * NREC;
    int in_warp = THREADS - (t - lane) < 32 ? THREADS - (t - lane) : 32;
    unsigned warp = in_warp == 32 ? FULL : (1u << in_warp) - 1;
    unsigned group = __match_any_sync(warp, label);

    rec[0] = group;
    rec[1] = __ballot_sync(group, pred_ballot(v));
    rec[2] = __any_sync(group, pred_any(v));
    rec[3] = __all_sync(group, pred_all(label, v));
    rec[4] = __reduce_add_sync(group, (unsigned)v);
    rec[5] = (unsigned)__reduce_min_sync(group, v);
    rec[6] = (unsigned)__reduce_max_sync(group, v);
    rec[7] = __reduce_min_sync(group, (unsigned)v);
    rec[8] = __reduce_max_sync(group, (unsigned)v);

    // Groups within the lanes of a divergent branch.
    if (lane < 20) {
        unsigned sub = __match_any_sync(0x000fffffu & warp, label);
        rec[9] = __ballot_sync(sub, pred_ballot(v));
        rec[10] = __reduce_max_sync(sub, v);
    } else {
        rec[9] = rec[10] = 0xabcu;
    }

    // Groups reaching the same reductions on different paths.
    if (label % 2) {
        rec[11] = __reduce_add_sync(group, (unsigned)(v * 3));
        rec[12] = __all_sync(group, pred_all(label, v));
    } else {
        rec[11] = __reduce_add_sync(group, (unsigned)(v * 5));
        rec[12] = __any_sync(group, pred_any(v));
    }
    rec[13] = __reduce_min_sync(group, v + lane);
    rec[14] = __any_sync(group, lane == 31);
    rec[15] = __ballot_sync(group, 1);
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

// The lanes of thread t's warp that share its label (and, with `limit`,
// lie below it).
static unsigned group_of(int b, int t, int limit)
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

// Thread t's expected records, computed lane by lane from the definitions.
static void expected(int b, int t, unsigned *want)
{
    int w0 = t - t % 32, lane = t % 32, label = label_of(b, lane);
    unsigned g = group_of(b, t, 32), sub = group_of(b, t, 20);
    unsigned ballot = 0, ballot_sub = 0, add = 0, add3 = 0, add5 = 0;
    unsigned umin = FULL, umax = 0;
    int smin = 1 << 30, smax = -(1 << 30), sub_max = -(1 << 30);
    int min_lane = 1 << 30;
    bool any = false, all = true, last = false;

    for (int k = w0; k < w0 + 32 && k < THREADS; k++) {
        int kl = k % 32, v = value_of(b, k);
        if (sub >> kl & 1) {
            if (pred_ballot(v))
                ballot_sub |= 1u << kl;
            sub_max = v > sub_max ? v : sub_max;
        }
        if (!(g >> kl & 1))
            continue;
        if (pred_ballot(v))
            ballot |= 1u << kl;
        any = any || pred_any(v);
        all = all && pred_all(label, v);
        add += (unsigned)v;
        add3 += (unsigned)(v * 3);
        add5 += (unsigned)(v * 5);
        smin = v < smin ? v : smin;
        smax = v > smax ? v : smax;
        umin = (unsigned)v < umin ? (unsigned)v : umin;
        umax = (unsigned)v > umax ? (unsigned)v : umax;
        min_lane = v + kl < min_lane ? v + kl : min_lane;
        last = last || kl == 31;
    }
    want[0] = g;
    want[1] = ballot;
    want[2] = any;
    want[3] = all;
    want[4] = add;
    want[5] = (unsigned)smin;
    want[6] = (unsigned)smax;
    want[7] = umin;
    want[8] = umax;
    want[9] = lane < 20 ? ballot_sub : 0xabcu;
    want[10] = lane < 20 ? (unsigned)sub_max : 0xabcu;
    want[11] = label % 2 ? add3 : add5;
    want[12] = label % 2 ? all : any;
    want[13] = (unsigned)min_lane;
    want[14] = last;
    want[15] = g;
}

int main(void)
{
    size_t n = (size_t)BLOCKS * THREADS * NREC;
    static unsigned host[BLOCKS * THREADS * NREC];
    unsigned *dev = nullptr;

    CHECK(cudaMalloc(&dev, n * sizeof(unsigned)));
    CHECK(cudaMemset(dev, 0xee, n * sizeof(unsigned)));
    votes<<<BLOCKS, THREADS>>>(dev);
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
