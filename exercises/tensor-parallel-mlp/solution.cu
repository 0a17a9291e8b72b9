// tensor-parallel-mlp, a solution.  The column split of A gives each rank
// whole columns of X A, so GELU, which acts element by element, applies to
// them locally.  The row split of B makes each rank's product a partial
// sum of the full Y: one all-reduce (in a group, since one thread drives
// every rank) finishes it.
#include <cuda_runtime.h>
#include <nccl.h>

__device__ float gelu(float z)
{
    const float k = 0.7978845608f; // sqrt(2 / pi)
    return 0.5f * z * (1.0f + tanhf(k * (z + 0.044715f * z * z * z)));
}

// hid (t x n) = GELU(X (t x k) A (k x n)).
__global__ void matmul_gelu(float* hid, const float* x, const float* a, int t, int k, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (i >= t || j >= n)
        return;
    float acc = 0.0f;
    for (int p = 0; p < k; p++)
        acc += x[(size_t)i * k + p] * a[(size_t)p * n + j];
    hid[(size_t)i * n + j] = gelu(acc);
}

// c (m x n) = a (m x k) b (k x n).
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
    for (int r = 0; r < ranks; r++) {
        cudaSetDevice(r);
        matmul_gelu<<<dim3((hr + 127) / 128, t), 128, 0, streams[r]>>>(hid[r], x[r], a[r],
                                                                       t, d, hr);
        matmul<<<dim3((d + 127) / 128, t), 128, 0, streams[r]>>>(y[r], hid[r], b[r], t, hr,
                                                                 d);
    }
    // One thread posts every rank's share, so the calls form a group:
    // without it the first rank's call would wait for the others forever.
    ncclGroupStart();
    for (int r = 0; r < ranks; r++)
        ncclAllReduce(y[r], y[r], (size_t)t * d, ncclFloat, ncclSum, comms[r], streams[r]);
    ncclGroupEnd();
}
