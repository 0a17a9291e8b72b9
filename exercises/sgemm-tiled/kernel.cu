// sgemm-tiled: C = A * B in FP32; A is M x K, B is K x N, C is M x N, all
// row-major: C[i * N + j] = sum over k of A[i * K + k] * B[k * N + j].
//
// The kernel body is yours.  The launch gives one thread per element of C
// in 32 x 32 blocks (x across columns of C, y down rows), the shape a
// shared-memory tiled kernel wants.  As it stands nothing is written, so
// the check reports C as never written.
#include <cuda_runtime.h>

#define TILE 32

__global__ void sgemm_tiled(const float* A, const float* B, float* C, int M, int N, int K)
{
    // TODO: this thread computes C[row][col] with
    //     row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x.
    // A naive version loops k over 0..K-1.  The tiled version steps k in
    // chunks of TILE: the block loads a TILE x TILE piece of A and of B into
    // __shared__ arrays, synchronizes, accumulates from shared memory,
    // and synchronizes again before the next chunk.  Rows and columns past
    // M, N or K must not be read or written.
}

// Called by the harness with device pointers.
void solve(const float* A, const float* B, float* C, int M, int N, int K)
{
    dim3 threads(TILE, TILE);
    dim3 blocks((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    sgemm_tiled<<<blocks, threads>>>(A, B, C, M, N, K);
}
