// __syncthreads inside loops: an iterative double-buffered stencil whose trip
// count differs per block, two tree reductions (sequential and interleaved
// addressing), a scan with two barriers per step, and a while loop whose
// condition reads a shared value that one thread updates between barriers.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { SN = 128, RN = 256, CN = 64 };

__global__ void stencil_iter(const int *in, int *out, int base_iters)
{
    __shared__ int a[SN + 2], b[SN + 2];
    int t = threadIdx.x, g = blockIdx.x * SN + t;
    a[t + 1] = in[g];
    if (t == 0) {
        a[0] = b[0] = blockIdx.x + 1;
        a[SN + 1] = b[SN + 1] = 7 * (blockIdx.x + 1);
    }
    __syncthreads();
    int iters = base_iters + 8 * blockIdx.x;
    int *src = a, *dst = b;
    for (int it = 0; it < iters; it++) {
        dst[t + 1] = (3 * src[t] + 5 * src[t + 1] + 7 * src[t + 2] + it) & 0xffff;
        __syncthreads();
        int *tmp = src;
        src = dst;
        dst = tmp;
    }
    out[g] = src[t + 1];
}

__global__ void tree_sum(const int *in, int *out)
{
    __shared__ int s[RN];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * RN + t];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

__global__ void tree_max_interleaved(const int *in, int *out)
{
    __shared__ int s[RN];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * RN + t];
    __syncthreads();
    for (int stride = 1; stride < blockDim.x; stride *= 2) {
        if (t % (2 * stride) == 0)
            s[t] = max(s[t], s[t + stride]);
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// In-place inclusive scan: read, barrier, write, barrier.
__global__ void scan_two_barriers(const int *in, int *out)
{
    __shared__ int s[RN];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * RN + t];
    __syncthreads();
    for (int off = 1; off < RN; off *= 2) {
        int v = t >= off ? s[t - off] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    out[blockIdx.x * RN + t] = s[t];
}

// Thread 0 walks a Collatz sequence in shared memory; every thread adds the
// current value times its own weight on each step.
__global__ void collatz_shared(const int *start, int *acc_out, int *steps_out)
{
    __shared__ int val, steps;
    int t = threadIdx.x;
    if (t == 0) {
        val = start[blockIdx.x];
        steps = 0;
    }
    __syncthreads();
    int acc = 0;
    while (val != 1) {
        acc += val * (t + 1);
        __syncthreads();
        if (t == 0) {
            val = (val % 2) ? 3 * val + 1 : val / 2;
            steps++;
        }
        __syncthreads();
    }
    acc_out[blockIdx.x * blockDim.x + t] = acc;
    if (t == 0)
        steps_out[blockIdx.x] = steps;
}

static int check_stencil(void)
{
    const int blocks = 3, base = 20, n = blocks * SN;
    static int h_in[n], h_out[n];
    for (int i = 0; i < n; i++)
        h_in[i] = (i * 7919) & 0xffff;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    stencil_iter<<<blocks, SN>>>(d_in, d_out, base);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int cur[SN + 2], nxt[SN + 2];
        cur[0] = nxt[0] = b + 1;
        cur[SN + 1] = nxt[SN + 1] = 7 * (b + 1);
        for (int t = 0; t < SN; t++)
            cur[t + 1] = h_in[b * SN + t];
        for (int it = 0; it < base + 8 * b; it++) {
            for (int t = 0; t < SN; t++)
                nxt[t + 1] = (3 * cur[t] + 5 * cur[t + 1] + 7 * cur[t + 2] + it) & 0xffff;
            for (int t = 0; t < SN; t++)
                cur[t + 1] = nxt[t + 1];
        }
        for (int t = 0; t < SN; t++)
            expect_eq("stencil", b * SN + t, cur[t + 1], h_out[b * SN + t]);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

static int check_trees(void)
{
    const int blocks = 4, n = blocks * RN;
    static int h_in[n], h_scan[n];
    int h_sum[blocks], h_max[blocks];
    unsigned x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        h_in[i] = (int)((x >> 8) % 20001) - 10000;
    }
    int *d_in, *d_sum, *d_max, *d_scan;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_scan, sizeof h_scan));
    CHECK(cudaMalloc(&d_sum, sizeof h_sum));
    CHECK(cudaMalloc(&d_max, sizeof h_max));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    tree_sum<<<blocks, RN>>>(d_in, d_sum);
    CHECK(cudaGetLastError());
    tree_max_interleaved<<<blocks, RN>>>(d_in, d_max);
    CHECK(cudaGetLastError());
    scan_two_barriers<<<blocks, RN>>>(d_in, d_scan);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_sum, d_sum, sizeof h_sum, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_max, d_max, sizeof h_max, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_scan, d_scan, sizeof h_scan, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int sum = 0, mx = h_in[b * RN];
        for (int t = 0; t < RN; t++) {
            int v = h_in[b * RN + t];
            sum += v;
            mx = v > mx ? v : mx;
            expect_eq("scan_two_barriers", b * RN + t, sum, h_scan[b * RN + t]);
        }
        expect_eq("tree_sum", b, sum, h_sum[b]);
        expect_eq("tree_max_interleaved", b, mx, h_max[b]);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_scan));
    CHECK(cudaFree(d_sum));
    CHECK(cudaFree(d_max));
    return 0;
}

static int check_collatz(void)
{
    const int blocks = 3;
    int h_start[blocks] = {27, 97, 7};
    int h_acc[blocks * CN], h_steps[blocks];
    int *d_start, *d_acc, *d_steps;
    CHECK(cudaMalloc(&d_start, sizeof h_start));
    CHECK(cudaMalloc(&d_acc, sizeof h_acc));
    CHECK(cudaMalloc(&d_steps, sizeof h_steps));
    CHECK(cudaMemcpy(d_start, h_start, sizeof h_start, cudaMemcpyHostToDevice));
    collatz_shared<<<blocks, CN>>>(d_start, d_acc, d_steps);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_acc, d_acc, sizeof h_acc, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_steps, d_steps, sizeof h_steps, cudaMemcpyDeviceToHost));
    const int known_steps[blocks] = {111, 118, 16};
    for (int b = 0; b < blocks; b++) {
        int v = h_start[b], steps = 0, total = 0;
        while (v != 1) {
            total += v;
            v = (v % 2) ? 3 * v + 1 : v / 2;
            steps++;
        }
        expect_eq("collatz steps (reference)", b, known_steps[b], steps);
        expect_eq("collatz steps", b, steps, h_steps[b]);
        for (int t = 0; t < CN; t++)
            expect_eq("collatz acc", b * CN + t, total * (t + 1), h_acc[b * CN + t]);
    }
    CHECK(cudaFree(d_start));
    CHECK(cudaFree(d_acc));
    CHECK(cudaFree(d_steps));
    return 0;
}

int main(void)
{
    if (check_stencil() || check_trees() || check_collatz())
        return 1;
    if (failures)
        return 1;
    printf("ok barrier_loops\n");
    return 0;
}
