// ssd-chunked: Mamba-2's state space dual layer for H independent heads,
// each with a scalar decay a_t per step:
//     h_t = a_t h_(t-1) + B_t x_t^T     (h: N x P, h_(-1) = 0)
//     y_t = h_t^T C_t                   (y_t[p] = sum_n C_t[n] h_t[n][p])
// computed with the chunked algorithm of the lesson.
//
// The starter lays out the three launches of that algorithm and leaves
// their bodies to you, so as it stands the check reports the output as
// never written.  (The sequential recurrence, one thread per element of the
// state walking all T steps, would be correct; the point is the chunked
// form, whose work is matrix products.)
#include <cuda_runtime.h>
#include <math.h>

constexpr int kQ = 64; // chunk length

// Step 1 and 2 of the lesson: for every (chunk, head), the state the chunk
// leaves behind when it starts from zero, and its total decay.
__global__ void chunk_states(const float* x, const float* a, const float* B, float* states,
                             float* chunk_log, int T, int P, int N, int nchunks)
{
    // TODO 1: l_t = sum of log a over the chunk up to t.  Decays are
    //         differences: from s to t, exp(l_t - l_s).  (A ratio of
    //         cumulative products underflows: 64 decays of 0.1 multiply to
    //         1e-64.)
    // TODO 2: S[n][p] = sum over the chunk's steps q of
    //         exp(l_end - l_q) * B_q[n] * x_q[p]; store it at
    //         states + ((h * nchunks + c) * N * P), and l_end at
    //         chunk_log[h * nchunks + c].
}

// Step 3: the short recurrence over chunks, for each head.
__global__ void pass_states(float* states, const float* chunk_log, int NP, int nchunks)
{
    // TODO 3: for c = 0 .. nchunks-1: the state entering chunk c is the
    //         running h; then h = exp(l_end[c]) * h + S[c].  Keep the
    //         entering states (over S is fine) for step 4.
}

// Step 1 (the diagonal blocks) and step 4 (the incoming state).
__global__ void chunk_outputs(const float* x, const float* a, const float* B, const float* C,
                              const float* h_in, float* y, int T, int P, int N, int nchunks)
{
    // TODO 4: y_t[p] = sum over s <= t in the chunk of
    //                  exp(l_t - l_s) * (C_t . B_s) * x_s[p]
    //                + exp(l_t) * sum_n C_t[n] * h_in[n][p].
}

// Called by the harness with device pointers: x and y [H][T][P], a [H][T],
// B and C [H][T][N].  P and N are at most 64.
void solve(const float* x, const float* a, const float* B, const float* C, float* y, int H,
           int T, int P, int N)
{
    static float* ws = nullptr; // states, then one log decay per chunk
    static size_t cap = 0;
    int nchunks = (T + kQ - 1) / kQ;
    size_t nstate = (size_t)H * nchunks * N * P, need = nstate + (size_t)H * nchunks;
    if (need > cap) {
        cudaFree(ws);
        cudaMalloc(&ws, need * sizeof(float));
        cap = need;
    }
    dim3 grid(nchunks, H);
    chunk_states<<<grid, 256>>>(x, a, B, ws, ws + nstate, T, P, N, nchunks);
    pass_states<<<dim3((N * P + 255) / 256, H), 256>>>(ws, ws + nstate, N * P, nchunks);
    chunk_outputs<<<grid, 256>>>(x, a, B, C, ws, y, T, P, N, nchunks);
}
