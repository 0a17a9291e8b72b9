// gpus: 4
// NCCL collectives over four devices driven from one thread (ncclCommInitAll,
// one group per collective over the four communicators, as nccl-tests -g 4
// does): AllReduce with every data type and every reduction (sum, prod,
// max, min, avg, PreMulSum with a host and a device scalar), and max and
// min of unsigned bytes above 127; Reduce,
// ReduceScatter, AllGather, Broadcast, AlltoAll, Gather and Scatter; the
// in-place forms of AllReduce, AllGather, ReduceScatter and Bcast; a
// kernel reading an NCCL result; and non-blocking communicators set up
// from the one thread without a group.  Inputs are small integers, chosen so
// that every partial sum and product is exact in every type and any order
// (the same result from simt's ring order and a GPU's), and the expected
// values are folded on the host in double.  fp8 is skipped before compute
// capability 9.0, where NCCL does not reduce it.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "nccl_check.h"

#define N 4
#define COUNT 37

static ncclComm_t comms[N];
static cudaStream_t streams[N];
static void *sendb[N], *recvb[N];

// Element i of rank r's input: 0..3 (0..2 for fp8), less 1 for signed
// types unless nonneg.
static double val(int r, size_t i, ncclDataType_t t, bool nonneg)
{
    int g = (r * 7 + (int)i * 3 + 1) % 4;
    if (t == ncclFloat8e4m3 || t == ncclFloat8e5m2)
        g %= 3;
    if (!nonneg && type_signed(t))
        g -= 1;
    return g;
}

static int fill(ncclDataType_t t, bool nonneg, size_t elems)
{
    std::vector<char> h(elems * 8);
    for (int r = 0; r < N; r++) {
        for (size_t i = 0; i < elems; i++)
            store(h.data(), i, t, val(r, i, t, nonneg));
        CHECK(cudaSetDevice(r));
        CHECK(cudaMemcpy(sendb[r], h.data(), elems * type_size(t), cudaMemcpyHostToDevice));
        CHECK(cudaMemset(recvb[r], 0, COUNT * N * 8));
    }
    return 0;
}

static int sync_all()
{
    for (int r = 0; r < N; r++) {
        CHECK(cudaSetDevice(r));
        CHECK(cudaStreamSynchronize(streams[r]));
    }
    return 0;
}

// Compares elems elements of buf (device r) with want(i).
template <typename F>
static int compare(const char *what, int r, const void *buf, ncclDataType_t t, size_t elems, F want)
{
    std::vector<char> h(elems * 8);
    CHECK(cudaMemcpy(h.data(), buf, elems * type_size(t), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < elems; i++) {
        char name[96];
        snprintf(name, sizeof name, "%s rank %d", what, r);
        expect_eq(name, (long)i, want(i), load(h.data(), i, t));
    }
    return 0;
}

enum { PREMUL_HOST = 100, PREMUL_DEV = 101 };

static bool fp8(ncclDataType_t t) { return t == ncclFloat8e4m3 || t == ncclFloat8e5m2; }

// The device scalar of PreMulSum: 3, or 0.5 for fp8, where every partial
// sum of 3x in any order would not fit e5m2's two mantissa bits.
static double dev_scalar(ncclDataType_t t) { return fp8(t) ? 0.5 : 3; }

// The reduction of element i over the ranks, in double.
static double fold(int op, size_t i, ncclDataType_t t, bool nonneg)
{
    double acc = 0;
    for (int r = 0; r < N; r++) {
        double x = val(r, i, t, nonneg);
        if (op == PREMUL_HOST) x *= 2;
        if (op == PREMUL_DEV) x *= dev_scalar(t);
        if (r == 0) { acc = x; continue; }
        switch (op) {
        case ncclProd: acc *= x; break;
        case ncclMax: acc = x > acc ? x : acc; break;
        case ncclMin: acc = x < acc ? x : acc; break;
        default: acc += x; break;
        }
    }
    if (op == ncclAvg) {
        acc /= N;
        if (t <= ncclUint64)
            acc = (double)(long long)acc;
    }
    return acc;
}

static const char *op_name(int op)
{
    static const char *const n[] = {"sum", "prod", "max", "min", "avg"};
    return op == PREMUL_HOST ? "premul-host" : op == PREMUL_DEV ? "premul-device" : n[op];
}

static int all_reduce(ncclDataType_t t, const char *tn, int op, bool in_place)
{
    bool nonneg = op == ncclAvg;
    ncclRedOp_t ops[N];
    void *dscalar[N] = {};
    if (fill(t, nonneg, COUNT))
        return 1;
    for (int r = 0; r < N; r++) {
        ops[r] = (ncclRedOp_t)op;
        char s[8];
        if (op == PREMUL_HOST) {
            store(s, 0, t, 2);
            NCCLCHECK(ncclRedOpCreatePreMulSum(&ops[r], s, t, ncclScalarHostImmediate, comms[r]));
        } else if (op == PREMUL_DEV) {
            store(s, 0, t, dev_scalar(t));
            CHECK(cudaSetDevice(r));
            CHECK(cudaMalloc(&dscalar[r], 8));
            CHECK(cudaMemcpy(dscalar[r], s, type_size(t), cudaMemcpyHostToDevice));
            NCCLCHECK(ncclRedOpCreatePreMulSum(&ops[r], dscalar[r], t, ncclScalarDevice, comms[r]));
        }
    }
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++) {
        CHECK(cudaSetDevice(r));
        NCCLCHECK(ncclAllReduce(sendb[r], in_place ? sendb[r] : recvb[r], COUNT, t, ops[r],
                                comms[r], streams[r]));
    }
    NCCLCHECK(ncclGroupEnd());
    if (sync_all())
        return 1;
    char what[96];
    snprintf(what, sizeof what, "allreduce%s %s %s", in_place ? " in-place" : "", tn, op_name(op));
    for (int r = 0; r < N; r++)
        compare(what, r, in_place ? sendb[r] : recvb[r], t, COUNT,
                [&](size_t i) { return fold(op, i, t, nonneg); });
    for (int r = 0; r < N; r++) {
        if (op >= PREMUL_HOST)
            NCCLCHECK(ncclRedOpDestroy(ops[r], comms[r]));
        if (dscalar[r])
            CHECK(cudaFree(dscalar[r]));
    }
    return 0;
}

// Max and min of unsigned bytes above 127, which a reduction comparing
// them as signed bytes would take for negative: rank r's element i is
// (37 i + 64 r) mod 256, folded on the host as unsigned.
static int bytes_above_127()
{
    unsigned char h[COUNT];
    for (int r = 0; r < N; r++) {
        for (int i = 0; i < COUNT; i++)
            h[i] = (unsigned char)((37 * i + 64 * r) % 256);
        CHECK(cudaSetDevice(r));
        CHECK(cudaMemcpy(sendb[r], h, COUNT, cudaMemcpyHostToDevice));
    }
    const ncclRedOp_t ops[2] = {ncclMax, ncclMin};
    for (int k = 0; k < 2; k++) {
        NCCLCHECK(ncclGroupStart());
        for (int r = 0; r < N; r++) {
            CHECK(cudaSetDevice(r));
            NCCLCHECK(ncclAllReduce(sendb[r], recvb[r], COUNT, ncclUint8, ops[k], comms[r],
                                    streams[r]));
        }
        NCCLCHECK(ncclGroupEnd());
        if (sync_all())
            return 1;
        CHECK(cudaMemcpy(h, recvb[1], COUNT, cudaMemcpyDeviceToHost));
        for (int i = 0; i < COUNT; i++) {
            int want = k ? 255 : 0;
            for (int r = 0; r < N; r++) {
                int x = (37 * i + 64 * r) % 256;
                want = k ? (x < want ? x : want) : (x > want ? x : want);
            }
            expect_eq(k ? "allreduce uint8 min above 127" : "allreduce uint8 max above 127",
                      (long)i, want, (int)h[i]);
        }
    }
    return 0;
}

static int others(ncclDataType_t t, const char *tn)
{
    char what[96];
    const size_t es = type_size(t);

    // Reduce (max) to root 2
    if (fill(t, false, COUNT)) return 1;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclReduce(sendb[r], recvb[r], COUNT, t, ncclMax, 2, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    sync_all();
    snprintf(what, sizeof what, "reduce %s", tn);
    compare(what, 2, recvb[2], t, COUNT, [&](size_t i) { return fold(ncclMax, i, t, false); });
    compare(what, 1, recvb[1], t, COUNT, [&](size_t) { return 0.0; });

    // ReduceScatter (sum): rank r gets block r of the reduction
    if (fill(t, false, COUNT * N)) return 1;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclReduceScatter(sendb[r], recvb[r], COUNT, t, ncclSum, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    sync_all();
    snprintf(what, sizeof what, "reducescatter %s", tn);
    for (int r = 0; r < N; r++)
        compare(what, r, recvb[r], t, COUNT,
                [&](size_t i) { return fold(ncclSum, r * COUNT + i, t, false); });

    // ReduceScatter in place: recvbuff = sendbuff + r * recvcount
    if (fill(t, false, COUNT * N)) return 1;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclReduceScatter(sendb[r], (char *)sendb[r] + r * COUNT * es, COUNT, t,
                                    ncclMin, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    sync_all();
    snprintf(what, sizeof what, "reducescatter in-place %s", tn);
    for (int r = 0; r < N; r++)
        compare(what, r, (char *)sendb[r] + r * COUNT * es, t, COUNT,
                [&](size_t i) { return fold(ncclMin, r * COUNT + i, t, false); });

    // AllGather, and in place (sendbuff = recvbuff + r * sendcount)
    for (int inpl = 0; inpl < 2; inpl++) {
        if (fill(t, false, COUNT)) return 1;
        if (inpl)
            for (int r = 0; r < N; r++)
                CHECK(cudaMemcpy((char *)recvb[r] + r * COUNT * es, sendb[r], COUNT * es,
                                 cudaMemcpyDeviceToDevice));
        NCCLCHECK(ncclGroupStart());
        for (int r = 0; r < N; r++)
            NCCLCHECK(ncclAllGather(inpl ? (char *)recvb[r] + r * COUNT * es : sendb[r],
                                    recvb[r], COUNT, t, comms[r], streams[r]));
        NCCLCHECK(ncclGroupEnd());
        sync_all();
        snprintf(what, sizeof what, "allgather%s %s", inpl ? " in-place" : "", tn);
        for (int r = 0; r < N; r++)
            compare(what, r, recvb[r], t, COUNT * N,
                    [&](size_t i) { return val((int)(i / COUNT), i % COUNT, t, false); });
    }

    // Broadcast from root 1, then Bcast in place from root 3
    if (fill(t, false, COUNT)) return 1;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclBroadcast(sendb[r], recvb[r], COUNT, t, 1, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    sync_all();
    snprintf(what, sizeof what, "broadcast %s", tn);
    for (int r = 0; r < N; r++)
        compare(what, r, recvb[r], t, COUNT, [&](size_t i) { return val(1, i, t, false); });
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclBcast(sendb[r], COUNT, t, 3, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    sync_all();
    snprintf(what, sizeof what, "bcast in-place %s", tn);
    for (int r = 0; r < N; r++)
        compare(what, r, sendb[r], t, COUNT, [&](size_t i) { return val(3, i, t, false); });

    // AlltoAll: block j of rank r's result is block r of rank j's input
    if (fill(t, false, COUNT * N)) return 1;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclAlltoAll(sendb[r], recvb[r], COUNT, t, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    sync_all();
    snprintf(what, sizeof what, "alltoall %s", tn);
    for (int r = 0; r < N; r++)
        compare(what, r, recvb[r], t, COUNT * N, [&](size_t i) {
            return val((int)(i / COUNT), r * COUNT + i % COUNT, t, false);
        });

    // Gather to root 0, Scatter from root 3
    if (fill(t, false, COUNT * N)) return 1;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclGather(sendb[r], recvb[r], COUNT, t, 0, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    sync_all();
    snprintf(what, sizeof what, "gather %s", tn);
    compare(what, 0, recvb[0], t, COUNT * N,
            [&](size_t i) { return val((int)(i / COUNT), i % COUNT, t, false); });
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclScatter(sendb[r], recvb[r], COUNT, t, 3, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    sync_all();
    snprintf(what, sizeof what, "scatter %s", tn);
    for (int r = 0; r < N; r++)
        compare(what, r, recvb[r], t, COUNT, [&](size_t i) { return val(3, r * COUNT + i, t, false); });
    return 0;
}

__global__ void doubled(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2 * in[i];
}

int main()
{
    int ndev = 0;
    CHECK(cudaGetDeviceCount(&ndev));
    if (ndev < N) {
        fprintf(stderr, "FAIL needs %d devices, has %d\n", N, ndev);
        return 1;
    }
    NCCLCHECK(ncclCommInitAll(comms, N, nullptr));
    for (int r = 0; r < N; r++) {
        int n, rank, dev;
        NCCLCHECK(ncclCommCount(comms[r], &n));
        NCCLCHECK(ncclCommUserRank(comms[r], &rank));
        NCCLCHECK(ncclCommCuDevice(comms[r], &dev));
        expect_eq("count", r, N, n);
        expect_eq("rank", r, r, rank);
        expect_eq("device", r, r, dev);
        CHECK(cudaSetDevice(r));
        CHECK(cudaStreamCreate(&streams[r]));
        CHECK(cudaMalloc(&sendb[r], COUNT * N * 8));
        CHECK(cudaMalloc(&recvb[r], COUNT * N * 8));
    }
    const int ops[] = {ncclSum, ncclProd, ncclMax, ncclMin, ncclAvg, PREMUL_HOST, PREMUL_DEV};
    int major = 0;
    CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    for (size_t k = 0; k < sizeof all_types / sizeof all_types[0]; k++) {
        if (fp8(all_types[k]) && major < 9) {
            printf("skipped %s: NCCL reduces fp8 on compute capability 9.0 and later\n",
                   type_names[k]);
            continue;
        }
        for (int op : ops)
            if (all_reduce(all_types[k], type_names[k], op, false))
                return 1;
        if (all_reduce(all_types[k], type_names[k], ncclSum, true))
            return 1;
        if (others(all_types[k], type_names[k]))
            return 1;
    }

    if (bytes_above_127())
        return 1;

    // a kernel on device 2 reads what AllReduce wrote there
    if (fill(ncclFloat32, false, COUNT)) return 1;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclAllReduce(sendb[r], recvb[r], COUNT, ncclFloat32, ncclSum, comms[r], streams[r]));
    NCCLCHECK(ncclGroupEnd());
    CHECK(cudaSetDevice(2));
    doubled<<<1, 64, 0, streams[2]>>>((const float *)recvb[2], (float *)sendb[2], COUNT);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(streams[2]));
    compare("kernel after allreduce", 2, sendb[2], ncclFloat32, COUNT,
            [&](size_t i) { return 2 * fold(ncclSum, i, ncclFloat32, false); });

    // non-blocking communicators initialised from this one thread without a
    // group: ncclInProgress until ncclCommGetAsyncError says they formed
    ncclUniqueId id;
    ncclComm_t nb[N];
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    NCCLCHECK(ncclGetUniqueId(&id));
    for (int r = 0; r < N; r++) {
        CHECK(cudaSetDevice(r));
        ncclResult_t rc = ncclCommInitRankConfig(&nb[r], N, id, r, &config);
        if (rc != ncclSuccess && rc != ncclInProgress) {
            fprintf(stderr, "FAIL non-blocking init of rank %d returned %d\n", r, (int)rc);
            return 1;
        }
    }
    for (int r = 0; r < N; r++) {
        ncclResult_t state;
        do
            NCCLCHECK(ncclCommGetAsyncError(nb[r], &state));
        while (state == ncclInProgress);
        NCCLCHECK(state);
    }
    if (fill(ncclInt32, false, COUNT)) return 1;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++) {
        CHECK(cudaSetDevice(r));
        NCCLCHECK(ncclAllReduce(sendb[r], recvb[r], COUNT, ncclInt32, ncclMax, nb[r], streams[r]));
    }
    ncclResult_t end = ncclGroupEnd();
    if (end != ncclSuccess && end != ncclInProgress) {
        fprintf(stderr, "FAIL non-blocking group end returned %d\n", (int)end);
        return 1;
    }
    for (int r = 0; r < N; r++) {
        ncclResult_t state;
        do
            NCCLCHECK(ncclCommGetAsyncError(nb[r], &state));
        while (state == ncclInProgress);
        NCCLCHECK(state);
    }
    if (sync_all()) return 1;
    for (int r = 0; r < N; r++) {
        compare("non-blocking allreduce", r, recvb[r], ncclInt32, COUNT,
                [&](size_t i) { return fold(ncclMax, i, ncclInt32, false); });
        NCCLCHECK(ncclCommDestroy(nb[r]));
    }

    for (int r = 0; r < N; r++) {
        CHECK(cudaSetDevice(r));
        CHECK(cudaFree(sendb[r]));
        CHECK(cudaFree(recvb[r]));
        CHECK(cudaStreamDestroy(streams[r]));
        NCCLCHECK(ncclCommDestroy(comms[r]));
    }
    if (failures)
        return 1;
    printf("ok nccl_collectives\n");
    return 0;
}
