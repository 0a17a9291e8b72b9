// Saturated half arithmetic: __hadd_sat, __hsub_sat, __hmul_sat and
// __hfma_sat (add/sub/mul/fma .sat.f16) and __hadd2_sat (.sat.f16x2) clamp
// their result to [0, 1] and turn NaN into +0.  Every operand and result
// is a small dyadic value, exact in half, worked out by hand in the table:
// the results above 1 (1.25, 2.25, 1.125) are what a .sat without its upper
// bound would leave.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

#include "check.h"

struct Case {
    float a, b, c;          // operands (c: fma's addend)
    float add, sub, mul, fma;  // a+b, a-b, a*b, a*b+c, each clamped to [0, 1]
};

static const Case CASES[] = {
    // a      b      c       add   sub    mul   fma
    {0.75f, 0.5f, 0.875f, 1.0f, 0.25f, 0.375f, 1.0f},   // 1.25, 1.25 clamp to 1
    {0.25f, 0.5f, 0.0f, 0.75f, 0.0f, 0.125f, 0.125f},   // a-b = -0.25 clamps to 0
    {1.5f, 1.5f, -1.0f, 1.0f, 0.0f, 1.0f, 1.0f},        // 3, 0, 2.25, 1.25
    {-0.75f, 0.5f, 0.5f, 0.0f, 0.0f, 0.0f, 0.125f},     // -0.25, -1.25, -0.375, 0.125
    {2.0f, -0.5f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f},        // 1.5, 2.5, -1, -1
    {0.5f, 0.5f, 0.75f, 1.0f, 0.0f, 0.25f, 1.0f},       // 1 stays 1; fma 1 exactly
};
static const int N = sizeof CASES / sizeof CASES[0];
static const int OUT = 6;  // add sub mul fma, then __hadd2_sat's two lanes

__global__ void sat_kernel(const float *in, float *out, int n)
{
    int i = threadIdx.x;
    if (i >= n)
        return;
    __half a = __float2half(in[3 * i]), b = __float2half(in[3 * i + 1]);
    __half c = __float2half(in[3 * i + 2]);
    float *o = out + OUT * i;
    o[0] = __half2float(__hadd_sat(a, b));
    o[1] = __half2float(__hsub_sat(a, b));
    o[2] = __half2float(__hmul_sat(a, b));
    o[3] = __half2float(__hfma_sat(a, b, c));
    // lanes (a, c) + (b, b)
    __half2 s = __hadd2_sat(__halves2half2(a, c), __halves2half2(b, b));
    o[4] = __low2float(s);
    o[5] = __high2float(s);
}

__global__ void nan_kernel(float *out)
{
    __half nan = __float2half(__int_as_float(0x7fc00000));
    __half one = __float2half(1.0f);
    out[0] = __half2float(__hadd_sat(nan, one));
    out[1] = __half2float(__hmul_sat(nan, one));
}

int main(void)
{
    float in[3 * N], out[OUT * N], nan_out[2];
    for (int i = 0; i < N; i++) {
        in[3 * i] = CASES[i].a;
        in[3 * i + 1] = CASES[i].b;
        in[3 * i + 2] = CASES[i].c;
    }
    float *d_in, *d_out, *d_nan;
    CHECK(cudaMalloc(&d_in, sizeof in));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMalloc(&d_nan, sizeof nan_out));
    CHECK(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice));
    sat_kernel<<<1, 32>>>(d_in, d_out, N);
    nan_kernel<<<1, 1>>>(d_nan);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(nan_out, d_nan, sizeof nan_out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        const Case &k = CASES[i];
        const float *o = out + OUT * i;
        expect_eq("hadd_sat", i, k.add, o[0]);
        expect_eq("hsub_sat", i, k.sub, o[1]);
        expect_eq("hmul_sat", i, k.mul, o[2]);
        expect_eq("hfma_sat", i, k.fma, o[3]);
        expect_eq("hadd2_sat low", i, k.add, o[4]);
        // the high lane is c + b, clamped
        float cb = k.c + k.b;
        expect_eq("hadd2_sat high", i, cb < 0 ? 0.0f : cb > 1 ? 1.0f : cb, o[5]);
    }
    expect_eq("hadd_sat NaN is +0", 0L, 0.0f, nan_out[0]);
    expect_eq("hmul_sat NaN is +0", 1L, 0.0f, nan_out[1]);
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_nan));
    if (failures)
        return 1;
    printf("ok half_sat\n");
    return 0;
}
