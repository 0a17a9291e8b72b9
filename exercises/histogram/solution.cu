// histogram, reference answer: a private shared-memory histogram per block.
//
// Each block zeroes its own 256 counters in shared memory, counts its share
// of the input into them with shared atomics (resolved inside the SM), and
// then adds each non-zero counter to the global bins with one global
// atomic.  The grid is sized to the GPU and walks the input with a
// grid-stride loop, so the merge happens a few hundred times per call, not
// once per 256 bytes.  Input is read 16 bytes per load (uint4), one pass
// ahead of the counting; the n % 16 bytes after the last whole uint4 are
// counted one by one.
#include <cuda_runtime.h>

enum { BINS = 256, THREADS = 256 };

// Counts the four bytes of w into hist.
__device__ __forceinline__ void count_word(unsigned int* hist, unsigned int w)
{
    atomicAdd(&hist[w & 0xffu], 1u);
    atomicAdd(&hist[(w >> 8) & 0xffu], 1u);
    atomicAdd(&hist[(w >> 16) & 0xffu], 1u);
    atomicAdd(&hist[w >> 24], 1u);
}

__global__ void __launch_bounds__(THREADS)
histogram_kernel(const unsigned char* __restrict__ data,
                 unsigned int* __restrict__ bins, int n)
{
    __shared__ unsigned int hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        hist[b] = 0;
    __syncthreads();

    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    const int n16 = n / 16;
    // cudaMalloc alignment (256 bytes) makes the cast legal.
    const uint4* data16 = reinterpret_cast<const uint4*>(data);
    // The load for the next pass is issued before this pass's 16 atomics,
    // so DRAM latency overlaps the counting.
    int i = tid;
    uint4 v = make_uint4(0, 0, 0, 0);
    if (i < n16)
        v = data16[i];
    while (i < n16) {
        const int next = i + stride;
        uint4 ahead = make_uint4(0, 0, 0, 0);
        if (next < n16)
            ahead = data16[next];
        count_word(hist, v.x);
        count_word(hist, v.y);
        count_word(hist, v.z);
        count_word(hist, v.w);
        v = ahead;
        i = next;
    }
    // Fewer than 16 bytes remain, and the grid has at least 256 threads.
    const int t = n16 * 16 + tid;
    if (t < n)
        atomicAdd(&hist[data[t]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned int c = hist[b];
        if (c != 0)
            atomicAdd(&bins[b], c);
    }
}

// Number of SMs of the current device, asked once.
static int sm_count(void)
{
    static int sms = 0;
    if (sms == 0) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
            sms < 1)
            sms = 1;
    }
    return sms;
}

void solve(const unsigned char* data, unsigned int* bins, int n)
{
    // 8 blocks of 256 threads fill an SM; small inputs need fewer blocks,
    // each then reading one uint4 per thread.
    int blocks = (n / 16 + THREADS - 1) / THREADS;
    if (blocks > 8 * sm_count())
        blocks = 8 * sm_count();
    if (blocks < 1)
        blocks = 1;
    cudaMemsetAsync(bins, 0, BINS * sizeof(unsigned int), 0);
    histogram_kernel<<<blocks, THREADS>>>(data, bins, n);
}
