// __constant__ memory: arrays filled with cudaMemcpyToSymbol (whole and at a
// byte offset, and asynchronously), a statically initialised constant array
// read without any copy, a constant struct, uniform and per-thread indexing,
// and cudaMemcpyFromSymbol reading a constant back.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

enum { TAPS = 9, TABLE = 64, N = 256 };

struct Params {
    int scale;
    float bias;
    double factor;
    short shift[4];
};

__constant__ float taps[TAPS];
__constant__ int table[TABLE];
__constant__ int primes[6] = {2, 3, 5, 7, 11, 13};
__constant__ Params params;

// A 9-tap convolution with uniform (warp-wide) constant reads, plus a table
// lookup whose index differs per thread.
__global__ void convolve(const float *in, float *out, int *looked_up, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float acc = 0.0f;
    for (int k = 0; k < TAPS; k++) {
        int j = i + k - TAPS / 2;
        if (j >= 0 && j < n)
            acc += taps[k] * in[j];
    }
    out[i] = acc * (float)params.scale + params.bias;
    looked_up[i] = table[(i * 7) % TABLE] * primes[i % 6] + params.shift[i % 4] +
                   (int)(params.factor * 4.0);
}

int main(void)
{
    static float h_in[N], h_out[N];
    static int h_look[N];
    float h_taps[TAPS];
    int h_table[TABLE];
    for (int k = 0; k < TAPS; k++)
        h_taps[k] = (float)(k - 4) * 0.25f;
    for (int k = 0; k < TABLE; k++)
        h_table[k] = 1000 + 17 * k;
    for (int i = 0; i < N; i++)
        h_in[i] = (float)(i % 23 - 11);
    Params p = {3, -0.5f, 2.75, {1, -2, 3, -4}};

    CHECK(cudaMemcpyToSymbol(taps, h_taps, sizeof h_taps));
    // The table goes in two halves: the second one at a byte offset.
    CHECK(cudaMemcpyToSymbol(table, h_table, TABLE / 2 * sizeof(int)));
    CHECK(cudaMemcpyToSymbol(table, h_table + TABLE / 2, TABLE / 2 * sizeof(int),
                             TABLE / 2 * sizeof(int), cudaMemcpyHostToDevice));
    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    CHECK(cudaMemcpyToSymbolAsync(params, &p, sizeof p, 0, cudaMemcpyHostToDevice, stream));
    CHECK(cudaStreamSynchronize(stream));

    float *d_in, *d_out;
    int *d_look;
    CHECK(cudaMalloc(&d_in, sizeof h_in));
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    CHECK(cudaMalloc(&d_look, sizeof h_look));
    CHECK(cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice));
    convolve<<<N / 64, 64>>>(d_in, d_out, d_look, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_look, d_look, sizeof h_look, cudaMemcpyDeviceToHost));

    const int h_primes[6] = {2, 3, 5, 7, 11, 13};
    for (int i = 0; i < N; i++) {
        float acc = 0.0f;
        for (int k = 0; k < TAPS; k++) {
            int j = i + k - TAPS / 2;
            if (j >= 0 && j < N)
                acc += h_taps[k] * h_in[j];
        }
        expect_eq("convolve", i, acc * 3.0f - 0.5f, h_out[i]);
        int want = h_table[(i * 7) % TABLE] * h_primes[i % 6] + p.shift[i % 4] + 11;
        expect_eq("table lookup", i, want, h_look[i]);
    }

    int back[6];
    CHECK(cudaMemcpyFromSymbol(back, primes, sizeof back));
    for (int k = 0; k < 6; k++)
        expect_eq("static initializer via cudaMemcpyFromSymbol", k, h_primes[k], back[k]);
    int back_table[4];
    CHECK(cudaMemcpyFromSymbol(back_table, table, sizeof back_table, 40 * sizeof(int),
                               cudaMemcpyDeviceToHost));
    for (int k = 0; k < 4; k++)
        expect_eq("table read back at offset", k, h_table[40 + k], back_table[k]);

    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_look));
    if (failures)
        return 1;
    printf("ok constant_memory\n");
    return 0;
}
