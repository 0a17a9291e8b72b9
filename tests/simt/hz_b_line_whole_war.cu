// expect-hazard: race: global read at hz_b_line_whole_war.cu:12 ... and global write at hz_b_line_whole_war.cu:14 ... no synchronization orders them || global write at hz_b_line_whole_war.cu:14 ... and global read at hz_b_line_whole_war.cu:12 ... no synchronization orders them
//
//
// Warp 0 reads a whole line of a global buffer with one load and warp 1
// overwrites the whole line with one store, no barrier between: each
// access is recorded once for the line, and the two records must meet.
__global__ void war(int *buf, int *out)
{
    int t = threadIdx.x;

    if (t < 32)
        out[t] = buf[t];
    else
        buf[t - 32] = t;
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
