// ring-attention-peer, a solution.  Each rank keeps, per query row, the running
// maximum m of its scores, the running sum l of exp(score - m) and the
// output accumulated with those weights.  A visiting K/V block is merged
// with the log-sum-exp rule: rescale what is there by exp(m_old - m_new),
// add the block's terms weighted by exp(score - m_new).
//
// Meanwhile the next block moves on: rank r's copy of the block its left
// neighbour holds goes on a second stream of rank r, so that on a GPU it
// runs while the attention kernel works through the current block on
// streams[r], which is the point of ring attention.  Two slots alternate
// (the copy of step s fills slot s % 2 while the attention reads the
// other), and events order what the streams share: at step s
//   - the attention waits for rank r's own copy of step s - 1 (the block
//     it reads arrived);
//   - the copy waits for the left neighbour's copy of step s - 1 (the
//     block it forwards arrived there), for rank r's attention of step
//     s - 1 (the slot it overwrites is no longer read) and for the right
//     neighbour's copy of step s - 1 (which read that slot from rank r).
// Every wait of a step is queued before any event of that step is
// recorded, so each waits for the previous step.
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

// Events and copy streams of up to kMaxRanks ranks.
constexpr int kMaxRanks = 64;
struct Ring {
    cudaStream_t copy[kMaxRanks];
    cudaEvent_t copied[kMaxRanks], attended[kMaxRanks];
};

// Creates rank r's copy stream and events on device r, and records every
// event once on streams[r], so the first step's waits are for the work
// queued before the call.
static void ring_open(Ring& g, int R, const cudaStream_t* streams)
{
    for (int r = 0; r < R; r++) {
        cudaSetDevice(r);
        cudaStreamCreateWithFlags(&g.copy[r], cudaStreamNonBlocking);
        cudaEventCreateWithFlags(&g.copied[r], cudaEventDisableTiming);
        cudaEventCreateWithFlags(&g.attended[r], cudaEventDisableTiming);
        cudaEventRecord(g.copied[r], streams[r]);
        cudaEventRecord(g.attended[r], streams[r]);
    }
}

// Joins every copy stream back into streams[r] and frees the ring.
static void ring_close(Ring& g, int R, const cudaStream_t* streams)
{
    for (int r = 0; r < R; r++) {
        cudaSetDevice(r);
        cudaEventRecord(g.copied[r], g.copy[r]);
        cudaStreamWaitEvent(streams[r], g.copied[r], 0);
        cudaStreamDestroy(g.copy[r]);
        cudaEventDestroy(g.copied[r]);
        cudaEventDestroy(g.attended[r]);
    }
}

void ring_attention(const float* const* q, const float* const* kv, float* const* kv_buf,
                    float* const* o, float* const* stats, int ranks, int n, int d,
                    const cudaStream_t* streams)
{
    const int R = ranks;
    const size_t blk = 2 * (size_t)n * d; // one K/V block, in floats
    const float scale = 1.0f / sqrtf((float)d);
    const int threads = 128, blocks = (n + threads - 1) / threads;
    Ring g;
    ring_open(g, R, streams);
    // At step s rank r holds the block that started on rank r - s: its own
    // at step 0, then slot (s - 1) % 2 of kv_buf.
    for (int s = 0; s < R; s++) {
        for (int r = 0; r < R; r++) {
            cudaSetDevice(r);
            cudaStreamWaitEvent(streams[r], g.copied[r], 0);
            cudaStreamWaitEvent(g.copy[r], g.copied[mod(r - 1, R)], 0);
            cudaStreamWaitEvent(g.copy[r], g.attended[r], 0);
            cudaStreamWaitEvent(g.copy[r], g.copied[mod(r + 1, R)], 0);
        }
        for (int r = 0; r < R; r++) {
            int src = mod(r - 1, R);
            const float* cur = s == 0 ? kv[r] : kv_buf[r] + (size_t)((s - 1) % 2) * blk;
            cudaSetDevice(r);
            if (s + 1 < R) {
                const float* from = s == 0 ? kv[src] : kv_buf[src] + (size_t)((s - 1) % 2) * blk;
                cudaMemcpyPeerAsync(kv_buf[r] + (size_t)(s % 2) * blk, r, from, src,
                                    blk * sizeof(float), g.copy[r]);
            }
            attend_block<<<blocks, threads, 0, streams[r]>>>(q[r], cur, o[r], stats[r], n, d,
                                                             scale, s == 0);
        }
        for (int r = 0; r < R; r++) {
            cudaSetDevice(r);
            cudaEventRecord(g.copied[r], g.copy[r]);
            cudaEventRecord(g.attended[r], streams[r]);
        }
    }
    for (int r = 0; r < R; r++) {
        cudaSetDevice(r);
        normalize<<<blocks, threads, 0, streams[r]>>>(o[r], stats[r], n, d);
    }
    ring_close(g, R, streams);
}
