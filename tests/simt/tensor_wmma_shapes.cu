// WMMA beyond half x half -> float 16x16x16: __nv_bfloat16 inputs with float
// accumulators, half accumulators (loaded, computed and stored as half), and
// the 32x8x16 and 8x32x16 shapes, each as one warp computing
// D = 2 * (A * B) + C for one tile, with A, B and the accumulator row- or
// column-major across the cases (all four A/B combinations for bf16).
// The inputs are small integers, so the products and sums are exact in
// every format used and the result must equal the host's.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>

#include "check.h"

using namespace nvcuda;

enum { MAXE = 32 * 16 };

template <typename L>
static __host__ __device__ constexpr bool is_col()
{
    return std::is_same<L, wmma::col_major>::value;
}

// One warp: D = 2 * (A * B) + C for one m x n x k tile; A is m x k, B k x n,
// C and D m x n, each stored densely in the layout its type names (C and D
// column-major when acc_col).
template <int m, int n, int k, typename T, typename Acc, typename LA, typename LB>
__global__ void tile(const T *a, const T *b, const Acc *c, Acc *d, bool acc_col)
{
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
    wmma::fragment<wmma::matrix_a, m, n, k, T, LA> fa;
    wmma::fragment<wmma::matrix_b, m, n, k, T, LB> fb;
    wmma::fragment<wmma::accumulator, m, n, k, Acc> acc, cf;
    wmma::layout_t lc = acc_col ? wmma::mem_col_major : wmma::mem_row_major;

    wmma::load_matrix_sync(fa, a, is_col<LA>() ? m : k);
    wmma::load_matrix_sync(fb, b, is_col<LB>() ? k : n);
    wmma::fill_fragment(acc, (Acc)0.0f);
    wmma::mma_sync(acc, fa, fb, acc);
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] = acc.x[i] * (Acc)2.0f;
    wmma::load_matrix_sync(cf, c, acc_col ? m : n, lc);
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] = acc.x[i] + cf.x[i];
    wmma::store_matrix_sync(d, acc, acc_col ? m : n, lc);
#endif
}

template <typename T>
static T to(float v);
template <>
half to<half>(float v) { return __float2half(v); }
template <>
__nv_bfloat16 to<__nv_bfloat16>(float v) { return __float2bfloat16(v); }
template <>
float to<float>(float v) { return v; }

static float from(half v) { return __half2float(v); }
static float from(float v) { return v; }

template <int m, int n, int k, typename T, typename Acc, typename LA, typename LB>
static int run(const char *what, bool acc_col)
{
    static T ha[MAXE], hb[MAXE];
    static Acc hc[MAXE], hd[MAXE];
    static float fa[MAXE], fb[MAXE], fc[MAXE];
    T *da, *db;
    Acc *dc, *dd;

    for (int i = 0; i < m; i++)
        for (int j = 0; j < k; j++) {
            float v = (float)((i * 5 + j * 3 + 1) % 7 - 3);
            fa[i * k + j] = v;
            ha[is_col<LA>() ? j * m + i : i * k + j] = to<T>(v);
        }
    for (int i = 0; i < k; i++)
        for (int j = 0; j < n; j++) {
            float v = (float)((i * 2 + j * 7) % 5 - 2);
            fb[i * n + j] = v;
            hb[is_col<LB>() ? j * k + i : i * n + j] = to<T>(v);
        }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float v = (float)((i * 3 + j) % 11 - 5);
            fc[i * n + j] = v;
            hc[acc_col ? j * m + i : i * n + j] = to<Acc>(v);
        }
    CHECK(cudaMalloc(&da, sizeof ha));
    CHECK(cudaMalloc(&db, sizeof hb));
    CHECK(cudaMalloc(&dc, sizeof hc));
    CHECK(cudaMalloc(&dd, sizeof hd));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, sizeof hc, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dd, 0xff, sizeof hd));
    tile<m, n, k, T, Acc, LA, LB><<<1, 32>>>(da, db, dc, dd, acc_col);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int q = 0; q < k; q++)
                s += (double)fa[i * k + q] * fb[q * n + j];
            s = 2 * s + fc[i * n + j];
            expect_eq(what, i * n + j, (float)s,
                      from(hd[acc_col ? j * m + i : i * n + j]));
        }
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dc));
    CHECK(cudaFree(dd));
    return 0;
}

typedef wmma::row_major R;
typedef wmma::col_major C;
typedef __nv_bfloat16 bf16;

int main(void)
{
    // bfloat16, tf32 and mma.sync need compute capability 8.0.
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    if (prop.major < 8) {
        printf("ok tensor_wmma_shapes (skipped: compute capability %d.%d)\n", prop.major, prop.minor);
        return 0;
    }
    if (run<16, 16, 16, bf16, float, R, R>("bf16 16x16x16 row row", false) ||
        run<16, 16, 16, bf16, float, R, C>("bf16 16x16x16 row col", true) ||
        run<16, 16, 16, bf16, float, C, R>("bf16 16x16x16 col row", false) ||
        run<16, 16, 16, bf16, float, C, C>("bf16 16x16x16 col col", true) ||
        run<32, 8, 16, bf16, float, R, C>("bf16 32x8x16", false) ||
        run<8, 32, 16, bf16, float, C, R>("bf16 8x32x16", true) ||
        run<16, 16, 16, half, half, R, C>("half->half 16x16x16", false) ||
        run<16, 16, 16, half, half, C, R>("half->half 16x16x16 col", true) ||
        run<32, 8, 16, half, float, R, R>("half 32x8x16 row row", false) ||
        run<32, 8, 16, half, half, C, C>("half->half 32x8x16 col col", true) ||
        run<8, 32, 16, half, float, C, C>("half 8x32x16 col col", false) ||
        run<8, 32, 16, half, half, R, R>("half->half 8x32x16 row row", true))
        return 1;
    if (failures)
        return 1;
    printf("ok tensor_wmma_shapes\n");
    return 0;
}
