// expect-hazard: race: global read at hz_b_line_write_after_read.cu:12 ... and global write at hz_b_line_write_after_read.cu:14 ... no synchronization orders them || global write at hz_b_line_write_after_read.cu:14 ... and global read at hz_b_line_write_after_read.cu:12 ... no synchronization orders them
//
//
// Warp 0 reads a whole line of a global buffer with one load; one thread
// of warp 1 overwrites a single word of it with no barrier between: a
// write after a read that nothing orders, whichever warp runs first.
__global__ void war(int *buf, int *out)
{
    int t = threadIdx.x;

    if (t < 32)
        out[t] = buf[t];
    else if (t == 40)
        buf[17] = 1;
}
int main()
{
    int *buf, *out;
    cudaMalloc(&buf, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(buf, 0, 32 * sizeof(int));
    war<<<1, 64>>>(buf, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
