// Surface objects over CUDA arrays made with cudaArraySurfaceLoadStore:
// surf2Dwrite/surf2Dread of floats and uchar4 (x in bytes), the zero and
// clamp boundary modes outside the surface, a 3D and a layered surface
// written in a kernel and copied back with cudaMemcpy3D, and a surface
// written by one kernel read through a texture object by the next.
#include "check.h"
#include <vector>

#define W 10
#define H 6
#define D 3

__global__ void fill(cudaSurfaceObject_t s)
{
    int x = threadIdx.x, y = blockIdx.x;
    surf2Dwrite((float)(y * 100 + x), s, x * 4, y);
}

// reads through the zero and clamp modes, two texels outside each side,
// and writes the float as bytes of a uchar4 surface
__global__ void edges(cudaSurfaceObject_t s, cudaSurfaceObject_t c,
                      float *zero, float *clamp)
{
    int x = (int)threadIdx.x - 2, y = (int)blockIdx.x - 2;
    int k = blockIdx.x * (W + 4) + threadIdx.x;

    zero[k] = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeZero);
    clamp[k] = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
    if (x >= 0 && x < W && y >= 0 && y < H) {
        int v = (int)surf2Dread<float>(s, x * 4, y);
        surf2Dwrite(make_uchar4(v & 255, v >> 8, x, y), c, x * 4, y);
    }
}

__global__ void volume(cudaSurfaceObject_t v, cudaSurfaceObject_t l)
{
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    surf3Dwrite(x + 16 * y + 256 * z, v, x * 4, y, z);
    surf2DLayeredwrite((short)(-x - 16 * y - 256 * z), l, x * 2, y, z);
}

__global__ void through_texture(cudaTextureObject_t t, float *out)
{
    int x = threadIdx.x, y = blockIdx.x;
    out[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static cudaSurfaceObject_t surface(cudaArray_t a)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaSurfaceObject_t s = 0;
    if (cudaCreateSurfaceObject(&s, &rd) != cudaSuccess)
        return 0;
    return s;
}

int main()
{
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaChannelFormatDesc cu = cudaCreateChannelDesc<uchar4>();
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaChannelFormatDesc cs = cudaCreateChannelDesc<short>();
    cudaArray_t af, au, av, al;
    CHECK(cudaMallocArray(&af, &cf, W, H, cudaArraySurfaceLoadStore));
    CHECK(cudaMallocArray(&au, &cu, W, H, cudaArraySurfaceLoadStore));
    CHECK(cudaMalloc3DArray(&av, &ci, make_cudaExtent(W, H, D),
                            cudaArraySurfaceLoadStore));
    CHECK(cudaMalloc3DArray(&al, &cs, make_cudaExtent(W, H, D),
                            cudaArrayLayered | cudaArraySurfaceLoadStore));
    cudaSurfaceObject_t sf = surface(af), su = surface(au);
    cudaSurfaceObject_t sv = surface(av), sl = surface(al);
    if (!sf || !su || !sv || !sl) {
        fprintf(stderr, "FAIL cudaCreateSurfaceObject\n");
        return 1;
    }
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = af;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t tf;
    CHECK(cudaCreateTextureObject(&tf, &rd, &td, NULL));

    const int NE = (W + 4) * (H + 4);
    float *zero, *clamp, *tex;
    CHECK(cudaMalloc(&zero, NE * sizeof(float)));
    CHECK(cudaMalloc(&clamp, NE * sizeof(float)));
    CHECK(cudaMalloc(&tex, W * H * sizeof(float)));
    fill<<<H, W>>>(sf);
    edges<<<H + 4, W + 4>>>(sf, su, zero, clamp);
    volume<<<D, dim3(W, H)>>>(sv, sl);
    through_texture<<<H, W>>>(tf, tex);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<float> hz(NE), hc(NE), ht(W * H), hf(W * H);
    std::vector<uchar4> hu(W * H);
    std::vector<int> hv(W * H * D);
    std::vector<short> hl(W * H * D);
    CHECK(cudaMemcpy(hz.data(), zero, NE * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hc.data(), clamp, NE * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(ht.data(), tex, W * H * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy2DFromArray(hf.data(), W * sizeof(float), af, 0, 0,
                                W * sizeof(float), H, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy2DFromArray(hu.data(), W * sizeof(uchar4), au, 0, 0,
                                W * sizeof(uchar4), H, cudaMemcpyDeviceToHost));
    cudaMemcpy3DParms p = {};
    p.srcArray = av;
    p.dstPtr = make_cudaPitchedPtr(hv.data(), W * sizeof(int), W, H);
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    p.srcArray = al;
    p.dstPtr = make_cudaPitchedPtr(hl.data(), W * sizeof(short), W, H);
    CHECK(cudaMemcpy3D(&p));

    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int k = y * W + x, v = y * 100 + x;
            expect_eq("surf2Dwrite", k, (float)v, hf[k]);
            expect_eq("via texture", k, (float)v, ht[k]);
            expect_eq("uchar4.x", k, v & 255, (int)hu[k].x);
            expect_eq("uchar4.y", k, v >> 8, (int)hu[k].y);
            expect_eq("uchar4.z", k, x, (int)hu[k].z);
            expect_eq("uchar4.w", k, y, (int)hu[k].w);
        }
    for (int j = 0; j < H + 4; j++)
        for (int i = 0; i < W + 4; i++) {
            int x = i - 2, y = j - 2, k = j * (W + 4) + i;
            bool in = x >= 0 && x < W && y >= 0 && y < H;
            expect_eq("zero mode", k, in ? (float)(y * 100 + x) : 0.0f, hz[k]);
            expect_eq("clamp mode", k,
                      (float)(clampi(y, H) * 100 + clampi(x, W)), hc[k]);
        }
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int k = (z * H + y) * W + x;
                expect_eq("surf3Dwrite", k, x + 16 * y + 256 * z, hv[k]);
                expect_eq("surf2DLayeredwrite", k,
                          (short)(-x - 16 * y - 256 * z), hl[k]);
            }

    CHECK(cudaDestroyTextureObject(tf));
    CHECK(cudaDestroySurfaceObject(sf));
    CHECK(cudaDestroySurfaceObject(su));
    CHECK(cudaDestroySurfaceObject(sv));
    CHECK(cudaDestroySurfaceObject(sl));
    CHECK(cudaFreeArray(af));
    CHECK(cudaFreeArray(au));
    CHECK(cudaFreeArray(av));
    CHECK(cudaFreeArray(al));
    CHECK(cudaFree(zero));
    CHECK(cudaFree(clamp));
    CHECK(cudaFree(tex));
    if (failures)
        return 1;
    printf("ok texture_surface\n");
    return 0;
}
