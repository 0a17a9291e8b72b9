// expect-hazard: race: global write at hz_b_line_misaligned.cu:11 ... and global read at hz_b_line_misaligned.cu:13 ... no synchronization orders them
//
//
// Warp 1 writes 32 floats as four float4 stores per line (one record
// for each whole line); warp 0 then reads them one word to the right, a
// run that straddles two lines, with no barrier between.
__global__ void shifted(float4 *buf, float *out)
{
    int t = threadIdx.x;
    if (t >= 32 && t < 40)
        buf[t - 32] = make_float4(1, 2, 3, 4);
    else if (t < 31)
        out[t] = ((float *)buf)[t + 1];
}
int main()
{
    float4 *buf;
    float *out;
    cudaMalloc(&buf, 16 * sizeof(float4));
    cudaMalloc(&out, 32 * sizeof(float));
    cudaMemset(buf, 0, 16 * sizeof(float4));
    shifted<<<1, 64>>>(buf, out);
    return cudaDeviceSynchronize() != cudaSuccess;
}
