// expect-hazard: race: global write at hz_b_same_insn.cu:8 ... and global write at hz_b_same_insn.cu:8 ... in one instruction with different values
//
//
// Every thread of a warp stores its own index to one address: the lanes of
// one instruction write different values to the same bytes.
__global__ void last_writer(int *out)
{
    out[0] = threadIdx.x;
}
int main()
{
    int *out;
    cudaMalloc(&out, sizeof(int));
    last_writer<<<1, 32>>>(out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
