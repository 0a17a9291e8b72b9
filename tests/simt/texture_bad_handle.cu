// expect: exit=1 stderr=texture fetch through texture or surface object [simt-only]
// Must fail on simt: a kernel samples through a texture object that was
// destroyed before the launch.  simt names the handle and says it was
// destroyed, and the synchronisation reports cudaErrorIllegalAddress.  A
// GPU gives no dependable error for a stale handle, so this runs on simt
// only.  Exit status: 1 when the error is seen, 0 when the fetch went
// unnoticed, 2 for any other error.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fetch(cudaTextureObject_t t, float *out)
{
    out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);
}

int main()
{
    float *buf, *out;
    if (cudaMalloc(&buf, 64 * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&out, 64 * sizeof(float)) != cudaSuccess)
        return 2;
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = buf;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = 64 * sizeof(float);
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    if (cudaCreateTextureObject(&t, &rd, &td, NULL) != cudaSuccess ||
        cudaDestroyTextureObject(t) != cudaSuccess)
        return 2;
    fetch<<<1, 32>>>(t, out);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(e));
    if (e == cudaSuccess)
        return 0;
    return e == cudaErrorIllegalAddress ? 1 : 2;
}
