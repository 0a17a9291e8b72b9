// expect-hazard: barrier: __syncwarp() at hz_b_syncwarp_mask.cu:11 ... is not in its own member mask 0x0000ffff
//
//
// The whole warp runs __syncwarp() with a mask that names only the lower
// half: a lane must always be in the mask it passes.
__global__ void lower_half(int *out)
{
    __shared__ int s[32];
    int lane = threadIdx.x;
    s[lane] = lane;
    __syncwarp(0x0000ffffu);
    out[lane] = s[31 - lane];
}
int main()
{
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    lower_half<<<1, 32>>>(out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
