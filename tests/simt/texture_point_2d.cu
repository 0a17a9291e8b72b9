// 2D textures sampled at the nearest texel: a float4 CUDA array and a
// uchar4 one read both as normalized floats and as integers, filled with
// cudaMemcpy2DToArray, and a float texture over pitched linear memory.
// Unnormalized coordinates with clamp (and border for the pitched one),
// sample points at quarter-texel steps inside and outside the texture;
// every result is compared exactly with the texel the host picks.
#include "check.h"
#include <cmath>
#include <cstdlib>
#include <vector>

#define W 11
#define H 7
#define NX 64   // sample columns: x = -2.5 + i / 4
#define NY 40   // sample rows:    y = -2.0 + j / 4

__global__ void sample_f4(cudaTextureObject_t t, float4 *out)
{
    int i = threadIdx.x, j = blockIdx.x;
    float x = -2.5f + i * 0.25f, y = -2.0f + j * 0.25f;

    out[j * NX + i] = tex2D<float4>(t, x, y);
}

__global__ void sample_u4(cudaTextureObject_t tn, cudaTextureObject_t te,
                          float4 *outn, uchar4 *oute)
{
    int i = threadIdx.x, j = blockIdx.x;
    float x = -2.5f + i * 0.25f, y = -2.0f + j * 0.25f;

    outn[j * NX + i] = tex2D<float4>(tn, x, y);
    oute[j * NX + i] = tex2D<uchar4>(te, x, y);
}

__global__ void sample_f1(cudaTextureObject_t t, float *out)
{
    int i = threadIdx.x, j = blockIdx.x;
    float x = -2.5f + i * 0.25f, y = -2.0f + j * 0.25f;

    out[j * NX + i] = tex2D<float>(t, x, y);
}

static int clampi(int v, int n) { return v < 0 ? 0 : v >= n ? n - 1 : v; }

static cudaTextureObject_t make_tex(cudaResourceDesc *res, int mode,
                                    cudaTextureReadMode rm)
{
    cudaTextureDesc td = {};
    cudaTextureObject_t t = 0;

    td.addressMode[0] = td.addressMode[1] = (cudaTextureAddressMode)mode;
    td.filterMode = cudaFilterModePoint;
    td.readMode = rm;
    td.normalizedCoords = 0;
    if (cudaCreateTextureObject(&t, res, &td, NULL) != cudaSuccess)
        return 0;
    return t;
}

int main()
{
    std::vector<float4> hf(W * H);
    std::vector<uchar4> hu(W * H);
    std::vector<float> hp(W * H);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int k = y * W + x;
            hf[k] = make_float4(x, y, 100.0f * y + x, -0.5f * k);
            hu[k] = make_uchar4((x * 37 + y * 11) & 255, (k * 53) & 255,
                                255 - k, k == 0 ? 255 : (k * 7) & 255);
            hp[k] = 1000.0f + k;
        }

    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float4>();
    cudaChannelFormatDesc cu = cudaCreateChannelDesc<uchar4>();
    cudaArray_t af, au;
    CHECK(cudaMallocArray(&af, &cf, W, H));
    CHECK(cudaMallocArray(&au, &cu, W, H));
    CHECK(cudaMemcpy2DToArray(af, 0, 0, hf.data(), W * sizeof(float4),
                              W * sizeof(float4), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(au, 0, 0, hu.data(), W * sizeof(uchar4),
                              W * sizeof(uchar4), H, cudaMemcpyHostToDevice));

    // the array reads back as written, from an offset too
    std::vector<uchar4> back(W * H);
    CHECK(cudaMemcpy2DFromArray(back.data(), W * sizeof(uchar4), au, 0, 0,
                                W * sizeof(uchar4), H, cudaMemcpyDeviceToHost));
    for (int k = 0; k < W * H; k++)
        expect_eq("readback", k, hu[k].y, back[k].y);
    float4 corner;
    CHECK(cudaMemcpy2DFromArray(&corner, sizeof corner, af,
                                3 * sizeof(float4), 2, sizeof(float4), 1,
                                cudaMemcpyDeviceToHost));
    expect_eq("offset readback", 0, 203.0f, corner.z);

    cudaChannelFormatDesc got;
    cudaExtent ext;
    unsigned flags = 99;
    CHECK(cudaArrayGetInfo(&got, &ext, &flags, au));
    expect_eq("info x", 0, 8, got.x);
    expect_eq("info w", 0, 8, got.w);
    expect_eq("info kind", 0, (int)cudaChannelFormatKindUnsigned, (int)got.f);
    expect_eq("info width", 0, (long)W, (long)ext.width);
    expect_eq("info height", 0, (long)H, (long)ext.height);
    expect_eq("info depth", 0, 0L, (long)ext.depth);
    expect_eq("info flags", 0, 0u, flags);

    cudaResourceDesc rf = {}, ru = {};
    rf.resType = cudaResourceTypeArray;
    rf.res.array.array = af;
    ru.resType = cudaResourceTypeArray;
    ru.res.array.array = au;
    cudaTextureObject_t tf = make_tex(&rf, cudaAddressModeClamp,
                                      cudaReadModeElementType);
    cudaTextureObject_t tn = make_tex(&ru, cudaAddressModeClamp,
                                      cudaReadModeNormalizedFloat);
    cudaTextureObject_t te = make_tex(&ru, cudaAddressModeClamp,
                                      cudaReadModeElementType);
    if (!tf || !tn || !te) {
        fprintf(stderr, "FAIL cudaCreateTextureObject\n");
        return 1;
    }
    cudaResourceDesc again;
    CHECK(cudaGetTextureObjectResourceDesc(&again, tn));
    expect_eq("resource desc", 0, (void *)au, (void *)again.res.array.array);

    // pitched linear memory, border addressing
    float *dp;
    size_t pitch;
    CHECK(cudaMallocPitch(&dp, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(dp, pitch, hp.data(), W * sizeof(float),
                       W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc rp = {};
    rp.resType = cudaResourceTypePitch2D;
    rp.res.pitch2D.devPtr = dp;
    rp.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    rp.res.pitch2D.width = W;
    rp.res.pitch2D.height = H;
    rp.res.pitch2D.pitchInBytes = pitch;
    cudaTextureObject_t tp = make_tex(&rp, cudaAddressModeBorder,
                                      cudaReadModeElementType);
    if (!tp) {
        fprintf(stderr, "FAIL cudaCreateTextureObject (pitch2D)\n");
        return 1;
    }

    float4 *of, *on;
    uchar4 *oe;
    float *op;
    CHECK(cudaMalloc(&of, NX * NY * sizeof(float4)));
    CHECK(cudaMalloc(&on, NX * NY * sizeof(float4)));
    CHECK(cudaMalloc(&oe, NX * NY * sizeof(uchar4)));
    CHECK(cudaMalloc(&op, NX * NY * sizeof(float)));
    sample_f4<<<NY, NX>>>(tf, of);
    sample_u4<<<NY, NX>>>(tn, te, on, oe);
    sample_f1<<<NY, NX>>>(tp, op);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<float4> rf4(NX * NY), rn4(NX * NY);
    std::vector<uchar4> re4(NX * NY);
    std::vector<float> rp1(NX * NY);
    CHECK(cudaMemcpy(rf4.data(), of, rf4.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rn4.data(), on, rn4.size() * sizeof(float4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(re4.data(), oe, re4.size() * sizeof(uchar4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rp1.data(), op, rp1.size() * sizeof(float), cudaMemcpyDeviceToHost));

    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            int s = j * NX + i;
            // x = -2.5 + i/4 exactly; the nearest texel is floor(x)
            int fx = (int)std::floor(-2.5 + i * 0.25);
            int fy = (int)std::floor(-2.0 + j * 0.25);
            int k = clampi(fy, H) * W + clampi(fx, W);
            expect_eq("float4.x", s, hf[k].x, rf4[s].x);
            expect_eq("float4.y", s, hf[k].y, rf4[s].y);
            expect_eq("float4.z", s, hf[k].z, rf4[s].z);
            expect_eq("float4.w", s, hf[k].w, rf4[s].w);
            expect_eq("unorm.x", s, hu[k].x / 255.0f, rn4[s].x);
            expect_eq("unorm.y", s, hu[k].y / 255.0f, rn4[s].y);
            expect_eq("unorm.z", s, hu[k].z / 255.0f, rn4[s].z);
            expect_eq("unorm.w", s, hu[k].w / 255.0f, rn4[s].w);
            expect_eq("uchar4.x", s, (int)hu[k].x, (int)re4[s].x);
            expect_eq("uchar4.y", s, (int)hu[k].y, (int)re4[s].y);
            expect_eq("uchar4.z", s, (int)hu[k].z, (int)re4[s].z);
            expect_eq("uchar4.w", s, (int)hu[k].w, (int)re4[s].w);
            bool in = fx >= 0 && fx < W && fy >= 0 && fy < H;
            expect_eq("pitch2D border", s, in ? hp[fy * W + fx] : 0.0f, rp1[s]);
        }

    CHECK(cudaDestroyTextureObject(tf));
    CHECK(cudaDestroyTextureObject(tn));
    CHECK(cudaDestroyTextureObject(te));
    CHECK(cudaDestroyTextureObject(tp));
    CHECK(cudaFreeArray(af));
    CHECK(cudaFreeArray(au));
    CHECK(cudaFree(dp));
    CHECK(cudaFree(of));
    CHECK(cudaFree(on));
    CHECK(cudaFree(oe));
    CHECK(cudaFree(op));
    if (failures)
        return 1;
    printf("ok texture_point_2d\n");
    return 0;
}
