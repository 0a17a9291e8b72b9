// gpus: 4
// NCCL with one host thread per rank: ncclGetUniqueId shared by the
// threads, ncclCommInitRankConfig, buffers from ncclMemAlloc (registered
// with ncclCommRegister and ncclCommWindowRegister), blocking AllReduce and
// Broadcast calls outside groups, ncclCommSplit (colour rank % 2, key -rank,
// so each half is ordered by descending parent rank, and a rank left out
// with NCCL_SPLIT_NOCOLOR), a Send/Recv ring and an all-to-all built from
// Send/Recv pairs in groups, ncclCommGetAsyncError, ncclCommFinalize and
// ncclCommDestroy.  Expected values are integer arithmetic on the host.
#include <cstdio>
#include <thread>
#include <vector>

#include "nccl_check.h"

#define N 4
#define COUNT 1000

static ncclUniqueId id;

static int val(int r, int i) { return r * 1000 + i % 97; }

static int fetch(std::vector<int> &h, const int *d, size_t n)
{
    h.assign(n, 0);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
    return 0;
}

static int rank_main(int r)
{
    ncclComm_t comm, half;
    cudaStream_t s;
    int *send, *recv;
    void *reg[2], *win;
    std::vector<int> h(COUNT * N);
    char what[64];

    CHECK(cudaSetDevice(r));
    CHECK(cudaStreamCreate(&s));
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 1;
    NCCLCHECK(ncclCommInitRankConfig(&comm, N, id, r, &config));
    int dev = -1, rank = -1, n = 0;
    NCCLCHECK(ncclCommCuDevice(comm, &dev));
    NCCLCHECK(ncclCommUserRank(comm, &rank));
    NCCLCHECK(ncclCommCount(comm, &n));
    expect_eq("device", r, r, dev);
    expect_eq("rank", r, r, rank);
    expect_eq("count", r, N, n);

    NCCLCHECK(ncclMemAlloc((void **)&send, COUNT * N * sizeof(int)));
    NCCLCHECK(ncclMemAlloc((void **)&recv, COUNT * N * sizeof(int)));
    NCCLCHECK(ncclCommRegister(comm, send, COUNT * N * sizeof(int), &reg[0]));
    NCCLCHECK(ncclCommRegister(comm, recv, COUNT * N * sizeof(int), &reg[1]));
    NCCLCHECK(ncclCommWindowRegister(comm, recv, COUNT * N * sizeof(int), (ncclWindow_t *)&win,
                                     NCCL_WIN_COLL_SYMMETRIC));
    for (int i = 0; i < COUNT * N; i++)
        h[i] = val(r, i);
    CHECK(cudaMemcpy(send, h.data(), COUNT * N * sizeof(int), cudaMemcpyHostToDevice));

    // blocking AllReduce outside a group
    NCCLCHECK(ncclAllReduce(send, recv, COUNT, ncclInt32, ncclSum, comm, s));
    CHECK(cudaStreamSynchronize(s));
    if (fetch(h, recv, COUNT)) return 1;
    snprintf(what, sizeof what, "allreduce rank %d", r);
    for (int i = 0; i < COUNT; i++)
        expect_eq(what, i, val(0, i) + val(1, i) + val(2, i) + val(3, i), h[i]);

    // Broadcast from root 2
    NCCLCHECK(ncclBroadcast(send, recv, COUNT, ncclInt32, 2, comm, s));
    CHECK(cudaStreamSynchronize(s));
    if (fetch(h, recv, COUNT)) return 1;
    snprintf(what, sizeof what, "broadcast rank %d", r);
    for (int i = 0; i < COUNT; i++)
        expect_eq(what, i, val(2, i), h[i]);

    // split: {0, 2} and {1, 3}, each ordered by key -rank
    NCCLCHECK(ncclCommSplit(comm, r % 2, -r, &half, nullptr));
    NCCLCHECK(ncclCommCount(half, &n));
    NCCLCHECK(ncclCommUserRank(half, &rank));
    expect_eq("split count", r, 2, n);
    expect_eq("split rank", r, r >= 2 ? 0 : 1, rank);
    NCCLCHECK(ncclAllReduce(send, recv, COUNT, ncclInt32, ncclMax, half, s));
    CHECK(cudaStreamSynchronize(s));
    if (fetch(h, recv, COUNT)) return 1;
    snprintf(what, sizeof what, "split allreduce rank %d", r);
    for (int i = 0; i < COUNT; i++)
        expect_eq(what, i, val(r % 2 + 2, i), h[i]);
    NCCLCHECK(ncclCommDestroy(half));

    // split that leaves rank 3 out
    ncclComm_t three;
    NCCLCHECK(ncclCommSplit(comm, r == 3 ? NCCL_SPLIT_NOCOLOR : 7, r, &three, nullptr));
    if (r == 3) {
        if (three != nullptr) {
            fprintf(stderr, "FAIL rank 3 left out of the split got a communicator\n");
            failures++;
        }
    } else {
        NCCLCHECK(ncclCommCount(three, &n));
        expect_eq("nocolor split count", r, 3, n);
        NCCLCHECK(ncclCommDestroy(three));
    }

    // ring: send to r+1, receive from r-1
    NCCLCHECK(ncclGroupStart());
    NCCLCHECK(ncclSend(send, COUNT, ncclInt32, (r + 1) % N, comm, s));
    NCCLCHECK(ncclRecv(recv, COUNT, ncclInt32, (r + N - 1) % N, comm, s));
    NCCLCHECK(ncclGroupEnd());
    CHECK(cudaStreamSynchronize(s));
    if (fetch(h, recv, COUNT)) return 1;
    snprintf(what, sizeof what, "ring rank %d", r);
    for (int i = 0; i < COUNT; i++)
        expect_eq(what, i, val((r + N - 1) % N, i), h[i]);

    // all-to-all from Send/Recv: block p goes to rank p
    NCCLCHECK(ncclGroupStart());
    for (int p = 0; p < N; p++) {
        NCCLCHECK(ncclSend(send + p * COUNT, COUNT, ncclInt32, p, comm, s));
        NCCLCHECK(ncclRecv(recv + p * COUNT, COUNT, ncclInt32, p, comm, s));
    }
    NCCLCHECK(ncclGroupEnd());
    CHECK(cudaStreamSynchronize(s));
    if (fetch(h, recv, COUNT * N)) return 1;
    snprintf(what, sizeof what, "p2p alltoall rank %d", r);
    for (int i = 0; i < COUNT * N; i++)
        expect_eq(what, i, val(i / COUNT, r * COUNT + i % COUNT), h[i]);

    ncclResult_t async = ncclInternalError;
    NCCLCHECK(ncclCommGetAsyncError(comm, &async));
    expect_eq("async error", r, (int)ncclSuccess, (int)async);
    NCCLCHECK(ncclCommWindowDeregister(comm, (ncclWindow_t)win));
    NCCLCHECK(ncclCommDeregister(comm, reg[0]));
    NCCLCHECK(ncclCommDeregister(comm, reg[1]));
    NCCLCHECK(ncclMemFree(send));
    NCCLCHECK(ncclMemFree(recv));
    NCCLCHECK(ncclCommFinalize(comm));
    NCCLCHECK(ncclCommDestroy(comm));
    CHECK(cudaStreamDestroy(s));
    return 0;
}

int main()
{
    int ndev = 0;
    CHECK(cudaGetDeviceCount(&ndev));
    if (ndev < N) {
        fprintf(stderr, "FAIL needs %d devices, has %d\n", N, ndev);
        return 1;
    }
    NCCLCHECK(ncclGetUniqueId(&id));
    int rc[N];
    std::vector<std::thread> t;
    for (int r = 0; r < N; r++)
        t.emplace_back([r, &rc] { rc[r] = rank_main(r); });
    for (auto &x : t)
        x.join();
    for (int r = 0; r < N; r++)
        if (rc[r]) {
            fprintf(stderr, "FAIL rank %d stopped\n", r);
            return 1;
        }
    if (failures)
        return 1;
    printf("ok nccl_threads\n");
    return 0;
}
