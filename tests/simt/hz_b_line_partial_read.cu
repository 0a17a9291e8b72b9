// expect-hazard: race: global write at hz_b_line_partial_read.cu:12 ... and global read at hz_b_line_partial_read.cu:14 ... no synchronization orders them
//
//
// Warp 1 writes a whole 128-byte line of a global buffer with one store
// (simt records it once for the line); threads 0..3 of warp 0 then read
// four of its words, starting in the middle of the line, with no barrier:
// the line's record must be taken apart to find the race.
__global__ void partial(int *buf, int *out)
{
    int t = threadIdx.x;
    if (t >= 32)
        buf[t - 32] = t;
    else if (t < 4)
        out[t] = buf[t + 5];
}
int main()
{
    int *buf, *out;
    cudaMalloc(&buf, 64 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(buf, 0, 64 * sizeof(int));
    partial<<<1, 64>>>(buf, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
