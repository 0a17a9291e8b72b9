// Local memory (arrays indexed at run time, a variable whose address a
// call takes) read only where it was written: no report.
//   - bins zeroed with `= {0}` and counted by data;
//   - a buffer filled to a length known at run time and read back within
//     it, in an order the compiler cannot follow;
//   - a struct of which three fields were set, copied whole and only
//     those three used (nvcc keeps this one out of memory today;
//     hz_c_local_debug copies one through the stack);
//   - a 64-bit load of a word whose low half alone was stored, only the
//     low half used (hand-written PTX: part of an element written is a
//     copy of something partly set, not a read of nothing);
//   - a variable a non-inlined function may or may not set, read only
//     when it says it did: the compiler loads it before the test and
//     chooses it with a select, so the load itself reads local memory
//     that may never have been written.
#include "check.h"

#define BINS 8

struct Rec {
    int a, b, c, d;
};

__device__ __noinline__ bool odd_value(int x, int *v)
{
    if (x & 1) {
        *v = x;
        return true;
    }
    return false;
}

__device__ unsigned low_half(unsigned v)
{
    unsigned r;
    asm volatile("{\n\t.local .align 8 .b8 word[8];\n\t.reg .b64 wide;\n\t"
                 "st.local.u32 [word], %1;\n\t"
                 "ld.local.u64 wide, [word];\n\t"
                 "cvt.u32.u64 %0, wide;\n\t}"
                 : "=r"(r) : "r"(v));
    return r;
}

__global__ void locals(const int *in, int *out, int n)
{
    int t = threadIdx.x;
    int counts[BINS] = {0};
    for (int i = t; i < n; i += blockDim.x)
        counts[in[i] & (BINS - 1)]++;
    int s = 0;
    for (int b = 0; b < BINS; b++)
        s += counts[b] * (b + 1);

    float buf[16];
    int k = 1 + t % 16;
    for (int i = 0; i < k; i++)
        buf[i] = (float)in[i];
    for (int i = 0; i < k; i++)
        s += (int)buf[(i * 5) % k];

    Rec r[4];
    int j = in[t] & 3;
    r[j].a = t;
    r[j].b = 2 * t;
    r[j].c = 3 * t;
    Rec c = r[j];
    s += c.a + c.b + c.c;

    int v;
    if (odd_value(in[t], &v))
        s += v;
    s += (int)low_half(7u * t);
    out[t] = s;
}

int main()
{
    const int n = 256, threads = 64;
    static int h[n];
    int got[threads], *in, *out, bad = 0;
    for (int i = 0; i < n; i++)
        h[i] = i;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&out, threads * sizeof(int)));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    locals<<<1, threads>>>(in, out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int t = 0; t < threads; t++) {
        int s = 0, counts[BINS] = {0};
        for (int i = t; i < n; i += threads)
            counts[h[i] & (BINS - 1)]++;
        for (int b = 0; b < BINS; b++)
            s += counts[b] * (b + 1);
        int k = 1 + t % 16;
        for (int i = 0; i < k; i++)
            s += h[(i * 5) % k];
        s += 6 * t;
        if (h[t] & 1)
            s += h[t];
        s += 7 * t;
        bad += !expect_eq("out", t, s, got[t]);
    }
    if (bad)
        return 1;
    printf("ok hz_c_local_memory\n");
    return 0;
}
