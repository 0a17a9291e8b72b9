// stream-overlap, a solution: chunk c goes to stream c % nstreams as three
// operations in that stream's order (copy in, kernel, copy out), so the
// streams overlap one chunk's copies with another chunk's kernel while
// each chunk stays in order within its stream.  Every chunk has its own
// part of each buffer, so nothing is shared between streams.
#include <cuda_runtime.h>

__global__ void cubic(const float* in, float* out, int len)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < len) {
        float x = in[i];
        out[i] = (x * x - 2.0f) * x + 1.0f;
    }
}

void pipeline(float* out_h, const float* in_h, float* in_d, float* out_d, int n,
              int chunks, const cudaStream_t* streams, int nstreams)
{
    int cs = (n + chunks - 1) / chunks;
    for (int c = 0; c < chunks; c++) {
        int b = c * cs, e = b + cs < n ? b + cs : n;
        if (e <= b)
            break;
        cudaStream_t s = streams[c % nstreams];
        size_t bytes = (size_t)(e - b) * sizeof(float);
        cudaMemcpyAsync(in_d + b, in_h + b, bytes, cudaMemcpyHostToDevice, s);
        cubic<<<(e - b + 255) / 256, 256, 0, s>>>(in_d + b, out_d + b, e - b);
        cudaMemcpyAsync(out_h + b, out_d + b, bytes, cudaMemcpyDeviceToHost, s);
    }
}
