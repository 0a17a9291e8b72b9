// top-k-sampling: for every row of logits, keep the k tokens with the
// largest logits (equal logits: smaller index first), weight them by
// exp((z - z_max) / T), and return the first kept token, in that order,
// whose running sum of weights exceeds u[row] * S (S: all k weights),
// with its probability weight / S.
//
// The starter launches one block per row and leaves the kernel body to
// you, so as it stands the check reports the outputs as never written.
#include <cuda_runtime.h>
#include <math.h>

__global__ void sample_kernel(const float* logits, const float* u, int* token,
                              float* prob, int vocab, int k, float temperature)
{
    int row = blockIdx.x; // one block of 256 threads per row
    [[maybe_unused]] const float* z = logits + (size_t)row * vocab;

    // TODO 1: find the k tokens to keep without sorting the whole row: the
    //         k-th largest logit is a threshold, and only ties at the
    //         threshold need the index rule.
    // TODO 2: put the kept tokens in order (logit descending, index
    //         ascending) and compute their weights and running sums.
    // TODO 3: token[row] = the first kept token whose running sum exceeds
    //         u[row] * S; prob[row] = its weight / S.
}

// Called by the harness with device pointers: logits [rows][vocab], u,
// token and prob [rows].  1 <= k <= min(vocab, 256), temperature > 0.
void solve(const float* logits, const float* u, int* token, float* prob, int rows,
           int vocab, int k, float temperature)
{
    sample_kernel<<<rows, 256>>>(logits, u, token, prob, vocab, k, temperature);
}
