// merge-attention-partials: P partial attention results per query row,
// each an output vector o_p (already divided by its own l_p), a maximum
// score m_p and a sum l_p of exp(s - m_p), merged into the exact attention
// output and its log-sum-exp.
//
// The starter launches one warp per row and leaves the kernel body to you,
// so as it stands the check reports the output as never written.
#include <cuda_runtime.h>
#include <math.h>

__global__ void merge_kernel(const float* o, const float* m, const float* l,
                             float* out, float* lse, int P, int rows, int d)
{
    int row = blockIdx.x; // one block of one warp per row
    [[maybe_unused]] int lane = threadIdx.x; // 0..31
    if (row >= rows)
        return;
    // Partial p of this row: o + ((size_t)p * rows + row) * d, and
    // m[(size_t)p * rows + row], l[(size_t)p * rows + row].

    // TODO 1: find M, the largest m_p of the row.  If it is -inf every
    //         partial is masked: write zeros and lse = -inf.
    // TODO 2: weight each partial by w_p = l_p * exp(m_p - M); L is the sum
    //         of the weights.  A masked partial (m_p = -inf, l_p = 0) has
    //         weight 0, and its o_p must not be read at all: it may be NaN.
    // TODO 3: out[row][c] = sum_p w_p * o_p[c] / L for this lane's columns
    //         c = lane, lane + 32, ... < d; lse[row] = M + log(L).
}

// Called by the harness with device pointers: o_part [P][rows][head_dim],
// m_part and l_part [P][rows], out [rows][head_dim], lse [rows].
void solve(const float* o_part, const float* m_part, const float* l_part,
           float* out, float* lse, int P, int rows, int head_dim)
{
    merge_kernel<<<rows, 32>>>(o_part, m_part, l_part, out, lse, P, rows, head_dim);
}
