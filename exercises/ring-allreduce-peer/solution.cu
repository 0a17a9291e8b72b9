// ring-allreduce-peer, a solution: the ring schedule over real devices.
// Rank r sends to rank r+1.  A step's transfers go on the receiver's
// stream (a peer copy, then the addition on the receiver), and each stream
// waits for the previous step of both its neighbours: the sender, which
// finished writing the chunk it now sends, and the receiver, whose copy
// from this rank must have read its chunk before this rank overwrites it
// (with two ranks the chunk read at one step is the one written at the next).
#include <cuda_runtime.h>

__global__ void add_chunk(float* dst, const float* src, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len)
        dst[i] += src[i];
}

static int mod(int a, int m) { return ((a % m) + m) % m; }

void ring_allreduce(float* const* bufs, float* const* scratch, int ranks, int n,
                    const cudaStream_t* streams)
{
    const int R = ranks, cs = (n + R - 1) / R;
    cudaEvent_t done[64];
    for (int r = 0; r < R; r++) {
        cudaSetDevice(r);
        cudaEventCreateWithFlags(&done[r], cudaEventDisableTiming);
        cudaEventRecord(done[r], streams[r]);
    }
    for (int step = 0; step < 2 * (R - 1); step++) {
        bool reduce = step < R - 1;
        // Every wait of this step is queued before any event is recorded
        // again, so each waits for the neighbours' previous step.
        for (int dst = 0; dst < R; dst++) {
            cudaSetDevice(dst);
            cudaStreamWaitEvent(streams[dst], done[mod(dst - 1, R)], 0);
            cudaStreamWaitEvent(streams[dst], done[mod(dst + 1, R)], 0);
        }
        for (int dst = 0; dst < R; dst++) {
            int src = mod(dst - 1, R);
            int c = reduce ? mod(src - step, R) : mod(src + 1 - (step - (R - 1)), R);
            int b = c * cs < n ? c * cs : n, e = (c + 1) * cs < n ? (c + 1) * cs : n;
            if (e <= b)
                continue;
            size_t bytes = (size_t)(e - b) * sizeof(float);
            cudaSetDevice(dst);
            if (reduce) {
                cudaMemcpyPeerAsync(scratch[dst], dst, bufs[src] + b, src, bytes,
                                    streams[dst]);
                add_chunk<<<(e - b + 255) / 256, 256, 0, streams[dst]>>>(
                    bufs[dst] + b, scratch[dst], e - b);
            } else {
                cudaMemcpyPeerAsync(bufs[dst] + b, dst, bufs[src] + b, src, bytes,
                                    streams[dst]);
            }
        }
        for (int r = 0; r < R; r++) {
            cudaSetDevice(r);
            cudaEventRecord(done[r], streams[r]);
        }
    }
    for (int r = 0; r < R; r++) {
        cudaSetDevice(r);
        cudaEventDestroy(done[r]);
    }
}
