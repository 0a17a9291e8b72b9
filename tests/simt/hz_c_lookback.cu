// Clean: a single-pass prefix sum with decoupled look-back.  Blocks take
// tiles in ticket order (atomicAdd), publish their aggregate, then their
// inclusive prefix, each as one 64-bit word (status in the high half)
// written with atomicExch after __threadfence(); a later tile reads its
// predecessors' words with volatile loads, then a fence.
#include "check.h"
#define DONE(name) do { if (failures) return 1; printf("ok %s\n", name); return 0; } while (0)
enum { T = 64, AGG = 1, PRE = 2 };
__device__ unsigned ticket;
__global__ void scan(const int *in, int *out, unsigned long long *state)
{
    __shared__ int s[T];
    __shared__ int tile_id, carry;
    int t = threadIdx.x;
    if (t == 0)
        tile_id = (int)atomicAdd(&ticket, 1u);
    __syncthreads();
    int tile = tile_id;
    s[t] = in[tile * T + t];
    __syncthreads();
    for (int d = 1; d < T; d *= 2) {
        int v = t >= d ? s[t - d] : 0;
        __syncthreads();
        s[t] += v;
        __syncthreads();
    }
    if (t == 0) {
        int agg = s[T - 1], prefix = 0;
        __threadfence();
        atomicExch(&state[tile], ((unsigned long long)AGG << 32) | (unsigned)agg);
        for (int p = tile - 1; p >= 0; p--) {
            unsigned long long w;
            do {
                w = ((volatile unsigned long long *)state)[p];
            } while ((w >> 32) == 0);
            __threadfence();
            prefix += (int)(unsigned)w;
            if ((w >> 32) == PRE)
                break;
        }
        __threadfence();
        atomicExch(&state[tile], ((unsigned long long)PRE << 32) | (unsigned)(prefix + agg));
        carry = prefix;
    }
    __syncthreads();
    out[tile * T + t] = s[t] + carry;
}
int main()
{
    const int tiles = 6, n = tiles * T;
    int h[n], got[n], *in, *out;
    unsigned long long *state;
    for (int i = 0; i < n; i++) h[i] = i % 5;
    CHECK(cudaMalloc(&in, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMalloc(&state, tiles * sizeof *state));
    CHECK(cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(state, 0, tiles * sizeof *state));
    scan<<<tiles, T>>>(in, out, state);
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    int run = 0;
    for (int i = 0; i < n; i++) {
        run += h[i];
        expect_eq("prefix", i, run, got[i]);
    }
    DONE("hz_c_lookback");
}
