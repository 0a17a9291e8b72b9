// Streams and events: two streams each running an async upload, two
// dependent kernels and an async download from pinned memory; a third stream
// that waits (cudaStreamWaitEvent) for an event recorded after a kernel in
// another stream and then reads that kernel's output; events with timing
// (cudaEventElapsedTime > 0 around a kernel with a long dependent loop);
// cudaStreamQuery/cudaEventQuery after synchronising; a non-blocking stream.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { N = 2048, THREADS = 128 };

__global__ void scale_add(const int *in, int *out, int mul, int add, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * mul + add;
}

__global__ void square_inplace(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] * v[i] % 100003;
}

// A long chain of dependent integer operations, so the timed region is
// comfortably longer than the event timer's resolution.
__global__ void spin(unsigned *out, int iters)
{
    unsigned x = threadIdx.x + 1;
    for (int k = 0; k < iters; k++)
        x = x * 1664525u + 1013904223u;
    out[threadIdx.x] = x;
}

static unsigned host_spin(unsigned x, int iters)
{
    for (int k = 0; k < iters; k++)
        x = x * 1664525u + 1013904223u;
    return x;
}

int main(void)
{
    const int blocks = (N + THREADS - 1) / THREADS, spin_iters = 3000;
    int *h_in[2], *h_out[2], *h_x;
    for (int s = 0; s < 2; s++) {
        CHECK(cudaMallocHost(&h_in[s], N * sizeof(int)));
        CHECK(cudaMallocHost(&h_out[s], N * sizeof(int)));
        for (int i = 0; i < N; i++) {
            h_in[s][i] = (i * 7 + s * 1000) % 5003;
            h_out[s][i] = -1;
        }
    }
    CHECK(cudaMallocHost(&h_x, N * sizeof(int)));
    int *d_in[2], *d_mid[2], *d_x;
    unsigned *d_spin;
    for (int s = 0; s < 2; s++) {
        CHECK(cudaMalloc(&d_in[s], N * sizeof(int)));
        CHECK(cudaMalloc(&d_mid[s], N * sizeof(int)));
    }
    CHECK(cudaMalloc(&d_x, N * sizeof(int)));
    CHECK(cudaMalloc(&d_spin, 32 * sizeof(unsigned)));

    cudaStream_t st[2], waiter;
    CHECK(cudaStreamCreate(&st[0]));
    CHECK(cudaStreamCreate(&st[1]));
    CHECK(cudaStreamCreateWithFlags(&waiter, cudaStreamNonBlocking));
    cudaEvent_t start, stop, produced;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&produced, cudaEventDisableTiming));

    CHECK(cudaEventRecord(start, st[0]));
    for (int s = 0; s < 2; s++) {
        CHECK(cudaMemcpyAsync(d_in[s], h_in[s], N * sizeof(int), cudaMemcpyHostToDevice, st[s]));
        scale_add<<<blocks, THREADS, 0, st[s]>>>(d_in[s], d_mid[s], 3 + s, 11 - s, N);
        CHECK(cudaGetLastError());
        square_inplace<<<blocks, THREADS, 0, st[s]>>>(d_mid[s], N);
        CHECK(cudaGetLastError());
    }
    spin<<<1, 32, 0, st[0]>>>(d_spin, spin_iters);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, st[0]));
    CHECK(cudaEventRecord(produced, st[1]));
    // The waiter stream may only start once stream 1's kernels are done.
    CHECK(cudaStreamWaitEvent(waiter, produced, 0));
    scale_add<<<blocks, THREADS, 0, waiter>>>(d_mid[1], d_x, 2, 1, N);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(h_x, d_x, N * sizeof(int), cudaMemcpyDeviceToHost, waiter));
    for (int s = 0; s < 2; s++)
        CHECK(cudaMemcpyAsync(h_out[s], d_mid[s], N * sizeof(int), cudaMemcpyDeviceToHost, st[s]));

    CHECK(cudaStreamSynchronize(st[0]));
    CHECK(cudaStreamSynchronize(st[1]));
    CHECK(cudaStreamSynchronize(waiter));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaStreamQuery(st[0]));
    CHECK(cudaStreamQuery(waiter));
    CHECK(cudaEventQuery(stop));
    CHECK(cudaEventQuery(produced));

    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (!(ms > 0.0f)) {
        fprintf(stderr, "FAIL cudaEventElapsedTime 0 expected >0 got %g\n", ms);
        failures++;
    }

    for (int s = 0; s < 2; s++)
        for (int i = 0; i < N; i++) {
            long long v = (long long)h_in[s][i] * (3 + s) + (11 - s);
            int want = (int)(v * v % 100003);
            expect_eq(s ? "stream 1 result" : "stream 0 result", i, want, h_out[s][i]);
            if (s == 1)
                expect_eq("waiter stream result", i, want * 2 + 1, h_x[i]);
        }
    unsigned h_spin[32];
    CHECK(cudaMemcpy(h_spin, d_spin, sizeof h_spin, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        expect_eq("spin", t, host_spin((unsigned)t + 1, spin_iters), h_spin[t]);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(produced));
    CHECK(cudaStreamDestroy(st[0]));
    CHECK(cudaStreamDestroy(st[1]));
    CHECK(cudaStreamDestroy(waiter));
    for (int s = 0; s < 2; s++) {
        CHECK(cudaFreeHost(h_in[s]));
        CHECK(cudaFreeHost(h_out[s]));
        CHECK(cudaFree(d_in[s]));
        CHECK(cudaFree(d_mid[s]));
    }
    CHECK(cudaFreeHost(h_x));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_spin));
    if (failures)
        return 1;
    printf("ok streams_events\n");
    return 0;
}
