// Inclusive prefix sum across many blocks in three launches: a
// double-buffered Hillis-Steele scan inside each block that also writes the
// block's total; a work-efficient Blelloch (up-sweep / down-sweep) exclusive
// scan of the block totals in one block; and a pass adding each block's
// offset. Checked on a size with a partial last block and on an exact
// multiple of the block size.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { B = 256, MAX_BLOCKS = 32 };

__global__ void block_scan(const int *in, int *out, int *sums, int n)
{
    __shared__ int buf[2][B];
    int t = threadIdx.x, g = blockIdx.x * B + t;
    int pout = 0, pin;
    buf[0][t] = g < n ? in[g] : 0;
    __syncthreads();
    for (int off = 1; off < B; off *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        buf[pout][t] = buf[pin][t] + (t >= off ? buf[pin][t - off] : 0);
        __syncthreads();
    }
    if (g < n)
        out[g] = buf[pout][t];
    if (t == B - 1)
        sums[blockIdx.x] = buf[pout][t];
}

// Exclusive scan of `len` (a power of two, at most 2 * blockDim.x) values.
__global__ void blelloch(int *data, int len)
{
    __shared__ int s[MAX_BLOCKS];
    int t = threadIdx.x;
    s[2 * t] = data[2 * t];
    s[2 * t + 1] = data[2 * t + 1];
    int offset = 1;
    for (int d = len / 2; d > 0; d /= 2) {
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        offset *= 2;
    }
    if (t == 0)
        s[len - 1] = 0;
    for (int d = 1; d < len; d *= 2) {
        offset /= 2;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            int tmp = s[ai];
            s[ai] = s[bi];
            s[bi] += tmp;
        }
    }
    __syncthreads();
    data[2 * t] = s[2 * t];
    data[2 * t + 1] = s[2 * t + 1];
}

__global__ void add_offsets(int *out, const int *offsets, int n)
{
    int g = blockIdx.x * B + threadIdx.x;
    if (g < n)
        out[g] += offsets[blockIdx.x];
}

static int run(int n)
{
    int blocks = (n + B - 1) / B;
    int *h_in = new int[n], *h_out = new int[n];
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 131) % 41 - 20;
    int *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMalloc(&d_sums, MAX_BLOCKS * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_sums, 0, MAX_BLOCKS * sizeof(int)));
    block_scan<<<blocks, B>>>(d_in, d_out, d_sums, n);
    CHECK(cudaGetLastError());
    blelloch<<<1, MAX_BLOCKS / 2>>>(d_sums, MAX_BLOCKS);
    CHECK(cudaGetLastError());
    add_offsets<<<blocks, B>>>(d_out, d_sums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int acc = 0;
    for (int i = 0; i < n; i++) {
        acc += h_in[i];
        expect_eq(n == 3000 ? "scan n=3000" : "scan n=1280", i, acc, h_out[i]);
    }
    int h_sums[MAX_BLOCKS];
    CHECK(cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost));
    int off = 0;
    for (int b = 0; b < MAX_BLOCKS; b++) {
        expect_eq("block offsets (exclusive scan of block totals)", b, off, h_sums[b]);
        for (int i = b * B; i < (b + 1) * B && i < n; i++)
            off += h_in[i];
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    delete[] h_in;
    delete[] h_out;
    return 0;
}

int main(void)
{
    if (run(3000) || run(1280))
        return 1;
    if (failures)
        return 1;
    printf("ok scan_multiblock\n");
    return 0;
}
