// Registers written on some paths or lanes only, in PTX written by hand
// so that the compiler keeps the patterns; none is read where it was not
// written, so there is no report:
//   - a register written and read under the same guard;
//   - a 64-bit pack of a written low half and an unwritten high half,
//     unpacked, with only the low half used;
//   - a select between an unwritten register and a constant, choosing
//     the constant;
//   - a store of an unwritten register (a store copies, it does not use);
//   - a value written by lane 0 only and broadcast by a shuffle.
#include <cstdio>

__global__ void paths(float *out, const float *x)
{
    int t = threadIdx.x;
    float a = 0.0f, b, c, e;
    asm volatile("{ .reg .pred p; .reg .f32 v;\n\t"
                 "setp.lt.s32 p, %1, 16;\n\t"
                 "@p ld.global.f32 v, [%2];\n\t"
                 "@p add.f32 %0, v, 0f3F800000; }"
                 : "+f"(a) : "r"(t), "l"(x + t));
    asm volatile("{ .reg .b32 hi, lo; .reg .b64 d;\n\t"
                 "mov.b32 lo, %1;\n\t"
                 "mov.b64 d, {lo, hi};\n\t"
                 "mov.b64 {lo, hi}, d;\n\t"
                 "add.f32 %0, lo, 0f3F800000; }" : "=f"(b) : "f"(x[t]));
    asm volatile("{ .reg .pred p; .reg .f32 v;\n\t"
                 "setp.ne.s32 p, %1, %1;\n\t"
                 "selp.f32 %0, v, 0f40000000, p; }" : "=f"(c) : "r"(t));
    asm volatile("{ .reg .f32 v;\n\tst.global.f32 [%0], v; }" :: "l"(out + 96 + t) : "memory");
    asm volatile("{ .reg .pred p; .reg .b32 v;\n\t"
                 "setp.eq.s32 p, %1, 0;\n\t"
                 "@p mov.b32 v, %2;\n\t"
                 "shfl.sync.idx.b32 v, v, 0, 31, -1;\n\t"
                 "add.f32 %0, v, 0f3F800000; }" : "=f"(e) : "r"(t), "f"(x[t] + 5.0f));
    out[t] = a;
    out[32 + t] = b + c;
    out[64 + t] = e;
}

int main()
{
    float *x, *out, hx[32], h[96];
    cudaMalloc(&x, 32 * sizeof(float));
    cudaMalloc(&out, 128 * sizeof(float));
    for (int i = 0; i < 32; i++)
        hx[i] = (float)i;
    cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
    paths<<<1, 32>>>(out, x);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    for (int t = 0; t < 32; t++) {
        float a = t < 16 ? t + 1.0f : 0.0f;
        if (h[t] != a || h[32 + t] != t + 3.0f || h[64 + t] != 6.0f) {
            printf("FAIL at %d: %g %g %g\n", t, h[t], h[32 + t], h[64 + t]);
            return 1;
        }
    }
    printf("PASS\n");
    return 0;
}
