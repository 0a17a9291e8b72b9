// tensor-parallel-mlp: Y = GELU(X A) B over `ranks` devices, Megatron's
// way.  Rank r (device r) holds x[r] = X (t x d), a[r] = A's columns
// [r h/R, (r+1) h/R) (d x h/R), b[r] = the same rows of B (h/R x d), all
// row-major; hid[r] (t x h/R) is scratch, and y[r] (t x d) must end holding
// the whole Y on every rank.  streams[r], comms[r]: rank r's stream and
// NCCL communicator.
//
// The starter multiplies its shards and stops: no GELU, and each rank's
// y[r] is only its own partial product.
#include <cuda_runtime.h>
#include <nccl.h>

// C (m x n) = A (m x k) B (k x n), row-major, one thread per element of C.
__global__ void matmul(float* c, const float* a, const float* b, int m, int k, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (i >= m || j >= n)
        return;
    float acc = 0.0f;
    for (int p = 0; p < k; p++)
        acc += a[(size_t)i * k + p] * b[(size_t)p * n + j];
    c[(size_t)i * n + j] = acc;
}

void tp_mlp(const float* const* x, const float* const* a, const float* const* b,
            float* const* hid, float* const* y, int ranks, int t, int d, int h,
            const cudaStream_t* streams, const ncclComm_t* comms)
{
    const int hr = h / ranks;
    (void)comms;
    for (int r = 0; r < ranks; r++) {
        cudaSetDevice(r);
        matmul<<<dim3((hr + 127) / 128, t), 128, 0, streams[r]>>>(hid[r], x[r], a[r], t, d,
                                                                  hr);
        // TODO: GELU (tanh form) of the hidden slice; see the statement for
        // why each rank may apply it to its own columns.
        matmul<<<dim3((d + 127) / 128, t), 128, 0, streams[r]>>>(y[r], hid[r], b[r], t, hr,
                                                                 d);
    }
    // TODO: y[r] is rank r's partial sum of Y; sum them on every rank.
}
