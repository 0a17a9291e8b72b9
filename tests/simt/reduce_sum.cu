// The classic reduction: a grid-stride loop accumulating two elements per
// step, a shared-memory tree down to one warp, then __shfl_down_sync for the
// last 32 values; one partial sum per block, reduced by a second single-block
// launch. Done for int (exact) and for integer-valued floats (exact in any
// order), on a size that is not a multiple of anything.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { THREADS = 256, BLOCKS = 12 };
#define FULL 0xffffffffu

template <typename T>
__device__ T warp_sum(T v)
{
    for (int off = 16; off > 0; off /= 2)
        v += __shfl_down_sync(FULL, v, off);
    return v;
}

template <typename T>
__global__ void reduce(const T *in, T *partial, int n)
{
    __shared__ T s[THREADS];
    int t = threadIdx.x;
    T acc = 0;
    for (int i = blockIdx.x * THREADS * 2 + t; i < n; i += gridDim.x * THREADS * 2) {
        acc += in[i];
        if (i + THREADS < n)
            acc += in[i + THREADS];
    }
    s[t] = acc;
    __syncthreads();
    for (int stride = THREADS / 2; stride >= 32; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t < 32) {
        T v = warp_sum(s[t]);
        if (t == 0)
            partial[blockIdx.x] = v;
    }
}

template <typename T>
static int run(const char *what, int n)
{
    T *h = new T[n];
    double want = 0;
    for (int i = 0; i < n; i++) {
        h[i] = (T)((i * 7919) % 201 - 100);
        want += (double)h[i];
    }
    T *d_in, *d_partial, *d_total, total;
    CHECK(cudaMalloc(&d_in, n * sizeof(T)));
    CHECK(cudaMalloc(&d_partial, BLOCKS * sizeof(T)));
    CHECK(cudaMalloc(&d_total, sizeof(T)));
    CHECK(cudaMemcpy(d_in, h, n * sizeof(T), cudaMemcpyHostToDevice));
    reduce<T><<<BLOCKS, THREADS>>>(d_in, d_partial, n);
    CHECK(cudaGetLastError());
    reduce<T><<<1, THREADS>>>(d_partial, d_total, BLOCKS);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&total, d_total, sizeof(T), cudaMemcpyDeviceToHost));
    expect_eq(what, n, (T)want, total);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_partial));
    CHECK(cudaFree(d_total));
    delete[] h;
    return 0;
}

int main(void)
{
    if (run<int>("reduce int n=50001", 50001) || run<float>("reduce float n=30011", 30011) ||
        run<int>("reduce int n=1", 1) || run<int>("reduce int n=257", 257))
        return 1;
    if (failures)
        return 1;
    printf("ok reduce_sum\n");
    return 0;
}
