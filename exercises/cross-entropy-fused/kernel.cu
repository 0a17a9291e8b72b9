// cross-entropy-fused: for each of B rows of V logits with a label,
//   z          = scale * logits
//   loss[b]    = logsumexp(z[b]) - z[b][label[b]]
//   dlogits[b] = scale * (softmax(z[b]) - onehot(label[b])) / n_valid
// where n_valid counts the labels that are not -100; a row labelled -100
// has loss 0 and a zero gradient row.
//
// The starter launches one block per row and leaves the kernel body to
// you, so as it stands the check reports the outputs as never written.
#include <cuda_runtime.h>
#include <math.h>

__global__ void cross_entropy_kernel(const float* logits, const int* labels, float* loss,
                                     float* dlogits, int B, int V, float scale)
{
    int row = blockIdx.x; // one block of 256 threads per row
    if (row >= B)
        return;
    [[maybe_unused]] const float* x = logits + (size_t)row * V;
    [[maybe_unused]] float* g = dlogits + (size_t)row * V;

    // TODO 1: n_valid.  Every row needs it before writing its gradient;
    //         count it first (a tiny kernel of its own writing one int is
    //         the cheap way), or have each block count the labels.
    // TODO 2: ignored row (label -100): loss 0, gradient 0, and do not
    //         read the logits at all.
    // TODO 3: one pass over the row keeping a running maximum m and a sum
    //         s of exp(z - m), rescaling s whenever m grows; then combine
    //         the threads' (m, s) pairs across the block.  lse = m + log(s).
    // TODO 4: loss[row] = lse - z[label]; then the gradient for every v:
    //         scale * (exp(z - lse) - (v == label)) / n_valid.
}

// Called by the harness with device pointers: logits and dlogits hold B * V
// floats (row-major), labels and loss B values.
void solve(const float* logits, const int* labels, float* loss, float* dlogits, int B,
           int V, float scale)
{
    cross_entropy_kernel<<<B, 256>>>(logits, labels, loss, dlogits, B, V, scale);
}
