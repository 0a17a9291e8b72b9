// expect: exit=0 stderr=of them in later launches [simt-only]
// expect-hazard: race: global read at hz_b_repeated_launches.cu:17 ... and global write at hz_b_repeated_launches.cu:17 ... no synchronization orders them
// expect-hazard: race: global write at hz_b_repeated_launches.cu:17 ... and global write at hz_b_repeated_launches.cu:17 ... no synchronization orders them
//
//
// The same race in three launches: it is reported once, when the first
// launch ends, and the exit adds how often the later launches met it.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    fprintf(stderr, "FAIL %s:%d %s returned %s\n", __FILE__, __LINE__, #call, \
            cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void bump(int *x)
{
    if (threadIdx.x % 32 == 0) *x += 1;
}

int main()
{
    int *x;

    CHECK(cudaMalloc(&x, sizeof *x));
    CHECK(cudaMemset(x, 0, sizeof *x));
    for (int i = 0; i < 3; i++)
        bump<<<1, 64>>>(x);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(x));
    printf("ok repeated launches\n");
    return 0;
}
