// Capture states and a call a capture forbids: cudaStreamIsCapturing and
// cudaStreamGetCaptureInfo before, during and after a capture;
// synchronising a capturing stream fails with
// cudaErrorStreamCaptureUnsupported and invalidates the capture, whose end
// then fails with cudaErrorStreamCaptureInvalidated and no graph, leaving
// the stream usable.  A thread in relaxed mode may allocate during a
// capture.  Exits 0 only when each call gives exactly the documented
// result.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

__global__ void set(int *p, int v)
{
    *p = v;
}

int main(void)
{
    int *d_p, h = 0;
    cudaStream_t s;
    cudaGraph_t g;
    cudaGraphExec_t exec;
    cudaStreamCaptureStatus st;
    unsigned long long id = 0;
    cudaGraph_t in_progress = NULL;
    const cudaGraphNode_t *deps = NULL;
    size_t ndeps = 99;

    CHECK(cudaMalloc(&d_p, sizeof(int)));
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    CHECK(cudaStreamIsCapturing(s, &st));
    expect_eq("before", 0, (int)cudaStreamCaptureStatusNone, (int)st);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaStreamIsCapturing(s, &st));
    expect_eq("during", 0, (int)cudaStreamCaptureStatusActive, (int)st);
    CHECK(cudaStreamGetCaptureInfo(s, &st, &id, &in_progress, &deps, NULL, &ndeps));
    expect_eq("info status", 0, (int)cudaStreamCaptureStatusActive, (int)st);
    expect_eq("info has an id", 0, 1, id != 0 ? 1 : 0);
    expect_eq("info has the graph", 0, 1, in_progress != NULL ? 1 : 0);
    expect_eq("no dependencies yet", 0, (size_t)0, ndeps);
    set<<<1, 1, 0, s>>>(d_p, 41);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL, &ndeps));
    expect_eq("one dependency after a launch", 0, (size_t)1, ndeps);

    // Forbidden: synchronising the capturing stream.
    cudaError_t e = cudaStreamSynchronize(s);
    expect_eq("synchronize during capture", 0,
              (int)cudaErrorStreamCaptureUnsupported, (int)e);
    CHECK(cudaStreamIsCapturing(s, &st));
    expect_eq("invalidated", 0, (int)cudaStreamCaptureStatusInvalidated, (int)st);
    g = (cudaGraph_t)&g;
    e = cudaStreamEndCapture(s, &g);
    expect_eq("end of an invalidated capture", 0,
              (int)cudaErrorStreamCaptureInvalidated, (int)e);
    expect_eq("no graph", 0, 1, g == NULL ? 1 : 0);
    (void)cudaGetLastError();
    CHECK(cudaStreamIsCapturing(s, &st));
    expect_eq("after", 0, (int)cudaStreamCaptureStatusNone, (int)st);
    CHECK(cudaMemcpy(&h, d_p, sizeof h, cudaMemcpyDeviceToHost));
    expect_eq("the captured kernel never ran", 0, 0, h == 41 ? 1 : 0);

    // The stream captures again, and a relaxed thread may allocate meanwhile.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    set<<<1, 1, 0, s>>>(d_p, 42);
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    expect_eq("previous mode", 0, (int)cudaStreamCaptureModeGlobal, (int)mode);
    int *d_q = NULL;
    CHECK(cudaMalloc(&d_q, sizeof(int)));
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(&h, d_p, sizeof h, cudaMemcpyDeviceToHost));
    expect_eq("replayed", 0, 42, h);

    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(d_q));
    CHECK(cudaFree(d_p));
    CHECK(cudaStreamDestroy(s));
    if (failures)
        return 1;
    printf("ok graph_capture_errors\n");
    return 0;
}
