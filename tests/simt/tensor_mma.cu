// mma.sync written out in inline PTX, with fragments that each lane builds
// itself from the row/column formulas of the PTX ISA ("Matrix Fragments for
// mma.m16n8k16 / mma.m16n8k8", groupID = laneid >> 2, threadID_in_group =
// laneid % 4): m16n8k16 with half and bfloat16 inputs and float
// accumulators, m16n8k16 with half accumulators, and m16n8k8 with half
// inputs.  Then a 16x16x32 GEMM whose fragments come from shared memory
// through ldmatrix (.x4 for A, .x2.trans for a row-major B).  Inputs are
// small integers, so the results must equal the host's exactly.
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#include "check.h"

typedef unsigned short u16;
typedef unsigned int u32;

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define HAVE_MMA 1
#else
#define HAVE_MMA 0
#endif

#if HAVE_MMA
// Two 16-bit elements in one register, the lower-numbered in the low half.
static __device__ u32 pack(u16 lo, u16 hi)
{
    return (u32)lo | ((u32)hi << 16);
}
#endif

// A: 16 x k row-major 16-bit values; B: k x 8 row-major; C, D: 16 x 8
// float, row-major.  kind 0: m16n8k16 .f16, 1: m16n8k16 .bf16, 2: m16n8k8
// .f16.
__global__ void mma_f32(const u16 *a, const u16 *b, const float *c, float *d, int kind)
{
#if HAVE_MMA
    int lane = threadIdx.x % 32, g = lane >> 2, t = lane % 4;
    int k = kind == 2 ? 8 : 16;
    u32 ra[4], rb[2];
    float rc[4], rd[4];

    for (int i = 0; i < (k == 16 ? 8 : 4); i += 2) {
        int row = (k == 16 ? (i < 2 || (i >= 4 && i < 6)) : i < 2) ? g : g + 8;
        int col = t * 2 + (i & 1) + (k == 16 && i >= 4 ? 8 : 0);
        ra[i / 2] = pack(a[row * k + col], a[row * k + col + 1]);
    }
    for (int i = 0; i < (k == 16 ? 4 : 2); i += 2) {
        int row = k == 16 ? t * 2 + (i & 1) + (i >= 2 ? 8 : 0) : t * 2 + i;
        rb[i / 2] = pack(b[row * 8 + g], b[(row + 1) * 8 + g]);
    }
    for (int i = 0; i < 4; i++)
        rc[i] = c[(i < 2 ? g : g + 8) * 8 + t * 2 + (i & 1)];
    if (kind == 0)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
                       "r"(rb[0]), "r"(rb[1]),
                       "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
    else if (kind == 1)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
                       "r"(rb[0]), "r"(rb[1]),
                       "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
    else
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                     "{%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};"
                     : "=f"(rd[0]), "=f"(rd[1]), "=f"(rd[2]), "=f"(rd[3])
                     : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]),
                       "f"(rc[0]), "f"(rc[1]), "f"(rc[2]), "f"(rc[3]));
    for (int i = 0; i < 4; i++)
        d[(i < 2 ? g : g + 8) * 8 + t * 2 + (i & 1)] = rd[i];
#endif
}

// m16n8k16 with half accumulators: C and D are 16 x 8 halves, two to a
// register.
__global__ void mma_f16(const u16 *a, const u16 *b, const u16 *c, u16 *d)
{
#if HAVE_MMA
    int lane = threadIdx.x % 32, g = lane >> 2, t = lane % 4;
    u32 ra[4], rb[2], rc[2], rd[2];

    for (int i = 0; i < 8; i += 2) {
        int row = (i < 2 || (i >= 4 && i < 6)) ? g : g + 8;
        int col = t * 2 + (i & 1) + (i >= 4 ? 8 : 0);
        ra[i / 2] = pack(a[row * 16 + col], a[row * 16 + col + 1]);
    }
    for (int i = 0; i < 4; i += 2) {
        int row = t * 2 + (i & 1) + (i >= 2 ? 8 : 0);
        rb[i / 2] = pack(b[row * 8 + g], b[(row + 1) * 8 + g]);
    }
    for (int i = 0; i < 4; i += 2) {
        int row = i < 2 ? g : g + 8, col = t * 2;
        rc[i / 2] = pack(c[row * 8 + col], c[row * 8 + col + 1]);
    }
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
                 "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                 : "=r"(rd[0]), "=r"(rd[1])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
                   "r"(rb[0]), "r"(rb[1]), "r"(rc[0]), "r"(rc[1]));
    for (int i = 0; i < 4; i += 2) {
        int row = i < 2 ? g : g + 8, col = t * 2;
        d[row * 8 + col] = (u16)(rd[i / 2] & 0xffff);
        d[row * 8 + col + 1] = (u16)(rd[i / 2] >> 16);
    }
#endif
}

// D (16 x 16 float, row-major) = A (16 x 32 half, row-major) * B (32 x 16
// half, row-major): tiles staged in shared memory, fragments loaded with
// ldmatrix, two k steps times two n halves of m16n8k16.
__global__ void gemm_ldmatrix(const u16 *a, const u16 *b, float *d)
{
#if HAVE_MMA
    __shared__ __align__(16) u16 sa[16][32 + 8];
    __shared__ __align__(16) u16 sb[32][16 + 8];
    int lane = threadIdx.x, g = lane >> 2, t = lane % 4;
    float acc[2][4] = {};

    for (int i = lane; i < 16 * 32; i += 32)
        sa[i / 32][i % 32] = a[i];
    for (int i = lane; i < 32 * 16; i += 32)
        sb[i / 16][i % 16] = b[i];
    __syncwarp();
    for (int k0 = 0; k0 < 32; k0 += 16) {
        u32 ra[4];
        // matrices 0..3: rows 0-7 / 8-15 of columns k0..k0+7, then of
        // k0+8..k0+15; lane l gives the address of row l % 16.
        u32 pa = (u32)__cvta_generic_to_shared(&sa[lane % 16][k0 + (lane / 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(ra[0]), "=r"(ra[1]), "=r"(ra[2]), "=r"(ra[3])
                     : "r"(pa));
        for (int nh = 0; nh < 2; nh++) {
            u32 rb[2];
            // rows k0..k0+15 of B, columns 8*nh..8*nh+7, transposed
            u32 pb = (u32)__cvta_generic_to_shared(&sb[k0 + lane % 16][nh * 8]);
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                         : "=r"(rb[0]), "=r"(rb[1])
                         : "r"(pb));
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                         "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(acc[nh][0]), "+f"(acc[nh][1]), "+f"(acc[nh][2]),
                           "+f"(acc[nh][3])
                         : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]),
                           "r"(rb[0]), "r"(rb[1]));
        }
    }
    for (int nh = 0; nh < 2; nh++)
        for (int i = 0; i < 4; i++)
            d[(i < 2 ? g : g + 8) * 16 + nh * 8 + t * 2 + (i & 1)] = acc[nh][i];
#endif
}

static u16 bits16(half h)
{
    u16 u;
    memcpy(&u, &h, 2);
    return u;
}

static u16 bits16(__nv_bfloat16 h)
{
    u16 u;
    memcpy(&u, &h, 2);
    return u;
}

// Integers in [-8, 8]; modulo a prime above 16, so two elements of a row
// or of a column never hold the same value and a misplaced element shows.
static float val_a(int r, int c) { return (float)((r * 5 + c * 3) % 17 - 8); }
static float val_b(int r, int c) { return (float)((r * 3 + c * 5) % 17 - 8); }
static float val_c(int r, int c) { return (float)((r * 7 + c * 3) % 17 - 8); }

enum { EL = 32 * 32 };

struct Bufs {
    u16 *a, *b, *c16, *d16;
    float *c, *d;
};

// Fills A (16 x k), B (k x n) and C (16 x n) with the values above, as half
// or bfloat16 bits.
static int upload(Bufs &bf, int k, int n, bool bf16)
{
    static u16 ha[EL], hb[EL], hc16[EL];
    static float hc[EL];
    for (int r = 0; r < 16; r++)
        for (int q = 0; q < k; q++)
            ha[r * k + q] = bf16 ? bits16(__float2bfloat16(val_a(r, q)))
                                 : bits16(__float2half(val_a(r, q)));
    for (int q = 0; q < k; q++)
        for (int j = 0; j < n; j++)
            hb[q * n + j] = bf16 ? bits16(__float2bfloat16(val_b(q, j)))
                                 : bits16(__float2half(val_b(q, j)));
    for (int r = 0; r < 16; r++)
        for (int j = 0; j < n; j++) {
            hc[r * n + j] = val_c(r, j);
            hc16[r * n + j] = bits16(__float2half(val_c(r, j)));
        }
    CHECK(cudaMemcpy(bf.a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(bf.b, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(bf.c, hc, sizeof hc, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(bf.c16, hc16, sizeof hc16, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(bf.d, 0xff, EL * sizeof(float)));
    CHECK(cudaMemset(bf.d16, 0xff, EL * sizeof(u16)));
    return 0;
}

static float want(int r, int j, int k, bool with_c)
{
    double s = with_c ? val_c(r, j) : 0.0;
    for (int q = 0; q < k; q++)
        s += (double)val_a(r, q) * val_b(q, j);
    return (float)s;
}

static int check_f32(Bufs &bf, const char *what, int k, int n, bool with_c)
{
    static float hd[EL];
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hd, bf.d, sizeof hd, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 16; r++)
        for (int j = 0; j < n; j++)
            expect_eq(what, r * n + j, want(r, j, k, with_c), hd[r * n + j]);
    return 0;
}

int main(void)
{
    // bfloat16, tf32 and mma.sync need compute capability 8.0.
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 8) {
        printf("ok tensor_mma (skipped: compute capability %d.%d)\n", prop.major, prop.minor);
        return 0;
    }
    Bufs bf;
    CHECK(cudaMalloc(&bf.a, EL * sizeof(u16)));
    CHECK(cudaMalloc(&bf.b, EL * sizeof(u16)));
    CHECK(cudaMalloc(&bf.c16, EL * sizeof(u16)));
    CHECK(cudaMalloc(&bf.d16, EL * sizeof(u16)));
    CHECK(cudaMalloc(&bf.c, EL * sizeof(float)));
    CHECK(cudaMalloc(&bf.d, EL * sizeof(float)));

    static const char *const names[] = {"m16n8k16 f16", "m16n8k16 bf16", "m16n8k8 f16"};
    for (int kind = 0; kind < 3; kind++) {
        int k = kind == 2 ? 8 : 16;
        if (upload(bf, k, 8, kind == 1))
            return 1;
        mma_f32<<<1, 32>>>(bf.a, bf.b, bf.c, bf.d, kind);
        if (check_f32(bf, names[kind], k, 8, true))
            return 1;
    }

    if (upload(bf, 16, 8, false))
        return 1;
    mma_f16<<<1, 32>>>(bf.a, bf.b, bf.c16, bf.d16);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    static u16 hd16[EL];
    CHECK(cudaMemcpy(hd16, bf.d16, sizeof hd16, cudaMemcpyDeviceToHost));
    for (int r = 0; r < 16; r++)
        for (int j = 0; j < 8; j++)
            expect_eq("m16n8k16 f16 accumulate", r * 8 + j,
                      bits16(__float2half(want(r, j, 16, true))), hd16[r * 8 + j]);

    if (upload(bf, 32, 16, false))
        return 1;
    gemm_ldmatrix<<<1, 32>>>(bf.a, bf.b, bf.d);
    if (check_f32(bf, "ldmatrix gemm", 32, 16, false))
        return 1;

    CHECK(cudaFree(bf.a));
    CHECK(cudaFree(bf.b));
    CHECK(cudaFree(bf.c16));
    CHECK(cudaFree(bf.d16));
    CHECK(cudaFree(bf.c));
    CHECK(cudaFree(bf.d));
    if (failures)
        return 1;
    printf("ok tensor_mma\n");
    return 0;
}
