// transpose: out (cols x rows) = transpose of in (rows x cols), both
// row-major: out[c * rows + r] = in[r * cols + c].
//
// The kernel body is yours.  The launch below gives one thread per element
// of the input in 32 x 32 tiles (x across columns, y down rows); keep it for
// a naive version, or change it for a tiled one.  As it stands nothing is
// written, so the check reports the output as never written.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* in, float* out, int rows, int cols)
{
    // TODO: the element this thread owns is at input column
    //     c = blockIdx.x * blockDim.x + threadIdx.x
    // and input row
    //     r = blockIdx.y * blockDim.y + threadIdx.y;
    // if it lies inside the matrix, store it at out[c * rows + r].
}

// Called by the harness with device pointers: in holds rows * cols floats,
// out has room for cols * rows floats.
void solve(const float* in, float* out, int rows, int cols)
{
    dim3 threads(32, 32);
    dim3 blocks((cols + 31) / 32, (rows + 31) / 32);
    transpose_kernel<<<blocks, threads>>>(in, out, rows, cols);
}
