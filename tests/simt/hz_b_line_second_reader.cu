// expect-hazard: race: global read at hz_b_line_second_reader.cu:13 by block (0,0,0) thread (32,0,0) and global write at hz_b_line_second_reader.cu:20 by block (0,0,0) thread (0,0,0) ... no synchronization orders them
//
//
// Warps 0 and 1 each read the same 128-byte line of x whole.  Warp 1 then
// raises a volatile flag, with no fence, and warp 0 waits for it and
// overwrites the line.  A plain flag carries no order, so warp 1's read
// is not ordered before warp 0's write.  Warp 0 read the line first, and
// its own read is ordered before its write: the race is with the line's
// second reader.
__global__ void readers(int *x, volatile int *flag, int *out)
{
    int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    int v = x[lane];
    if (w == 1) {
        if (lane == 0)
            *flag = 1;
    } else {
        while (*flag == 0)
            ;
        x[lane] = v + 1;
    }
    out[threadIdx.x] = v;
}
int main()
{
    int *x, *flag, *out;
    cudaMalloc(&x, 32 * sizeof(int));
    cudaMalloc(&flag, sizeof(int));
    cudaMalloc(&out, 64 * sizeof(int));
    cudaMemset(x, 0, 32 * sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    readers<<<1, 64>>>(x, flag, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
