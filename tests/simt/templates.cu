// Templates: one kernel template instantiated for int, float and double; a
// kernel with a non-type template parameter that sizes a shared array and
// an unrolled loop; a functor type parameter; and a templated __device__
// function called with explicit and deduced template arguments.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

template <typename T>
__global__ void axpby(T a, const T *x, T b, T *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + b * y[i];
}

template <typename T>
__device__ T clamp_to(T v, T lo, T hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

// Each block sums BLOCK elements through shared memory, then adds a
// fully unrolled weighted tail of WIDTH elements.
template <int BLOCK, int WIDTH>
__global__ void block_sum(const int *in, int *out)
{
    __shared__ int s[BLOCK];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * BLOCK + t];
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) {
        int tail = 0;
#pragma unroll
        for (int k = 0; k < WIDTH; k++)
            tail += (k + 1) * in[blockIdx.x * BLOCK + k];
        out[blockIdx.x] = s[0] + tail;
    }
}

struct Square {
    __device__ long long operator()(int v) const { return (long long)v * v; }
};
struct Affine {
    int m, c;
    __device__ long long operator()(int v) const { return (long long)m * v + c; }
};

template <typename F>
__global__ void apply(F f, const int *in, long long *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = f(in[i]) + clamp_to<long long>(in[i], -10, 10) + clamp_to(in[i] % 7, 0, 3);
}

template <typename T>
static int run_axpby(const char *what, T a, T b)
{
    const int n = 300;
    T x[n], y[n], got[n];
    for (int i = 0; i < n; i++) {
        x[i] = (T)(i % 17 - 8);
        y[i] = (T)(3 * (i % 11) - 5);
    }
    T *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, sizeof x));
    CHECK(cudaMalloc(&d_y, sizeof y));
    CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y, sizeof y, cudaMemcpyHostToDevice));
    axpby<T><<<(n + 127) / 128, 128>>>(a, d_x, b, d_y, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, d_y, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_eq(what, i, (T)(a * x[i] + b * y[i]), got[i]);
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    return 0;
}

template <int BLOCK, int WIDTH>
static int run_block_sum(const char *what)
{
    const int blocks = 3, n = blocks * BLOCK;
    int in[n], out[blocks];
    for (int i = 0; i < n; i++)
        in[i] = (i * 13) % 29 - 14;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    block_sum<BLOCK, WIDTH><<<blocks, BLOCK>>>(d_in, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int want = 0;
        for (int k = 0; k < BLOCK; k++)
            want += in[b * BLOCK + k];
        for (int k = 0; k < WIDTH; k++)
            want += (k + 1) * in[b * BLOCK + k];
        expect_eq(what, b, want, out[b]);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

template <typename F, typename H>
static int run_apply(const char *what, F f, H host_f)
{
    const int n = 100;
    int in[n];
    long long out[n];
    for (int i = 0; i < n; i++)
        in[i] = i * 37 % 61 - 30;
    int *d_in;
    long long *d_out;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    apply<<<1, 128>>>(f, d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        long long v = in[i], r = in[i] % 7;
        long long want = host_f(v) + (v < -10 ? -10 : v > 10 ? 10 : v) + (r < 0 ? 0 : r > 3 ? 3 : r);
        expect_eq(what, i, want, out[i]);
    }
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

static long long host_square(long long v)
{
    return v * v;
}

static long long host_affine(long long v)
{
    return -3 * v + 11;
}

int main(void)
{
    if (run_axpby<int>("axpby<int>", 3, -2) || run_axpby<float>("axpby<float>", 0.5f, 2.0f) ||
        run_axpby<double>("axpby<double>", -1.25, 0.75))
        return 1;
    if (run_block_sum<64, 4>("block_sum<64,4>") || run_block_sum<128, 9>("block_sum<128,9>"))
        return 1;
    if (run_apply("apply<Square>", Square(), host_square) ||
        run_apply("apply<Affine>", Affine{-3, 11}, host_affine))
        return 1;
    if (failures)
        return 1;
    printf("ok templates\n");
    return 0;
}
