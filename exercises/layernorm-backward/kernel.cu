// layernorm-backward: given x, weight, the mean and rstd saved by the
// forward pass and the upstream gradient dout, compute dx, dweight and
// dbias.  With xhat = (x - mean) * rstd and g = dout * weight:
//   dx      = rstd * (g - mean over the row of g
//                      - xhat * mean over the row of (g * xhat))
//   dweight = sum over rows of dout * xhat
//   dbias   = sum over rows of dout
//
// The starter launches one block per row for dx and one thread per column
// for dweight and dbias, and leaves both kernel bodies to you, so as it
// stands the check reports the outputs as never written.
#include <cuda_runtime.h>
#include <math.h>

__global__ void dx_kernel(const float* x, const float* weight, const float* mean,
                          const float* rstd, const float* dout, float* dx, int rows,
                          int cols)
{
    int r = blockIdx.x; // one block of 256 threads per row
    if (r >= rows)
        return;
    // TODO 1: each thread takes columns threadIdx.x, + blockDim.x, ... and
    //         sums g and g * xhat over them.
    // TODO 2: add those partial sums up across the block (shared memory and
    //         __syncthreads, or warp shuffles first), so every thread knows
    //         the row's two sums.
    // TODO 3: write dx for the thread's columns.
}

__global__ void dparams_kernel(const float* x, const float* mean, const float* rstd,
                               const float* dout, float* dweight, float* dbias,
                               int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x; // one thread per column
    if (c >= cols)
        return;
    // TODO 4: sum dout * xhat and dout over the rows of column c.  (Correct,
    //         but each thread walks a column: think about what a warp reads
    //         at once, and about how few threads there are.)
}

// Called by the harness with device pointers: x, dout and dx are rows x cols
// (row-major), weight, dweight and dbias cols, mean and rstd rows.
void solve(const float* x, const float* weight, const float* mean, const float* rstd,
           const float* dout, float* dx, float* dweight, float* dbias, int rows,
           int cols)
{
    dx_kernel<<<rows, 256>>>(x, weight, mean, rstd, dout, dx, rows, cols);
    dparams_kernel<<<(cols + 255) / 256, 256>>>(x, mean, rstd, dout, dweight, dbias,
                                                rows, cols);
}
