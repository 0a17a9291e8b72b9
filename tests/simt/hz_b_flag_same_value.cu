// expect-hazard: race: global write at hz_b_flag_same_value.cu:16 ... and global write at hz_b_flag_same_value.cu:16 ... no synchronization orders them
//
// Every block that finds a negative element raises one flag with a plain
// store of the same value.  Between blocks that is a race as written (use
// atomicExch, or a volatile or relaxed store); simt reports it whether or
// not the other block's store has landed when it looks, so the verdict
// does not depend on how the blocks were timed.
__global__ void any_negative(const int *x, int n, int *flag)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ int found;
    if (threadIdx.x == 0) found = 0;
    __syncthreads();
    if (i < n && x[i] < 0) found = 1;
    __syncthreads();
    if (threadIdx.x == 0 && found) *flag = 1;
}
int main()
{
    int h[256], *x, *flag;
    for (int i = 0; i < 256; i++) h[i] = i % 7 == 0 ? -i : i;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&flag, sizeof(int));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(flag, 0, sizeof(int));
    any_negative<<<4, 64>>>(x, 256, flag);
    return cudaDeviceSynchronize() != cudaSuccess;
}
