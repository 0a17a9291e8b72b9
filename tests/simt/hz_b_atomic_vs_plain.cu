// expect-hazard: race: global atomic at hz_b_atomic_vs_plain.cu:10 ... and global write at hz_b_atomic_vs_plain.cu:12 ... no synchronization orders them
//
//
// One warp counts with atomicAdd while a thread of another warp resets the
// counter with a plain store: an atomic does not protect against a plain
// access.
__global__ void count(int *c)
{
    if (threadIdx.x < 32)
        atomicAdd(c, 1);
    else if (threadIdx.x == 32)
        c[0] = 0;
}
int main()
{
    int *c;
    cudaMalloc(&c, sizeof(int));
    cudaMemset(c, 0, sizeof(int));
    count<<<1, 64>>>(c);
    return cudaDeviceSynchronize() != cudaSuccess;
}
