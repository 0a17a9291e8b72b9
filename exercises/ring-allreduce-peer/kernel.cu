// ring-allreduce-peer: bufs[r] (n floats) and scratch[r] (ceil(n / ranks)
// floats) live on device r, streams[r] is a stream of device r.  When
// ring_allreduce returns and the devices are synchronized, every bufs[r]
// must hold the element-wise sum of all ranks' vectors: a ring
// reduce-scatter then a ring all-gather, each chunk moved to the next
// device with cudaMemcpyPeerAsync (a kernel may touch only its own device's
// memory: peer access is not enabled).
//
// The starter does the first step of the reduce-scatter and stops, so every
// rank holds partial sums: the check fails on rank 0.
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
    // Step 0 of the reduce-scatter: rank src sends its chunk src to rank
    // src + 1, which adds it into its own copy.
    for (int dst = 0; dst < R; dst++) {
        int src = mod(dst - 1, R), c = src;
        int b = c * cs < n ? c * cs : n, e = (c + 1) * cs < n ? (c + 1) * cs : n;
        if (e <= b)
            continue;
        cudaSetDevice(dst);
        cudaMemcpyPeerAsync(scratch[dst], dst, bufs[src] + b, src,
                            (size_t)(e - b) * sizeof(float), streams[dst]);
        add_chunk<<<(e - b + 255) / 256, 256, 0, streams[dst]>>>(bufs[dst] + b,
                                                                 scratch[dst], e - b);
    }
    // TODO: the other R - 2 reduce-scatter steps (rank src sends chunk
    // (src - step) mod R), then R - 1 all-gather steps (rank src sends the
    // finished chunk (src + 1 - g) mod R, which the receiver copies over
    // its own).  On a GPU the streams run concurrently: order each step
    // after the previous step of the streams it depends on (events).
}
