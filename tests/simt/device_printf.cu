// expect: exit=0 stdout=device printf: int=-42 uint=4000000000 hex=beef ll=-9000000000 c=Z s=text
// Device printf from a single thread per launch (so the output order is
// fixed): integer, unsigned, hex, 64-bit, char, string and floating-point
// conversions, a line with no arguments, and a second launch whose line must
// follow the first. printf's return value (the number of arguments, per the
// CUDA documentation) is checked; the text itself is for a reader of the
// output. Expected stdout:
//   device printf: int=-42 uint=4000000000 hex=beef ll=-9000000000 c=Z s=text
//   device printf: f=3.250 d=-0.12500 e=1.500000e+10
//   device printf: no arguments
//   device printf: second launch from block 2 thread 5
//   ok device_printf
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#include "check.h"

__global__ void say(int *ret)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    ret[0] = printf("device printf: int=%d uint=%u hex=%x ll=%lld c=%c s=%s\n", -42, 4000000000u,
                    0xbeefu, -9000000000ll, 'Z', "text");
    ret[1] = printf("device printf: f=%.3f d=%.5f e=%e\n", 3.25f, -0.125, 1.5e10);
    ret[2] = printf("device printf: no arguments\n");
}

__global__ void say_again(int *ret)
{
    if (blockIdx.x == 2 && threadIdx.x == 5)
        ret[3] = printf("device printf: second launch from block %d thread %d\n", (int)blockIdx.x,
                        (int)threadIdx.x);
}

int main(void)
{
    int *d_ret, h_ret[4];
    CHECK(cudaMalloc(&d_ret, sizeof h_ret));
    CHECK(cudaMemset(d_ret, 0xff, sizeof h_ret));
    say<<<2, 32>>>(d_ret);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    fflush(stdout);
    say_again<<<3, 32>>>(d_ret);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_ret, d_ret, sizeof h_ret, cudaMemcpyDeviceToHost));
    expect_eq("printf return, 6 arguments", 0L, 6, h_ret[0]);
    expect_eq("printf return, 3 arguments", 1L, 3, h_ret[1]);
    expect_eq("printf return, no arguments", 2L, 0, h_ret[2]);
    expect_eq("printf return, 2 arguments", 3L, 2, h_ret[3]);
    if (failures)
        return 1;
    printf("ok device_printf\n");
    return 0;
}
