// top-k-sampling, reference answer: one block per row; a radix select
// finds the k-th largest logit without sorting the vocabulary, a
// compaction in index order collects the k kept tokens, and a small sort,
// a scan and a search over those k pick the token.
//
// Keys.  A float's bits, with the sign bit flipped for positive values and
// all bits flipped for negative ones, compare as unsigned integers in the
// same order as the floats (-inf lowest).  Sorting "by logit descending,
// then index ascending" is then sorting by (key descending, index
// ascending).
//
// Radix select.  The k-th key is found 8 bits at a time, from the top: a
// 256-bin histogram in shared memory of the keys that match the bits found
// so far, then one warp finds the bin in which the k-th key falls (a
// suffix sum over the bins with shuffles) and how many keys sit in the
// bins above it.  Four passes give the exact threshold key K, and with it
// `ties`, how many keys equal to K belong to the top k.
//
// Compaction.  The block walks the row in index order, one element per
// thread per step; __ballot_sync and __popc give every thread its place
// among the keys above K and among those equal to K in that step, and the
// warps' counts add up through shared memory.  Keys above K all go in;
// keys equal to K go in while fewer than `ties` have, which is exactly
// "smallest indices first".  Positions depend only on the data, never on
// timing, so the result is the same under any schedule.
//
// The k <= 256 candidates are ranked against each other (each thread
// counts how many precede its own, a total order, so the ranks are
// distinct), their weights exp((z - z_max) / T) are scanned, and the first
// token whose running sum exceeds u * S wins.
#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 512;
constexpr int kWarps = kThreads / 32;
constexpr int kMaxK = 256;

__device__ __forceinline__ uint32_t key_of(float z)
{
    uint32_t b = __float_as_uint(z);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

__device__ __forceinline__ float float_of(uint32_t key)
{
    return __uint_as_float((key & 0x80000000u) ? (key & 0x7fffffffu) : ~key);
}

struct Shared {
    unsigned hist[256];
    uint32_t prefix;   // the bits of K found so far
    int need;          // rank of K among the keys that match prefix (1 = top)
    int counts[2][2][kWarps]; // compaction: [buffer][above, equal][warp]
    uint32_t cand_key[kMaxK];
    int cand_idx[kMaxK];
    uint32_t sorted_key[kMaxK];
    int sorted_idx[kMaxK];
    float warp_total[kWarps];
    int chosen;
};

// The row's k-th largest key (radix select, 8 bits per pass).  On return
// every thread knows K and how many keys equal to K are among the top k.
__device__ void radix_select(Shared& sh, const float* __restrict__ z, int vocab, int k,
                             uint32_t* K, int* ties)
{
    const int tid = threadIdx.x, lane = tid % 32;
    if (tid == 0) {
        sh.prefix = 0;
        sh.need = k;
    }
    for (int shift = 24; shift >= 0; shift -= 8) {
        for (int b = tid; b < 256; b += kThreads)
            sh.hist[b] = 0;
        __syncthreads(); // also publishes prefix and need
        const uint32_t prefix = sh.prefix;
        const uint32_t high = shift == 24 ? 0u : ~0u << (shift + 8);
        // One atomic per digit a warp holds: in the first passes most keys
        // share their digit (sign and exponent bits), and lanes adding to
        // one address one by one would wait for each other.
        for (int base = 0; base < vocab; base += kThreads) {
            const int i = base + tid;
            unsigned digit = 256u; // none
            if (i < vocab) {
                uint32_t key = key_of(__ldg(z + i));
                if ((key & high) == prefix)
                    digit = (key >> shift) & 0xffu;
            }
            const unsigned same = __match_any_sync(kFull, digit);
            if (digit < 256u && lane == __ffs(same) - 1)
                atomicAdd(&sh.hist[digit], (unsigned)__popc(same));
        }
        __syncthreads();
        if (tid < 32) {
            // Lane l owns digits 255 - 8l down to 248 - 8l (highest first).
            const unsigned need = (unsigned)sh.need;
            unsigned c[8], own = 0;
#pragma unroll
            for (int j = 0; j < 8; j++) {
                c[j] = sh.hist[255 - 8 * lane - j];
                own += c[j];
            }
            // Keys in the digits above this lane's: exclusive prefix sum.
            unsigned incl = own;
#pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                unsigned o = __shfl_up_sync(kFull, incl, off);
                if (lane >= off)
                    incl += o;
            }
            unsigned above = incl - own;
            // Every lane has read need before the one lane below writes it.
            __syncwarp();
            if (above < need && need <= incl) { // exactly one lane
#pragma unroll
                for (int j = 0; j < 8; j++) {
                    if (above + c[j] >= need) {
                        unsigned digit = 255u - 8u * lane - j;
                        sh.prefix = prefix | digit << shift;
                        sh.need = (int)(need - above);
                        break;
                    }
                    above += c[j];
                }
            }
        }
        __syncthreads();
    }
    *K = sh.prefix;
    *ties = sh.need;
}

// Collects the k kept tokens: every key above K, then keys equal to K in
// index order until `ties` of them are in.  Keys above K land in
// cand[0 .. k - ties), ties in cand[k - ties .. k).
__device__ void compact(Shared& sh, const float* __restrict__ z, int vocab, int k,
                        uint32_t K, int ties)
{
    const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    int base_above = 0, base_equal = 0, buf = 0;
    for (int start = 0; start < vocab; start += kThreads, buf ^= 1) {
        int i = start + tid;
        uint32_t key = i < vocab ? key_of(__ldg(z + i)) : 0u;
        bool above = i < vocab && key > K;
        bool equal = i < vocab && key == K;
        unsigned ba = __ballot_sync(kFull, above), be = __ballot_sync(kFull, equal);
        unsigned below_me = (1u << lane) - 1u;
        if (lane == 0) {
            sh.counts[buf][0][warp] = __popc(ba);
            sh.counts[buf][1][warp] = __popc(be);
        }
        __syncthreads();
        // Lane j of every warp takes warp j's two counts, packed in one
        // int (each is at most 32); an inclusive scan over the lanes gives
        // each warp its offset (lane warp - 1) and the step's totals (the
        // last lane).
        int packed = lane < kWarps
                         ? sh.counts[buf][0][lane] | sh.counts[buf][1][lane] << 16
                         : 0;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            int o = __shfl_up_sync(kFull, packed, off);
            if (lane >= off)
                packed += o;
        }
        int before = __shfl_sync(kFull, packed, warp == 0 ? 0 : warp - 1);
        int total = __shfl_sync(kFull, packed, 31);
        if (warp == 0)
            before = 0;
        int off_a = base_above + (before & 0xffff), off_e = base_equal + (before >> 16);
        int tot_a = total & 0xffff, tot_e = total >> 16;
        if (above) {
            int pos = off_a + __popc(ba & below_me);
            sh.cand_key[pos] = key;
            sh.cand_idx[pos] = i;
        }
        if (equal) {
            int r = off_e + __popc(be & below_me);
            if (r < ties) {
                sh.cand_key[k - ties + r] = key;
                sh.cand_idx[k - ties + r] = i;
            }
        }
        base_above += tot_a;
        base_equal += tot_e;
        // The other buffer is written next: the barrier above already
        // separates this step's reads of it from the step before.
    }
    __syncthreads();
}

__global__ void __launch_bounds__(kThreads)
top_k_sample(const float* __restrict__ logits, const float* __restrict__ u,
             int* __restrict__ token, float* __restrict__ prob, int vocab, int k,
             float temperature)
{
    __shared__ Shared sh;
    const int row = blockIdx.x, tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
    const float* z = logits + (size_t)row * vocab;

    uint32_t K;
    int ties;
    radix_select(sh, z, vocab, k, &K, &ties);
    compact(sh, z, vocab, k, K, ties);

    // Rank the candidates: (key descending, index ascending).
    if (tid < k) {
        uint32_t key = sh.cand_key[tid];
        int idx = sh.cand_idx[tid], rank = 0;
        for (int j = 0; j < k; j++) {
            uint32_t kj = sh.cand_key[j];
            rank += kj > key || (kj == key && sh.cand_idx[j] < idx);
        }
        sh.sorted_key[rank] = key;
        sh.sorted_idx[rank] = idx;
    }
    if (tid == 0)
        sh.chosen = kMaxK;
    __syncthreads();

    // Weights relative to the top logit, and their inclusive scan.
    const float top = float_of(sh.sorted_key[0]);
    const float inv_t = 1.0f / temperature;
    float w = tid < k ? __expf((float_of(sh.sorted_key[tid]) - top) * inv_t) : 0.0f;
    float c = w;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        float o = __shfl_up_sync(kFull, c, off);
        if (lane >= off)
            c += o;
    }
    if (lane == 31)
        sh.warp_total[warp] = c;
    __syncthreads();
    float S = 0.0f;
    for (int j = 0; j < kWarps; j++) {
        float t = sh.warp_total[j];
        if (j < warp)
            c += t;
        S += t;
    }
    const float target = __ldg(u + row) * S;
    float prev = __shfl_up_sync(kFull, c, 1);
    if (lane == 0)
        prev = c - w;
    // The first kept token whose running sum passes u * S.  atomicMin
    // keeps the first should rounding make two candidates qualify.
    if (tid < k && c > target && prev <= target)
        atomicMin(&sh.chosen, tid);
    __syncthreads();
    if (tid == 0) {
        int t = sh.chosen;
        if (t >= k) { // u * S rounded up to S: the last token with weight
            t = k - 1;
            while (t > 0 && __expf((float_of(sh.sorted_key[t]) - top) * inv_t) == 0.0f)
                t--;
        }
        token[row] = sh.sorted_idx[t];
        prob[row] = __expf((float_of(sh.sorted_key[t]) - top) * inv_t) / S;
    }
}

} // namespace

void solve(const float* logits, const float* u, int* token, float* prob, int rows,
           int vocab, int k, float temperature)
{
    if (rows <= 0 || vocab <= 0 || k < 1 || k > kMaxK || k > vocab)
        return;
    top_k_sample<<<rows, kThreads>>>(logits, u, token, prob, vocab, k, temperature);
}
