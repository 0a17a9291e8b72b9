// WMMA (mma.h) 16x16x16 with half inputs and float accumulators: a 64x48x32
// GEMM with A and B each row- or column-major, loaded straight from global
// memory and, in a second kernel, staged through padded shared memory and
// stored back through it.  Between the k loop and the store every element
// of the accumulator fragment is scaled, the way epilogues do, and the
// accumulator starts from a loaded C tile.  The inputs are small integers,
// so every product and sum is exact and the result must equal the host's
// double-precision triple loop exactly, whatever the hardware's summation
// order.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>

#include "check.h"

using namespace nvcuda;

enum { M = 64, N = 48, K = 32, T = 16 };

static __host__ __device__ int a_index(bool col, int m, int k)
{
    return col ? k * M + m : m * K + k;
}

static __host__ __device__ int b_index(bool col, int k, int n)
{
    return col ? n * K + k : k * N + n;
}

// One warp per 16x16 tile of D = scale * (A * B) + C, fragments loaded from
// global memory.  D is stored row-major, or column-major when d_col.
template <typename LA, typename LB>
__global__ void gemm_global(const half *a, const half *b, const float *c,
                            float *d, float scale, bool d_col)
{
    const bool a_col = std::is_same<LA, wmma::col_major>::value;
    const bool b_col = std::is_same<LB, wmma::col_major>::value;
    int tm = blockIdx.y * T, tn = blockIdx.x * T;
    wmma::fragment<wmma::matrix_a, T, T, T, half, LA> fa;
    wmma::fragment<wmma::matrix_b, T, T, T, half, LB> fb;
    wmma::fragment<wmma::accumulator, T, T, T, float> acc;

    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += T) {
        wmma::load_matrix_sync(fa, a + a_index(a_col, tm, k0), a_col ? M : K);
        wmma::load_matrix_sync(fb, b + b_index(b_col, k0, tn), b_col ? K : N);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] *= scale;
    wmma::fragment<wmma::accumulator, T, T, T, float> cf;
    wmma::load_matrix_sync(cf, c + tm * N + tn, N, wmma::mem_row_major);
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] += cf.x[i];
    if (d_col)
        wmma::store_matrix_sync(d + tn * M + tm, acc, M, wmma::mem_col_major);
    else
        wmma::store_matrix_sync(d + tm * N + tn, acc, N, wmma::mem_row_major);
}

enum { PAD = 8, WARPS = 4 };

// A block of four warps computes a 32x32 block of D = scale * (A * B) with
// A and B row-major: all threads copy a 32x16 slice of A and a 16x32 slice
// of B into padded shared memory, each warp multiplies its 16x16 tile from
// there, and the result goes through shared memory on its way out.  N = 48
// is not a multiple of 32: the right-hand warps of the last column of
// blocks have no tile and only help with the copies.
__global__ void gemm_shared(const half *a, const half *b, float *d, float scale)
{
    __shared__ __align__(32) half sa[32][T + PAD];
    __shared__ __align__(32) half sb[T][32 + PAD];
    __shared__ __align__(32) float sd[WARPS][T][T + 4];
    int warp = threadIdx.x / 32, bm = blockIdx.y * 32, bn = blockIdx.x * 32;
    int wm = (warp / 2) * T, wn = (warp % 2) * T;
    bool active = bn + wn < N;
    wmma::fragment<wmma::matrix_a, T, T, T, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, T, T, T, half, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, T, T, T, float> acc;

    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += T) {
        for (int i = threadIdx.x; i < 32 * T; i += blockDim.x) {
            int r = i / T, col = i % T;
            sa[r][col] = a[(bm + r) * K + k0 + col];
        }
        for (int i = threadIdx.x; i < T * 32; i += blockDim.x) {
            int r = i / 32, col = i % 32;
            sb[r][col] = bn + col < N ? b[(k0 + r) * N + bn + col] : __float2half(0.0f);
        }
        __syncthreads();
        if (active) {
            wmma::load_matrix_sync(fa, &sa[wm][0], T + PAD);
            wmma::load_matrix_sync(fb, &sb[0][wn], 32 + PAD);
            wmma::mma_sync(acc, fa, fb, acc);
        }
        __syncthreads();
    }
    if (!active)
        return;
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] = acc.x[i] * scale;
    wmma::store_matrix_sync(&sd[warp][0][0], acc, T + 4, wmma::mem_row_major);
    __syncwarp();
    for (int i = threadIdx.x % 32; i < T * T; i += 32) {
        int r = i / T, col = i % T;
        d[(bm + wm + r) * N + bn + wn + col] = sd[warp][r][col];
    }
}

static half ha[M * K], hb[K * N];
static float fa_[M * K], fb_[K * N], hc[M * N], hd[M * N];

static void fill(bool a_col, bool b_col)
{
    for (int m = 0; m < M; m++)
        for (int k = 0; k < K; k++) {
            float v = (float)((m * 7 + k * 3) % 9 - 4);
            fa_[m * K + k] = v;
            ha[a_index(a_col, m, k)] = __float2half(v);
        }
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            float v = (float)((k * 5 + n * 11) % 7 - 3);
            fb_[k * N + n] = v;
            hb[b_index(b_col, k, n)] = __float2half(v);
        }
    for (int i = 0; i < M * N; i++)
        hc[i] = (float)(i % 13 - 6);
}

// Compares the device result with scale * (A * B) + (with_c ? C : 0).
static void compare(const char *what, float scale, bool with_c, bool d_col)
{
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double s = 0;
            for (int k = 0; k < K; k++)
                s += (double)fa_[m * K + k] * fb_[k * N + n];
            s = s * scale + (with_c ? hc[m * N + n] : 0.0);
            float got = d_col ? hd[n * M + m] : hd[m * N + n];
            expect_eq(what, m * N + n, (float)s, got);
        }
}

struct Dev {
    half *a, *b;
    float *c, *d;
};

static int upload(Dev &dv)
{
    CHECK(cudaMemcpy(dv.a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv.b, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dv.c, hc, sizeof hc, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dv.d, 0xff, sizeof hd));
    return 0;
}

template <typename LA, typename LB>
static int run_global(Dev &dv, const char *what, bool d_col)
{
    fill(std::is_same<LA, wmma::col_major>::value,
         std::is_same<LB, wmma::col_major>::value);
    if (upload(dv))
        return 1;
    gemm_global<LA, LB><<<dim3(N / T, M / T), 32>>>(dv.a, dv.b, dv.c, dv.d, 0.5f, d_col);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hd, dv.d, sizeof hd, cudaMemcpyDeviceToHost));
    compare(what, 0.5f, true, d_col);
    return 0;
}

int main(void)
{
    Dev dv;
    CHECK(cudaMalloc(&dv.a, sizeof ha));
    CHECK(cudaMalloc(&dv.b, sizeof hb));
    CHECK(cudaMalloc(&dv.c, sizeof hc));
    CHECK(cudaMalloc(&dv.d, sizeof hd));
    if (run_global<wmma::row_major, wmma::row_major>(dv, "D[A row, B row]", false) ||
        run_global<wmma::row_major, wmma::col_major>(dv, "D[A row, B col]", true) ||
        run_global<wmma::col_major, wmma::row_major>(dv, "D[A col, B row]", false) ||
        run_global<wmma::col_major, wmma::col_major>(dv, "D[A col, B col]", true))
        return 1;

    fill(false, false);
    if (upload(dv))
        return 1;
    gemm_shared<<<dim3((N + 31) / 32, M / 32), 32 * WARPS>>>(dv.a, dv.b, dv.d, -2.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hd, dv.d, sizeof hd, cudaMemcpyDeviceToHost));
    compare("D[shared]", -2.0f, false, false);

    CHECK(cudaFree(dv.a));
    CHECK(cudaFree(dv.b));
    CHECK(cudaFree(dv.c));
    CHECK(cudaFree(dv.d));
    if (failures)
        return 1;
    printf("ok tensor_wmma\n");
    return 0;
}
