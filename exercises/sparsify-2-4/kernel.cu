// sparsify-2-4: in every group of four consecutive values of a row keep
// the two with the largest magnitude (ties go to the lower index), zero
// the other two, and write one mask byte per group saying which were kept.
//
// The starter launches one thread per group and leaves the kernel body to
// you, so as it stands the check reports the outputs as never written.
#include <cuda_runtime.h>
#include <stdint.h>
#include <math.h>

__global__ void sparsify_kernel(const float* x, float* y, uint8_t* mask,
                                long long groups)
{
    long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= groups)
        return;

    // TODO 1: read the four values x[4g] .. x[4g + 3] (cols is a multiple
    //         of 4, so groups never straddle two rows).
    // TODO 2: decide which two to keep: position i is kept when fewer than
    //         two others outrank it, and j outranks i when |x_j| > |x_i|,
    //         or |x_j| == |x_i| and j < i.
    // TODO 3: write y[4g + i] = x[4g + i] for the kept positions and 0 for
    //         the others, and mask[g] with bit i set for each kept i.
}

// Called by the harness with device pointers: x and y hold rows * cols
// floats, mask holds rows * cols / 4 bytes.
void solve(const float* x, float* y, uint8_t* mask, int rows, int cols)
{
    long long groups = (long long)rows * cols / 4;
    int threads = 256;
    long long blocks = (groups + threads - 1) / threads;
    sparsify_kernel<<<(unsigned)blocks, threads>>>(x, y, mask, groups);
}
