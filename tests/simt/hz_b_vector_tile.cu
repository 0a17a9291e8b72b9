// expect-hazard: race: shared write at hz_b_vector_tile.cu:13 ... and shared read at hz_b_vector_tile.cu:15 ... no synchronization orders them || race: shared read at hz_b_vector_tile.cu:15 ... and shared write at hz_b_vector_tile.cu:13 ... no synchronization orders them
// expect-hazard: uninitialized: global read of 16 bytes at hz_b_vector_tile.cu:13 ... never written
//
// Tiles of float4 through shared memory: the loop reloads the tile while
// other warps may still read the last one (no barrier before the load),
// and the input was set only in its first half.
__global__ void sums(const float4 *in, float4 *out, int tiles)
{
    __shared__ float4 tile[64];
    int t = threadIdx.x;
    float4 acc = make_float4(0, 0, 0, 0);
    for (int k = 0; k < tiles; k++) {
        tile[t] = in[k * 64 + t];
        __syncthreads();
        float4 u = tile[63 - t];
        acc.x += u.x, acc.y += u.y, acc.z += u.z, acc.w += u.w;
    }
    out[t] = acc;
}
int main()
{
    float4 *in, *out;
    cudaMalloc(&in, 4 * 64 * sizeof(float4));
    cudaMalloc(&out, 64 * sizeof(float4));
    cudaMemset(in, 0, 2 * 64 * sizeof(float4));
    sums<<<1, 64>>>(in, out, 4);
    return cudaDeviceSynchronize() != cudaSuccess;
}
