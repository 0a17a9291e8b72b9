// Cubemap textures: a 4 x 4 cubemap whose texel (i, j) of face f holds
// f * 100 + j * 4 + i, fetched at every texel centre of every face through
// the direction that points at it (the face table of the CUDA programming
// guide: +x (-z, -y), -x (z, -y), +y (x, z), -y (x, -z), +z (x, -y),
// -z (-x, -y)); a linear sample halfway between two texels; a layered
// cubemap of two cubes; extents a cubemap cannot have.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)

#define W 4

// The direction that points at face f's point (s, t), s and t in [0, 1].
__host__ __device__ void direction(int f, float s, float t, float *x, float *y, float *z)
{
    float u = 2.0f * s - 1.0f, v = 2.0f * t - 1.0f;
    switch (f) {
    case 0: *x = 1; *y = -v; *z = -u; break;
    case 1: *x = -1; *y = -v; *z = u; break;
    case 2: *x = u; *y = 1; *z = v; break;
    case 3: *x = u; *y = -1; *z = -v; break;
    case 4: *x = u; *y = -v; *z = 1; break;
    default: *x = -u; *y = -v; *z = -1; break;
    }
}

__global__ void centres(cudaTextureObject_t tex, float *out)
{
    int f = blockIdx.x, i = threadIdx.x, j = threadIdx.y;
    float x, y, z;
    direction(f, (i + 0.5f) / W, (j + 0.5f) / W, &x, &y, &z);
    out[(f * W + j) * W + i] = texCubemap<float>(tex, x, y, z);
}

__global__ void between(cudaTextureObject_t tex, float *out)
{
    float x, y, z;
    // face 4, halfway between texels (1, 1) and (2, 1)
    direction(4, 0.5f, 1.5f / W, &x, &y, &z);
    out[0] = texCubemap<float>(tex, x, y, z);
}

__global__ void layered(cudaTextureObject_t tex, float *out)
{
    int f = blockIdx.x, k = blockIdx.y, i = threadIdx.x, j = threadIdx.y;
    float x, y, z;
    direction(f, (i + 0.5f) / W, (j + 0.5f) / W, &x, &y, &z);
    out[((k * 6 + f) * W + j) * W + i] = texCubemapLayered<float>(tex, x, y, z, k);
}

static cudaTextureObject_t make_tex(cudaArray_t a, bool linear)
{
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.normalizedCoords = true;
    td.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &rd, &td, NULL) != cudaSuccess)
        return 0;
    return t;
}

static int fill(cudaArray_t a, int cubes)
{
    static float h[2 * 6 * W * W];
    for (int k = 0; k < cubes; k++)
        for (int f = 0; f < 6; f++)
            for (int j = 0; j < W; j++)
                for (int i = 0; i < W; i++)
                    h[((k * 6 + f) * W + j) * W + i] = 1000.0f * k + f * 100 + j * 4 + i;
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(h, W * sizeof(float), W, W);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, W, 6 * cubes);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    return 0;
}

int main()
{
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t cube, cubes, bad;
    float *out, h[2 * 6 * W * W];

    CHECK(cudaMalloc3DArray(&cube, &fd, make_cudaExtent(W, W, 6), cudaArrayCubemap));
    CHECK(cudaMalloc3DArray(&cubes, &fd, make_cudaExtent(W, W, 12), cudaArrayCubemap | cudaArrayLayered));
    if (fill(cube, 1) || fill(cubes, 2))
        return 1;
    CHECK(cudaMalloc(&out, sizeof h));

    cudaTextureObject_t point = make_tex(cube, false), lin = make_tex(cube, true);
    cudaTextureObject_t lay = make_tex(cubes, false);
    expect_eq("texture objects", 0, true, point && lin && lay);
    centres<<<6, dim3(W, W)>>>(point, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, 6 * W * W * sizeof(float), cudaMemcpyDeviceToHost));
    for (int f = 0; f < 6; f++)
        for (int j = 0; j < W; j++)
            for (int i = 0; i < W; i++)
                expect_eq("centre", (f * W + j) * W + i, (float)(f * 100 + j * 4 + i),
                          h[(f * W + j) * W + i]);

    between<<<1, 1>>>(lin, out);
    CHECK(cudaMemcpy(h, out, sizeof(float), cudaMemcpyDeviceToHost));
    expect_eq("between", 0, 400.0f + 4 + 1.5f, h[0]);

    layered<<<dim3(6, 2), dim3(W, W)>>>(lay, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 2; k++)
        for (int f = 0; f < 6; f++)
            for (int j = 0; j < W; j++)
                for (int i = 0; i < W; i++) {
                    int at = ((k * 6 + f) * W + j) * W + i;
                    expect_eq("layered", at, 1000.0f * k + f * 100 + j * 4 + i, h[at]);
                }

    // faces must be square, and a cubemap has six of them (a layered one
    // a multiple of six)
    expect_eq("not square", 0, (int)cudaErrorInvalidValue,
              (int)cudaMalloc3DArray(&bad, &fd, make_cudaExtent(W, W + 1, 6), cudaArrayCubemap));
    expect_eq("five faces", 0, (int)cudaErrorInvalidValue,
              (int)cudaMalloc3DArray(&bad, &fd, make_cudaExtent(W, W, 5), cudaArrayCubemap));
    expect_eq("layers of 7", 0, (int)cudaErrorInvalidValue,
              (int)cudaMalloc3DArray(&bad, &fd, make_cudaExtent(W, W, 7),
                                     cudaArrayCubemap | cudaArrayLayered));
    cudaGetLastError();

    CHECK(cudaDestroyTextureObject(point));
    CHECK(cudaDestroyTextureObject(lin));
    CHECK(cudaDestroyTextureObject(lay));
    CHECK(cudaFreeArray(cube));
    CHECK(cudaFreeArray(cubes));
    CHECK(cudaFree(out));
    DONE("texture_cubemap");
}
