// expect-hazard: race: global write at hz_b_streams_nonblocking.cu:15 ... of scale(float*, float) on stream 1 and global read by cudaMemcpy on the default stream, in different streams with no event or synchronization between them
//
//
// A kernel on a stream created with cudaStreamNonBlocking, then a plain
// cudaMemcpy of its result: cudaMemcpy runs on the legacy default stream,
// which waits for blocking streams only, so without a
// cudaStreamSynchronize it may copy before the kernel has written.  With
// a stream made by cudaStreamCreate the same code would be ordered (the
// second half, clean).
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define N 512

__global__ void scale(float *x, float k) { int i = blockIdx.x * blockDim.x + threadIdx.x; x[i] = k * (float)i; }

int main()
{
    cudaStream_t nb, bl;
    float *x, got[N];
    CHECK(cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking));
    CHECK(cudaStreamCreate(&bl));
    CHECK(cudaMalloc(&x, N * sizeof(float)));

    scale<<<N / 128, 128, 0, nb>>>(x, 2.0f);
    CHECK(cudaMemcpy(got, x, sizeof got, cudaMemcpyDeviceToHost));   // the race
    CHECK(cudaDeviceSynchronize());

    scale<<<N / 128, 128, 0, bl>>>(x, 3.0f);
    CHECK(cudaMemcpy(got, x, sizeof got, cudaMemcpyDeviceToHost));   // ordered
    for (int i = 0; i < N; i++)
        expect_eq("x", i, 3 * i, (int)got[i]);
    DONE("hz_b_streams_nonblocking");
}
