// gpus: 2
// Peer access: cudaDeviceCanAccessPeer (1 between distinct devices, 0 for a
// device and itself), cudaDeviceEnablePeerAccess / DisablePeerAccess and
// their errors (already enabled, not enabled, the device itself, a device
// that does not exist, non-zero flags), cudaDeviceGetP2PAttribute, then
// kernels on device 1 that read,
// write and atomically update device 0's memory once peer access is on, a
// kernel on device 0 reading pinned host memory and memory of device 1
// through peer access in the other direction, and cudaDeviceReset of one
// device leaving the other's memory in place.
#include <cstdio>
#include <cuda_runtime.h>

#include "check.h"

#define N 2048

// out[i] = in[i] * 2 on this device, from a peer's input; counts into a
// peer's counter with atomics
__global__ void twice_and_count(int *out, const int *in, unsigned *count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = in[i] * 2;
        if (in[i] % 3 == 0)
            atomicAdd(count, 1u);
    }
}

__global__ void add_into(int *dst, const int *a, const int *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] = a[i] + b[i];
}

int main(void)
{
    int can = -1;
    CHECK(cudaDeviceCanAccessPeer(&can, 0, 1));
    expect_eq("can 0->1", 0L, 1, can);
    CHECK(cudaDeviceCanAccessPeer(&can, 1, 0));
    expect_eq("can 1->0", 0L, 1, can);
    CHECK(cudaDeviceCanAccessPeer(&can, 1, 1));
    expect_eq("can 1->1", 0L, 0, can);
    expect_eq("can 0->2", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaDeviceCanAccessPeer(&can, 0, 2));
    cudaGetLastError();
    int attr = -1;
    CHECK(cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, 0, 1));
    expect_eq("P2P access supported", 0L, 1, attr);
    expect_eq("P2P attribute of a device and itself", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, 1, 1));
    cudaGetLastError();

    CHECK(cudaSetDevice(1));
    expect_eq("enable self", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaDeviceEnablePeerAccess(1, 0));
    expect_eq("enable device 2", 0L, (int)cudaErrorInvalidDevice,
              (int)cudaDeviceEnablePeerAccess(2, 0));
    expect_eq("enable with flags", 0L, (int)cudaErrorInvalidValue,
              (int)cudaDeviceEnablePeerAccess(0, 1));
    expect_eq("disable before enable", 0L, (int)cudaErrorPeerAccessNotEnabled,
              (int)cudaDeviceDisablePeerAccess(0));
    cudaGetLastError();
    CHECK(cudaDeviceEnablePeerAccess(0, 0));
    expect_eq("enable twice", 0L, (int)cudaErrorPeerAccessAlreadyEnabled,
              (int)cudaDeviceEnablePeerAccess(0, 0));
    // a non-sticky error: the next call works
    expect_eq("last error", 0L, (int)cudaErrorPeerAccessAlreadyEnabled,
              (int)cudaGetLastError());
    expect_eq("cleared", 0L, (int)cudaSuccess, (int)cudaGetLastError());

    static int h_in[N], h_out[N];
    unsigned want_count = 0;
    for (int i = 0; i < N; i++) {
        h_in[i] = (i * 7919) % 4001 - 2000;
        if (h_in[i] % 3 == 0)
            want_count++;
    }
    int *in0, *out1;
    unsigned *count0;
    CHECK(cudaSetDevice(0));
    CHECK(cudaMalloc(&in0, N * sizeof(int)));
    CHECK(cudaMalloc(&count0, sizeof(unsigned)));
    CHECK(cudaMemcpy(in0, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(count0, 0, sizeof(unsigned)));
    CHECK(cudaSetDevice(1));
    CHECK(cudaMalloc(&out1, N * sizeof(int)));

    // device 1 reads device 0's input and updates device 0's counter
    twice_and_count<<<N / 128, 128>>>(out1, in0, count0, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, out1, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("peer read", i, h_in[i] * 2, h_out[i]);
    unsigned got_count = 0;
    CHECK(cudaMemcpy(&got_count, count0, sizeof got_count, cudaMemcpyDeviceToHost));
    expect_eq("peer atomics", 0L, want_count, got_count);

    // device 1 writes into device 0's memory
    add_into<<<N / 128, 128>>>(in0, out1, out1, N);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, in0, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("peer write", i, h_in[i] * 4, h_out[i]);

    // device 0 with peer access to 1 reads 1's memory and pinned memory
    int *pinned;
    CHECK(cudaSetDevice(0));
    CHECK(cudaMallocHost(&pinned, N * sizeof(int)));
    for (int i = 0; i < N; i++)
        pinned[i] = i;
    CHECK(cudaDeviceEnablePeerAccess(1, 0));
    add_into<<<N / 128, 128>>>(in0, out1, pinned, N);
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, in0, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("peer and pinned read", i, h_in[i] * 2 + i, h_out[i]);
    CHECK(cudaDeviceDisablePeerAccess(1));
    expect_eq("disable twice", 0L, (int)cudaErrorPeerAccessNotEnabled,
              (int)cudaDeviceDisablePeerAccess(1));
    cudaGetLastError();

    // resetting device 1 frees its memory and ends its peer access; device
    // 0's memory stays
    size_t free_before, free_after, total;
    CHECK(cudaSetDevice(1));
    CHECK(cudaMemGetInfo(&free_before, &total));
    CHECK(cudaDeviceReset());
    CHECK(cudaMemGetInfo(&free_after, &total));
    if (free_after < free_before + N * sizeof(int) && failures++ < 8)
        fprintf(stderr, "FAIL reset device 1 freed %lld bytes, expected at least %zu\n",
                (long long)free_after - (long long)free_before, N * sizeof(int));
    CHECK(cudaDeviceEnablePeerAccess(0, 0));
    CHECK(cudaSetDevice(0));
    CHECK(cudaMemcpy(h_out, in0, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        expect_eq("device 0 after reset of 1", i, h_in[i] * 2 + i, h_out[i]);

    CHECK(cudaFree(in0));
    CHECK(cudaFree(count0));
    CHECK(cudaFreeHost(pinned));
    if (failures)
        return 1;
    printf("ok multi_peer_access\n");
    return 0;
}
