// Dynamic (extern) shared memory: one buffer carved into a float part and an
// int part, the same kernel launched with different sizes, an extern array of
// doubles, and 64 KiB of dynamic shared memory opted into with
// cudaFuncSetAttribute.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

extern __shared__ float dyn_f[];

// Shared layout: n floats, then n ints.
__global__ void rotate_mixed(const float *fin, const int *iin, float *out)
{
    int n = blockDim.x, t = threadIdx.x, base = blockIdx.x * n;
    float *f = dyn_f;
    int *ints = (int *)(dyn_f + n);
    f[t] = fin[base + t];
    ints[t] = iin[base + t];
    __syncthreads();
    out[base + t] = f[(t + 1) % n] + (float)ints[(t + 2) % n];
}

__global__ void mirror_double(const double *in, double *out)
{
    extern __shared__ double sd[];
    int n = blockDim.x, t = threadIdx.x;
    sd[t] = in[t];
    __syncthreads();
    out[t] = sd[n - 1 - t] * 2.0 - sd[t];
}

// Each thread fills `words` entries spread over the whole buffer, then sums
// the entries of its mirror thread.
__global__ void big_dynamic(unsigned *out, int words)
{
    extern __shared__ unsigned big[];
    int n = blockDim.x, t = threadIdx.x;
    for (int k = 0; k < words; k++)
        big[k * n + t] = (unsigned)(t * 131 + k * 7);
    __syncthreads();
    unsigned acc = 0;
    for (int k = 0; k < words; k++)
        acc += big[k * n + (n - 1 - t)] ^ (unsigned)k;
    out[t] = acc;
}

static int run_rotate(int n, int blocks)
{
    int total = n * blocks;
    float *h_f = new float[total], *h_out = new float[total];
    int *h_i = new int[total];
    for (int i = 0; i < total; i++) {
        h_f[i] = (float)(i % 97) * 0.5f;
        h_i[i] = 1000 - 3 * i;
    }
    float *d_f, *d_out;
    int *d_i;
    CHECK(cudaMalloc(&d_f, total * sizeof(float)));
    CHECK(cudaMalloc(&d_out, total * sizeof(float)));
    CHECK(cudaMalloc(&d_i, total * sizeof(int)));
    CHECK(cudaMemcpy(d_f, h_f, total * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_i, h_i, total * sizeof(int), cudaMemcpyHostToDevice));
    rotate_mixed<<<blocks, n, n * (sizeof(float) + sizeof(int))>>>(d_f, d_i, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, total * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++)
        for (int t = 0; t < n; t++) {
            float want = h_f[b * n + (t + 1) % n] + (float)h_i[b * n + (t + 2) % n];
            expect_eq(n == 64 ? "rotate_mixed n=64" : "rotate_mixed n=200", b * n + t,
                      want, h_out[b * n + t]);
        }
    CHECK(cudaFree(d_f));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_i));
    delete[] h_f;
    delete[] h_out;
    delete[] h_i;
    return 0;
}

static int run_mirror(void)
{
    const int n = 96;
    double h_in[n], h_out[n];
    for (int i = 0; i < n; i++)
        h_in[i] = i * 0.125 + 1e9;
    double *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    mirror_double<<<1, n, n * sizeof(double)>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t++)
        expect_eq("mirror_double", t, h_in[n - 1 - t] * 2.0 - h_in[t], h_out[t]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

static int run_big(void)
{
    const int threads = 256, bytes = 64 * 1024;
    const int words = bytes / (int)sizeof(unsigned) / threads;
    unsigned h_out[threads];
    unsigned *d_out;
    CHECK(cudaFuncSetAttribute(big_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               bytes));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    big_dynamic<<<1, threads, bytes>>>(d_out, words);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        unsigned want = 0;
        for (int k = 0; k < words; k++)
            want += (unsigned)((threads - 1 - t) * 131 + k * 7) ^ (unsigned)k;
        expect_eq("big_dynamic", t, want, h_out[t]);
    }
    CHECK(cudaFree(d_out));
    return 0;
}

int main(void)
{
    if (run_rotate(64, 2) || run_rotate(200, 3) || run_mirror() || run_big())
        return 1;
    if (failures)
        return 1;
    printf("ok shared_dynamic\n");
    return 0;
}
