// expect-hazard: race: global write at hz_b_line_other_block.cu:11 ... and global read at hz_b_line_other_block.cu:13 ... no synchronization orders them || global read at hz_b_line_other_block.cu:13 ... and global write at hz_b_line_other_block.cu:11 ... no synchronization orders them
//
//
// Block 0 writes a whole line with one store; block 1 reads the same
// line whole with one load.  Nothing orders two blocks of a launch, so
// whichever runs first, the other's access races with it.
__global__ void across(int *buf, int *out)
{
    int t = threadIdx.x;
    if (blockIdx.x == 0)
        buf[t] = t;
    else
        out[t] = buf[t];
}
int main()
{
    int *buf, *out;
    cudaMalloc(&buf, 32 * sizeof(int));
    cudaMalloc(&out, 32 * sizeof(int));
    cudaMemset(buf, 0, 32 * sizeof(int));
    across<<<2, 32>>>(buf, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
