// hgemm-wmma: C = A * B with FP16 operands and FP32 results on the tensor
// cores; A is M x K, B is K x N, C is M x N, all row-major:
// C[i * N + j] = sum over k of A[i * K + k] * B[k * N + j].
// M, N and K are multiples of 16.
//
// The kernel body is yours.  The launch gives one warp per 16 x 16 tile of
// C (blocks of 4 warps side by side along N), the shape of a first WMMA
// kernel.  As it stands nothing is written, so the check reports C as
// never written.
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

using namespace nvcuda;

#define WARPS_PER_BLOCK 4

__global__ void hgemm_wmma(const __half* A, const __half* B, float* C, int M, int N, int K)
{
    // This warp's tile of C starts at row tile_m, column tile_n.
    const int warp = threadIdx.x / 32;
    const int tile_m = blockIdx.y * 16;
    const int tile_n = (blockIdx.x * WARPS_PER_BLOCK + warp) * 16;
    if (tile_n >= N) // the whole warp leaves together
        return;

    // TODO: declare an accumulator fragment
    //     wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    // set it to zero, then step k by 16: load a 16 x 16 piece of A and of B
    // into matrix_a / matrix_b fragments (__half, wmma::row_major) with
    // wmma::load_matrix_sync (the last argument is the row length of the
    // matrix in memory), multiply-accumulate with wmma::mma_sync, and
    // finally store acc to C with wmma::store_matrix_sync(...,
    // wmma::mem_row_major).  Every lane of the warp must take part in each
    // call.
    (void)A, (void)B, (void)C, (void)K, (void)tile_m;
}

// Called by the harness with device pointers.
void solve(const __half* A, const __half* B, float* C, int M, int N, int K)
{
    dim3 threads(32 * WARPS_PER_BLOCK);
    dim3 blocks((N / 16 + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK, M / 16);
    hgemm_wmma<<<blocks, threads>>>(A, B, C, M, N, K);
}
