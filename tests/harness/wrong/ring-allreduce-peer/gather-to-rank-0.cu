// ring-allreduce-peer, wrong: no ring.  Rank 0 fetches every other rank's
// vector, a chunk at a time through its scratch buffer, adds it into its
// own, then copies the total back to every rank, all on rank 0's stream.
// The sums are right, so a check of the final values alone passes it, but
// rank 0 receives R - 1 whole vectors and sends as many, where each rank of
// a ring sends and receives 2 (R - 1) / R of one.  Every chunk is added up
// in the order 0, 1, ..., R - 1 and finished by rank R - 1.
// expect: wrong
// case: ranks=3 n=999 ring order
#include <cuda_runtime.h>

__global__ void add_chunk(float* dst, const float* src, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        dst[i] += src[i];
}

void ring_allreduce(float* const* bufs, float* const* scratch, int ranks, int n,
                    const cudaStream_t* streams)
{
    const int cs = (n + ranks - 1) / ranks;
    cudaSetDevice(0);
    for (int r = 1; r < ranks; r++)
        for (int b = 0; b < n; b += cs) {
            int len = n - b < cs ? n - b : cs;
            cudaMemcpyPeerAsync(scratch[0], 0, bufs[r] + b, r, (size_t)len * sizeof(float),
                                streams[0]);
            add_chunk<<<(len + 255) / 256, 256, 0, streams[0]>>>(bufs[0] + b, scratch[0],
                                                                 len);
        }
    for (int r = 1; r < ranks; r++)
        cudaMemcpyPeerAsync(bufs[r], r, bufs[0], 0, (size_t)n * sizeof(float), streams[0]);
}
