// ring-attention-peer: the sequence is split over `ranks` devices, n tokens
// each.  On device r: q[r] (n x d) are rank r's queries, kv[r] (2 n x d)
// its keys then its values (read-only), kv_buf[r] room for two such K/V
// blocks, o[r] (n x d) the output, stats[r] 2 n floats of scratch.  o[r]
// must become the attention of rank r's queries over ALL R n keys and
// values, softmax(q K^T / sqrt(d)) V, with no mask.  Kernels may touch only
// their own device's memory: K/V blocks travel with cudaMemcpyPeerAsync.
//
// The starter attends to the rank's own block only: right for one rank,
// wrong as soon as there are two.
#include <cuda_runtime.h>
#include <math.h>

// One thread per query row: softmax over this block's n keys, then the
// weighted sum of its values.
__global__ void attend_local(const float* q, const float* kv, float* o, int n, int d,
                             float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float* qi = q + (size_t)i * d;
    const float *k = kv, *v = kv + (size_t)n * d;
    float* oi = o + (size_t)i * d;
    float m = -INFINITY;
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int c = 0; c < d; c++)
            s += qi[c] * k[(size_t)j * d + c];
        m = fmaxf(m, s * scale);
    }
    float l = 0.0f;
    for (int c = 0; c < d; c++)
        oi[c] = 0.0f;
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int c = 0; c < d; c++)
            s += qi[c] * k[(size_t)j * d + c];
        float p = expf(s * scale - m);
        l += p;
        for (int c = 0; c < d; c++)
            oi[c] += p * v[(size_t)j * d + c];
    }
    for (int c = 0; c < d; c++)
        oi[c] /= l;
}

void ring_attention(const float* const* q, const float* const* kv, float* const* kv_buf,
                    float* const* o, float* const* stats, int ranks, int n, int d,
                    const cudaStream_t* streams)
{
    (void)kv_buf;
    (void)stats;
    const float scale = 1.0f / sqrtf((float)d);
    for (int r = 0; r < ranks; r++) {
        cudaSetDevice(r);
        attend_local<<<(n + 127) / 128, 128, 0, streams[r]>>>(q[r], kv[r], o[r], n, d, scale);
    }
    // TODO: R - 1 more steps.  At each one every rank passes the K/V block
    // it holds to rank r + 1 (cudaMemcpyPeerAsync into kv_buf) and merges
    // the block it received into its running result: keep per row the
    // maximum score m and the sum l of exp(score - m) (stats), rescale by
    // exp(m_old - m_new) when a block raises the maximum, and divide by l
    // only at the end.
}
