// Clean: words read by several threads at once and then written, with the
// synchronization each write needs between the reads and it.
//   A. Every lane of a warp reads s[0] in one instruction; after
//      __syncwarp() lane 0 overwrites it.
//   B. Lane t reads s[t] and then s[t + 1]; after __syncwarp() it writes
//      s[t] (an in-place shift, correctly synchronized).
//   C. Two warps read the same 128-byte line of global memory; after
//      __syncthreads() warp 0 overwrites it.
//   D. Threads t and t ^ 1 read the two halves of one 4-byte word of
//      2-byte elements at once; after __syncthreads() each writes the
//      half the other read.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

// A and B, one warp
__global__ void in_warp(int *out)
{
    __shared__ int s[33];
    int t = threadIdx.x;

    s[t] = t + 1;
    if (t == 0)
        s[32] = 33;
    __syncwarp();
    // A
    int a = s[0];
    __syncwarp();
    if (t == 0)
        s[0] = 50;
    __syncwarp();
    // B
    int own = s[t], next = s[t + 1];
    __syncwarp();
    s[t] = own + next;
    __syncwarp();
    out[2 * t] = a;
    out[2 * t + 1] = s[t];
}

// C and D, two warps
__global__ void two_warps(int *x, unsigned short *h)
{
    __shared__ unsigned short hs[64];
    int t = threadIdx.x, lane = t % 32, w = t / 32;

    hs[t] = (unsigned short)(100 + t);
    // C
    int c = x[lane];
    __syncthreads();
    if (w == 0)
        x[lane] = c * 2;
    // D
    unsigned short d = hs[t];
    __syncthreads();
    hs[t ^ 1] = (unsigned short)(d + 1000);
    __syncthreads();
    h[t] = hs[t];
}

int main()
{
    int *x, *out;
    unsigned short *h;
    int hx[32], hout[64];
    unsigned short hh[64];
    for (int i = 0; i < 32; i++)
        hx[i] = 3 * i;
    CHECK(cudaMalloc(&x, sizeof hx));
    CHECK(cudaMalloc(&out, sizeof hout));
    CHECK(cudaMalloc(&h, sizeof hh));
    CHECK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    in_warp<<<1, 32>>>(out);
    CHECK(cudaGetLastError());
    two_warps<<<1, 64>>>(x, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hh, h, sizeof hh, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hx, x, sizeof hx, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 32; t++) {
        // s[0] was overwritten with 50 before B; s[k] = k + 1 otherwise
        int own = t == 0 ? 50 : t + 1, next = t + 2;
        expect_eq("A", t, 1, hout[2 * t]);
        expect_eq("B", t, own + next, hout[2 * t + 1]);
        expect_eq("C", t, 6 * t, hx[t]);
    }
    for (int t = 0; t < 64; t++)
        expect_eq("D", t, 100 + (t ^ 1) + 1000, (int)hh[t]);
    DONE("hz_c_second_reader");
}
