// expect: exit=1 env=CUDALAB_SIMT_NCCL_TIMEOUT=1 stderr=which ranks 2 never posted: [simt-only]
// gpus: 3
// Ranks that wait for one that never comes: two threads of a three-rank
// communicator call ncclCommInitRank and the third never does; then, on a
// full communicator, ranks 0 and 1 call ncclAllReduce and rank 2 does not;
// then rank 0 sends to rank 1, which posts no receive.  With
// CUDALAB_SIMT_NCCL_TIMEOUT=1 each wait ends after a second with a report
// naming the waiting and the missing ranks, and the calls return
// ncclRemoteError instead of hanging.  Exits 1 when all three do.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

#include "nccl_check.h"

static ncclUniqueId partial, full;
static ncclResult_t init_rc[2], coll_rc[2], send_rc;
static std::atomic<int> partial_done;

static void rank_main(int r)
{
    ncclComm_t c, f;
    float *b;
    cudaSetDevice(r);
    cudaMalloc(&b, 64 * sizeof(float));
    cudaMemset(b, 0, 64 * sizeof(float));
    if (r < 2) {
        init_rc[r] = ncclCommInitRank(&c, 3, partial, r);
        partial_done++;
    }
    // rank 2 joins the full communicator once the others have given up
    // on the partial one, so that its own wait starts with theirs
    while (partial_done < 2)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (ncclCommInitRank(&f, 3, full, r) != ncclSuccess)
        return;
    if (r < 2)
        coll_rc[r] = ncclAllReduce(b, b, 64, ncclFloat, ncclSum, f, 0);
    if (r == 0)
        send_rc = ncclSend(b, 64, ncclFloat, 1, f, 0);
}

int main()
{
    NCCLCHECK(ncclGetUniqueId(&partial));
    NCCLCHECK(ncclGetUniqueId(&full));
    std::thread t[3] = {std::thread(rank_main, 0), std::thread(rank_main, 1),
                        std::thread(rank_main, 2)};
    for (auto &x : t)
        x.join();
    printf("init %d %d, allreduce %d %d, send %d\n", init_rc[0], init_rc[1], coll_rc[0],
           coll_rc[1], send_rc);
    bool ok = init_rc[0] == ncclRemoteError && init_rc[1] == ncclRemoteError &&
              coll_rc[0] == ncclRemoteError && coll_rc[1] == ncclRemoteError &&
              send_rc == ncclRemoteError;
    return ok ? 1 : 2;
}
