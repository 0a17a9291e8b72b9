// Bilinear filtering of a 2D float texture with normalized coordinates and
// wrap addressing, and of a ushort2 texture read as normalized floats with
// mirror addressing.  The host filters as the CUDA programming guide's
// texture fetching appendix specifies: x*N - 0.5, the two nearest texels
// along each axis, and weights held in 9-bit fixed point with 8 fractional
// bits.  Results agree within the weight quantum (1/256 of the value range
// per axis), far closer than nearest-point sampling or clamping would.
#include "check.h"
#include <cmath>
#include <vector>

#define W 8
#define H 6
#define NS 48   // samples per axis: u = -0.7 + i * 0.0517

__global__ void sample(cudaTextureObject_t t, cudaTextureObject_t m,
                       float *out, float2 *outm)
{
    int i = threadIdx.x, j = blockIdx.x;
    float u = -0.7f + i * 0.0517f, v = -0.45f + j * 0.0431f;

    out[j * NS + i] = tex2D<float>(t, u, v);
    outm[j * NS + i] = tex2D<float2>(m, u, v);
}

static float tw(int i, int j)  // texel values, 0..16
{
    return (float)((i * 7 + j * 5 + (i * j) % 3) % 17);
}

static int wrap(int i, int n) { i %= n; return i < 0 ? i + n : i; }

static int mirror(int i, int n)
{
    int p = i % (2 * n);
    if (p < 0)
        p += 2 * n;
    return p < n ? p : 2 * n - 1 - p;
}

// Axis setup of the appendix: texel indices and the quantized weight.
static void axis(float c, int n, int *i0, double *a)
{
    double x = (double)c * n - 0.5;
    double f = std::floor(x);
    *i0 = (int)f;
    *a = std::round((x - f) * 256.0) / 256.0;
}

int main()
{
    std::vector<float> h(W * H);
    std::vector<ushort2> hm(W * H);
    for (int j = 0; j < H; j++)
        for (int i = 0; i < W; i++) {
            h[j * W + i] = tw(i, j);
            hm[j * W + i] = make_ushort2((unsigned short)(i * 9000 + j * 1000),
                                         (unsigned short)(65535 - j * 12000));
        }

    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaChannelFormatDesc cm = cudaCreateChannelDesc<ushort2>();
    cudaArray_t a, am;
    CHECK(cudaMallocArray(&a, &cd, W, H));
    CHECK(cudaMallocArray(&am, &cm, W, H));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * sizeof(float),
                              W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(am, 0, 0, hm.data(), W * sizeof(ushort2),
                              W * sizeof(ushort2), H, cudaMemcpyHostToDevice));

    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));

    rd.res.array.array = am;
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeMirror;
    td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t m;
    CHECK(cudaCreateTextureObject(&m, &rd, &td, NULL));

    float *out;
    float2 *outm;
    CHECK(cudaMalloc(&out, NS * NS * sizeof(float)));
    CHECK(cudaMalloc(&outm, NS * NS * sizeof(float2)));
    sample<<<NS, NS>>>(t, m, out, outm);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> r(NS * NS);
    std::vector<float2> rm(NS * NS);
    CHECK(cudaMemcpy(r.data(), out, r.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rm.data(), outm, rm.size() * sizeof(float2), cudaMemcpyDeviceToHost));

    const double tol = 2.0 * 16.0 / 256.0;      // value range 16
    const double tolm = 2.0 / 256.0;            // normalized range 1
    for (int j = 0; j < NS; j++)
        for (int i = 0; i < NS; i++) {
            float u = -0.7f + i * 0.0517f, v = -0.45f + j * 0.0431f;
            int x0, y0;
            double ax, ay;
            axis(u, W, &x0, &ax);
            axis(v, H, &y0, &ay);
            double e = 0, ex = 0, ey = 0;
            for (int c = 0; c < 4; c++) {
                int dx = c & 1, dy = c >> 1;
                double w = (dx ? ax : 1 - ax) * (dy ? ay : 1 - ay);
                e += w * h[wrap(y0 + dy, H) * W + wrap(x0 + dx, W)];
                ushort2 q = hm[mirror(y0 + dy, H) * W + mirror(x0 + dx, W)];
                ex += w * (q.x / 65535.0);
                ey += w * (q.y / 65535.0);
            }
            int s = j * NS + i;
            if (std::fabs(e - r[s]) > tol)
                expect_eq("bilinear wrap", s, (float)e, r[s]);
            if (std::fabs(ex - rm[s].x) > tolm)
                expect_eq("bilinear mirror.x", s, (float)ex, rm[s].x);
            if (std::fabs(ey - rm[s].y) > tolm)
                expect_eq("bilinear mirror.y", s, (float)ey, rm[s].y);
        }

    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaDestroyTextureObject(m));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFreeArray(am));
    CHECK(cudaFree(out));
    CHECK(cudaFree(outm));
    if (failures)
        return 1;
    printf("ok texture_bilinear\n");
    return 0;
}
