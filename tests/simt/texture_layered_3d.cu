// Layered and 3D textures: a 2D layered float array (the pattern of
// NVIDIA's simpleLayeredTexture: cudaMalloc3DArray with cudaArrayLayered,
// cudaMemcpy3D from a pitched host pointer, normalized coordinates at
// texel centres with linear filtering), a 1D layered int array read at
// integer-valued points, and a 3D float array sampled at the nearest texel
// and trilinearly.  cudaMemcpy3D copies a sub-box back from the array;
// txq reports the sizes.
#include "check.h"
#include <cmath>
#include <vector>

#define W 9
#define H 5
#define L 3
#define DW 6
#define DH 5
#define DD 4

__global__ void layered(cudaTextureObject_t t, cudaTextureObject_t t1,
                        float *out, int *out1)
{
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    float u = (x + 0.5f) / W, v = (y + 0.5f) / H;

    out[(l * H + y) * W + x] = tex2DLayered<float>(t, u, v, l);
    if (y == 0)
        out1[l * W + x] = tex1DLayered<int>(t1, x + 0.25f, l);
}

__global__ void volume(cudaTextureObject_t tp, cudaTextureObject_t tl,
                       float *outp, float *outl)
{
    int i = threadIdx.x, j = threadIdx.y, k = blockIdx.x;
    // points every half texel, from a half texel before the volume
    float x = -0.5f + i * 0.5f, y = -0.5f + j * 0.5f, z = -0.5f + k * 0.5f;
    int s = (k * 12 + j) * 14 + i;

    outp[s] = tex3D<float>(tp, x, y, z);
    outl[s] = tex3D<float>(tl, x + 0.125f, y + 0.375f, z + 0.25f);
}

// txq, the PTX texture query, through inline assembly.
__global__ void query(cudaTextureObject_t v, cudaTextureObject_t l, int *q)
{
    asm("txq.width.b32 %0, [%1];" : "=r"(q[0]) : "l"(v));
    asm("txq.height.b32 %0, [%1];" : "=r"(q[1]) : "l"(v));
    asm("txq.depth.b32 %0, [%1];" : "=r"(q[2]) : "l"(v));
    asm("txq.array_size.b32 %0, [%1];" : "=r"(q[3]) : "l"(l));
}

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static float vol(int x, int y, int z) { return (float)(x * 3 + y * 20 + z * 100); }

int main()
{
    // layered 2D, float
    std::vector<float> h(W * H * L);
    for (int i = 0; i < W * H * L; i++)
        h[i] = (float)(i * 3 % 101);
    cudaChannelFormatDesc cf = cudaCreateChannelDesc(32, 0, 0, 0,
                                                     cudaChannelFormatKindFloat);
    cudaArray_t la;
    CHECK(cudaMalloc3DArray(&la, &cf, make_cudaExtent(W, H, L), cudaArrayLayered));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(h.data(), W * sizeof(float), W, H);
    p.dstArray = la;
    p.extent = make_cudaExtent(W, H, L);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    unsigned flags = 0;
    cudaExtent ext;
    CHECK(cudaArrayGetInfo(NULL, &ext, &flags, la));
    expect_eq("layered flags", 0, (unsigned)cudaArrayLayered, flags);
    expect_eq("layered depth", 0, (long)L, (long)ext.depth);

    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = la;
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    td.filterMode = cudaFilterModeLinear;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t lt;
    CHECK(cudaCreateTextureObject(&lt, &rd, &td, NULL));

    // layered 1D, int
    std::vector<int> h1(W * L);
    for (int i = 0; i < W * L; i++)
        h1[i] = -1000 + i * 77;
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t la1;
    CHECK(cudaMalloc3DArray(&la1, &ci, make_cudaExtent(W, 0, L), cudaArrayLayered));
    p = {};
    p.srcPtr = make_cudaPitchedPtr(h1.data(), W * sizeof(int), W, 1);
    p.dstArray = la1;
    p.extent = make_cudaExtent(W, 1, L);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    rd.res.array.array = la1;
    td = {};
    td.addressMode[0] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    cudaTextureObject_t lt1;
    CHECK(cudaCreateTextureObject(&lt1, &rd, &td, NULL));

    // 3D, float, filled through a device buffer
    std::vector<float> hv(DW * DH * DD);
    for (int z = 0; z < DD; z++)
        for (int y = 0; y < DH; y++)
            for (int x = 0; x < DW; x++)
                hv[(z * DH + y) * DW + x] = vol(x, y, z);
    float *dv;
    CHECK(cudaMalloc(&dv, hv.size() * sizeof(float)));
    CHECK(cudaMemcpy(dv, hv.data(), hv.size() * sizeof(float), cudaMemcpyHostToDevice));
    cudaArray_t va;
    CHECK(cudaMalloc3DArray(&va, &cf, make_cudaExtent(DW, DH, DD), 0));
    p = {};
    p.srcPtr = make_cudaPitchedPtr(dv, DW * sizeof(float), DW, DH);
    p.dstArray = va;
    p.extent = make_cudaExtent(DW, DH, DD);
    p.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaMemcpy3D(&p));

    // a 2x2x2 box at (1,2,1) back to the host
    float box[8];
    p = {};
    p.srcArray = va;
    p.srcPos = make_cudaPos(1, 2, 1);
    p.dstPtr = make_cudaPitchedPtr(box, 2 * sizeof(float), 2, 2);
    p.extent = make_cudaExtent(2, 2, 2);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    for (int q = 0; q < 8; q++)
        expect_eq("3D box", q, vol(1 + (q & 1), 2 + (q >> 1 & 1), 1 + (q >> 2)), box[q]);

    rd.res.array.array = va;
    td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    cudaTextureObject_t vp, vl;
    CHECK(cudaCreateTextureObject(&vp, &rd, &td, NULL));
    td.filterMode = cudaFilterModeLinear;
    CHECK(cudaCreateTextureObject(&vl, &rd, &td, NULL));

    float *out, *outp, *outl;
    int *out1, *dq, hq[4];
    CHECK(cudaMalloc(&dq, sizeof hq));
    query<<<1, 1>>>(vp, lt, dq);
    CHECK(cudaMemcpy(hq, dq, sizeof hq, cudaMemcpyDeviceToHost));
    expect_eq("txq.width", 0, DW, hq[0]);
    expect_eq("txq.height", 0, DH, hq[1]);
    expect_eq("txq.depth", 0, DD, hq[2]);
    expect_eq("txq.array_size", 0, L, hq[3]);
    CHECK(cudaFree(dq));
    const int NV = 14 * 12 * 10;
    CHECK(cudaMalloc(&out, W * H * L * sizeof(float)));
    CHECK(cudaMalloc(&out1, W * L * sizeof(int)));
    CHECK(cudaMalloc(&outp, NV * sizeof(float)));
    CHECK(cudaMalloc(&outl, NV * sizeof(float)));
    layered<<<L, dim3(W, H)>>>(lt, lt1, out, out1);
    volume<<<10, dim3(14, 12)>>>(vp, vl, outp, outl);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> r(W * H * L), rp(NV), rl(NV);
    std::vector<int> r1(W * L);
    CHECK(cudaMemcpy(r.data(), out, r.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(r1.data(), out1, r1.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rp.data(), outp, NV * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rl.data(), outl, NV * sizeof(float), cudaMemcpyDeviceToHost));

    // texel centres: the filter's weights are exactly 0 and 1
    for (int i = 0; i < W * H * L; i++)
        expect_eq("layered 2D", i, h[i], r[i]);
    for (int i = 0; i < W * L; i++)
        expect_eq("layered 1D", i, h1[i], r1[i]);
    for (int k = 0; k < 10; k++)
        for (int j = 0; j < 12; j++)
            for (int i = 0; i < 14; i++) {
                int s = (k * 12 + j) * 14 + i;
                int x = (int)std::floor(-0.5 + i * 0.5);
                int y = (int)std::floor(-0.5 + j * 0.5);
                int z = (int)std::floor(-0.5 + k * 0.5);
                expect_eq("3D point", s, vol(clampi(x, DW), clampi(y, DH), clampi(z, DD)), rp[s]);
                // trilinear: the texel values are linear in x, y, z, so
                // inside the volume the filter returns the linear function
                // at the quantized sample point; at the clamped faces it
                // flattens.  The weights here are multiples of 1/8.
                double c[3] = {-0.5 + i * 0.5 + 0.125, -0.5 + j * 0.5 + 0.375,
                               -0.5 + k * 0.5 + 0.25};
                int n[3] = {DW, DH, DD};
                double e[3];
                for (int d = 0; d < 3; d++) {
                    double xb = c[d] - 0.5, f = std::floor(xb), a = xb - f;
                    int i0 = clampi((int)f, n[d]), i1 = clampi((int)f + 1, n[d]);
                    e[d] = (1 - a) * i0 + a * i1;
                }
                double want = e[0] * 3 + e[1] * 20 + e[2] * 100;
                if (std::fabs(want - rl[s]) > 1e-3)
                    expect_eq("3D trilinear", s, (float)want, rl[s]);
            }

    CHECK(cudaDestroyTextureObject(lt));
    CHECK(cudaDestroyTextureObject(lt1));
    CHECK(cudaDestroyTextureObject(vp));
    CHECK(cudaDestroyTextureObject(vl));
    CHECK(cudaFreeArray(la));
    CHECK(cudaFreeArray(la1));
    CHECK(cudaFreeArray(va));
    CHECK(cudaFree(dv));
    CHECK(cudaFree(out));
    CHECK(cudaFree(out1));
    CHECK(cudaFree(outp));
    CHECK(cudaFree(outl));
    if (failures)
        return 1;
    printf("ok texture_layered_3d\n");
    return 0;
}
