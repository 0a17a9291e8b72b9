// ring-attention-peer, a solution.  Each rank keeps, per query row, the running
// maximum m of its scores, the running sum l of exp(score - m) and the
// output accumulated with those weights.  A visiting K/V block is merged
// with the log-sum-exp rule: rescale what is there by exp(m_old - m_new),
// add the block's terms weighted by exp(score - m_new).  Meanwhile the block
// moves on to the next rank with a peer copy into one of two slots (the
// receiver still reads the other).  Every stream waits for both neighbours'
// previous step: the sender's copy into the block it now forwards must be
// done, and the receiver must have finished reading the slot this rank's
// next copy overwrites.
#include <cuda_runtime.h>
#include <math.h>

// One thread per query row: merges keys/values kv (n keys, then n values)
// into o and stats (m in stats[0..n), l in stats[n..2n)).
__global__ void attend_block(const float* q, const float* kv, float* o, float* stats, int n,
                             int d, float scale, int first)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float* qi = q + (size_t)i * d;
    const float *k = kv, *v = kv + (size_t)n * d;
    float* oi = o + (size_t)i * d;
    float m_old = first ? -INFINITY : stats[i], l = first ? 0.0f : stats[n + i];
    float m_blk = -INFINITY;
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int c = 0; c < d; c++)
            s += qi[c] * k[(size_t)j * d + c];
        m_blk = fmaxf(m_blk, s * scale);
    }
    float m_new = fmaxf(m_old, m_blk);
    float alpha = first ? 0.0f : expf(m_old - m_new);
    l *= alpha;
    for (int c = 0; c < d; c++)
        oi[c] = first ? 0.0f : oi[c] * alpha;
    for (int j = 0; j < n; j++) {
        float s = 0.0f;
        for (int c = 0; c < d; c++)
            s += qi[c] * k[(size_t)j * d + c];
        float p = expf(s * scale - m_new);
        l += p;
        for (int c = 0; c < d; c++)
            oi[c] += p * v[(size_t)j * d + c];
    }
    stats[i] = m_new;
    stats[n + i] = l;
}

__global__ void normalize(float* o, const float* stats, int n, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float inv = 1.0f / stats[n + i];
    for (int c = 0; c < d; c++)
        o[(size_t)i * d + c] *= inv;
}

static int mod(int a, int m) { return ((a % m) + m) % m; }

void ring_attention(const float* const* q, const float* const* kv, float* const* kv_buf,
                    float* const* o, float* const* stats, int ranks, int n, int d,
                    const cudaStream_t* streams)
{
    const int R = ranks;
    const size_t blk = 2 * (size_t)n * d; // one K/V block, in floats
    const float scale = 1.0f / sqrtf((float)d);
    const int threads = 128, blocks = (n + threads - 1) / threads;
    cudaEvent_t done[64];
    for (int r = 0; r < R; r++) {
        cudaSetDevice(r);
        cudaEventCreateWithFlags(&done[r], cudaEventDisableTiming);
        cudaEventRecord(done[r], streams[r]);
    }
    // At step s rank r holds the block that started on rank r - s: its own
    // at step 0, then slot (s - 1) % 2 of kv_buf.
    for (int s = 0; s < R; s++) {
        for (int r = 0; r < R; r++) {
            cudaSetDevice(r);
            cudaStreamWaitEvent(streams[r], done[mod(r - 1, R)], 0);
            cudaStreamWaitEvent(streams[r], done[mod(r + 1, R)], 0);
        }
        for (int r = 0; r < R; r++) {
            int src = mod(r - 1, R);
            const float* cur = s == 0 ? kv[r] : kv_buf[r] + (size_t)((s - 1) % 2) * blk;
            cudaSetDevice(r);
            // Receive the next block first, on this rank's stream: the
            // copy and this step's attention both only read `cur`.
            if (s + 1 < R) {
                const float* from = s == 0 ? kv[src] : kv_buf[src] + (size_t)((s - 1) % 2) * blk;
                cudaMemcpyPeerAsync(kv_buf[r] + (size_t)(s % 2) * blk, r, from, src,
                                    blk * sizeof(float), streams[r]);
            }
            attend_block<<<blocks, threads, 0, streams[r]>>>(q[r], cur, o[r], stats[r], n, d,
                                                             scale, s == 0);
        }
        for (int r = 0; r < R; r++) {
            cudaSetDevice(r);
            cudaEventRecord(done[r], streams[r]);
        }
    }
    for (int r = 0; r < R; r++) {
        cudaSetDevice(r);
        normalize<<<blocks, threads, 0, streams[r]>>>(o[r], stats[r], n, d);
        cudaEventDestroy(done[r]);
    }
}
