// expect-hazard: race: shared read at hz_b_second_reader.cu:18 by block (0,0,0) thread (31,0,0) and shared write at hz_b_second_reader.cu:19 by block (0,0,0) thread (0,0,0) ... no synchronization orders them
//
//
// An in-place update within one warp with no __syncwarp between the reads
// and the write: lane t reads its own element, then its neighbour's, and
// writes its own.  Lane t - 1's read of element t is not ordered before
// lane t's write.  Lane t is the first to read element t, so the race is
// with the second reader of the element, which a checker that remembers
// one read per word loses (with the two reads in the other order it
// would find it).
__global__ void update(int *out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;
    __syncwarp();
    int a = s[t];
    int b = s[(t + 1) % 32];
    s[t] = a + b;
    __syncwarp();
    out[t] = s[t];
}
int main()
{
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    update<<<1, 32>>>(out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
