// Kernel parameters passed by value: a struct with a float[8] array, a
// double, a char and a short (so it has padding), a nested struct with a
// pointer member, a 1 KiB struct, built-in vector types with 16-byte
// alignment (float4, int3, double2), and a long list of scalar parameters
// of mixed sizes in an order that forces padding between them.
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

struct Mixed {
    char c;
    float f[8];
    double d;
    short s;
    int i;
};

struct Inner {
    int *dst;
    unsigned long long tag;
};

struct Outer {
    short kind;
    Inner inner;
    float scale;
};

struct Big {
    int v[256];
};

__global__ void take_mixed(Mixed m, double *out)
{
    int t = threadIdx.x;
    if (t < 8)
        out[t] = m.f[t] * 2.0 + m.d;
    else if (t == 8)
        out[t] = m.c;
    else if (t == 9)
        out[t] = m.s;
    else if (t == 10)
        out[t] = m.i;
}

__global__ void take_nested(Outer o, Big b, float4 f4, int3 i3, double2 d2, long long *out)
{
    int t = threadIdx.x;
    out[t] = b.v[t] + b.v[255 - t];
    if (t == 0) {
        o.inner.dst[0] = o.kind;
        o.inner.dst[1] = (int)(o.inner.tag >> 32);
        o.inner.dst[2] = (int)(o.inner.tag & 0xffffffffu);
        o.inner.dst[3] = (int)(o.scale * 4.0f);
        o.inner.dst[4] = (int)(f4.x + 10.0f * f4.y + 100.0f * f4.z + 1000.0f * f4.w);
        o.inner.dst[5] = i3.x * 10000 + i3.y * 100 + i3.z;
        o.inner.dst[6] = (int)(d2.x * 8.0 - d2.y);
    }
}

__global__ void many_scalars(char a, double b, short c, long long d, float e, unsigned char f,
                             int g, double h, bool i, unsigned long long j, char k, float l,
                             double *out)
{
    if (threadIdx.x != 0)
        return;
    out[0] = a;
    out[1] = b;
    out[2] = c;
    out[3] = (double)d;
    out[4] = e;
    out[5] = f;
    out[6] = g;
    out[7] = h;
    out[8] = i ? 1.0 : 0.0;
    out[9] = (double)(j >> 40);
    out[10] = k;
    out[11] = l;
}

int main(void)
{
    Mixed m;
    memset(&m, 0, sizeof m);
    m.c = -5;
    for (int k = 0; k < 8; k++)
        m.f[k] = 0.5f * k - 1.0f;
    m.d = 1e10 + 0.25;
    m.s = -1234;
    m.i = 987654;
    double *d_out;
    CHECK(cudaMalloc(&d_out, 16 * sizeof(double)));
    take_mixed<<<1, 32>>>(m, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    double h_out[16];
    CHECK(cudaMemcpy(h_out, d_out, 11 * sizeof(double), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 8; k++)
        expect_eq("Mixed.f[k] * 2 + Mixed.d", k, (0.5 * k - 1.0) * 2.0 + 1e10 + 0.25, h_out[k]);
    expect_eq("Mixed.c", 8L, -5.0, h_out[8]);
    expect_eq("Mixed.s", 9L, -1234.0, h_out[9]);
    expect_eq("Mixed.i", 10L, 987654.0, h_out[10]);

    static Big big;
    for (int k = 0; k < 256; k++)
        big.v[k] = k * k - 3 * k;
    int *d_dst;
    long long *d_sums;
    CHECK(cudaMalloc(&d_dst, 8 * sizeof(int)));
    CHECK(cudaMalloc(&d_sums, 256 * sizeof(long long)));
    Outer o = {7, {d_dst, 0x1122334455667788ull}, 2.25f};
    take_nested<<<1, 256>>>(o, big, make_float4(1, 2, 3, 4), make_int3(12, 34, 56),
                            make_double2(2.5, 0.5), d_sums);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    int h_dst[7];
    long long h_sums[256];
    CHECK(cudaMemcpy(h_dst, d_dst, sizeof h_dst, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost));
    const int want_dst[7] = {7, 0x11223344, 0x55667788, 9, 4321, 123456, 19};
    for (int k = 0; k < 7; k++)
        expect_eq("nested struct / vector parameter", k, want_dst[k], h_dst[k]);
    for (int t = 0; t < 256; t++)
        expect_eq("1 KiB struct parameter", t, (long long)big.v[t] + big.v[255 - t], h_sums[t]);

    many_scalars<<<1, 32>>>('x', -2.5, (short)-300, -123456789012ll, 1.75f, (unsigned char)250,
                            -77, 3.0e100, true, 0xabcdef0123456789ull, (char)-1, -0.125f, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, 12 * sizeof(double), cudaMemcpyDeviceToHost));
    const double want_s[12] = {
        'x', -2.5, -300, -123456789012.0, 1.75, 250, -77, 3.0e100, 1.0,
        (double)(0xabcdef0123456789ull >> 40), -1, -0.125,
    };
    for (int k = 0; k < 12; k++)
        expect_eq("scalar parameter", k, want_s[k], h_out[k]);

    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_dst));
    CHECK(cudaFree(d_sums));
    if (failures)
        return 1;
    printf("ok struct_params\n");
    return 0;
}
