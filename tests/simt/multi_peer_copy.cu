// gpus: 3
// Copies between devices, with and without peer access (copies never need
// it): cudaMemcpyPeer, cudaMemcpyPeerAsync on a stream of either device,
// cudaMemcpy with cudaMemcpyDefault and cudaMemcpyDeviceToDevice across
// devices (unified addressing), cudaStreamGetDevice, a ring of kernels each on its own device
// ordered by events recorded on one device and waited for by a stream of
// the next; the errors CUDA gives for launching into another device's
// stream, recording an event on another device's stream, timing events of
// two devices, and naming a device that does not exist.
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"

#define NDEV 3
#define N 4096

__global__ void scale_add(int *dst, const int *src, int mul, int add, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = src[i] * mul + add;
}

static int host_in[N], host_out[N];

static void expect_all(const char *what, const int *got, long mul, long add)
{
    for (int i = 0; i < N; i++)
        expect_eq(what, i, (int)(host_in[i] * mul + add), got[i]);
}

int main(void)
{
    for (int i = 0; i < N; i++)
        host_in[i] = (i * 37) % 1001 - 500;

    int *buf[NDEV];
    cudaStream_t st[NDEV];
    cudaEvent_t ev[NDEV];
    for (int d = 0; d < NDEV; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaMalloc(&buf[d], N * sizeof(int)));
        CHECK(cudaStreamCreate(&st[d]));
        CHECK(cudaEventCreate(&ev[d]));
    }
    CHECK(cudaSetDevice(0));
    CHECK(cudaMemcpy(buf[0], host_in, sizeof host_in, cudaMemcpyHostToDevice));
    for (int d = 0; d < NDEV; d++) {
        int sd = -1;
        CHECK(cudaStreamGetDevice(st[d], &sd));
        expect_eq("stream's device", d, d, sd);
    }

    // peer copies without peer access, from a third device as current
    CHECK(cudaSetDevice(2));
    CHECK(cudaMemcpyPeer(buf[1], 1, buf[0], 0, N * sizeof(int)));
    CHECK(cudaMemcpy(host_out, buf[1], sizeof host_out, cudaMemcpyDeviceToHost));
    expect_all("cudaMemcpyPeer 0->1", host_out, 1, 0);

    // async on a stream of the source device, then of the destination
    CHECK(cudaMemsetAsync(buf[2], 0, N * sizeof(int), st[2]));
    CHECK(cudaStreamSynchronize(st[2]));   // else the two writes race
    CHECK(cudaMemcpyPeerAsync(buf[2], 2, buf[1], 1, N * sizeof(int), st[1]));
    CHECK(cudaStreamSynchronize(st[1]));
    CHECK(cudaMemcpy(host_out, buf[2], sizeof host_out, cudaMemcpyDefault));
    expect_all("cudaMemcpyPeerAsync 1->2", host_out, 1, 0);

    // plain copies across devices: Default and DeviceToDevice, half each
    CHECK(cudaSetDevice(0));
    CHECK(cudaMemset(buf[0], 0, N * sizeof(int)));
    CHECK(cudaMemcpy(buf[0], buf[2], N / 2 * sizeof(int), cudaMemcpyDefault));
    CHECK(cudaMemcpyAsync(buf[0] + N / 2, buf[1] + N / 2, N / 2 * sizeof(int),
                          cudaMemcpyDeviceToDevice, st[0]));
    CHECK(cudaStreamSynchronize(st[0]));
    CHECK(cudaMemcpy(host_out, buf[0], sizeof host_out, cudaMemcpyDeviceToHost));
    expect_all("cudaMemcpy across devices", host_out, 1, 0);

    // a ring: device d computes from its own buffer, its result moves to
    // device d+1 by a peer copy on d+1's stream once d's event has fired
    int *tmp[NDEV];
    for (int d = 0; d < NDEV; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaMalloc(&tmp[d], N * sizeof(int)));
    }
    long mul = 1, add = 0;
    for (int d = 0; d < NDEV; d++) {
        int next = (d + 1) % NDEV;
        CHECK(cudaSetDevice(d));
        scale_add<<<N / 256, 256, 0, st[d]>>>(tmp[d], buf[d], 3, d + 1, N);
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(ev[d], st[d]));
        mul *= 3;
        add = add * 3 + d + 1;
        CHECK(cudaSetDevice(next));
        CHECK(cudaStreamWaitEvent(st[next], ev[d], 0));
        CHECK(cudaMemcpyPeerAsync(buf[next], next, tmp[d], d, N * sizeof(int), st[next]));
        CHECK(cudaEventSynchronize(ev[d]));
    }
    CHECK(cudaSetDevice(0));
    CHECK(cudaStreamSynchronize(st[0]));
    CHECK(cudaMemcpy(host_out, buf[0], sizeof host_out, cudaMemcpyDeviceToHost));
    expect_all("ring of kernels", host_out, mul, add);

    // errors as CUDA gives them
    CHECK(cudaSetDevice(0));
    scale_add<<<1, 32, 0, st[1]>>>(tmp[0], buf[0], 1, 0, 32);
    expect_eq("launch into another device's stream", 0L,
              (int)cudaErrorInvalidResourceHandle, (int)cudaGetLastError());
    expect_eq("record on another device's stream", 0L,
              (int)cudaErrorInvalidResourceHandle, (int)cudaEventRecord(ev[0], st[1]));
    expect_eq("record on the null stream of another device", 0L,
              (int)cudaErrorInvalidResourceHandle, (int)cudaEventRecord(ev[1], 0));
    cudaGetLastError();
    CHECK(cudaEventRecord(ev[0], st[0]));
    CHECK(cudaSetDevice(1));
    CHECK(cudaEventRecord(ev[1], st[1]));
    float ms = -1;
    expect_eq("elapsed time across devices", 0L, (int)cudaErrorInvalidResourceHandle,
              (int)cudaEventElapsedTime(&ms, ev[0], ev[1]));
    expect_eq("peer copy from device 3", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaMemcpyPeer(buf[0], 0, buf[1], NDEV, 16));
    expect_eq("peer copy to device -1", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaMemcpyPeer(buf[0], -1, buf[1], 1, 16));
    cudaGetLastError();
    // the device the launch goes to is the current one, whatever the data
    scale_add<<<1, 32, 0, st[1]>>>(tmp[1], buf[1], 1, 0, 32);
    CHECK(cudaGetLastError());

    for (int d = 0; d < NDEV; d++) {
        CHECK(cudaSetDevice(d));
        CHECK(cudaFree(buf[d]));
        CHECK(cudaFree(tmp[d]));
        CHECK(cudaStreamDestroy(st[d]));
        CHECK(cudaEventDestroy(ev[d]));
    }
    if (failures)
        return 1;
    printf("ok multi_peer_copy\n");
    return 0;
}
