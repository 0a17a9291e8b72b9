// gpus: 4
// simt's communication model, read while the program runs through
// cudalab_simt_counter("comm_model.KIND.FIELD"): after one AllReduce,
// AllGather, ReduceScatter and Broadcast of S = 4096 bytes and a ring of
// four 4096-byte Send/Recv pairs over four ranks, the bytes each kind sent
// and received (summed over ranks) and its modelled time on NVLink 4
// (450 GB/s), PCIe 5 x16 (64 GB/s) and 400 Gb/s InfiniBand (50 GB/s), in
// nanoseconds, against the ring formulas worked out here.  The counter
// symbol is weak: on a GPU it is null and the program only checks that the
// collectives run.
#include <cmath>
#include <cstdio>

#include "nccl_check.h"

extern "C" int cudalab_simt_counter(const char *name, unsigned long long *value)
    __attribute__((weak));

#define N 4
#define S 4096.0

static void expect_counter(const char *name, double want)
{
    unsigned long long v = ~0ull;
    if (cudalab_simt_counter(name, &v) != 0) {
        fprintf(stderr, "FAIL counter %s unknown\n", name);
        failures++;
        return;
    }
    expect_eq(name, 0, (unsigned long long)llround(want), v);
}

int main()
{
    ncclComm_t comms[N];
    float *buf[N];
    NCCLCHECK(ncclCommInitAll(comms, N, nullptr));
    for (int r = 0; r < N; r++) {
        CHECK(cudaSetDevice(r));
        CHECK(cudaMalloc(&buf[r], 4 * 4096));
        CHECK(cudaMemset(buf[r], 0, 4 * 4096));
    }
    const size_t c = 1024; // floats in S bytes
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclAllReduce(buf[r], buf[r] + c, c, ncclFloat, ncclSum, comms[r], 0));
    NCCLCHECK(ncclGroupEnd());
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclAllGather(buf[r], buf[r] + c, c / N, ncclFloat, comms[r], 0));
    NCCLCHECK(ncclGroupEnd());
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclReduceScatter(buf[r], buf[r] + c, c / N, ncclFloat, ncclSum, comms[r], 0));
    NCCLCHECK(ncclGroupEnd());
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclBroadcast(buf[r], buf[r] + c, c, ncclFloat, 1, comms[r], 0));
    NCCLCHECK(ncclGroupEnd());
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++) {
        NCCLCHECK(ncclSend(buf[r], c, ncclFloat, (r + 1) % N, comms[r], 0));
        NCCLCHECK(ncclRecv(buf[r] + c, c, ncclFloat, (r + N - 1) % N, comms[r], 0));
    }
    NCCLCHECK(ncclGroupEnd());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclCommDestroy(comms[r]));
    if (!cudalab_simt_counter) {
        printf("ok nccl_model (no simt counters: skipped the model)\n");
        return 0;
    }

    const double links[3] = {450e9, 64e9, 50e9};
    const char *const names[3] = {"nvlink4", "pcie5", "ib400"};
    // per-rank bytes in the ring, and the largest rank's count
    const double ar = 2.0 * (N - 1) / N * S, ag = (double)(N - 1) / N * S;
    struct { const char *kind; double calls, sent, most; } k[] = {
        {"all_reduce", 1, N * ar, ar},
        {"all_gather", 1, N * ag, ag},
        {"reduce_scatter", 1, N * ag, ag},
        {"broadcast", 1, (N - 1) * S, S},   // every rank but the chain's last sends S
        {"send_recv", N, N * S, N * S},     // four pairs, one after another
    };
    char name[96];
    for (auto &e : k) {
        snprintf(name, sizeof name, "comm_model.%s.calls", e.kind);
        expect_counter(name, e.calls);
        snprintf(name, sizeof name, "comm_model.%s.bytes_sent", e.kind);
        expect_counter(name, e.sent);
        snprintf(name, sizeof name, "comm_model.%s.bytes_received", e.kind);
        expect_counter(name, e.sent);
        for (int l = 0; l < 3; l++) {
            snprintf(name, sizeof name, "comm_model.%s.%s_ns", e.kind, names[l]);
            expect_counter(name, e.most / links[l] * 1e9);
        }
    }
    expect_counter("comm_model.all_reduce.bytes", S);
    expect_counter("comm_model.all_gather.bytes", S);
    unsigned long long v;
    if (cudalab_simt_counter("comm_model.all_reduce.no_such_field", &v) == 0 ||
        cudalab_simt_counter("comm_model.no_such_kind.calls", &v) == 0) {
        fprintf(stderr, "FAIL an unknown comm_model counter was accepted\n");
        failures++;
    }
    if (failures)
        return 1;
    printf("ok nccl_model\n");
    return 0;
}
