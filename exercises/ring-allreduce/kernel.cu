// ring-allreduce: R ranks each hold n floats (rank r's at bufs + r * n);
// after the 2(R-1) calls ring_step(bufs, R, n, 0), ..., (.., 2R-3) every
// rank must hold the element-wise sum, and each call must be one step of
// the ring schedule (see the statement): the check looks at what every rank
// received after every step.
//
// The starter reaches the right sum the naive way: at step 0 rank 0 pulls
// every other rank's whole buffer and adds it up (a parameter server), at
// step 1 every rank copies the total back, and the other steps do nothing.
// The sum is right, but rank 0 receives (R-1) * n floats in one step where
// the ring moves one chunk of n / R per rank, so the check fails at step 0.
#include <cuda_runtime.h>

__global__ void gather_to_rank0(float* bufs, int ranks, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float s = bufs[i];
    for (int r = 1; r < ranks; r++)
        s += bufs[(size_t)r * n + i];
    bufs[i] = s;
}

__global__ void broadcast_from_rank0(float* bufs, int ranks, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    for (int r = 1; r < ranks; r++)
        bufs[(size_t)r * n + i] = bufs[i];
}

// TODO: replace both with one transfer kernel per step.  With
// cs = ceil(n / R) and chunk c = [c * cs, min(n, (c + 1) * cs)):
//   step s <  R-1 (reduce-scatter): rank r adds its chunk (r - s) mod R
//                                   into rank r+1's copy of that chunk;
//   step s >= R-1 (all-gather, g = s - (R-1)): rank r copies its chunk
//                                   (r + 1 - g) mod R over rank r+1's.
// Every rank sends at every step, all in the same launch.
void ring_step(float* bufs, int ranks, int n, int step)
{
    int blocks = (n + 255) / 256;
    if (step == 0)
        gather_to_rank0<<<blocks, 256>>>(bufs, ranks, n);
    else if (step == 1)
        broadcast_from_rank0<<<blocks, 256>>>(bufs, ranks, n);
}
