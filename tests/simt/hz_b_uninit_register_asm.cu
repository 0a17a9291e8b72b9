// expect-hazard: uninitialized: register t read at hz_b_uninit_register_asm.cu:17 by block (0,0,0) thread (0,0,0)
// expect-hazard: uninitialized: register q read at hz_b_uninit_register_asm.cu:24 by block (0,0,0) thread (0,0,0)
// expect-hazard: uninitialized: register u read at hz_b_uninit_register_asm.cu:31 by block (0,0,0) thread (0,0,0)
// expect-hazard: uninitialized: register w read at hz_b_uninit_register_asm.cu:39 by block (0,0,0) thread (0,0,0)
//
//
// Reads of registers nothing wrote, in PTX written by hand so that the
// compiler cannot fold them away: an add, a guard predicate, a copy of
// an unwritten register used later, and a shuffle of a value that no
// lane of the warp wrote.
#include <cstdio>

__global__ void plain(float *out, float x)
{
    float r;
    asm volatile("{ .reg .f32 t;\n\t"
                 "add.f32 %0, t, %1; }" : "=f"(r) : "f"(x));
    out[threadIdx.x] = r;
}

__global__ void guard(float *out)
{
    float r = 0.0f;
    asm volatile("{ .reg .pred q;\n\t@q mov.f32 %0, 0f3F800000; }" : "+f"(r));
    out[threadIdx.x] = r;
}

__global__ void copied(float *out)
{
    float r;
    asm volatile("{ .reg .f32 t, u;\n\tmov.f32 u, t;\n\t"
                 "mul.f32 %0, u, 0f40000000; }" : "=f"(r));
    out[threadIdx.x] = r;
}

__global__ void shuffled(float *out)
{
    float r;
    asm volatile("{ .reg .b32 v, w;\n\tshfl.sync.idx.b32 w, v, 0, 31, -1;\n\t"
                 "add.f32 %0, w, 0f3F800000; }" : "=f"(r));
    out[threadIdx.x] = r;
}

int main()
{
    float *out;
    cudaMalloc(&out, 32 * sizeof(float));
    plain<<<1, 32>>>(out, 1.0f);
    guard<<<1, 32>>>(out);
    copied<<<1, 32>>>(out);
    shuffled<<<1, 32>>>(out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
