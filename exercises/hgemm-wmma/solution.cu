// hgemm-wmma, reference answer: 128 x 128 block tiles on the tensor cores
// through WMMA, FP16 operands staged in shared memory, FP32 accumulators.
//
// Shape of the work:
//   - A block of 8 warps computes a 128 x 128 tile of C and walks K in
//     steps of 32.  Warps are arranged 2 x 4: each owns a 64 x 32 piece of
//     the tile, a 4 x 2 grid of 16 x 16 accumulator fragments held in
//     registers for the whole loop (64 floats per thread).
//   - Per k-step a warp loads 4 fragments of A and 2 of B from shared
//     memory and issues 8 mma_sync calls: every A fragment is used twice
//     and every B fragment four times, which is what keeps the tensor
//     cores fed rather than waiting on shared memory.
//   - Tiles are staged with 16-byte loads (8 halves per thread per load):
//     a 128 x 32 slice of A and a 32 x 128 slice of B are 512 vectors
//     each, two per thread.  Rows in shared memory are padded by 8 halves
//     (16 bytes): ldm stays a multiple of 8 as WMMA requires, fragment
//     pointers stay 32-byte aligned, and consecutive rows start in
//     different banks.
//   - Double buffering: the global loads for the next k-step are issued
//     into registers before the mma loop and stored to the other buffer
//     after it, so global latency overlaps the math with one barrier per
//     step.
// M, N and K are multiples of 16, so every 16 x 16 fragment and every
// 8-half vector lies wholly inside or wholly outside its matrix: vectors
// outside A or B load as zeros, fragments outside C are not stored.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

namespace {

enum {
    BM = 128, BN = 128, BK = 32, // block tile
    WM = 64, WN = 32,            // warp tile: 4 x 2 fragments
    FM = WM / 16, FN = WN / 16,
    WARPS = (BM / WM) * (BN / WN),
    THREADS = 32 * WARPS,
    PAD = 8,                     // halves of padding per shared row
    LDA = BK + PAD, LDB = BN + PAD,
};

// One k-step's global-to-register staging: two 8-half vectors of A and
// two of B per thread.
struct Stage {
    uint4 a[2], b[2];
};

__device__ __forceinline__ void load_stage(const __half* __restrict__ A,
                                           const __half* __restrict__ B, int M, int N,
                                           int K, int bm, int bn, int k0, Stage& s)
{
    const uint4 zero = make_uint4(0, 0, 0, 0);
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int v = threadIdx.x + i * THREADS;
        // A: 128 rows of 4 vectors; B: 32 rows of 16 vectors.
        const int ar = v / (BK / 8), ak = k0 + (v % (BK / 8)) * 8;
        const int bk = k0 + v / (BN / 8), bc = bn + (v % (BN / 8)) * 8;
        s.a[i] = bm + ar < M && ak < K
                     ? *reinterpret_cast<const uint4*>(&A[(size_t)(bm + ar) * K + ak])
                     : zero;
        s.b[i] = bk < K && bc < N ? *reinterpret_cast<const uint4*>(&B[(size_t)bk * N + bc])
                                  : zero;
    }
}

__device__ __forceinline__ void store_stage(__half (*As)[LDA], __half (*Bs)[LDB],
                                            const Stage& s)
{
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int v = threadIdx.x + i * THREADS;
        *reinterpret_cast<uint4*>(&As[v / (BK / 8)][(v % (BK / 8)) * 8]) = s.a[i];
        *reinterpret_cast<uint4*>(&Bs[v / (BN / 8)][(v % (BN / 8)) * 8]) = s.b[i];
    }
}

__global__ void __launch_bounds__(THREADS)
hgemm_wmma(const __half* __restrict__ A, const __half* __restrict__ B, float* __restrict__ C,
           int M, int N, int K)
{
    __shared__ __align__(32) __half As[2][BM][LDA];
    __shared__ __align__(32) __half Bs[2][BK][LDB];

    const int warp = threadIdx.x / 32;
    const int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;
    const int bm = blockIdx.y * BM, bn = blockIdx.x * BN;

    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM][FN];
#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++)
            wmma::fill_fragment(acc[i][j], 0.0f);

    const int steps = (K + BK - 1) / BK;
    Stage s;
    load_stage(A, B, M, N, K, bm, bn, 0, s);
    store_stage(As[0], Bs[0], s);
    __syncthreads();

    for (int step = 0; step < steps; step++) {
        const int cur = step & 1;
        const bool more = step + 1 < steps;
        if (more)
            load_stage(A, B, M, N, K, bm, bn, (step + 1) * BK, s);
#pragma unroll
        for (int kk = 0; kk < BK; kk += 16) {
            wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a[FM];
            wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b[FN];
#pragma unroll
            for (int i = 0; i < FM; i++)
                wmma::load_matrix_sync(a[i], &As[cur][wm + i * 16][kk], LDA);
#pragma unroll
            for (int j = 0; j < FN; j++)
                wmma::load_matrix_sync(b[j], &Bs[cur][kk][wn + j * 16], LDB);
#pragma unroll
            for (int i = 0; i < FM; i++)
#pragma unroll
                for (int j = 0; j < FN; j++)
                    wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
        }
        // The other buffer was last read in the previous step, before the
        // barrier that ended it.
        if (more)
            store_stage(As[cur ^ 1], Bs[cur ^ 1], s);
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < FM; i++)
#pragma unroll
        for (int j = 0; j < FN; j++) {
            const int row = bm + wm + i * 16, col = bn + wn + j * 16;
            if (row < M && col < N)
                wmma::store_matrix_sync(&C[(size_t)row * N + col], acc[i][j], N,
                                        wmma::mem_row_major);
        }
}

} // namespace

void solve(const __half* A, const __half* B, float* C, int M, int N, int K)
{
    dim3 blocks((N + BN - 1) / BN, (M + BM - 1) / BM);
    hgemm_wmma<<<blocks, THREADS>>>(A, B, C, M, N, K);
}
