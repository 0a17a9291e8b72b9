// kv-cache-decode: one new query token per head attends to every cached
// token of its sequence, whose keys and values live in a PAGED cache.
//   out[h] = softmax(q[h] . K[h]^T / sqrt(head_dim)) V[h]
//
// The starter launches one block of 128 threads per head and leaves the
// kernel body to you, so as it stands the check reports the output as
// never written.
#include <cuda_runtime.h>
#include <math.h>

__global__ void decode_kernel(const float* q, const float* k_cache,
                              const float* v_cache, const int* block_table,
                              float* out, int heads, int head_dim, int seq_len,
                              int page_size)
{
    [[maybe_unused]] int h = blockIdx.x; // this block's head

    // Where token t of head h lives: physical page p = block_table[t /
    // page_size], slot t % page_size, and then
    //   k_cache + ((size_t)(p * page_size + t % page_size) * heads + h) * head_dim
    // (the same for v_cache).  Never touch slots past seq_len.
    //
    // TODO 1: for each token t, the score s_t = q[h] . k_t / sqrt(head_dim).
    //         Spread the head_dim products over the threads so that
    //         neighbouring threads read neighbouring floats.
    // TODO 2: softmax over the seq_len scores without overflow (subtract the
    //         maximum, or keep a running maximum and rescale as you go).
    // TODO 3: out[h * head_dim + c] = sum_t p_t * v_t[c] / sum_t p_t.
}

// Called by the harness with device pointers (layouts in exercise.md);
// head_dim is 32, 64 or 128.
void solve(const float* q, const float* k_cache, const float* v_cache,
           const int* block_table, float* out, int heads, int head_dim,
           int seq_len, int page_size)
{
    decode_kernel<<<heads, 128>>>(q, k_cache, v_cache, block_table, out, heads,
                                  head_dim, seq_len, page_size);
}
