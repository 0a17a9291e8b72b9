// expect: exit=1 stderr=out-of-bounds surface write [simt-only]
// Must fail on simt: a kernel writes one float past the end of a row of a
// 2D surface with the default (trap) boundary mode.  simt reports the
// coordinates and the surface's size, and the synchronisation returns
// cudaErrorIllegalAddress.  Exit status: 1 when that error is seen, 0
// when the write went unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void past_end(cudaSurfaceObject_t s, int width)
{
    surf2Dwrite(1.0f, s, (width + (int)threadIdx.x) * 4, 0);
}

int main()
{
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    if (cudaMallocArray(&a, &cf, 16, 4, cudaArraySurfaceLoadStore) != cudaSuccess)
        return 2;
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s;
    if (cudaCreateSurfaceObject(&s, &rd) != cudaSuccess)
        return 2;
    past_end<<<1, 1>>>(s, 16);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(e));
    if (e == cudaSuccess)
        return 0;
    return e == cudaErrorIllegalAddress ? 1 : 2;
}
