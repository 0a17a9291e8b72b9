// Single-pass reduction with __threadfence: every block writes its partial
// sum, fences, and takes a ticket with atomicInc; the block that draws the
// last ticket adds up all partials (read through volatile). atomicInc's
// wraparound resets the ticket counter, so a second launch works without
// any reset from the host.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 128, BLOCKS = 10 };

__device__ unsigned tickets;

__global__ void fenced_sum(const int *in, int n, volatile int *partial, int *result)
{
    __shared__ int s[THREADS];
    __shared__ bool last;
    int t = threadIdx.x;
    int acc = 0;
    for (int i = blockIdx.x * THREADS + t; i < n; i += gridDim.x * THREADS)
        acc += in[i];
    s[t] = acc;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = s[0];
        __threadfence();
        unsigned ticket = atomicInc(&tickets, gridDim.x - 1);
        last = ticket == gridDim.x - 1;
    }
    __syncthreads();
    if (!last)
        return;
    int v = 0;
    for (int b = t; b < (int)gridDim.x; b += THREADS)
        v += partial[b];
    s[t] = v;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        *result = s[0];
}

static int run(int n, int *d_partial, int *d_result)
{
    int *h = new int[n], *d_in, got = 0;
    long long want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (i * 613) % 1001 - 500;
        want += h[i];
    }
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_result, 0xff, sizeof(int)));
    fenced_sum<<<BLOCKS, THREADS>>>(d_in, n, d_partial, d_result);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&got, d_result, sizeof got, cudaMemcpyDeviceToHost));
    expect_eq("fenced single-pass sum", n, (int)want, got);
    unsigned left = 1;
    CHECK(cudaMemcpyFromSymbol(&left, tickets, sizeof left));
    expect_eq("ticket counter wrapped to 0", n, 0u, left);
    CHECK(cudaFree(d_in));
    delete[] h;
    return 0;
}

int main(void)
{
    int *d_partial, *d_result;
    CHECK(cudaMalloc(&d_partial, BLOCKS * sizeof(int)));
    CHECK(cudaMalloc(&d_result, sizeof(int)));
    unsigned zero = 0;
    CHECK(cudaMemcpyToSymbol(tickets, &zero, sizeof zero));
    if (run(20000, d_partial, d_result) || run(777, d_partial, d_result))
        return 1;
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_result));
    if (failures)
        return 1;
    printf("ok threadfence_lastblock\n");
    return 0;
}
