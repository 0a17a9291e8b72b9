// The same float4 and double2 tiles as hz_b_vector_tile.cu done right:
// the whole input written first, a barrier before each reload, 8- and
// 16-byte global and shared accesses of every lane.  Nothing to report.
#include <cstdio>

__global__ void sums(const float4 *in, const double2 *din, float4 *out, double2 *dout, int tiles)
{
    __shared__ float4 tile[64];
    __shared__ double2 dtile[64];
    int t = threadIdx.x;
    float4 acc = make_float4(0, 0, 0, 0);
    double2 dacc = make_double2(0, 0);
    for (int k = 0; k < tiles; k++) {
        __syncthreads();
        tile[t] = in[k * 64 + t];
        dtile[t] = din[k * 64 + t];
        __syncthreads();
        float4 u = tile[63 - t];
        double2 d = dtile[(t + 5) % 64];
        acc.x += u.x, acc.y += u.y, acc.z += u.z, acc.w += u.w;
        dacc.x += d.x, dacc.y += d.y;
    }
    out[t] = acc;
    dout[t] = dacc;
}

int main()
{
    float4 *in, *out;
    double2 *din, *dout;
    float4 h[64];
    cudaMalloc(&in, 4 * 64 * sizeof(float4));
    cudaMalloc(&din, 4 * 64 * sizeof(double2));
    cudaMalloc(&out, 64 * sizeof(float4));
    cudaMalloc(&dout, 64 * sizeof(double2));
    cudaMemset(in, 0, 4 * 64 * sizeof(float4));
    cudaMemset(din, 0, 4 * 64 * sizeof(double2));
    sums<<<1, 64>>>(in, din, out, dout, 4);
    sums<<<1, 64>>>(in, din, out, dout, 4);
    if (cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess || h[3].x != 0)
        return 1;
    printf("ok hz_c_vector_tile\n");
    return 0;
}
