// expect: exit=1 stderr=posted different operations as their 1st collective: [simt-only]
// gpus: 2
// Two ranks driven from one thread post different counts as their first
// collective, then AllReduce against Broadcast as their second, then a
// send of 8 elements meets a receive of 16: simt reports each with both
// ranks' calls and call sites, and the group ends with ncclInvalidUsage
// instead of running (on a GPU such a program hangs or reads past a
// buffer).  Exits 1 when all three are reported as expected.
#include <cstdio>
#include <cstring>

#include "nccl_check.h"

int main()
{
    ncclComm_t comms[2];
    float *buf[2];
    NCCLCHECK(ncclCommInitAll(comms, 2, nullptr));
    for (int r = 0; r < 2; r++) {
        CHECK(cudaSetDevice(r));
        CHECK(cudaMalloc(&buf[r], 64 * sizeof(float)));
        CHECK(cudaMemset(buf[r], 0, 64 * sizeof(float)));
    }

    NCCLCHECK(ncclGroupStart());
    NCCLCHECK(ncclAllReduce(buf[0], buf[0], 8, ncclFloat, ncclSum, comms[0], 0));
    NCCLCHECK(ncclAllReduce(buf[1], buf[1], 16, ncclFloat, ncclSum, comms[1], 0));
    ncclResult_t first = ncclGroupEnd();
    bool named = strstr(ncclGetLastError(comms[0]),
                        "rank 1: ncclAllReduce(count=16, ncclFloat32, ncclSum) at ") != nullptr;

    NCCLCHECK(ncclGroupStart());
    NCCLCHECK(ncclAllReduce(buf[0], buf[0], 8, ncclFloat, ncclSum, comms[0], 0));
    NCCLCHECK(ncclBroadcast(buf[1], buf[1], 8, ncclFloat, 0, comms[1], 0));
    ncclResult_t second = ncclGroupEnd();
    named = named && strstr(ncclGetLastError(comms[0]),
                            "rank 1: ncclBroadcast(count=8, ncclFloat32, root=0) at ") != nullptr;

    // a send of 8 floats matched with a receive of 16
    NCCLCHECK(ncclGroupStart());
    NCCLCHECK(ncclSend(buf[0], 8, ncclFloat, 1, comms[0], 0));
    NCCLCHECK(ncclRecv(buf[1], 16, ncclFloat, 0, comms[1], 0));
    ncclResult_t third = ncclGroupEnd();
    named = named && strstr(ncclGetLastError(comms[0]),
                            "rank 1: ncclRecv(count=16, ncclFloat32, peer=0) at ") != nullptr;

    ncclResult_t async = ncclSuccess;
    NCCLCHECK(ncclCommGetAsyncError(comms[1], &async));
    printf("group ends: %s, %s, %s; async error %s; calls named: %s\n",
           ncclGetErrorString(first), ncclGetErrorString(second), ncclGetErrorString(third),
           ncclGetErrorString(async), named ? "yes" : "no");
    for (int r = 0; r < 2; r++)
        NCCLCHECK(ncclCommDestroy(comms[r]));
    return first == ncclInvalidUsage && second == ncclInvalidUsage &&
           third == ncclInvalidUsage && async == ncclInvalidUsage && named ? 1 : 2;
}
