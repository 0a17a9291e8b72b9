// expect: exit=0 stdout=ok nccl_errors [simt-only]
// gpus: 2
// NCCL calls with bad arguments return their error code at once, leave the
// communicator usable, and say why (simt's message, also what
// ncclGetLastError returns): a NULL communicator, a datatype, reduction,
// root or peer out of range, a plain host buffer, a receive buffer too
// small for the count, a buffer on the other rank's device, a stream being
// captured into a graph, a PreMulSum op used with another type, a bad
// config, ncclGroupEnd without ncclGroupStart, and an entry point simt does
// not implement.  ncclGroupSimulateEnd estimates without running, and
// zero-count calls with NULL buffers succeed.  simt only: a GPU's NCCL
// does not check buffer sizes and words its messages differently.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "nccl_check.h"

#define N 2

static int expect_err(const char *what, ncclResult_t got, ncclResult_t want, const char *text)
{
    const char *last = ncclGetLastError(nullptr);
    if (got != want) {
        fprintf(stderr, "FAIL %s returned %d, expected %d\n", what, (int)got, (int)want);
        failures++;
    } else if (text && !strstr(last, text)) {
        fprintf(stderr, "FAIL %s: last error '%s' lacks '%s'\n", what, last, text);
        failures++;
    }
    return 0;
}

int main()
{
    ncclComm_t comms[N];
    float *buf[N], *small, *host = (float *)malloc(1024);
    cudaStream_t s[N];

    NCCLCHECK(ncclCommInitAll(comms, N, nullptr));
    for (int r = 0; r < N; r++) {
        CHECK(cudaSetDevice(r));
        CHECK(cudaMalloc(&buf[r], 256 * sizeof(float)));
        CHECK(cudaMemset(buf[r], 0, 256 * sizeof(float)));
        CHECK(cudaStreamCreate(&s[r]));
    }
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&small, 16));

    expect_err("NULL comm", ncclAllReduce(buf[0], buf[0], 4, ncclFloat, ncclSum, nullptr, s[0]),
               ncclInvalidArgument, "comm is not a communicator");
    expect_err("datatype 42", ncclAllReduce(buf[0], buf[0], 4, (ncclDataType_t)42, ncclSum, comms[0], s[0]),
               ncclInvalidArgument, "datatype 42 of rank 0");
    expect_err("op 17", ncclAllReduce(buf[0], buf[0], 4, ncclFloat, (ncclRedOp_t)17, comms[0], s[0]),
               ncclInvalidArgument, "op 17 of rank 0");
    expect_err("root 5", ncclBroadcast(buf[0], buf[0], 4, ncclFloat, 5, comms[0], s[0]),
               ncclInvalidArgument, "root 5 of rank 0");
    expect_err("peer -1", ncclSend(buf[0], 4, ncclFloat, -1, comms[0], s[0]),
               ncclInvalidArgument, "peer -1 of rank 0");
    expect_err("huge count", ncclAllGather(buf[0], buf[0], (size_t)1 << 62, ncclFloat, comms[0], s[0]),
               ncclInvalidArgument, "count 4611686018427387904 of rank 0 is too large");
    expect_err("host buffer", ncclAllReduce(host, buf[0], 4, ncclFloat, ncclSum, comms[0], s[0]),
               ncclInvalidArgument, "sendbuff");
    expect_err("small recvbuff", ncclAllReduce(buf[0], small, 8, ncclFloat, ncclSum, comms[0], s[0]),
               ncclInvalidArgument, "recvbuff of rank 0 is too small for 32 bytes");
    expect_err("small allgather", ncclAllGather(buf[0], buf[0] + 250, 4, ncclFloat, comms[0], s[0]),
               ncclInvalidArgument, "recvbuff of rank 0 is too small");
    expect_err("other device", ncclAllReduce(buf[1], buf[0], 4, ncclFloat, ncclSum, comms[0], s[0]),
               ncclInvalidArgument, "lies on device 1");

    cudaStream_t cap;
    cudaGraph_t g;
    CHECK(cudaStreamCreate(&cap));
    CHECK(cudaStreamBeginCapture(cap, cudaStreamCaptureModeThreadLocal));
    expect_err("captured stream", ncclAllReduce(buf[0], buf[0], 4, ncclFloat, ncclSum, comms[0], cap),
               ncclInvalidUsage, "captured into a CUDA graph");
    CHECK(cudaStreamEndCapture(cap, &g));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(cap));

    ncclRedOp_t op;
    double two = 2;
    NCCLCHECK(ncclRedOpCreatePreMulSum(&op, &two, ncclDouble, ncclScalarHostImmediate, comms[0]));
    expect_err("premul type", ncclAllReduce(buf[0], buf[0], 4, ncclFloat, op, comms[0], s[0]),
               ncclInvalidArgument, "created for ncclFloat64, used with ncclFloat32");
    NCCLCHECK(ncclRedOpDestroy(op, comms[0]));
    expect_err("destroyed op", ncclRedOpDestroy(op, comms[0]), ncclInvalidArgument, "destroyed already");
    expect_err("built-in op destroy", ncclRedOpDestroy(ncclSum, comms[0]), ncclInvalidArgument, nullptr);

    ncclConfig_t bad = NCCL_CONFIG_INITIALIZER;
    bad.magic = 0;
    ncclUniqueId id;
    ncclComm_t c;
    NCCLCHECK(ncclGetUniqueId(&id));
    expect_err("bad config", ncclCommInitRankConfig(&c, 2, id, 0, &bad), ncclInvalidArgument,
               "NCCL_CONFIG_INITIALIZER");
    expect_err("rank 2 of 2", ncclCommInitRank(&c, 2, id, 2), ncclInvalidArgument, "rank 2 is not in");
    int devs[2] = {0, 5};
    ncclComm_t two_comms[2];
    expect_err("device 5", ncclCommInitAll(two_comms, 2, devs), ncclInvalidArgument,
               "device 5 (devlist[1]) does not exist");
    expect_err("group end", ncclGroupEnd(), ncclInvalidUsage, "without a matching ncclGroupStart");
    ncclComm_t shrunk;
    expect_err("shrink", ncclCommShrink(comms[0], nullptr, 0, &shrunk, nullptr, NCCL_SHRINK_DEFAULT),
               ncclInvalidUsage, "ncclCommShrink is not implemented");

    // nothing above broke the communicators: a real AllReduce
    float h[4] = {1, 2, 3, 4};
    for (int r = 0; r < N; r++)
        CHECK(cudaMemcpy(buf[r], h, sizeof h, cudaMemcpyHostToDevice));

    // a simulated group runs nothing: 2 ranks, 16 bytes, 2 * (1/2) * 16
    // bytes over 450 GB/s
    ncclSimInfo_t sim = NCCL_SIM_INFO_INITIALIZER;
    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclAllReduce(buf[r], buf[r] + 8, 4, ncclFloat, ncclSum, comms[r], s[r]));
    NCCLCHECK(ncclGroupSimulateEnd(&sim));
    double want_us = 16.0 / 450e9 * 1e6;
    if (sim.estimatedTime < want_us * 0.999 || sim.estimatedTime > want_us * 1.001) {
        fprintf(stderr, "FAIL simulated time %g us, expected %g\n", sim.estimatedTime, want_us);
        failures++;
    }

    NCCLCHECK(ncclGroupStart());
    for (int r = 0; r < N; r++) {
        NCCLCHECK(ncclAllReduce(buf[r], buf[r] + 4, 4, ncclFloat, ncclSum, comms[r], s[r]));
        NCCLCHECK(ncclAllReduce(nullptr, nullptr, 0, ncclFloat, ncclSum, comms[r], s[r]));
    }
    NCCLCHECK(ncclGroupEnd());
    for (int r = 0; r < N; r++)
        CHECK(cudaStreamSynchronize(s[r]));   // the copy below is on another stream
    float out[12];
    CHECK(cudaMemcpy(out, buf[1], sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4; i++) {
        expect_eq("allreduce after errors", i, 2 * h[i], out[4 + i]);
        expect_eq("untouched by the simulated group", i, 0.0f, out[8 + i]);
    }
    ncclResult_t async;
    NCCLCHECK(ncclCommGetAsyncError(comms[0], &async));
    expect_eq("async error", 0, (int)ncclSuccess, (int)async);

    for (int r = 0; r < N; r++)
        NCCLCHECK(ncclCommDestroy(comms[r]));
    free(host);
    if (failures)
        return 1;
    printf("ok nccl_errors\n");
    return 0;
}
