// Clean: the ways a kernel moves between whole-line accesses of global
// memory (which simt records once per 128-byte line) and accesses of
// single words, each ordered as it must be.  None may be reported.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

// Warp 1 fills the line, a barrier, then warp 0 reads it three ways:
// whole, shifted by one word across two lines, and one word per lane
// from the middle.
__global__ void handoff(int *buf, int *out)
{
    int t = threadIdx.x;
    if (t >= 32)
        buf[t - 32] = t;
    __syncthreads();
    if (t < 32) {
        int a = buf[t], b = buf[t + 1], c = t < 8 ? buf[t + 12] : 0;
        out[t] = a + b + c;
    }
}

// Each warp reads its line whole, then writes it back whole (y = 2y + 1,
// as saxpy does); after __syncwarp() one lane updates a word its warp's
// lane 3 wrote.
__global__ void own_lines(int *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = 2 * y[i] + 1;
    __syncwarp();
    if (threadIdx.x % 32 == 0)
        y[i + 3] += 1;
}

// Blocks of 16 threads: the two blocks each write half of one line.
__global__ void half_lines(int *buf)
{
    int i = blockIdx.x * 16 + threadIdx.x;
    buf[i] = 1000 + i;
}

// Half a line word by word, then (after a barrier) the whole line read
// and written by another warp, then (after another) a few words of it
// read by a third.
__global__ void mixed(int *buf, int *out)
{
    int t = threadIdx.x;
    if (t < 16)
        buf[t] = t;
    __syncthreads();
    if (t >= 32 && t < 64)
        buf[t - 32] = buf[t - 32] + 100;
    __syncthreads();
    if (t >= 64 && t < 68)
        out[t - 64] = buf[t - 62];
}

// float4 stores cover the line in eight lanes; after a barrier another
// warp reads it as floats and as float2.
__global__ void vectors(float4 *v, float *out)
{
    int t = threadIdx.x;
    if (t < 8)
        v[t] = make_float4(t, t + 1, t + 2, t + 3);
    __syncthreads();
    if (t >= 32) {
        const float *f = (const float *)v;
        const float2 *f2 = (const float2 *)v;
        out[t - 32] = f[t - 32] + f2[(t - 32) / 2].y;
    }
}

// Warp 0 reads the line whole; after a barrier warp 1 overwrites one
// word of it.
__global__ void read_then_write(int *buf, int *out)
{
    int t = threadIdx.x;
    if (t < 32)
        out[t] = buf[t];
    __syncthreads();
    if (t == 40)
        buf[17] = 7;
}

static float fval(int k) { return (float)(k / 4 + k % 4); }

int main()
{
    int *buf, *out, h[256], before[256];
    float4 *v;
    float *fo, hf[32];

    CHECK(cudaMalloc(&buf, 1024 * sizeof(int)));
    CHECK(cudaMalloc(&out, 64 * sizeof(int)));
    CHECK(cudaMemset(buf, 0, 1024 * sizeof(int)));
    handoff<<<1, 64>>>(buf, out);
    CHECK(cudaMemcpy(h, out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++)
        expect_eq("handoff", t, (32 + t) + (t < 31 ? 33 + t : 0) + (t < 8 ? 44 + t : 0), h[t]);
    /* later launches read what earlier ones wrote, in any shape */
    CHECK(cudaMemcpy(before, buf, sizeof before, cudaMemcpyDeviceToHost));
    own_lines<<<4, 64>>>(buf);
    CHECK(cudaMemcpy(h, buf, sizeof h, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 256; k++)
        expect_eq("own_lines", k, 2 * before[k] + 1 + (k % 32 == 3), h[k]);
    half_lines<<<2, 16>>>(buf);
    mixed<<<1, 96>>>(buf, out);
    CHECK(cudaMemcpy(h, buf, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 32; k++)
        expect_eq("mixed", k, (k < 16 ? k : 1000 + k) + 100, h[k]);
    CHECK(cudaMemcpy(h, out, 4 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 4; k++)
        expect_eq("mixed out", k, k + 2 + 100, h[k]);
    CHECK(cudaMalloc(&v, 8 * sizeof(float4)));
    CHECK(cudaMalloc(&fo, 32 * sizeof(float)));
    vectors<<<1, 64>>>(v, fo);
    CHECK(cudaMemcpy(hf, fo, 32 * sizeof(float), cudaMemcpyDeviceToHost));
    for (int m = 0; m < 32; m++)
        expect_eq("vectors", m, fval(m) + fval(2 * (m / 2) + 1), hf[m]);
    read_then_write<<<1, 64>>>(buf, out);
    CHECK(cudaMemcpy(h, buf, 32 * sizeof(int), cudaMemcpyDeviceToHost));
    expect_eq("read_then_write", 17, 7, h[17]);
    CHECK(cudaDeviceSynchronize());
    DONE("hz_c_lines");
}
