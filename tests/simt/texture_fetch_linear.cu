// tex1Dfetch through texture objects over linear device memory: int and
// float4 elements read as they are, and unsigned shorts read as normalized
// floats.  Indices are computed in the kernel (a permutation), so every
// result is one element the host can name.
#include "check.h"
#include <vector>

#define N 300

__global__ void gather(cudaTextureObject_t ti, cudaTextureObject_t tf,
                       cudaTextureObject_t ts, int *oi, float4 *of, float *os)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= N)
        return;
    int src = (k * 7 + 3) % N;   // 7 is prime to N
    oi[k] = tex1Dfetch<int>(ti, src);
    of[k] = tex1Dfetch<float4>(tf, N - 1 - k);
    os[k] = tex1Dfetch<float>(ts, src);
}

static cudaTextureObject_t linear_tex(void *p, size_t bytes,
                                      cudaChannelFormatDesc d,
                                      cudaTextureReadMode rm)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = p;
    rd.res.linear.desc = d;
    rd.res.linear.sizeInBytes = bytes;
    cudaTextureDesc td = {};
    td.readMode = rm;
    cudaTextureObject_t t = 0;
    if (cudaCreateTextureObject(&t, &rd, &td, NULL) != cudaSuccess)
        return 0;
    return t;
}

int main()
{
    std::vector<int> hi(N);
    std::vector<float4> hf(N);
    std::vector<unsigned short> hs(N);
    for (int i = 0; i < N; i++) {
        hi[i] = i * i - 40000;
        hf[i] = make_float4(i * 0.5f, -i, 1.0f / (i + 1), 1e30f * (i & 1));
        hs[i] = (unsigned short)(i * 218);
    }
    int *di, *oi;
    float4 *df, *of;
    unsigned short *ds;
    float *os;
    CHECK(cudaMalloc(&di, N * sizeof(int)));
    CHECK(cudaMalloc(&df, N * sizeof(float4)));
    CHECK(cudaMalloc(&ds, N * sizeof(unsigned short)));
    CHECK(cudaMalloc(&oi, N * sizeof(int)));
    CHECK(cudaMalloc(&of, N * sizeof(float4)));
    CHECK(cudaMalloc(&os, N * sizeof(float)));
    CHECK(cudaMemcpy(di, hi.data(), N * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(df, hf.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ds, hs.data(), N * sizeof(unsigned short), cudaMemcpyHostToDevice));

    cudaTextureObject_t ti = linear_tex(di, N * sizeof(int),
                                        cudaCreateChannelDesc<int>(),
                                        cudaReadModeElementType);
    cudaTextureObject_t tf = linear_tex(df, N * sizeof(float4),
                                        cudaCreateChannelDesc<float4>(),
                                        cudaReadModeElementType);
    cudaTextureObject_t ts = linear_tex(ds, N * sizeof(unsigned short),
                                        cudaCreateChannelDesc<unsigned short>(),
                                        cudaReadModeNormalizedFloat);
    if (!ti || !tf || !ts) {
        fprintf(stderr, "FAIL cudaCreateTextureObject\n");
        return 1;
    }
    gather<<<(N + 127) / 128, 128>>>(ti, tf, ts, oi, of, os);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    std::vector<int> ri(N);
    std::vector<float4> rf(N);
    std::vector<float> rs(N);
    CHECK(cudaMemcpy(ri.data(), oi, N * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rf.data(), of, N * sizeof(float4), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(rs.data(), os, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int k = 0; k < N; k++) {
        int src = (k * 7 + 3) % N;
        expect_eq("int", k, hi[src], ri[k]);
        expect_eq("float4.x", k, hf[N - 1 - k].x, rf[k].x);
        expect_eq("float4.y", k, hf[N - 1 - k].y, rf[k].y);
        expect_eq("float4.z", k, hf[N - 1 - k].z, rf[k].z);
        expect_eq("float4.w", k, hf[N - 1 - k].w, rf[k].w);
        expect_eq("ushort unorm", k, hs[src] / 65535.0f, rs[k]);
    }
    CHECK(cudaDestroyTextureObject(ti));
    CHECK(cudaDestroyTextureObject(tf));
    CHECK(cudaDestroyTextureObject(ts));
    CHECK(cudaFree(di));
    CHECK(cudaFree(df));
    CHECK(cudaFree(ds));
    CHECK(cudaFree(oi));
    CHECK(cudaFree(of));
    CHECK(cudaFree(os));
    if (failures)
        return 1;
    printf("ok texture_fetch_linear\n");
    return 0;
}
